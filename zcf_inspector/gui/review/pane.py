"""The Review pane: decide on each admitted belief, journal it at once, export the receipt.

Keyboard: C confirm, R reject, S supersede, U back to unreviewed (each decides and moves on),
J/K next/previous, Ctrl+Z / Ctrl+Shift+Z undo/redo until the receipt is exported,
Ctrl+Shift+P compare with the previous generation and its receipt, Ctrl+Shift+R repeat its
decisions on unchanged beliefs (asked for, with the count and a note; one undoable step).

A large step (a bulk decision, the carry-over, undoing or redoing either) runs on the
window's runner: progress in the status bar, Esc or Cancel stops it until it is in the
journal, and no other step starts meanwhile. Once journalled it is always shown. The
table's rows for its filters are computed by the core, on the runner for a large table
(`row_filter`).

What admission changed (beliefs dropped, cut, demoted) is said above the table; a receipt
exported before the latest decisions is said to be out of date until it is exported again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QSettings,
    QStandardPaths,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QTableView, QWidget
from shiboken6 import isValid

from zcf_inspector.core.atomic import (
    TargetExistsError,
    TargetNotAFileError,
    UnwritableFileError,
    write_atomic,
)
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.packet.receipt_keys import ReceiptSigner, receipt_signer
from zcf_inspector.core.packet.trust import short_fingerprint
from zcf_inspector.core.reading import fast_path_limit
from zcf_inspector.core.review.carry_over import RepeatCounts, plan_carry_over, repeat_counts
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.journal_keys import JournalKeys
from zcf_inspector.core.review.journal_move import JournalMove, move_journals
from zcf_inspector.core.review.journal_store import set_aside
from zcf_inspector.core.review.previous import PreviousGeneration, load_previous
from zcf_inspector.core.review.session import Prepared, Step
from zcf_inspector.core.review.target import ReviewPreparation, ReviewTarget
from zcf_inspector.gui.documents import FAST_READ_MAX_BYTES
from zcf_inspector.gui.header_drag import UserResizes
from zcf_inspector.gui.plain_text import set_tooltip, visible, visible_lines
from zcf_inspector.gui.review.detail import SincePrevious
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.dropped import DroppedBeliefsDialog
from zcf_inspector.gui.review.layout import PaneWidgets, build_widgets
from zcf_inspector.gui.review.opening import OpenedReview, ReviewOpen, ReviewView, open_review
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.previous_texts import (
    nothing_to_repeat,
    previous_text,
    refusal_text,
    repeat_prompt,
    untrusted_prompt,
)
from zcf_inspector.gui.review.receipts import (
    ReceiptCheck,
    check_receipt_file,
    export_summary_text,
    suggested_receipt_path,
    summary_text,
)
from zcf_inspector.gui.review.row_filter import ROW_BY_ROW, SYNC_ROWS, RowFilter, facts_of
from zcf_inspector.gui.review.secret_question import confirm_flagged
from zcf_inspector.gui.review.settings import ReviewerIdentity, load_identity
from zcf_inspector.gui.review.table_model import REF_ROLE
from zcf_inspector.gui.settings import APPLICATION, ORGANIZATION
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.present.review_table import (
    TableFacts,
    next_unreviewed,
    not_yet,
)

JOURNAL_FOLDER = "review-journals"
# Refusals of a journal that say nothing against its rows: it is not offered to be set aside.
SOUND_JOURNAL = frozenset({ReviewCode.JOURNAL_CONFLICT, ReviewCode.JOURNAL_UNAVAILABLE})
KEY_FOLDER = "review-journal-keys"
DECISION_KEYS = {
    ReviewState.CONFIRMED: ("Confirm", "C"),
    ReviewState.REJECTED: ("Reject…", "R"),
    ReviewState.SUPERSEDED: ("Supersede…", "S"),
    ReviewState.UNREVIEWED: ("Back to unreviewed", "U"),
}
BULK_STATES = (ReviewState.CONFIRMED, ReviewState.REJECTED, ReviewState.UNREVIEWED)
# Where the pane's splitters and columns are remembered (the window's settings store).
LAYOUT_KEYS = {
    "splitter": "layout/reviewSplitter",
    "detail": "layout/reviewDetailSplitter",
    "columns": "layout/reviewColumns",
}
SAVE_DELAY_MS = 400
# Steps of up to this many decisions are made on the UI thread (a few milliseconds);
# larger ones on the runner.
SYNC_DECISIONS = 500
# The packets and receipts open in the window's other tabs, offered as the previous
# generation (the window sets it; a pane on its own offers none).
OpenFiles = Callable[[], tuple[list[OpenFile], list[OpenFile]]]


def no_open_files() -> tuple[list[OpenFile], list[OpenFile]]:
    return [], []


def default_data_dir() -> Path:
    """``<user data>/zcf-inspector/review-journals`` (e.g. ~/.local/share/zcf-inspector/…)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(location) / APPLICATION / JOURNAL_FOLDER


def old_data_dirs() -> list[Path]:
    """Where journals were kept before: QStandardPaths' application folder, which named
    zcf-inspector twice (organisation and application)."""
    generic = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    folders = [Path(generic) / ORGANIZATION / APPLICATION / JOURNAL_FOLDER]
    app = QCoreApplication.instance()
    if app is not None and (app.organizationName(), app.applicationName()) == (
        ORGANIZATION,
        APPLICATION,
    ):  # where the platform put it (Windows: the roaming folder)
        location = QStandardPaths.StandardLocation.AppDataLocation
        folders.append(Path(QStandardPaths.writableLocation(location)) / JOURNAL_FOLDER)
    return list(dict.fromkeys(folders))


def move_old_journals() -> JournalMove:
    """Bring journals from the old folder(s) to `default_data_dir` (nothing is lost)."""
    new = default_data_dir()
    moves = [move_journals(old, new) for old in old_data_dirs()]
    return JournalMove(
        tuple(n for m in moves for n in m.moved), tuple(k for m in moves for k in m.kept)
    )


def default_key_dir(settings: QSettings) -> Path:
    """Where the journals' keys live: beside the user's settings file, so never in the
    journal folder (a key kept with what it protects protects nothing)."""
    name = settings.fileName()
    if name and Path(name).is_absolute():
        return Path(name).parent / KEY_FOLDER
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(location) / KEY_FOLDER


