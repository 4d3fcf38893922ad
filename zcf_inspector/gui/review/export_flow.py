"""Exporting the review's receipt from the pane: the summary, the questions, the write.

The reviewer confirms the summary (the decisions, what admission changed, which key
signs), is asked again when beliefs are left unreviewed, chooses where (beside the packet
by default, never over a file without asking), and the controller's `ExportPlan` writes
the signed receipt atomically and journals the export.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.receipts import suggested_receipt_path
from zcf_inspector.present.review.controller import ReviewController
from zcf_inspector.present.review.export import ExportPlan


def ask_export(
    prompter: Prompter, parent: QWidget, controller: ReviewController
) -> tuple[ExportPlan, str, bool] | None:
    """The summary, a confirmation if beliefs are left, then where: the export to make,
    its path and whether it replaces a file there."""
    plan = controller.export_plan()
    if plan is None:
        prompter.inform(parent, "Export receipt", "There is no review to export.")
        return None
    if not prompter.confirm(
        parent, "Export receipt", plan.summary_text + "\n\nExport the transfer receipt?"
    ):
        return None
    unreviewed = plan.unreviewed_question
    if unreviewed is not None and not prompter.confirm(
        parent, "Beliefs still unreviewed", unreviewed
    ):
        return None
    target = controller.target
    assert target is not None
    suggested = suggested_receipt_path(controller.packet_path, target.receipt_text("packetId"))
    path = prompter.ask_save_path(parent, suggested)
    if path is None:
        return None
    overwrite = Path(path).exists()
    if overwrite and not prompter.confirm(
        parent, "Replace receipt?", f"{path} already exists. Replace it?"
    ):
        return None
    return plan, path, overwrite


def export_receipt(
    prompter: Prompter,
    parent: QWidget,
    controller: ReviewController,
    *,
    written: Callable[[str], None],
) -> None:
    """Summary, confirmation if beliefs are left, then an atomic, signed receipt;
    ``written`` gets its path once it is on disk (before the reviewer is told)."""
    asked = ask_export(prompter, parent, controller)
    if asked is None:
        return
    plan, path, overwrite = asked
    done = plan.write(path, overwrite=overwrite)
    if isinstance(done, str):
        prompter.warn(parent, "Receipt not written", done)
        return
    if done.not_journalled is not None:
        prompter.warn(parent, "Export not journalled", done.not_journalled)
    written(path)
    prompter.inform(parent, "Receipt exported", done.text)
