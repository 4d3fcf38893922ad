"""The review pane's words for the previous generation: the banner, the carry-over's
question, refusals. Everything from a file or a packet goes through `visible`."""

from __future__ import annotations

from pathlib import Path

from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.review.carry_over import RepeatCounts
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.core.review.previous import PreviousGeneration
from zcf_inspector.core.review.previous_trust import UNSIGNED_ORIGIN
from zcf_inspector.core.visible_text import visible

WITHHELD_SHOWN = 3  # the banner names this many beliefs not repeated, then counts the rest


def refusal_text(error: ZcfError) -> str:
    """Every reason, one a line (a refusal's messages quote the files)."""
    if isinstance(error, ReviewError):
        return "\n".join(
            f"{f.code}{' ' + visible(f.pointer) if f.pointer else ''}: {visible(f.message)}"
            for f in error.findings
        )
    return visible(str(error))


def _counted(count: int, what: str) -> str:
    return f"{count:,} {what}{'s' if count != 1 else ''}"


def previous_text(
    previous: PreviousGeneration,
    paths: tuple[str, str],
    counts: RepeatCounts,
) -> str:
    """The banner: what is compared with, how far its receipt is trusted, what changed."""
    lines = [
        f"Compared with the receipt of {visible(previous.packet_id)} "
        f"({visible(Path(paths[0]).name)}, {visible(Path(paths[1]).name)}): "
        f"{previous.trust_text()}.",
        f"Since then: {previous.summary()}; "
        f"{_counted(counts.pending, 'earlier decision')} can be repeated on unchanged beliefs"
        + (f" ({counts.decided:,} decided here already)" if counts.decided else "")
        + ".",
    ]
    withheld = previous.withheld
    if withheld:
        named = "; ".join(
            f"{visible(w.portable_ref)} — {visible(w.reason)}" for w in withheld[:WITHHELD_SHOWN]
        )
        more = len(withheld) - WITHHELD_SHOWN
        lines.append(f"Not repeated: {named}" + (f"; and {more:,} more" if more > 0 else ""))
    lines += [f"Note: {visible(note)}." for note in previous.notes]
    return "\n".join(lines)


def repeat_prompt(
    previous: PreviousGeneration,
    counts: RepeatCounts,
    reviewer: str,
) -> str:
    """The note dialog's prompt, raw: the dialog escapes it by the one rule (escaping it
    here too would write a real U+202E as its typed spelling, the backslash doubled)."""
    by_state = ", ".join(f"{n:,} {state}" for state, n in counts.by_state)
    left = []
    if previous.withheld:
        left.append(f"{len(previous.withheld):,} withheld (named above the table)")
    if counts.decided:
        left.append(f"{counts.decided:,} you decided already")
    return (
        f"Repeat {_counted(counts.pending, 'earlier decision')} ({by_state}) from the receipt "
        f"{previous.receipt_digest} of packet {previous.packet_id} on beliefs whose "
        "admitted content is byte-identical?\n\n"
        f"They are recorded as YOUR decisions ({reviewer}), now, in one step "
        "(Ctrl+Z undoes it), each with your note and where it came from. "
        f"That receipt: {previous.trust_text()}.\n\n"
        + (f"Not repeated: {'; '.join(left)}. " if left else "")
        + "New and changed beliefs stay unreviewed.\n\nYour note (required):"
    )


def untrusted_prompt(previous: PreviousGeneration, counts: RepeatCounts) -> str:
    """The second question before repeating decisions of a receipt no trusted key signed."""
    return (
        f"The receipt {previous.receipt_digest} is not signed by a key this destination "
        f"trusts: {previous.trust_text()}. Anyone could have written it, its decisions and "
        "the reviewers it names included.\n\n"
        f"Repeat its {_counted(counts.pending, 'decision')} as yours anyway? Each note will "
        f"say it came {UNSIGNED_ORIGIN}."
    )


def nothing_to_repeat(previous: PreviousGeneration, counts: RepeatCounts) -> str:
    if counts.decided:
        return (
            f"Every repeatable decision of that receipt is decided here already "
            f"({counts.decided:,}); yours stand."
        )
    return "No unchanged belief has an earlier decision that can be repeated" + (
        f" ({len(previous.withheld):,} withheld)." if previous.withheld else "."
    )
