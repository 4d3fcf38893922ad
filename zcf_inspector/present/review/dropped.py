"""What the window of the beliefs admission left out says (`gui.review.dropped`).

They are not admitted, so the review's secret scan (made on the admitted content at open)
never read them; the packet's scan (`validate`, the Briefing) does, so a dropped belief
may be reported as holding a credential. Each is scanned here as it is shown — a cell's
first characters, or the one selected in full — and shown masked, as an admitted one is.
Not revealable: a dropped belief is not reviewed, and nothing here decides on it.
"""

from __future__ import annotations

from typing import Final

from zcf_inspector.core.packet.admission import DroppedBelief
from zcf_inspector.core.visible_text import shown, visible, visible_lines
from zcf_inspector.present.review.secrets import ROW_MARK, hit_words, masked, scan_text

CELL_CHARS: Final = 200
# A cell scans this much of the content: what it shows and past it, so a credential that
# starts inside the cell and runs on is still found whole. (Scanning a 1 MB content for
# every row painted would hold the window.)
CELL_SCAN_CHARS: Final = 4096


def dropped_cell(belief: DroppedBelief) -> str:
    """The Content cell: on one line, a suspected credential masked and said first."""
    text = belief.content[:CELL_SCAN_CHARS]
    hits = scan_text(text)
    if not hits:
        return shown(belief.content, CELL_CHARS)
    return f"[{ROW_MARK}] " + shown(masked(text, hits), CELL_CHARS)


def dropped_detail(belief: DroppedBelief) -> str:
    """The selected dropped belief in full (escaped by the one rule), a suspected
    credential masked and said above it."""
    hits = scan_text(belief.content)
    head = (
        f"content.beliefs[{belief.index}]  portableRef {visible(belief.portable_ref)}  "
        f"source {visible(belief.source_id)}  arrived {visible(belief.review_state)}"
    )
    if hits:
        head += f"\nSuspected credential: {hit_words(hits)} (not admitted, not revealable here)."
    return f"{head}\n\n{visible_lines(masked(belief.content, hits) if hits else belief.content)}"
