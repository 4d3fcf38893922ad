"""The bulk confirm's second question: beliefs the secret scan flags are confirmed only
when the reviewer says so apart from the others (issue 20, point 4).

Called by the pane once the reviewer has agreed to the bulk step, and before repeating
earlier decisions (a carry-over confirms too); the words are the presentation layer's
(`present.review.secrets`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from PySide6.QtWidgets import QWidget

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.present.review.hostile import confirm_hostile_question, hostile_among
from zcf_inspector.present.review.secrets import (
    confirm_flagged_question,
    flagged_among,
    repeat_flagged_question,
)


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
    return _asked(prompter, parent, refs, flagged_among(refs, flagged), confirm_flagged_question)


def repeat_flagged(
    prompter: Prompter, parent: QWidget, suspected: Sequence[str], total: int
) -> frozenset[str] | None:
    """The flagged beliefs to leave out of a carry-over of ``total`` decisions whose
    confirms include ``suspected``: none when the reviewer says Yes, ``suspected`` when No
    (the others are repeated). None: there would be nothing left to repeat."""
    if not suspected:
        return frozenset()
    title, text = repeat_flagged_question(len(suspected), total)
    if prompter.confirm(parent, title, text):
        return frozenset()
    return frozenset(suspected) if len(suspected) < total else None


def confirm_hostile(
    prompter: Prompter,
    parent: QWidget,
    state: ReviewState,
    refs: Sequence[str],
    content: Callable[[str], str | None],
) -> Sequence[str]:
    """As `confirm_flagged`, for the beliefs whose admitted content holds hidden
    characters or mixes scripts in a word (`core.hostile`): asked apart, No leaves them."""
    if state is not ReviewState.CONFIRMED:
        return refs
    return _asked(prompter, parent, refs, hostile_among(refs, content), confirm_hostile_question)


def _asked(
    prompter: Prompter,
    parent: QWidget,
    refs: Sequence[str],
    suspected: Sequence[str],
    question: Callable[[int, int], tuple[str, str]],
) -> Sequence[str]:
    """The one flow of both bulk-confirm questions: none suspected, or Yes, confirms all
    of ``refs``; No leaves the ``suspected`` ones as they are."""
    if not suspected:
        return refs
    title, text = question(len(suspected), len(refs))
    if prompter.confirm(parent, title, text):
        return refs
    left_out = set(suspected)
    return [ref for ref in refs if ref not in left_out]
