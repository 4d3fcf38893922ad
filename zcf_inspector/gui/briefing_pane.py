"""The Briefing pane: a packet's capsule under headings, as wrapped, selectable plain text
(issue 20). Enter or a double-click on an item selects its node in the tree; a suspected
credential is shown masked until the reviewer reveals it on purpose; claims are checked
against a workspace folder the reviewer names (remembered per packet), and a receipt's
digest against a file they pick.

The pane renders only: the scan, the check, the briefing and its lines are made on the
window's TaskRunner (`briefing_work`), with progress in the status bar and Cancel here
and in the window (Ctrl+.). The text is never rich text: a read-only `QPlainTextEdit`
holds lines already escaped by `core.visible_text` (`briefing_lines`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QContextMenuEvent,
    QKeySequence,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QMenu,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.claims.workspace import ClaimCheck, WorkspaceError
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.pointer import resolve
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.core.visible_text import visible
from zcf_inspector.gui.briefing_lines import BriefingText, Line, ReceiptRef, revealed_text
from zcf_inspector.gui.briefing_view import BriefingView
from zcf_inspector.gui.briefing_work import (
    BriefingInput,
    BriefingResult,
    ReceiptResult,
    check_receipt,
    make_briefing,
    remember_workspace,
    remembered_workspace,
)
from zcf_inspector.gui.calm import when_calm
from zcf_inspector.gui.flow_layout import FlowLayout
from zcf_inspector.gui.plain_text import ElidedLabel, plain_label, set_tooltip
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.task_runner import TaskRunner
from zcf_inspector.opener.documents import PacketDocument

REVEAL_KEYS: Final = "Ctrl+Shift+V"
# The pane's keys, for Help → Keyboard Shortcuts (a test compares them with the view's).
BRIEFING_KEYS: Final = (
    ("Enter", "Select the item's node in the tree (a double-click does the same)"),
    ("Up / Down", "Move through the lines (each item's lines are highlighted together)"),
    (REVEAL_KEYS, "Reveal (or hide again) the suspected credential of the item"),
)

Chooser = Callable[[], str | None]


class BriefingPane(QWidget):
    pointerSelected = Signal(str)  # noqa: N815 - an item's tree node
    statusMessage = Signal(str)  # noqa: N815
    # The claims checked against the workspace (a WorkspaceCheck, or None: no folder named),
    # each time a briefing is made: the review's evidence shows them too.
    workspaceChecked = Signal(object)  # noqa: N815

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.store = settings_store()
        self.store.setParent(self)
        # Asked for a folder or a file; tests put their own here (no native dialog).
        self.choose_folder: Chooser = self._ask_folder
        self.choose_file: Callable[[ReceiptRef], str | None] = self._ask_file
        self.view = BriefingView()
        self.view.activated.connect(self._activate)
        self.view.cursorPositionChanged.connect(self._cursor_moved)
        self.state = plain_label("", wrap=True, selectable=True)
        self.folder_label = ElidedLabel("Workspace: none named")
        self.check_button = QPushButton("Check Against a &Workspace…")
        self.check_button.clicked.connect(self.choose_and_check)
        set_tooltip(
            self.check_button,
            "Name the folder the packet's files should be in; its local evidence sources "
            "and changed files are checked against it (remembered for this packet).",
        )
        self.again_button = QPushButton("Check A&gain")
        self.again_button.clicked.connect(self.check_again)
        self.forget_button = QPushButton("&Forget Folder")
        self.forget_button.clicked.connect(self.forget_folder)
        self.receipt_button = QPushButton("Check a &Receipt's File")
        self.receipt_menu = QMenu(self)
        self.receipt_button.setMenu(self.receipt_menu)
        self.reveal_button = QPushButton("Re&veal")
        self.reveal_button.clicked.connect(self.toggle_reveal)
        set_tooltip(
            self.reveal_button,
            f"Show the suspected credential of the item at the cursor as the packet holds it "
            f"({REVEAL_KEYS}); again to hide it.",
        )
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.reveal_action = QAction("Reveal the Suspected Credential", self)
        self.reveal_action.setShortcut(QKeySequence(REVEAL_KEYS))
        self.reveal_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.reveal_action.triggered.connect(self.toggle_reveal)
        self.view.addAction(self.reveal_action)
        self.view.installEventFilter(self)
        # The buttons wrap in a narrow window rather than widen the panes (a 1024-pixel
        # window keeps its tree readable).
        buttons = FlowLayout()
        for button in (
            self.check_button,
            self.again_button,
            self.forget_button,
            self.receipt_button,
            self.reveal_button,
            self.cancel_button,
        ):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.folder_label)
        layout.addLayout(buttons)
        layout.addWidget(self.state)
        self.state.hide()
        layout.addWidget(self.view, 1)
        self.source: BriefingInput | None = None
        self._scan_of: BriefingInput | None = None  # the packet ``result.scan`` is of
        self._scan: SecretScan | None = None
        self.path = ""
        self.result: BriefingResult | None = None
        self.text: BriefingText | None = None
        self.folder: str | None = None
        self.receipt_checks: dict[str, ClaimCheck] = {}
        self.revealed: set[int] = set()  # line numbers shown as the packet holds them
        self._task: int | None = None
        self._ticket = 0
        self._update_buttons()

    # --- a packet ---------------------------------------------------------------------

    def set_packet(self, document: PacketDocument, destination: Destination | None) -> None:
        """Brief ``document`` (a first load, a reload or a re-verification): the scan, and
        the remembered workspace's check, run on the runner."""
        self.source = BriefingInput(document.inspection, destination)
        self._scan = document.secrets  # the open scanned the packet: not scanned again
        self.path = document.path
        self.receipt_checks = {}
        self.folder = remembered_workspace(self.store, document.path)
        self._run_briefing("scanning for suspected credentials")

    def _run_briefing(self, what: str) -> None:
        source, folder = self.source, self.folder
        if source is None:
            return
        # The open's scan of this packet (or the one made here before): a workspace check
        # does not scan again.
        scan = self._scan
        if scan is None and self.result is not None and self._scan_of is source:
            scan = self.result.scan
        checks = dict(self.receipt_checks)
        # Started now (the runner is busy from the load on), but the work waits until the
        # UI thread is calm: the new tab's first paints come first (`gui/calm.py`).
        ready = when_calm(self)
        self._start(
            what,
            lambda monitor: make_briefing(
                source, folder, monitor, scan=scan, receipt_checks=checks, ready=ready
            ),
            self._briefed,
        )

    def _start(
        self, what: str, work: Callable[..., object], done: Callable[[object], None]
    ) -> None:
        self.cancel()
        self._ticket += 1
        ticket = self._ticket
        self._say(what + "…")

        def finished(result: object) -> None:
            if ticket == self._ticket:
                self._task = None
                done(result)
                self._update_buttons()

        def failed(details: str) -> None:
            if ticket == self._ticket:
                self._task = None
                last = details.strip().splitlines()[-1] if details.strip() else "failed"
                self._say(f"{what} failed: {visible(last)}")
                self._update_buttons()

        def cancelled() -> None:
            if ticket == self._ticket:
                self._task = None
                self._update_buttons()

        self._task = self.runner.start("briefing", work, finished, failed, on_cancelled=cancelled)
        self._update_buttons()

    def _say(self, text: str) -> None:
        """The pane's state line (hidden when there is nothing to say)."""
        self.state.setText(text)
        self.state.setVisible(bool(text))

    def cancel(self) -> None:
        """Stop the pane's running work (the briefing shown stays as it was)."""
        if self._task is not None and self.runner.running(self._task):
            self.runner.cancel(self._task)
            self._say("cancelled")
        self._task = None
        self._ticket += 1
        self._update_buttons()

    @property
    def busy(self) -> bool:
        return self._task is not None and self.runner.running(self._task)

    def dispose(self) -> None:
        self.cancel()

    def _briefed(self, result: object) -> None:
        assert isinstance(result, BriefingResult)
        self.result = result
        self._scan_of = self.source
        workspace = result.briefing.workspace
        self._say(visible(workspace.summary()) if workspace is not None else result.workspace_note)
        self._show(result.text)
        self.workspaceChecked.emit(workspace)

    def _show(self, text: BriefingText) -> None:
        """Set the lines (keeping the cursor's line), paint headings and tones."""
        keep = self.view.textCursor().blockNumber()
        scroll = self.view.verticalScrollBar().value()
        self.text = text
        self.revealed = set()
        self.view.set_lines(text.text, tuple(line.style for line in text.lines))
        cursor = QTextCursor(self.view.document().findBlockByNumber(min(keep, len(text.lines) - 1)))
        self.view.setTextCursor(cursor)
        self.view.verticalScrollBar().setValue(scroll)
        self._fill_receipts(text.receipts)
        self._folder_shown()
        self._cursor_moved()

    def eventFilter(self, watched: object, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.view and event.type() == QEvent.Type.PaletteChange:
            self.view.restyle()
        if watched is self.view and isinstance(event, QContextMenuEvent):
            self._context_menu(event)
            return True
        return super().eventFilter(watched, event)  # type: ignore[arg-type]

    def _context_menu(self, event: QContextMenuEvent) -> None:
        menu = self.view.createStandardContextMenu()
        menu.addSeparator()
        select = menu.addAction("Select in the Tree")
        number = self.view.cursorForPosition(event.pos()).blockNumber()
        select.triggered.connect(lambda: self._activate(number))
        self.view.setTextCursor(QTextCursor(self.view.document().findBlockByNumber(number)))
        menu.addAction(self.reveal_action)
        menu.exec(event.globalPos())
        menu.deleteLater()

    # --- lines ------------------------------------------------------------------------

    def line(self, number: int) -> Line | None:
        if self.text is None or not 0 <= number < len(self.text.lines):
            return None
        return self.text.lines[number]

    def line_text(self, number: int) -> str:
        """The text of a line as shown (its block), for tests and copying."""
        return self.view.document().findBlockByNumber(number).text()

    def find_line(self, needle: str, start: int = 0) -> int:
        """The first line at or after ``start`` whose shown text holds ``needle``; -1."""
        for number in range(start, self.view.document().blockCount()):
            if needle in self.line_text(number):
                return number
        return -1

    def go_to_line(self, number: int) -> None:
        self.view.setTextCursor(QTextCursor(self.view.document().findBlockByNumber(number)))
        self.view.centerCursor()

    def _activate(self, number: int) -> None:
        line = self.line(number)
        if line is not None and line.pointer is not None:
            self.pointerSelected.emit(line.pointer)

    def _cursor_moved(self) -> None:
        """The item at the cursor: its lines highlighted, Reveal offered if it hides one."""
        number = self.view.textCursor().blockNumber()
        line = self.line(number)
        selections = []
        if line is not None and self.text is not None and line.group >= 0:
            lines = self.text.lines
            first = number
            while first > 0 and lines[first - 1].group == line.group:
                first -= 1
            last = number
            while last + 1 < len(lines) and lines[last + 1].group == line.group:
                last += 1
            colour = QColor(self.view.palette().color(self.view.palette().ColorRole.Highlight))
            colour.setAlpha(40)
            for n in range(first, last + 1):
                selection = QTextEdit.ExtraSelection()
                selection.format.setBackground(colour)
                selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                cursor = QTextCursor(self.view.document().findBlockByNumber(n))
                selection.cursor = cursor
                selections.append(selection)
        self.view.setExtraSelections(selections)
        self._update_buttons()

    def _reveal_line(self) -> int | None:
        """The line of the item at the cursor that shows a masked text, if any."""
        number = self.view.textCursor().blockNumber()
        line = self.line(number)
        if line is None or self.text is None:
            return None
        if line.reveal is not None:
            return number
        if line.group < 0:
            return None
        while number > 0 and self.text.lines[number - 1].group == line.group:
            number -= 1
        return number if self.text.lines[number].reveal is not None else None

    # --- reveal -----------------------------------------------------------------------

    def toggle_reveal(self) -> None:
        """Show the item's text as the packet holds it (escaped, never interpreted), or
        mask it again. Read from the packet by pointer: the briefing keeps no value."""
        number = self._reveal_line()
        if number is None or self.text is None or self.source is None:
            self.statusMessage.emit(
                "Nothing to reveal here: the item holds no suspected credential."
            )
            return
        line = self.text.lines[number]
        if number in self.revealed:
            self.revealed.discard(number)
            self._replace_block(number, line.text)
            self.statusMessage.emit("Masked again.")
        else:
            try:
                raw = resolve(self.source.inspection.value, line.reveal or "")
            except (KeyError, ValueError):
                return
            if not isinstance(raw, str):
                return
            self.revealed.add(number)
            self._replace_block(number, revealed_text(line, raw))
            self.statusMessage.emit(
                "Revealed: the suspected credential is shown as the packet holds it."
            )
        self._update_buttons()

    def _replace_block(self, number: int, text: str) -> None:
        cursor = QTextCursor(self.view.document().findBlockByNumber(number))
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text, QTextCharFormat())
        self.view.block_changed(number)
        self.view.setTextCursor(QTextCursor(self.view.document().findBlockByNumber(number)))

    # --- the workspace ----------------------------------------------------------------

    def _ask_folder(self) -> str | None:
        folder = QFileDialog.getExistingDirectory(
            self, "The workspace this packet's files should be in", self.folder or ""
        )
        return folder or None

    def _ask_file(self, receipt: ReceiptRef) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, f"The file of {receipt.label}")
        return path or None

    def choose_and_check(self) -> None:
        folder = self.choose_folder()
        if not folder:
            return
        self.folder = folder
        remember_workspace(self.store, self.path, folder)
        self._run_briefing("checking claims against the workspace")

    def check_again(self) -> None:
        if self.folder:
            self._run_briefing("checking claims against the workspace")

    def forget_folder(self) -> None:
        self.folder = None
        remember_workspace(self.store, self.path, None)
        self._run_briefing("writing the briefing")

    def _folder_shown(self) -> None:
        text = f"Workspace: {visible(self.folder)}" if self.folder else "Workspace: none named"
        self.folder_label.set_full_text(text)

    # --- receipts ---------------------------------------------------------------------

    def _fill_receipts(self, receipts: tuple[ReceiptRef, ...]) -> None:
        self.receipt_menu.clear()
        for receipt in receipts:
            # An "&" of the packet's text is a mnemonic in a menu's text: doubled, shown.
            action = self.receipt_menu.addAction(receipt.label.replace("&", "&&") + "…")
            action.triggered.connect(lambda _=False, r=receipt: self.check_receipt_file(r))
        self._update_buttons()

    def check_receipt_file(self, receipt: ReceiptRef) -> None:
        file = self.choose_file(receipt)
        if not file or self.source is None or self.result is None:
            return
        source, briefing = self.source, self.result.briefing
        checks, note = dict(self.receipt_checks), self.result.workspace_note

        def done(result: object) -> None:
            if isinstance(result, str):  # the core found no receipt with that id
                self._say(f"not checked: {visible(result)}")
                return
            assert isinstance(result, ReceiptResult)
            self.receipt_checks[receipt.pointer] = result.check
            self._say(f"{visible(result.check.subject)}: {visible(result.check.words)}")
            self._show(result.text)

        def work(monitor: Monitor) -> ReceiptResult | str:
            try:
                return check_receipt(
                    source,
                    briefing,
                    receipt,
                    file,
                    checks=checks,
                    monitor=monitor,
                    workspace_note=note,
                )
            except WorkspaceError as error:
                return str(error)

        self._start("checking a receipt's file", work, done)

    def _update_buttons(self) -> None:
        busy = self.busy
        readable = self.source is not None and self.source.inspection.value is not None
        self.check_button.setEnabled(readable and not busy)
        self.again_button.setEnabled(readable and bool(self.folder) and not busy)
        self.forget_button.setEnabled(bool(self.folder) and not busy)
        self.receipt_button.setEnabled(readable and not busy and not self.receipt_menu.isEmpty())
        self.reveal_button.setEnabled(self._reveal_line() is not None)
        self.reveal_button.setText("Hi&de" if self._reveal_line() in self.revealed else "Re&veal")
        self.cancel_button.setVisible(busy)
