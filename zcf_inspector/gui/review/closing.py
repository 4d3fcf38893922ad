"""Closing a review pane: nothing to ask, or the answer to the close question
(`close_question`: Export…, Keep for later, Discard, Cancel) carried out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from zcf_inspector.gui.review.close_question import CloseAnswer
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.export_flow import export_receipt
from zcf_inspector.gui.review.storage import set_aside_journal
from zcf_inspector.present.review.controller import ReviewController


def confirm_close(
    prompter: Prompter,
    parent: QWidget,
    controller: ReviewController,
    dirs: tuple[Path, Path],
    *,
    refresh: Callable[[], object],
    status: Callable[[str], object],
) -> bool:
    """Whether the pane may close: at once unless decisions are in no exported receipt;
    then as the reviewer answers (False: it stays open)."""
    question = controller.close_question()
    if question is None:
        return True
    answer = prompter.ask_close(parent, question)
    if answer is CloseAnswer.KEEP:
        return True  # the journal keeps them: the next open restores them
    if answer is CloseAnswer.EXPORT:
        written: list[str] = []

        def done(path: str) -> None:
            written.append(path)
            refresh()

        export_receipt(prompter, parent, controller, written=done)
        return bool(written)  # given up: nothing is closed
    if answer is CloseAnswer.DISCARD:
        return _discard(prompter, parent, controller, dirs, status)
    return False


def _discard(
    prompter: Prompter,
    parent: QWidget,
    controller: ReviewController,
    dirs: tuple[Path, Path],
    status: Callable[[str], object],
) -> bool:
    """Set the journal aside (kept, renamed): the next open starts a new review."""
    target = controller.target
    if target is None:
        return True
    kept = set_aside_journal(*dirs, target.correlation_id)
    if isinstance(kept, str):
        prompter.warn(parent, "Decisions not discarded", kept)
        return False
    status(f"Decisions discarded; the saved review was kept as {kept}.")
    return True
