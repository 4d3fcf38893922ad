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

The pane is a thin widget: the review's state and every decision about it are the
controller's (`present.review.controller.ReviewController`); the pane asks the reviewer
(`questions`), takes the steps (`steps`), opens reviews on the runner (`open_flow`), keeps
the reviewer's place in the table (`cursor`) and renders what the controller says.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QTableView, QVBoxLayout, QWidget

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.previous import PreviousGeneration
from zcf_inspector.core.review.session import Step
from zcf_inspector.core.review.target import ReviewPreparation, ReviewTarget
from zcf_inspector.gui.header_drag import UserResizes
from zcf_inspector.gui.plain_text import visible, visible_lines
from zcf_inspector.gui.release import RELEASER
from zcf_inspector.gui.review import layout, render
from zcf_inspector.gui.review.actions import make_actions
from zcf_inspector.gui.review.closing import confirm_close
from zcf_inspector.gui.review.comparing import Comparing
from zcf_inspector.gui.review.context import PaneContext
from zcf_inspector.gui.review.cursor import TableCursor
from zcf_inspector.gui.review.deciding import Decider
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.dropped import DroppedBeliefsDialog
from zcf_inspector.gui.review.export_flow import export_receipt
from zcf_inspector.gui.review.identity_bar import NAME_FIRST, IdentityBar
from zcf_inspector.gui.review.open_flow import ReviewOpener
from zcf_inspector.gui.review.opening import OpenedReview, ReviewView
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.receipts import ReceiptCheck, check_receipt_file
from zcf_inspector.gui.review.row_filter import RowFilter
from zcf_inspector.gui.review.settings import (
    ReviewerIdentity,
    identity_scope,
    load_identity,
    save_identity,
)
from zcf_inspector.gui.review.steps import StepRunner
from zcf_inspector.gui.review.storage import default_data_dir, default_key_dir, set_aside_journal
from zcf_inspector.gui.review.triage import make_triage_actions
from zcf_inspector.gui.review.weak import WeakParent, weak_call
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.gui.theme import Tone, ToneLabel
from zcf_inspector.present.review.controller import (
    COMPARISON_CLEARED,
    NO_DESTINATION,
    ReviewController,
)
from zcf_inspector.present.review.table import TableFacts

SAVE_DELAY_MS = 400
LAST_NAME_KEY = "review/lastReviewerName"
# The packets and receipts open in the window's other tabs, offered as the previous
# generation (the window sets it; a pane on its own offers none).
OpenFiles = Callable[[], tuple[list[OpenFile], list[OpenFile]]]