class ReviewPane(QWidget):
    """Hosted by the window: ``set_packet`` on open, ``export_receipt`` from File → Export."""

    statusMessage = Signal(str)  # noqa: N815 - a short note for the window's status bar

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
        data_dir: str | Path | None = None,
        key_dir: str | Path | None = None,
        prompter: Prompter | None = None,
        runner: TaskRunner | None = None,
    ) -> None:
        super().__init__(parent)
        # Parented, so it is deleted with the pane on the GUI thread, never by a collector
        # running on a worker thread.
        self.settings = settings if settings is not None else QSettings(self)
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.key_dir = Path(key_dir) if key_dir is not None else default_key_dir(self.settings)
        self.prompter = prompter if prompter is not None else Prompter()
        self.packet_path = ""
        self.destination: Destination | None = None
        self.target: ReviewTarget | None = None
        self.review: JournaledReview | None = None
        self.ui: PaneWidgets = build_widgets(self)
        self.table: QTableView = self.ui.table
        self.model = self.ui.model
        self.proxy = self.ui.proxy
        self.detail = self.ui.detail
        self.dropped_dialog: DroppedBeliefsDialog | None = None
        # Heavy work (reading and comparing a previous generation) runs here: the
        # window's runner, whose progress and Cancel are in its status bar.
        self.runner = runner if runner is not None else TaskRunner(self)
        self.open_files: OpenFiles = no_open_files
        self.previous: PreviousGeneration | None = None
        self.previous_paths: tuple[str, str] = ("", "")
        self._previous_ticket = 0  # a newer comparison (or packet) makes older ones stale
        self._repeat_counts: tuple[int, RepeatCounts] | None = None  # (session version, …)
        self.step_task: int | None = None  # the large step on the runner, if one is
        # An open of a review (`set_packet`): waiting for a step to end, or on the runner.
        self._waiting: ReviewOpen | None = None
        self._opening_task: int | None = None
        self._opening_ticket = 0  # a newer open makes an older one's answer stale
        self._restoring: ReviewView | None = None  # put back once the rows are shown
        self._continue_at: int | None = None  # the shown row a first open continues at
        self._source: tuple[str, bytes, PacketInspection] | None = None  # what is shown
        self._open_note = ""  # said once the open in progress is shown
        self.rows = RowFilter(self.proxy, self.model, self.runner, self)
        self._current_before_reset: str | None = None
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_layout)
        self._make_actions()
        self._connect()
        self.restore_layout()
        self._show_identity()
        self._refresh()

    # -- the window's contract -----------------------------------------------------------

    def set_packet(
        self,
        path: str,
        data: bytes,
        inspection: PacketInspection,
        destination: Destination | None,
        prepared: ReviewPreparation | None = None,
    ) -> None:
        """Review the packet at ``path``; restores any saved review from the journal.

        ``prepared`` is the ingest and review target made on a worker (the window's load);
        without it they are made on the runner too. The journal is read there
        (`opening.open_review`) and the review shown when it is all in; until then the
        review shown before stays, with every step disabled. The same packet opened again
        (a reload, a re-check under other settings) comes back as it was: decisions,
        comparison, filters, highlighted and selected rows, scroll position.
        """
        if self.step_task is not None:
            # Asked to stop; if it was journalled already, the journal has it: the open
            # starts once it has reported, so it reads the journal with it.
            self.runner.cancel(self.step_task)
        if self._opening_task is not None:
            self.runner.cancel(self._opening_task)
            self._opening_task = None
        same = path == self.packet_path and self.target is not None
        view = self._waiting.view if self._waiting is not None else None
        if view is None and same:
            view = self._view_state()
        self._opening_ticket += 1
        if destination is None:
            self._waiting = None
            self._show_opened(path, data, inspection, None, None)
            return
        self._waiting = ReviewOpen(
            path,
            data,
            inspection,
            destination,
            prepared,
            self.data_dir,
            self.key_dir,
            self.ui.filters(),
            view,
        )
        self.ui.status.setText("Restoring the saved review…")
        self._start_opening()
        self._refresh()

    @property
    def opening(self) -> bool:
        """Whether an open is under way (its review is not shown yet)."""
        return self._waiting is not None

    def _start_opening(self) -> None:
        """Run the waiting open on the runner, once no step is running (a step may be
        writing the journal the open reads)."""
        if not isValid(self):
            return  # closed meanwhile (a deferred start after a step)
        request = self._waiting
        if request is None or self.step_task is not None or self._opening_task is not None:
            return
        ticket = self._opening_ticket
        self._opening_task = self.runner.start(
            f"restoring the review of {Path(request.path).name}",
            partial(open_review, request),
            partial(self._opened, ticket),
            partial(self._open_failed, ticket),
            # Durable: the window's Cancel stops it but it still reports, so the pane
            # never waits for an answer that will not come.
            durable=True,
            on_cancelled=partial(self._open_cancelled, ticket),
        )

    def _opened(self, ticket: int, result: object) -> None:
        if not isValid(self) or ticket != self._opening_ticket:
            return  # another open came since
        assert isinstance(result, OpenedReview)
        self._opening_task = None
        self._waiting = None
        request = result.request
        self._show_opened(
            request.path, request.data, request.inspection, request.destination, result
        )

    def _open_failed(self, ticket: int, details: str) -> None:
        if not isValid(self) or ticket != self._opening_ticket:
            return
        self._opening_task = None
        request, self._waiting = self._waiting, None
        last = details.strip().splitlines()[-1] if details.strip() else "unknown error"
        if request is not None:
            self._show_opened(request.path, request.data, request.inspection, None, None)
        self._problem(f"The review could not be opened: {last}")

    def _open_cancelled(self, ticket: int) -> None:
        if not isValid(self) or ticket != self._opening_ticket:
            return
        self._opening_task = None
        request, self._waiting = self._waiting, None
        if request is not None:
            self._show_opened(request.path, request.data, request.inspection, None, None)
            self._problem(
                "Restoring the review was cancelled; nothing is shown. Reload the packet "
                "(F5) to restore it."
            )

    def _show_opened(
        self,
        path: str,
        data: bytes,
        inspection: PacketInspection,
        destination: Destination | None,
        opened: OpenedReview | None,
    ) -> None:
        """Show an open's answer at once (``opened`` None: no review, with ``destination``
        None saying why)."""
        view = opened.request.view if opened is not None else None
        self._restoring, self._continue_at = None, None
        self._source = (path, data, inspection)
        self.packet_path, self.destination = path, destination
        self.target, self.review = None, None
        self._forget_previous(said=view is not None and view.previous_paths is not None)
        self.ui.set_aside.hide()
        self._close_dropped()
        self._show_admission()
        self._problem("")
        self.ui.status.setText("")
        self.model.reset((), {}, {})
        self.rows.request(self.ui.filters())  # drops any answer still coming for the last
        if destination is None or opened is None:
            if destination is None:
                self._problem(
                    "No destination is in force. Reviewing needs one: it admits the beliefs, "
                    "keeps the clock and signs the receipt. Choose a destination file and "
                    "reopen the packet."
                )
            self._refresh()
            return
        prepared = opened.prepared
        if prepared.target is None:
            self._problem(f"Nothing to review: {prepared.problem}.")
            self._refresh()
            return
        self.target = prepared.target
        self._show_admission()
        self.model.reset(self.target.beliefs, opened.evidence, {}, self.target.rows)
        self.detail.set_packet(self.target.packet, opened.detail)
        self.model.set_secrets(self.detail.secrets)  # issue 20: the rows the scan flags
        self._show_journal(opened.review)
        self._show_identity()
        previous = opened.previous
        if isinstance(previous, PreviousGeneration) and view is not None:
            if previous.current_correlation_id == self.target.correlation_id:
                assert view.previous_paths is not None
                self._install_previous(previous, view.previous_paths, view.since_index)
                self._refresh()  # its banner and the carry-over's counts
        elif isinstance(previous, ZcfError):
            self.statusMessage.emit(
                "The comparison with the previous generation could not be made again: "
                + refusal_text(previous)
            )
        if self._open_note:
            self.ui.status.setText(self._open_note)
            self._open_note = ""
        self._restoring = view  # put back once the rows are in (`_rows_shown`)
        filters = self.ui.filters()
        if opened.rows is not None and filters == opened.filters:
            self._continue_at = None if view is not None else opened.start
            self.rows.show_rows(filters, opened.rows)  # computed with the open
        else:  # the filters changed meanwhile, or the comparison could not be made again
            self.rows.request(filters)
            if view is None:
                self.select_next_unreviewed()  # continue where the review stopped

    @property
    def signer(self) -> ReceiptSigner | None:
        return None if self.destination is None else receipt_signer(self.destination)

    def export_receipt(self) -> None:
        """Summary, confirmation if beliefs are left, then an atomic, signed receipt."""
        review, destination = self.review, self.destination
        if review is None or destination is None:
            self.prompter.inform(self, "Export receipt", "There is no review to export.")
            return
        summary = review.session.summary()
        assert self.target is not None
        signer = receipt_signer(destination)
        text = export_summary_text(summary, self.target.notice, signer, self.target.cut_beliefs)
        if not self.prompter.confirm(
            self, "Export receipt", text + "\n\nExport the transfer receipt?"
        ):
            return
        if summary.unreviewed and not self.prompter.confirm(
            self,
            "Beliefs still unreviewed",
            f"{summary.unreviewed} of {summary.total} beliefs are still unreviewed; they stay "
            "unreviewed in the receipt. Export anyway?",
        ):
            return
        suggested = suggested_receipt_path(self.packet_path, self.target.receipt_text("packetId"))
        path = self.prompter.ask_save_path(self, suggested)
        if path is None:
            return
        overwrite = Path(path).exists()
        if overwrite and not self.prompter.confirm(
            self, "Replace receipt?", f"{path} already exists. Replace it?"
        ):
            return
        completed = destination.now_text()
        receipt = review.session.receipt(completed, destination.signing_key)
        try:
            write_atomic(path, receipt_bytes(receipt), overwrite=overwrite)
        except (UnwritableFileError, TargetExistsError, TargetNotAFileError) as exc:
            if isinstance(exc, UnwritableFileError):
                reason = exc.reason
            elif isinstance(exc, TargetNotAFileError):
                reason = "it is not a regular file, so it is not replaced"
            else:
                reason = "a file of that name appeared meanwhile"
            self.prompter.warn(
                self,
                "Receipt not written",
                f"The receipt could not be written to {path}: {reason}.\n"
                "Nothing was written; the review is kept and can be exported again.",
            )
            return
        digest = str(receipt["receiptDigest"])
        try:
            review.mark_exported(completed, digest, path)
        except ReviewError as exc:
            self.prompter.warn(self, "Export not journalled", f"The receipt was written, but {exc}")
        self._refresh()
        self.statusMessage.emit(f"Receipt written to {visible(path)}")
        if signer.fingerprint is None:
            signed = f"UNSIGNED (destination {signer.destination_id} has no signingKey)"
        else:
            signed = f"signed by destination {signer.destination_id}'s key {signer.fingerprint}"
        self.prompter.inform(
            self, "Receipt exported", f"Receipt written to {path}\n{signed}\nreceiptDigest {digest}"
        )

    def confirm_close(self) -> bool:
        """Closing is fine unless the exported receipt is out of date: then ask."""
        stale = self.review.stale_export if self.review is not None else None
        if stale is None:
            return True
        return self.prompter.confirm(
            self,
            "Receipt out of date",
            f"The receipt exported at {stale.completed_at} to {stale.path} is out of date: "
            "decisions were taken after it. They are kept in the review journal, but the "
            "receipt on disk does not have them.\n\nClose without exporting again?",
        )

    def focus_table(self) -> None:
        """Alt+4: the keyboard goes to the beliefs, where C, R, S, U, J and K work."""
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.table.currentIndex().isValid():
            self._select_proxy_row(0)

    def show_dropped(self) -> DroppedBeliefsDialog | None:
        """The beliefs admission left out, read-only, in a window beside the pane."""
        dropped = self.target.dropped if self.target is not None else None
        notice = self.target.notice if self.target is not None else None
        if dropped is None or not len(dropped) or notice is None:
            return None
        self._close_dropped()
        self.dropped_dialog = DroppedBeliefsDialog(
            dropped,
            f"{notice.lines[0]}. These beliefs were not admitted: they are not reviewed and "
            "not in the receipt. Shown as the packet wrote them.",
            self,
        )
        self.dropped_dialog.show()
        return self.dropped_dialog

    def _close_dropped(self) -> None:
        if self.dropped_dialog is not None:
            self.dropped_dialog.close()
            self.dropped_dialog.deleteLater()
            self.dropped_dialog = None

    # -- layout remembered -----------------------------------------------------------

    def restore_layout(self) -> None:
        for key, state in self._layout_parts().items():
            value = self.settings.value(LAYOUT_KEYS[key])
            if isinstance(value, QByteArray) and not value.isEmpty():
                state[1](value)

    def save_layout(self) -> None:
        for key, state in self._layout_parts().items():
            self.settings.setValue(LAYOUT_KEYS[key], state[0]())
        self.settings.sync()

    def _layout_parts(
        self,
    ) -> dict[str, tuple[Callable[[], QByteArray], Callable[[QByteArray], object]]]:
        header = self.table.horizontalHeader()
        return {
            "splitter": (self.ui.splitter.saveState, self.ui.splitter.restoreState),
            "detail": (self.detail.splitter.saveState, self.detail.splitter.restoreState),
            "columns": (header.saveState, header.restoreState),
        }

    # -- more for the window to wire -----------------------------------------------------

    def open_receipt(self, path: str) -> ReceiptCheck:
        """Verify a receipt file and match it to the open packet; the result is shown too."""
        check = check_receipt_file(path, self.target, self.destination)
        self.ui.receipt_status.setText(visible_lines("\n".join(check.lines)))
        self.ui.receipt_status.show()
        return check

    def edit_reviewer(self) -> None:
        self.prompter.ask_identity(self, self.settings)
        self._show_identity()

    def review_actions(self) -> list[QAction]:
        """For a Review menu and Help → Shortcuts (the same objects, so no ambiguity)."""
        return [
            *self.decide_actions.values(),
            self.next_action,
            self.previous_action,
            self.undo_action,
            self.redo_action,
            *self.bulk_actions.values(),
            self.compare_previous_action,
            self.repeat_action,
            self.stop_previous_action,
            self.settings_action,
        ]

    # -- actions ------------------------------------------------------------------------

    def _action(self, text: str, key: str, host: QWidget) -> QAction:
        action = QAction(text, self)
        if key:
            action.setShortcut(QKeySequence(key))
            # Only while the pane (or its table) has focus: other panes keep their keys.
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            host.addAction(action)
        return action

    def _make_actions(self) -> None:
        self.decide_actions: dict[ReviewState, QAction] = {}
        for state, (text, key) in DECISION_KEYS.items():
            action = self._action(text, key, self.table)
            action.triggered.connect(lambda _=False, s=state: self.decide_current(s))
            self.decide_actions[state] = action
        self.next_action = self._action("Next belief", "J", self.table)
        self.next_action.triggered.connect(lambda: self.move_by(1))
        self.previous_action = self._action("Previous belief", "K", self.table)
        self.previous_action.triggered.connect(lambda: self.move_by(-1))
        self.undo_action = self._action("Undo decision", "Ctrl+Z", self)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action = self._action("Redo decision", "Ctrl+Shift+Z", self)
        self.redo_action.triggered.connect(self.redo)
        self.bulk_actions: dict[ReviewState, QAction] = {}
        for state in BULK_STATES:
            action = self._action(f"Bulk: {state}…", "", self)
            action.triggered.connect(lambda _=False, s=state: self.bulk_decide(s))
            self.bulk_actions[state] = action
        self.compare_previous_action = self._action(
            "Compare with previous generation…", "Ctrl+Shift+P", self
        )
        self.compare_previous_action.triggered.connect(self.compare_with_previous)
        self.repeat_action = self._action("Repeat earlier decisions…", "Ctrl+Shift+R", self)
        self.repeat_action.triggered.connect(self.repeat_earlier)
        self.stop_previous_action = self._action(
            "Stop comparing with previous generation", "", self
        )
        self.stop_previous_action.triggered.connect(self.stop_comparing)
        self.settings_action = self._action("Reviewer identity…", "", self)
        self.settings_action.triggered.connect(self.edit_reviewer)
        self.export_action = self._action("Export receipt…", "", self)
        self.export_action.triggered.connect(self.export_receipt)
        self.cancel_step_action = self._action("Cancel the step in progress", "Esc", self)
        self.cancel_step_action.triggered.connect(self.cancel_step)
        self.cancel_step_action.setEnabled(False)

    def _connect(self) -> None:
        ui = self.ui
        for state, button in ui.bulk_buttons.items():
            button.clicked.connect(lambda _=False, s=state: self.bulk_decide(s))
        ui.undo_button.setDefaultAction(self.undo_action)
        ui.redo_button.setDefaultAction(self.redo_action)
        ui.export_button.setDefaultAction(self.export_action)
        ui.settings_button.setDefaultAction(self.settings_action)
        ui.set_aside.clicked.connect(self.set_aside_journal)
        for combo in (ui.state_filter, ui.admission_filter, ui.evidence_filter, ui.since_filter):
            combo.currentIndexChanged.connect(lambda *_: self._apply_filters())
        ui.repeat_button.clicked.connect(self.repeat_earlier)
        ui.stop_previous_button.clicked.connect(self.stop_comparing)
        ui.text_filter.textChanged.connect(lambda *_: self._apply_filters(debounce=True))
        # A new set of rows: the current belief stays current when it is still shown.
        self.proxy.modelAboutToBeReset.connect(self._remember_current)
        self.rows.rowsShown.connect(self._rows_shown)
        ui.note_field.returnPressed.connect(self.table.setFocus)
        ui.dropped_button.clicked.connect(self.show_dropped)
        selection = self.table.selectionModel()
        selection.currentRowChanged.connect(lambda *_: self._show_current())
        for splitter in (ui.splitter, self.detail.splitter):
            splitter.splitterMoved.connect(lambda *_: self._save_timer.start())
        # Only the user's own resizing is remembered, not the stretch that follows the pane.
        self._user_resizes = UserResizes(self.table.horizontalHeader(), self._save_timer.start)

    # -- decisions ------------------------------------------------------------------------

    def decide_current(self, state: ReviewState) -> None:
        """C, R, S, U: decide the highlighted belief and move on; several highlighted rows
        are decided together, as one bulk step (asked for first)."""
        if self.review is None or self.step_task is not None or self.opening:
            return
        rows = self._selected_rows(limit=2)
        if len(rows) > 1:
            if state is ReviewState.SUPERSEDED:
                self.prompter.inform(
                    self, "Supersede", "Supersede one belief at a time: select only that one."
                )
                return
            self.bulk_decide(state)
            return
        ref = self._ref_at(rows[0]) if rows else None
        if ref is None:
            return  # nothing highlighted: nothing is decided
        reviewer = self._reviewer()
        if reviewer is None:
            return
        request = self._request_for(ref, state)
        if request is None:
            return
        last = self.review.session.last_decisions().get(ref)
        unchanged = request.note is None and (
            state is ReviewState.UNREVIEWED if last is None else last.state is state
        )
        if unchanged or self._record([request], reviewer):
            # Re-deciding a belief's current state with no note adds nothing to the receipt.
            self.ui.note_field.clear()
            self._advance_from(ref)

    def _request_for(self, ref: str, state: ReviewState) -> DecisionRequest | None:
        typed = self.ui.note_field.text()
        if state is ReviewState.REJECTED:
            note = self.prompter.ask_note(
                self, "Reject belief", f"Why is {ref} rejected? (required)", typed, required=True
            )
            return None if note is None else DecisionRequest(ref, state, note)
        if state is ReviewState.SUPERSEDED:
            assert self.target is not None
            candidates = [
                (b.portable_ref, b.content) for b in self.target.beliefs if b.portable_ref != ref
            ]
            if not candidates:
                self.prompter.inform(
                    self, "Supersede", "No other belief in this packet can replace it."
                )
                return None
            answer = self.prompter.ask_replacement(self, ref, candidates, typed)
            return None if answer is None else DecisionRequest(ref, state, answer[1], answer[0])
        return DecisionRequest(ref, state, typed or None)

    def bulk_decide(self, state: ReviewState) -> None:
        """One step over the selected rows (when several are) or every shown row. Which of
        them the step would change is counted first — on the runner for a large table
        (200,000 rows take longer than a frame) — then the reviewer is asked."""
        review = self.review
        if review is None or self.step_task is not None:
            return
        rows = self._bulk_rows()
        facts = self.table_facts()
        if len(rows) <= SYNC_ROWS:
            self._ask_bulk(review, state, len(rows), not_yet(facts, rows, state))
            return

        def work(monitor: Monitor) -> tuple[str, ...]:
            refs = not_yet(facts, rows, state, monitor)
            monitor.breathe()  # cancelled meanwhile (Esc, the window's Cancel): no question
            return refs

        label = f"counting the {len(rows):,} beliefs to mark {state}"
        # Held like a step (durable: its end always comes back to clear it), so that no
        # step changes the decisions while they are counted.
        self.step_task = self.runner.start(
            label,
            work,
            partial(self._counted, review, state, len(rows)),
            partial(self._step_failed, review),
            durable=True,
            on_cancelled=partial(self._step_cancelled, review),
        )
        self.ui.status.setText(f"{label[:1].upper()}{label[1:]}… (Esc cancels)")
        self._refresh()

    def _counted(
        self, review: JournaledReview, state: ReviewState, asked: int, refs: tuple[str, ...]
    ) -> None:
        if not self._step_reported(review) or self.opening:
            return  # another packet, or the same one again, is coming: no question
        self.ui.status.setText("")
        self._refresh()
        self._ask_bulk(review, state, asked, refs)

    def _ask_bulk(
        self, review: JournaledReview, state: ReviewState, asked: int, refs: Sequence[str]
    ) -> None:
        """Ask for the step that marks ``refs`` (of ``asked`` rows) ``state``, then take it."""
        if not refs:
            self.prompter.inform(self, "Nothing to change", f"All {asked:,} are already {state}.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        note: str | None = None
        if state is ReviewState.REJECTED:
            note = self.prompter.ask_note(
                self,
                "Reject beliefs",
                f"Why are these {len(refs):,} beliefs rejected? (required)",
                self.ui.note_field.text(),
                required=True,
            )
            if note is None:
                return
        skipped = asked - len(refs)
        text = f"Mark {len(refs):,} belief{'s' if len(refs) != 1 else ''} as {state}?"
        if skipped:
            text += f"\n{skipped:,} already {state} " + (
                "is left as it is." if skipped == 1 else "are left as they are."
            )
        if not self.prompter.confirm(self, f"Bulk decision: {state}", text):
            return
        # issue 20: beliefs that may hold a credential are confirmed only if asked apart.
        refs = confirm_flagged(self.prompter, self, state, refs, self.model.flagged)
        if not refs:
            return
        if review is not self.review:
            return  # another packet came while the question was open
        written = note or self.ui.note_field.text() or None

        def requests(monitor: Monitor) -> list[DecisionRequest]:
            return [DecisionRequest(ref, state, written) for ref in refs]

        self._record_many(
            requests, len(refs), reviewer, f"marking {len(refs):,} beliefs {state}", None
        )

    def _selected_rows(self, limit: int | None = None) -> list[int]:
        """The highlighted rows of the table (shown rows, ascending), up to ``limit``."""
        rows: set[int] = set()
        selection = self.table.selectionModel().selection()
        for i in range(selection.count()):
            span = selection.at(i)
            end = span.bottom() + 1 if limit is None else min(span.bottom() + 1, span.top() + limit)
            rows.update(range(span.top(), end))
            if limit is not None and len(rows) >= limit:
                break
        return sorted(rows)[:limit]

    def _bulk_rows(self) -> Sequence[int]:
        """The selected rows (when several are selected), else every shown row, as rows
        of the model, ascending."""
        shown = self.proxy.rows
        # The selection's ranges, not selectedRows(): Ctrl+A over 200,000 rows would make
        # 200,000 indexes on the UI thread.
        picked: set[int] = set()
        selection = self.table.selectionModel().selection()
        for i in range(selection.count()):
            span = selection.at(i)
            picked.update(shown[span.top() : span.bottom() + 1])
        return sorted(picked) if len(picked) > 1 else shown

    def _record(self, requests: list[DecisionRequest], reviewer: str) -> bool:
        """A small step, on the UI thread (a single decision takes a few milliseconds)."""
        assert self.review is not None
        assert self.destination is not None
        try:
            step = self.review.decide(requests, reviewer, self.destination.now_text())
        except ReviewError as exc:
            self.prompter.warn(self, "Decision not recorded", str(exc))
            return False
        self._after_step(step)
        return True

    def _record_many(
        self,
        requests: Callable[[Monitor], Sequence[DecisionRequest]],
        count: int,
        reviewer: str,
        label: str,
        done: Callable[[Step], None] | None,
    ) -> None:
        """A step of ``count`` decisions: on the UI thread when small, else on the runner
        (`_start_step`). ``requests`` makes them (on the runner for a large step: making
        200,000 requests takes a while too); ``done`` follows once the step is shown."""
        review, destination = self.review, self.destination
        assert review is not None
        assert destination is not None
        at = destination.now_text()

        def finished(step: Step) -> None:
            self.ui.note_field.clear()  # it went into the step
            if done is not None:
                done(step)

        if count <= SYNC_DECISIONS:
            try:
                made = list(requests(Monitor()))
            except ReviewError as exc:
                self.prompter.warn(self, "Decision not recorded", str(exc))
                return
            if self._record(made, reviewer):
                finished(review.session.applied[-1])
            return

        def work(monitor: Monitor) -> Prepared:
            return review.write_decision(list(requests(monitor)), reviewer, at, monitor)

        self._start_step(label, work, finished)

    def _start_step(
        self, label: str, work: Callable[[Monitor], Prepared], done: Callable[[Step], None] | None
    ) -> None:
        """Run a step on the runner as a durable task: Esc/Cancel stops it until it is in
        the journal; once it is, its answer always comes and is installed at once."""
        review = self.review
        assert review is not None

        def guarded(monitor: Monitor) -> Prepared | ReviewError:
            try:
                return work(monitor)
            except ReviewError as exc:
                return exc  # a refusal (a rule, the journal): said, not a failure

        self.step_task = self.runner.start(
            label,
            guarded,
            partial(self._step_done, review, done),
            partial(self._step_failed, review),
            durable=True,
            on_cancelled=partial(self._step_cancelled, review),
        )
        self.ui.status.setText(f"{label[:1].upper()}{label[1:]}… (Esc cancels)")
        self._refresh()

    def _step_done(
        self, review: JournaledReview, done: Callable[[Step], None] | None, result: object
    ) -> None:
        if not self._step_reported(review):
            return  # another packet came meanwhile; the journal has the step
        if isinstance(result, ReviewError):
            self.ui.status.setText("")
            self.prompter.warn(self, "Decision not recorded", str(result))
            self._refresh()
            return
        assert isinstance(result, Prepared)
        try:
            step = review.install(result)
        except ReviewError as exc:
            self.prompter.warn(self, "Decision not shown", str(exc))
            self._refresh()
            return
        self.ui.status.setText("")
        self._after_step(step)
        if done is not None:
            done(step)

    def _step_failed(self, review: JournaledReview, details: str) -> None:
        if not self._step_reported(review):
            return
        last = details.strip().splitlines()[-1] if details.strip() else "unknown error"
        self.prompter.warn(self, "Step failed", f"The step was not completed: {last}")
        self._refresh()

    def _step_cancelled(self, review: JournaledReview) -> None:
        if not self._step_reported(review):
            return
        self.ui.status.setText("Cancelled before it was journalled: nothing was changed.")
        self._refresh()

    def cancel_step(self) -> None:
        """Esc: stop the step in progress (it stops unless it is in the journal already)."""
        if self.step_task is not None:
            self.runner.cancel(self.step_task)
            self.ui.status.setText("Cancelling…")

    @property
    def step_running(self) -> bool:
        return self.step_task is not None

    def _step_reported(self, review: JournaledReview) -> bool:
        """A step (or a count) on the runner reported: no step runs now, so an open
        waiting for it may read the journal (started once this report is handled).
        Whether ``review`` is still the one shown."""
        self.step_task = None
        if self._waiting is not None:
            QTimer.singleShot(0, self._start_opening)
        return review is self.review

    def _after_step(self, step: Step) -> None:
        """Show what ``step`` changed: its rows, the filters that read decisions, counts."""
        refs: Collection[str] | None = None  # a large step: every row may have changed
        if len(step.decisions) <= ROW_BY_ROW:
            refs = {d.portable_ref for d in step.decisions}
        self._refresh(refs)
        self.rows.decisions_changed(refs)

    def undo(self) -> None:
        self._history_step(redo=False)

    def redo(self) -> None:
        self._history_step(redo=True)

    def _history_step(self, *, redo: bool) -> None:
        review = self.review
        if review is None or self.step_task is not None:
            return
        session = review.session
        try:
            candidate = session.redo_candidate() if redo else session.undo_candidate()
        except ReviewError as exc:
            self.ui.status.setText(exc.findings[0].message)
            return
        if len(candidate.decisions) > SYNC_DECISIONS:
            count = len(candidate.decisions)
            label = f"{'redoing' if redo else 'undoing'} a step of {count:,} decisions"
            work = review.write_redo if redo else review.write_undo
            self._start_step(label, work, self._show_history_step)
            return
        try:
            step = review.redo() if redo else review.undo()
        except ReviewError as exc:
            self.prompter.warn(self, "Undo/redo not recorded", str(exc))
            return
        self._after_step(step)
        self._show_history_step(step)

    def _show_history_step(self, step: Step) -> None:
        self._select_ref(step.decisions[0].portable_ref)

    # -- the previous generation ----------------------------------------------------------

    def compare_with_previous(self) -> None:
        """Ask for the previous generation's packet and receipt, then compare off the UI
        thread; nothing is repeated until `repeat_earlier` is asked for."""
        if self.review is None:
            self.prompter.inform(
                self, "Compare with previous generation", "There is no review to compare."
            )
            return
        packets, receipts = self.open_files()
        packets = [p for p in packets if p.path != self.packet_path]
        chosen = self.prompter.ask_previous(self, packets, receipts)
        if chosen is not None:
            self.load_previous(*chosen)

    def load_previous(self, packet_path: str, receipt_path: str) -> int | None:
        """Read, verify and compare on the runner; returns its task id."""
        target, destination = self.target, self.destination
        if target is None or destination is None:
            return None
        self._previous_ticket += 1
        ticket = self._previous_ticket
        paths = (packet_path, receipt_path)

        def work(monitor: Monitor) -> PreviousGeneration | ZcfError:
            try:
                # Large files by the exact reader, which lets the UI thread in (as a load).
                with fast_path_limit(FAST_READ_MAX_BYTES):
                    return load_previous(packet_path, receipt_path, destination, target, monitor)
            except ZcfError as exc:
                if isinstance(exc, Cancelled):
                    raise
                return exc  # a refusal or an unreadable file: shown, not a failure

        self.ui.status.setText(f"Comparing with {visible(Path(packet_path).name)}…")
        return self.runner.start(
            f"comparing with {Path(packet_path).name}",
            work,
            partial(self._previous_done, ticket, paths),
        )

    def _previous_done(self, ticket: int, paths: tuple[str, str], result: object) -> None:
        if ticket != self._previous_ticket:
            return  # another comparison, or another packet, came since
        if isinstance(result, ZcfError):
            self.ui.status.setText("")
            self.prompter.warn(
                self,
                "Previous generation not used",
                f"{paths[0]}\nwith the receipt {paths[1]}\ncannot be compared with: "
                + refusal_text(result)
                + "\n\nNothing was repeated; the review is as it was.",
            )
            return
        assert isinstance(result, PreviousGeneration)
        if self.target is None or result.current_correlation_id != self.target.correlation_id:
            return
        self.set_previous(result, paths)

    def set_previous(self, previous: PreviousGeneration, paths: tuple[str, str]) -> None:
        """Show the comparison, and filter to what changed since that receipt."""
        self._install_previous(previous, paths, 0)  # changed since that receipt
        self._apply_filters()
        self._refresh()
        self.ui.status.setText(
            f"Showing what changed since the receipt of {visible(previous.packet_id)}: "
            f"{previous.summary()}."
        )

    def _install_previous(
        self, previous: PreviousGeneration, paths: tuple[str, str], since_index: int
    ) -> None:
        self.previous, self.previous_paths = previous, paths
        self._repeat_counts = None
        self.model.set_changes(previous.classification.changes)
        self.ui.since_filter.show()
        self.ui.since_filter.setCurrentIndex(since_index)

    def stop_comparing(self) -> None:
        self._forget_previous(said=True)
        self._apply_filters()
        self._refresh()

    def _forget_previous(self, *, said: bool = False) -> None:
        self._previous_ticket += 1
        if self.previous is not None and not said:
            # Opened again (reloaded, another destination): what was compared may differ.
            self.statusMessage.emit(
                "The comparison with the previous generation was cleared; compare again "
                "(Ctrl+Shift+P)."
            )
        self.previous = None
        self._repeat_counts = None
        self.model.set_changes(None)
        self.ui.since_filter.hide()  # no "since" filter without a comparison

    def repeat_earlier(self) -> None:
        """Repeat the earlier decisions on unchanged beliefs: asked for with the count and a
        note, then one step as this reviewer, now (Ctrl+Z undoes it whole)."""
        previous, review = self.previous, self.review
        if previous is None or review is None or self.step_task is not None:
            return
        counts = self.repeat_counts()
        assert counts is not None
        if not counts.pending:
            self.prompter.inform(self, "Nothing to repeat", nothing_to_repeat(previous, counts))
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        # A receipt no trusted key signed is one anyone could have written: asked twice.
        accepted = not previous.trusted
        if accepted and not self.prompter.confirm(
            self, "Repeat decisions nobody can vouch for?", untrusted_prompt(previous, counts)
        ):
            return
        note = self.prompter.ask_note(
            self,
            "Repeat earlier decisions",
            repeat_prompt(previous, counts, reviewer),
            self.ui.note_field.text(),
            required=True,
        )
        if note is None:
            return
        # Read by the worker: the session's index is replaced whole by a step, never
        # changed in place while a step runs (no other step starts meanwhile).
        last = review.session.last_decisions()

        def requests(monitor: Monitor) -> Sequence[DecisionRequest]:
            return plan_carry_over(
                previous, last, note, monitor, accept_untrusted=accepted
            ).requests

        def said(step: Step) -> None:
            count = len(step.decisions)
            self.ui.status.setText(
                f"Repeated {count:,} earlier decision{'s' if count != 1 else ''} as "
                f"{visible(reviewer)}, in one step (Ctrl+Z undoes them together)."
            )

        self._record_many(requests, counts.pending, reviewer, "repeating earlier decisions", said)

    def repeat_counts(self) -> RepeatCounts | None:
        """What the carry-over would repeat now; counted once per change of the review."""
        previous, review = self.previous, self.review
        if previous is None or review is None:
            return None
        version = review.session.version
        if self._repeat_counts is None or self._repeat_counts[0] != version:
            counts = repeat_counts(previous, review.session.last_decisions())
            self._repeat_counts = (version, counts)
        return self._repeat_counts[1]

    def _show_previous(self) -> None:
        previous = self.previous
        ui = self.ui
        counts = self.repeat_counts()
        for widget in (ui.previous, ui.repeat_button, ui.stop_previous_button):
            widget.setVisible(counts is not None)
        idle = self.step_task is None
        self.stop_previous_action.setEnabled(counts is not None and idle)
        ui.stop_previous_button.setEnabled(counts is not None and idle)
        if previous is None or counts is None:
            self.repeat_action.setEnabled(False)
            ui.previous.setText("")
            return
        self.repeat_action.setEnabled(bool(counts.pending) and idle)
        ui.repeat_button.setEnabled(bool(counts.pending) and idle)
        ui.repeat_button.setText(f"Repeat {counts.pending:,} earlier decisions…")
        ui.previous.setText(previous_text(previous, self.previous_paths, counts))

    # -- journal --------------------------------------------------------------------------

    def _show_journal(self, review: JournaledReview | ReviewError | None) -> None:
        """Show the review restored from the journal, or why the journal was refused."""
        if isinstance(review, ReviewError) or review is None:
            self.review = None
            if isinstance(review, ReviewError) and review.code in SOUND_JOURNAL:
                # Nothing is wrong with the saved review: another window has it, or the
                # file or its key cannot be used as things are. Never offer to set a
                # healthy journal aside.
                message = (
                    f"The saved review of this packet cannot be opened now; nothing was "
                    f"changed.\n{review}"
                )
                self._problem(message)
                self.prompter.warn(self, "Saved review not opened", message)
                self._refresh()
                return
            message = (
                f"The saved review of this packet was refused; nothing from it was applied.\n"
                f"{review}\nYou can set the saved review aside (it is kept, renamed) and start "
                "over."
            )
            self._problem(message)
            self.ui.set_aside.show()
            self.prompter.warn(self, "Saved review refused", message)
            self._refresh()
            return
        self.review = review
        restored = review.session.index.decision_count
        self._refresh()
        if restored:
            plural = "s" if restored != 1 else ""
            self.ui.status.setText(
                f"Restored {restored:,} decision{plural} from the review journal."
            )

    def set_aside_journal(self) -> None:
        """Rename a refused journal out of the way (never deleted) and start a new review
        (opened on the runner, as any)."""
        if self.target is None or self.destination is None or self._source is None:
            return
        path = journal_path(self.data_dir, self.target.correlation_id)
        try:
            kept = set_aside(path, JournalKeys(self.key_dir))
        except OSError as exc:
            self.prompter.warn(self, "Journal not moved", f"{path} could not be renamed: {exc}")
            return
        self.ui.set_aside.hide()
        self._problem("")
        packet_path, data, inspection = self._source
        self.set_packet(
            packet_path, data, inspection, self.destination, ReviewPreparation(self.target)
        )
        self._open_note = f"The refused review was kept as {kept}; a new review started."

    # -- identity -------------------------------------------------------------------------

    def _reviewer(self) -> str | None:
        identity = load_identity(self.settings)
        if not identity.usable:
            self.prompter.ask_identity(self, self.settings)
            identity = self._show_identity()
        return identity.name if identity.usable else None

    def _show_identity(self) -> ReviewerIdentity:
        identity = load_identity(self.settings)
        text = f"Reviewer: {identity.name}" if identity.usable else "Reviewer: not set"
        if identity.fingerprint:
            text += f"  (your key {identity.fingerprint}, for the self-review warning)"
        if identity.key_problem:
            text += f"  (key file not usable: {identity.key_problem})"
        self.ui.reviewer.setText(text)
        source = self._source_fingerprint()
        own = identity.fingerprint is not None and identity.fingerprint == source
        self.ui.self_review.setVisible(own)
        self.ui.self_review.setText(
            f"Self-review: your reviewer key {source} is the key that authenticated this "
            "packet. Beliefs should be reviewed by someone other than their source."
            if own
            else ""
        )
        return identity

    def _source_fingerprint(self) -> str | None:
        auth = self.target.packet.get("authentication") if self.target else None
        value = auth.get("publicKeyFingerprint") if isinstance(auth, dict) else None
        return value if isinstance(value, str) else None

    # -- view -----------------------------------------------------------------------------

    def current_ref(self) -> str | None:
        value = self.table.currentIndex().data(REF_ROLE)
        return value if isinstance(value, str) else None

    def move_by(self, delta: int) -> None:
        row = self.table.currentIndex().row()
        self._select_proxy_row(max(0, row + delta) if row >= 0 else 0)

    def _advance_from(self, ref: str) -> None:
        source_row = self.model.row_of(ref)
        here = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if here.isValid():
            self._select_proxy_row(here.row() + 1)
            return
        # The decided row left the filter: the row now in its place is the next one.
        self._select_proxy_row(self.proxy.position(source_row))

    def _select_proxy_row(self, row: int) -> None:
        count = self.proxy.rowCount()
        if count == 0:
            self._show_current()
            return
        index = self.proxy.index(min(row, count - 1), 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def table_facts(self) -> TableFacts:
        return facts_of(self.model)

    def select_next_unreviewed(self) -> None:
        """The first unreviewed belief after the last one decided (wrapping), so a restored
        review continues where it stopped; the first row when nothing was decided."""
        review = self.review
        last = review.session.last_decision if review is not None else None
        rows = self.proxy.rows
        if last is None or not rows:
            self._select_proxy_row(0)
            return
        here = self.proxy.mapFromSource(self.model.index(self.model.row_of(last.portable_ref), 0))
        after = here.row() if here.isValid() else None
        found = next_unreviewed(self.table_facts(), rows, after)
        if found is not None:
            self._select_proxy_row(found)
        else:
            self._select_proxy_row(after if after is not None else 0)

    def _select_ref(self, ref: str) -> None:
        here = self.proxy.mapFromSource(self.model.index(self.model.row_of(ref), 0))
        if here.isValid():
            self._select_proxy_row(here.row())

    def _show_current(self) -> None:
        index = self.table.currentIndex()
        source = self.proxy.mapToSource(index) if index.isValid() else QModelIndex()
        belief = self.model.belief(source.row()) if source.isValid() else None
        review = self.review
        history = (
            review.session.history_of(belief.portable_ref)
            if review is not None and belief is not None
            else ()
        )
        since = None
        previous = self.previous
        if belief is not None and previous is not None:
            ref = belief.portable_ref
            change = previous.classification.changes.get(ref)
            if change is not None:
                since = SincePrevious(
                    change,
                    previous.earlier.get(ref),
                    previous.packet_id,
                    previous.earlier_content.get(ref),  # issue 20: old text beside new
                )
        self.detail.show_belief(belief, history, since)

    def _apply_filters(self, *, debounce: bool = False) -> None:
        """The filters changed: their rows come from the core (`RowFilter`); typing in a
        large table's filter box waits for a pause."""
        self.rows.request(self.ui.filters(), debounce=debounce)

    def _remember_current(self) -> None:
        ref = self.current_ref()
        self._current_before_reset = ref

    def _view_state(self) -> ReviewView:
        """What the reviewer looks at now (to put back after the packet is opened again)."""
        selection = self.table.selectionModel().selection()
        ranges = []
        for i in range(selection.count()):
            span = selection.at(i)
            first, last = self._ref_at(span.top()), self._ref_at(span.bottom())
            if first is not None and last is not None:
                ranges.append((first, last))
        comparing = self.previous_paths if self.previous is not None else None
        return ReviewView(
            self.current_ref(),
            tuple(ranges),
            self.table.verticalScrollBar().value(),
            comparing,
            self.ui.since_filter.currentIndex(),
        )

    def _ref_at(self, proxy_row: int) -> str | None:
        value = self.proxy.index(proxy_row, 0).data(REF_ROLE)
        return value if isinstance(value, str) else None

    def _proxy_row_of(self, ref: str | None) -> int | None:
        row = self.model.first_rows.get(ref) if ref is not None else None
        here = self.proxy.mapFromSource(self.model.index(row, 0)) if row is not None else None
        return here.row() if here is not None and here.isValid() else None

    def _put_back(self, view: ReviewView) -> None:
        """The highlighted and selected rows and the scroll position of ``view``, as far
        as those beliefs are still shown."""
        current = self._proxy_row_of(view.current)
        if current is None:
            self._select_proxy_row(0)
            return
        last_column = self.proxy.columnCount() - 1
        selection = QItemSelection()
        for first_ref, last_ref in view.selected:
            first, last = self._proxy_row_of(first_ref), self._proxy_row_of(last_ref)
            if first is not None and last is not None:
                selection.select(self.proxy.index(first, 0), self.proxy.index(last, last_column))
        model = self.table.selectionModel()
        flags = QItemSelectionModel.SelectionFlag
        model.setCurrentIndex(self.proxy.index(current, 0), flags.NoUpdate)
        model.select(selection, flags.ClearAndSelect | flags.Rows)
        self.table.updateGeometries()  # the scroll range of the new rows, before it is set
        self.table.verticalScrollBar().setValue(view.scroll)

    def _rows_shown(self) -> None:
        """New rows are in: the current belief stays current if still shown, else the
        first row; after an open, where the review continues (a first open) or what
        the reviewer looked at (the same packet again)."""
        view, self._restoring = self._restoring, None
        start, self._continue_at = self._continue_at, None
        if view is not None or start is not None:
            self._current_before_reset = None
            if view is not None:
                self._put_back(view)
            else:
                self._select_proxy_row(start or 0)
            return
        ref, self._current_before_reset = self._current_before_reset, None
        row = self.model.first_rows.get(ref) if ref is not None else None
        if row is not None:
            here = self.proxy.mapFromSource(self.model.index(row, 0))
            if here.isValid():
                self._select_proxy_row(here.row())
                return
        self._select_proxy_row(0)

    def _problem(self, text: str) -> None:
        self.ui.problem.setText(text)
        self.ui.problem.setVisible(bool(text))

    def _refresh(self, changed: Collection[str] | None = None) -> None:
        """Actions, texts and counts; ``changed``: the beliefs whose decision changed
        (None: any may have)."""
        review = self.review
        # While a step runs on the runner no other step starts (and nothing that reads
        # the review's steps, like an export).
        idle = self.step_task is None and self._waiting is None
        active = review is not None and idle
        for action in (*self.decide_actions.values(), *self.bulk_actions.values()):
            action.setEnabled(active)
        for button in self.ui.bulk_buttons.values():
            button.setEnabled(active)
        self.ui.set_aside.setEnabled(idle)
        self.export_action.setEnabled(active)
        self.compare_previous_action.setEnabled(active)
        self.cancel_step_action.setEnabled(not idle)
        self._show_previous()
        self.undo_action.setEnabled(active and review is not None and review.session.can_undo)
        self.redo_action.setEnabled(active and review is not None and review.session.can_redo)
        signer = self.signer
        described = "" if signer is None else signer.describe()
        set_tooltip(self.ui.signer, described)
        if signer is not None and signer.fingerprint is not None:
            # A wrapped label cannot break a 71-character fingerprint: shortened here,
            # in full in the tooltip, the export summary and Settings.
            described = described.replace(signer.fingerprint, short_fingerprint(signer.fingerprint))
        self.ui.signer.setText(described[:1].upper() + described[1:])
        stale = review.stale_export if review is not None else None
        self.ui.stale.setVisible(stale is not None)
        if stale is not None:
            self.ui.stale.setText(
                f"The receipt exported at {stale.completed_at} ({visible(stale.path)}) is out "
                "of date — export again (Ctrl+E)."
            )
        if review is None:
            self.ui.summary.setText("")
            return
        self.model.update_decisions(review.session.last_decisions(), changed)
        exported = review.last_export
        sealed = ""
        if exported is not None and stale is None:
            sealed = f" — receipt exported at {exported.completed_at}"
        elif review.session.sealed and stale is None:
            sealed = " — receipt exported"
        self.ui.summary.setText(summary_text(review.session.summary()).replace("\n", " ") + sealed)
        self._show_current()

    def _show_admission(self) -> None:
        notice = self.target.notice if self.target is not None else None
        changed = notice is not None and notice.changed
        self.ui.admission.setVisible(changed)
        self.ui.admission.setText(notice.text if notice is not None and changed else "")
        dropped = self.target.dropped if self.target is not None else None
        count = len(dropped) if dropped is not None else 0
        self.ui.dropped_button.setVisible(count > 0)
        self.ui.dropped_button.setText(
            f"Show the {count:,} dropped belief{'s' if count != 1 else ''}…"
        )
