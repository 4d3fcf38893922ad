"""The bulk confirm's second question: beliefs the secret scan flags are confirmed only
when the reviewer says so apart from the others (issue 20, point 4).

Called by the pane once the reviewer has agreed to the bulk step; the words are the
presentation layer's (`present.review_secrets.confirm_flagged_question`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PySide6.QtWidgets import QWidget

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.present.review_secrets import confirm_flagged_question, flagged_among


def confirm_flagged(
    prompter: Prompter,
    parent: QWidget,
    state: ReviewState,
    refs: Sequence[str],
    flagged: Collection[str],
) -> Sequence[str]:
    """The refs a bulk step to ``state`` decides: all of ``refs``, or — for a confirm
    that includes flagged beliefs, answered No — those the scan does not flag (the
    flagged ones stay as they are)."""
    if state is not ReviewState.CONFIRMED:
        return refs
    suspected = flagged_among(refs, flagged)
    if not suspected:
        return refs
    title, text = confirm_flagged_question(len(suspected), len(refs))
    if prompter.confirm(parent, title, text):
        return refs
    left_out = set(suspected)
    return [ref for ref in refs if ref not in left_out]