def no_open_files() -> tuple[list[OpenFile], list[OpenFile]]:
    return [], []


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
        self.controller = ReviewController()
        self.ui = layout.build_widgets(self)
        self.identity_bar = IdentityBar(self)
        self.identity_bar.hide()
        pane_layout = self.layout()
        assert isinstance(pane_layout, QVBoxLayout)
        pane_layout.insertWidget(0, self.identity_bar)
        # What carrying the review over to new settings did (issue 31): kept in view.
        self.carried_label = ToneLabel(Tone.CAUTION, wrap=True)
        self.carried_label.hide()
        pane_layout.insertWidget(1, self.carried_label)
        self.identity_bar.chosen.connect(self._identity_chosen)
        self.table: QTableView = self.ui.table
        self.model, self.proxy, self.detail = self.ui.model, self.ui.proxy, self.ui.detail
        self.detail.confirm = self.prompter.confirm
        self.dropped_dialog: DroppedBeliefsDialog | None = None
        # Heavy work (reading and comparing a previous generation) runs here: the
        # window's runner, whose progress and Cancel are in its status bar.
        self.runner = runner if runner is not None else TaskRunner(self)
        self.open_files: OpenFiles = no_open_files
        self.rows = RowFilter(self.proxy, self.model, self.runner, self)
        shown = weak_call(self._show_current, None)
        self.table_cursor = TableCursor(self.table, self.proxy, self.model, shown)
        # The parts hold the pane weakly (`weak`): no reference cycle runs through it.
        context = PaneContext(
            WeakParent(self), self.controller, self.prompter, self.runner, self.ui, self.rows
        )
        show, problem = weak_call(self._show_opened, None), weak_call(self._problem, None)
        self.opener = ReviewOpener(context, show=show, problem=problem)
        refresh, reviewer = weak_call(self._refresh, None), weak_call(self._reviewer, None)
        self.steps = StepRunner(context, refresh=refresh, reported=self.opener.resume)
        self.decider = Decider(context, self.table_cursor, self.steps, reviewer=reviewer)
        filters = weak_call(self._apply_filters, None)
        self.comparing = Comparing(
            context, self.steps, reviewer=reviewer, apply_filters=filters, refresh=refresh
        )
        self._source: tuple[str, bytes, PacketInspection] | None = None  # what is shown
        self._open_note = ""  # said once the open in progress is shown
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save_layout)
        self.pane_actions = a = make_actions(self, self.ui, self)
        self.decide_actions, self.bulk_actions = a.decide, a.bulk
        self.undo_action, self.redo_action, self.export_action = a.undo, a.redo, a.export
        self.compare_previous_action, self.repeat_action = a.compare_previous, a.repeat
        self.stop_previous_action, self.cancel_step_action = a.stop_previous, a.cancel_step
        self.triage_actions = make_triage_actions(self, self)  # F, X, N (issue 31)
        self._connect()
        self.restore_layout()
        self._show_identity()
        self._refresh()

    # -- what the controller holds ----------------------------------------------------------

    @property
    def target(self) -> ReviewTarget | None:
        return self.controller.target

    @property
    def review(self) -> JournaledReview | None:
        return self.controller.review

    @property
    def previous(self) -> PreviousGeneration | None:
        return self.controller.previous

    @property
    def opening(self) -> bool:
        """Whether an open is under way (its review is not shown yet)."""
        return self.controller.opening

    @property
    def step_running(self) -> bool:
        return self.controller.step_task is not None

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

        def view_now() -> ReviewView:
            c = self.controller
            comparing = c.previous_paths if c.previous is not None else None
            return self.table_cursor.view_state(comparing, self.ui.since_filter.currentIndex())

        dirs = (self.data_dir, self.key_dir)
        if self.opener.open(
            path, data, inspection, destination, prepared, dirs=dirs, view_now=view_now
        ):
            self._refresh()
        else:
            self._show_opened(path, data, inspection, None, None)

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
        self.table_cursor.restoring, self.table_cursor.continue_at = None, None
        self._source = (path, data, inspection)
        # The previous review (200,000 beliefs and decisions) is freed off the UI thread
        # once every part of the pane has let go of it (`gui/release.py`).
        RELEASER.let_go(self.controller.target, self.controller.review)
        self.controller.show(path, destination)
        if self.comparing.forget() and (view is None or view.previous_paths is None):
            # Opened again (reloaded, another destination): what was compared may differ.
            self.statusMessage.emit(COMPARISON_CLEARED)
        self.ui.set_aside.hide()
        self._close_dropped()
        self._show_admission()
        self._problem("")
        self.ui.status.setText("")
        self.model.reset((), {}, {})
        self.rows.request(self.ui.filters())  # drops any answer still coming for the last
        if destination is None or opened is None:
            if destination is None:
                self._problem(NO_DESTINATION)
            self._refresh()
            return
        prepared = opened.prepared
        if prepared.target is None:
            self._problem(f"Nothing to review: {prepared.problem}.")
            self._refresh()
            return
        target = self.controller.target = prepared.target
        self._show_admission()
        self.model.reset(target.beliefs, opened.evidence, {}, target.rows)
        self.detail.set_packet(target.packet, opened.detail)
        self.model.set_secrets(self.detail.secrets)  # issue 20: the rows the scan flags
        self._show_journal(opened.review)
        self._show_carried(opened)
        self._show_identity()
        refused = self.comparing.made_again(opened.previous, view)
        if refused is not None:
            self.statusMessage.emit(refused)
        if self._open_note:
            self.ui.status.setText(self._open_note)
            self._open_note = ""
        review = self.controller.review
        last = review.session.last_decision if review is not None else None
        self.table_cursor.opened(self.rows, self.ui.filters(), opened, last)

    def export_receipt(self) -> None:
        """Summary, confirmation if beliefs are left, then an atomic, signed receipt."""

        def written(path: str) -> None:
            self._refresh()
            self.statusMessage.emit(f"Receipt written to {visible(path)}")

        export_receipt(self.prompter, self, self.controller, written=written)

    def confirm_close(self) -> bool:
        """Closing is fine unless decisions are in no exported receipt: then ask Export…,
        Keep for later or Discard (`closing`); False: stay open."""
        return confirm_close(
            self.prompter,
            self,
            self.controller,
            (self.data_dir, self.key_dir),
            refresh=self._refresh,
            status=self.statusMessage.emit,
        )

    def focus_table(self) -> None:
        """Alt+4: the keyboard goes to the beliefs, where C, R, S, U, J and K work — or,
        while no reviewer is chosen, to the name asked above them."""
        self._show_identity()  # chosen elsewhere meanwhile (another tab, Settings)?
        if not self.identity_bar.isHidden():
            self.identity_bar.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.table.currentIndex().isValid():
            self.table_cursor.select_row(0)

    def show_dropped(self) -> DroppedBeliefsDialog | None:
        """The beliefs admission left out, read-only, in a window beside the pane."""
        text = self.controller.dropped_text()
        target = self.controller.target
        if text is None or target is None or target.dropped is None:
            return None
        self._close_dropped()
        self.dropped_dialog = DroppedBeliefsDialog(target.dropped, text, self)
        self.dropped_dialog.show()
        return self.dropped_dialog

    def _close_dropped(self) -> None:
        if self.dropped_dialog is not None:
            self.dropped_dialog.close()
            self.dropped_dialog.deleteLater()
            self.dropped_dialog = None

    def restore_layout(self) -> None:
        layout.restore_layout(self.settings, self.ui)

    def save_layout(self) -> None:
        layout.save_layout(self.settings, self.ui)

    def open_receipt(self, path: str) -> ReceiptCheck:
        """Verify a receipt file and match it to the open packet; the result is shown too."""
        check = check_receipt_file(path, self.controller.target, self.controller.destination)
        self.ui.receipt_status.setText(visible_lines("\n".join(check.lines)))
        self.ui.receipt_status.show()
        return check

    def edit_reviewer(self) -> None:
        self.prompter.ask_identity(self, self.settings, self.identity_scope)
        self._show_identity()

    def review_actions(self) -> list[QAction]:
        """For a Review menu and Help → Shortcuts (the same objects, so no ambiguity)."""
        actions = self.pane_actions.for_menu()
        at = actions.index(self.pane_actions.settings)  # in the Review menu's order
        return [*actions[:at], *self.triage_actions, *actions[at:]]

    def _connect(self) -> None:
        ui = self.ui
        ui.set_aside.clicked.connect(self.set_aside_journal)
        for combo in (ui.state_filter, ui.admission_filter, ui.evidence_filter, ui.since_filter):
            combo.currentIndexChanged.connect(lambda *_: self._apply_filters())
        ui.repeat_button.clicked.connect(self.repeat_earlier)
        ui.stop_previous_button.clicked.connect(self.stop_comparing)
        ui.text_filter.textChanged.connect(lambda *_: self._apply_filters(debounce=True))
        # A new set of rows: the current belief stays current when it is still shown.
        self.proxy.modelAboutToBeReset.connect(self.table_cursor.remember_current)
        self.rows.rowsShown.connect(self.table_cursor.rows_shown)
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
        """C, R, S, U: decide the highlighted belief and move on (`deciding.Decider`)."""
        self.decider.decide_current(state)

    def bulk_decide(self, state: ReviewState) -> None:
        """One step over the selected rows (when several are) or every shown row."""
        self.decider.bulk_decide(state)

    def _record(self, requests: list[DecisionRequest], reviewer: str) -> bool:
        """A small step, on the UI thread (a single decision takes a few milliseconds)."""
        return self.steps.record(requests, reviewer)

    def cancel_step(self) -> None:
        """Esc: stop the step in progress (it stops unless it is in the journal already)."""
        self.steps.cancel()

    def undo(self) -> None:
        self.steps.history(redo=False, done=self._show_history_step)

    def redo(self) -> None:
        self.steps.history(redo=True, done=self._show_history_step)

    def _show_history_step(self, step: Step) -> None:
        self.table_cursor.select_ref(step.decisions[0].portable_ref)

    # -- the previous generation ----------------------------------------------------------

    def compare_with_previous(self) -> None:
        """Ask for the previous generation's packet and receipt, then compare off the UI
        thread; nothing is repeated until `repeat_earlier` is asked for."""
        chosen = self.comparing.ask(self.open_files)
        if chosen is not None:
            self.load_previous(*chosen)

    def load_previous(self, packet_path: str, receipt_path: str) -> int | None:
        """Read, verify and compare on the runner; returns its task id."""
        return self.comparing.load(packet_path, receipt_path)

    def set_previous(self, previous: PreviousGeneration, paths: tuple[str, str]) -> None:
        """Show the comparison, and filter to what changed since that receipt."""
        self.comparing.show(previous, paths)

    def stop_comparing(self) -> None:
        self.comparing.forget()
        self._apply_filters()
        self._refresh()

    def repeat_earlier(self) -> None:
        """Repeat the earlier decisions on unchanged beliefs (`comparing.Comparing`)."""
        self.comparing.repeat_earlier()

    # -- journal --------------------------------------------------------------------------

    def _show_journal(self, review: JournaledReview | ReviewError | None) -> None:
        """Show the review restored from the journal, or why the journal was refused."""
        refusal = self.controller.journal_opened(review)
        if refusal is not None:
            self._problem(refusal.message)
            if refusal.set_aside:
                self.ui.set_aside.show()
            self.prompter.warn(self, refusal.title, refusal.message)
            self._refresh()
            return
        self._refresh()
        restored = self.controller.restored_text()
        if restored:
            self.ui.status.setText(restored)

    def _show_carried(self, opened: OpenedReview | None) -> None:
        carry = opened.carried if opened is not None else None
        if carry is None:
            if opened is not None and opened.request.view is None:
                self.carried_label.hide()  # another packet: a note of the last is gone
            return
        text = self.controller.carried_text(carry)
        self.carried_label.setText(text)
        self.carried_label.show()
        self.statusMessage.emit(text)

    def set_aside_journal(self) -> None:
        """Rename a refused journal out of the way (never deleted) and start a new review
        (opened on the runner, as any)."""
        c = self.controller
        if c.target is None or c.destination is None or self._source is None:
            return
        kept = set_aside_journal(self.data_dir, self.key_dir, c.target.correlation_id)
        if isinstance(kept, str):
            self.prompter.warn(self, "Journal not moved", kept)
            return
        self.ui.set_aside.hide()
        self._problem("")
        packet_path, data, inspection = self._source
        self.set_packet(packet_path, data, inspection, c.destination, ReviewPreparation(c.target))
        self._open_note = f"The refused review was kept as {kept}; a new review started."

    # -- identity -------------------------------------------------------------------------

    @property
    def identity_scope(self) -> str:
        """Where the reviewer is kept: per destination (`settings.identity_scope`)."""
        return identity_scope(self.controller.destination)

    def _reviewer(self) -> str | None:
        """Who decides; None (and nothing is decided) until a name is chosen in the bar
        above the table. Never a dialog: a key pressed next would become the name."""
        identity = load_identity(self.settings, self.identity_scope)
        if identity.usable:
            return identity.name
        self._show_identity()
        self.ui.status.setText(NAME_FIRST)
        self.statusMessage.emit(NAME_FIRST)
        return None

    def _identity_chosen(self, name: str) -> None:
        key_file = load_identity(self.settings, self.identity_scope).key_file
        save_identity(self.settings, name, key_file, self.identity_scope)
        self.settings.setValue(LAST_NAME_KEY, name)  # offered for the next destination
        self._show_identity()
        self.ui.status.setText(f"Reviewing as {visible(name)}.")
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _show_identity(self) -> ReviewerIdentity:
        identity = load_identity(self.settings, self.identity_scope)
        render.show_identity(self.ui, self.controller, identity)
        if identity.usable or self.controller.target is None:
            self.identity_bar.hide()
        else:
            last = self.settings.value(LAST_NAME_KEY, "")
            self.identity_bar.offer(last if isinstance(last, str) else "")
        return identity

    # -- view -----------------------------------------------------------------------------

    def current_ref(self) -> str | None:
        return self.table_cursor.current_ref()

    def move_by(self, delta: int) -> None:
        self.table_cursor.move_by(delta)

    def table_facts(self) -> TableFacts:
        return self.table_cursor.table_facts()

    def _show_current(self) -> None:
        render.show_current(self.ui, self.controller)

    def _apply_filters(self, *, debounce: bool = False) -> None:
        """The filters changed: their rows come from the core (`RowFilter`); typing in a
        large table's filter box waits for a pause."""
        self.rows.request(self.ui.filters(), debounce=debounce)

    def _problem(self, text: str) -> None:
        self.ui.problem.setText(text)
        self.ui.problem.setVisible(bool(text))

    def _refresh(self, changed: Collection[str] | None = None) -> None:
        """Actions, texts and counts; ``changed``: the beliefs whose decision changed
        (None: any may have)."""
        render.refresh(self.ui, self.pane_actions, self.controller, changed)

    def _show_admission(self) -> None:
        render.show_admission(self.ui, self.controller)
