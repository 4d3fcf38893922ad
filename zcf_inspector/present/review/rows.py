"""What each cell of the review table says (the model only hands these words to the view).

Every document string passes through the one escaping rule (`core.visible_text`); a
belief the secret scan flags is marked first, on a line of its own, and its content is
shown masked (the detail reveals it on request), as is one in a decision's note; a
belief no anchor names says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.core.secrets.masking import masked_clip
from zcf_inspector.core.secrets.scan import SecretHit
from zcf_inspector.core.visible_text import shown, visible
from zcf_inspector.present.review.evidence import evidence_count_words
from zcf_inspector.present.review.secrets import ROW_MARK, masked, masked_note

# A cell shows this much of a belief's content, wrapped over the row's lines; the detail
# below the table shows all of it.
CONTENT_CHARS: Final = 1000
NOTE_CHARS: Final = 400
ONE_LINE_CHARS: Final = 120  # as the window's one-line previews (gui.plain_text)


def ref_cell(belief: AdmittedBelief) -> str:
    """The portableRef, masked (the scan reads contents, not ids: `core.secrets.masking`)."""
    return visible(masked_clip(belief.portable_ref, ONE_LINE_CHARS))


def content_cell(belief: AdmittedBelief, hits: Sequence[SecretHit] = ()) -> str:
    """The content on one line; what the reviewer reads here may not be all the packet
    said (cut by admission) or all the belief holds (a suspected credential, masked):
    said first, on lines of their own (the content's own line breaks are escaped)."""
    text = masked(belief.content, hits) if hits else belief.content
    content = shown(text, CONTENT_CHARS)
    marks = []
    if hits:
        marks.append(f"[{ROW_MARK}]")
    if belief.cut is not None:
        marks.append(f"[{belief.cut.text}]")
    return "\n".join((*marks, content))


def choice_text(belief: AdmittedBelief, hits: Sequence[SecretHit] = ()) -> str:
    """A belief offered as a choice (the Supersede dialog's list): its content as the row
    shows it, a suspected credential masked and said first — the list is cut at a few
    dozen characters, so the mark comes before the text (not yet escaped: the dialog
    shows it by the one rule)."""
    if not hits:
        return belief.content
    return f"[{ROW_MARK}] {masked(belief.content, hits)}"


def arrived_cell(belief: AdmittedBelief, change: BeliefChange | None) -> str:
    arrived = shown(belief.incoming_state, ONE_LINE_CHARS)
    arrived = f"{arrived}, demoted" if belief.demoted else arrived
    return arrived if change is None else f"{arrived}\n{change}"


def decision_cell(last: Decision | None) -> str:
    if last is not None and last.superseded_by is not None:
        return f"superseded by {visible(masked_clip(last.superseded_by, ONE_LINE_CHARS))}"
    return str(ReviewState.UNREVIEWED if last is None else last.state)


def evidence_cell(count: int) -> str:
    return evidence_count_words(count)


def note_cell(last: Decision | None) -> str:
    return "" if last is None or last.note is None else note_text(last.note)


def note_text(note: str, limit: int = NOTE_CHARS) -> str:
    """A decision's note as shown (the table's Note cell, the detail's history): on one
    line, a suspected credential masked (`masked_note`, which the text filter reads too)."""
    return shown(masked_note(note), limit)
