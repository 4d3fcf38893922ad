"""File → Export Audit Report… and File → Reconcile Two Receipts… (issue 32).

Both start from the packet shown in the current tab, admitted at the destination in
Settings: the export asks for the receipt and where to write the page, then builds and
writes it on the window's runner (reading, admitting, scanning and writing can take well
over 100 ms) — written atomically; the reconcile asks for two receipts, compares them on
the runner and shows the result side by side (`ReconcileDialog`). An unsigned receipt,
or one no trusted key signed, is compared only after a second question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.review.audit import audit_facts
from zcf_inspector.core.review.previous import RECEIPT_MAX_BYTES
from zcf_inspector.core.review.reconcile import ReconcileResult, reconcile_receipts
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.messages import message_box
from zcf_inspector.gui.reconcile_view import ReconcileDialog
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.opener.documents import PacketDocument
from zcf_inspector.present.audit_html import html_chunks
from zcf_inspector.present.audit_model import AuditReport
from zcf_inspector.present.audit_report import build_report

NEEDS_DESTINATION = (
    "An audit report and a reconciliation need the packet as admitted at a destination: "
    "choose a destination file in Settings first."
)
UNTRUSTED_QUESTION = (
    "{which} not signed by a key this destination trusts: nothing proves who made "
    "its decisions. Compare anyway?"
)


class AuditHost(Protocol):
    runner: TaskRunner
    destination: Destination | None

    def status_message(self, text: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Written:
    path: str
    report: AuditReport


@dataclass(frozen=True, slots=True)
class Failed:
    message: str


def write_report(
    document: PacketDocument, destination: Destination, receipt: str, out: str, monitor: Monitor
) -> Written | Failed:
    """Worker-thread work: the report of ``receipt`` for ``document``, written to ``out``."""
    try:
        data = read_bounded(receipt, RECEIPT_MAX_BYTES)
        facts = audit_facts(document.data, destination, data, monitor=monitor)
        # The packet's scans are the open's (the opener scans a packet once).
        report = build_report(
            facts, document.path, receipt, secrets=document.secrets, hostile=document.hostile
        )
        monitor.step("writing the audit report", 0.9)
        write_atomic(out, (c.encode("utf-8") for c in html_chunks(report)), overwrite=True)
    except ZcfError as exc:  # an unreadable receipt, an unwritable folder
        return Failed(str(exc))
    return Written(out, report)


def compare_receipts(
    document: PacketDocument,
    destination: Destination,
    paths: tuple[str, str],
    accept_unsigned: bool,
    monitor: Monitor,
) -> ReconcileResult | Failed:
    try:
        a, b = (read_bounded(p, RECEIPT_MAX_BYTES) for p in paths)
        return reconcile_receipts(
            document.data, destination, a, b, accept_unsigned=accept_unsigned, monitor=monitor
        )
    except ZcfError as exc:
        return Failed(str(exc))


class Auditing:
    def __init__(self, host: AuditHost, parent: QWidget) -> None:
        self._host = host
        self._parent = parent
        self.file_dialog: QFileDialog | None = None
        self.message: QMessageBox | None = None
        self.reconcile_view: ReconcileDialog | None = None
        self.written: Written | None = None  # the last report written (tests read it)

    def _packet(self, tab: DocumentTab | None) -> tuple[PacketDocument, Destination] | None:
        if tab is None or not isinstance(tab.document, PacketDocument):
            return None
        if self._host.destination is None:
            self._say(QMessageBox.Icon.Information, "Destination needed", NEEDS_DESTINATION)
            return None
        return tab.document, self._host.destination

    def _say(self, icon: QMessageBox.Icon, title: str, text: str) -> None:
        self.message = message_box(self._parent, icon, title, text)
        self.message.open()

    def _dialog(self, title: str, folder: str, *, save: bool = False) -> QFileDialog:
        dialog = QFileDialog(self._parent, title)
        dialog.setDirectory(folder)
        if save:
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setNameFilters(["HTML (*.html)", "All files (*)"])
            dialog.setDefaultSuffix("html")
        else:
            dialog.setNameFilters(["JSON (*.json)", "All files (*)"])
        self.file_dialog = dialog
        return dialog

    # --- File → Export Audit Report… ---------------------------------------------------

    def export_dialog(self, tab: DocumentTab | None) -> None:
        """Ask for the receipt, then for where to write the page."""
        found = self._packet(tab)
        if found is None:
            return
        document = found[0]
        folder = str(Path(document.path).parent)
        dialog = self._dialog(f"Audit report of {Path(document.path).name}: the receipt", folder)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda receipt: self._ask_where(document, receipt))
        dialog.open()

    def _ask_where(self, document: PacketDocument, receipt: str) -> None:
        dialog = self._dialog("Export audit report", str(Path(receipt).parent), save=True)
        dialog.selectFile(f"{Path(receipt).stem}.audit.html")
        dialog.fileSelected.connect(lambda out: self.export(document, receipt, out))
        dialog.open()

    def export(self, document: PacketDocument, receipt: str, out: str) -> int | None:
        """Build and write the report off the UI thread (the save dialog asked before
        replacing a file)."""
        destination = self._host.destination
        if destination is None:
            self._say(QMessageBox.Icon.Information, "Destination needed", NEEDS_DESTINATION)
            return None
        return self._host.runner.start(
            f"writing the audit report of {Path(document.path).name}",
            lambda monitor: write_report(document, destination, receipt, out, monitor),
            self._exported,
        )

    def _exported(self, result: object) -> None:
        if isinstance(result, Failed):
            self._say(QMessageBox.Icon.Warning, "Audit report not written", result.message)
            return
        assert isinstance(result, Written)
        self.written = result
        where = shown_path(result.path)
        if result.report.stopped:
            self._say(
                QMessageBox.Icon.Warning,
                "Audit report written",
                f"{result.report.headline}: the report at {where} says so and stops.",
            )
            return
        self._host.status_message(f"Audit report written to {where}")

    # --- File → Reconcile Two Receipts… ------------------------------------------------

    def reconcile_dialog(self, tab: DocumentTab | None) -> None:
        found = self._packet(tab)
        if found is None:
            return
        document = found[0]
        dialog = self._dialog(
            f"Reconcile two receipts of {Path(document.path).name}", str(Path(document.path).parent)
        )
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(lambda paths: self._chosen(document, paths))
        dialog.open()

    def _chosen(self, document: PacketDocument, paths: Sequence[str]) -> None:
        if len(paths) != 2:
            self._say(
                QMessageBox.Icon.Information,
                "Two receipts",
                f"Choose exactly two receipts of this packet ({len(paths)} chosen).",
            )
            return
        self.reconcile(document, (paths[0], paths[1]))

    def reconcile(
        self, document: PacketDocument, paths: tuple[str, str], *, accept_unsigned: bool = False
    ) -> int | None:
        destination = self._host.destination
        if destination is None:
            return None
        return self._host.runner.start(
            f"reconciling two receipts of {Path(document.path).name}",
            lambda monitor: compare_receipts(
                document, destination, paths, accept_unsigned, monitor
            ),
            lambda result: self._reconciled(document, paths, result),
        )

    def _reconciled(self, document: PacketDocument, paths: tuple[str, str], result: object) -> None:
        if isinstance(result, Failed):
            self._say(QMessageBox.Icon.Warning, "Cannot reconcile", result.message)
            return
        assert isinstance(result, ReconcileResult)
        codes = {f.code for f in result.findings}
        if codes == {ReviewCode.RECONCILE_RECEIPT_UNTRUSTED}:
            sides = [c.side for c in result.receipts if not c.trusted]
            which = f"Receipt {sides[0]} is" if len(sides) == 1 else "Both receipts are"
            box = message_box(
                self._parent,
                QMessageBox.Icon.Question,
                "Unsigned receipt",
                UNTRUSTED_QUESTION.format(which=which),
                question=True,
            )
            yes = QMessageBox.StandardButton.Yes
            box.buttonClicked.connect(
                lambda button: (
                    box.standardButton(button) == yes
                    and self.reconcile(document, paths, accept_unsigned=True)
                )
            )
            self.message = box
            box.open()
            return
        if self.reconcile_view is not None:
            self.reconcile_view.close()
        self.reconcile_view = ReconcileDialog(result, paths, self._parent)
        self.reconcile_view.open()
