"""The selected belief in full: content, evidence anchors with their sources, and history.

Everything shown is computed by the presentation layer: the evidence lines
(`present.review.evidence`), the masked content of a belief the secret scan flags
(`present.review.secrets`) and, for a belief changed since the previous generation, the
earlier admitted text beside the new one with the changed words marked
(`present.review.text_changes`). The widgets only set that plain text and paint those spans
(extra selections over a read-only `QPlainTextEdit`: never rich text).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.claims.workspace import WorkspaceCheck
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.gui import messages
from zcf_inspector.gui.briefing_lines import Style
from zcf_inspector.gui.briefing_view import BriefingView
from zcf_inspector.gui.clipboard import set_clipboard
from zcf_inspector.gui.escape_tokens import install_on_editor
from zcf_inspector.gui.plain_text import masked_shown, plain_label, set_tooltip, visible_lines
from zcf_inspector.gui.theme import Tone, tone_background
from zcf_inspector.present.review.evidence import (
    DetailIndex,
    EvidenceLine,
    LineStyle,
    WorkspaceFacts,
    event_note,
    evidence_lines,
    workspace_facts,
)
from zcf_inspector.present.review.rows import ONE_LINE_CHARS, note_text
from zcf_inspector.present.review.secrets import (
    ReviewSecrets,
    copy_secret_question,
    hit_words,
    masked,
    scan_text,
)
from zcf_inspector.present.review.text_changes import ShownText, text_change

CONTENT_LIMIT = 1_000_000  # characters of a belief's content shown (admission cuts it far shorter)
Confirm = Callable[[QWidget, str, str], bool]  # parent, title, text: yes or no
COPY_SECRET_QUESTION: Final = copy_secret_question("This belief's content", "the content")
EVIDENCE_KEYS: Final = "E"  # from the table: the keyboard goes to the evidence
REVEAL_KEYS: Final = "Ctrl+Shift+V"  # as in the Briefing pane
# The detail's keys, for Help → Keyboard Shortcuts (a test compares them with the actions).
DETAIL_KEYS: Final = (
    (EVIDENCE_KEYS, "Go to the selected belief's evidence (from the table)"),
    ("Enter", "In the evidence: select the anchor, source or receipt in the tree"),
    (REVEAL_KEYS, "Reveal (or mask again) the belief's suspected credential"),
)

__all__ = ["DETAIL_KEYS", "BeliefDetail", "SincePrevious"]
# The evidence's styles painted as the Briefing's: an entry's first line bold.
_STYLES: Final = {
    LineStyle.PLAIN: Style.PLAIN,
    LineStyle.HEADING: Style.HEADING,
    LineStyle.ITEM: Style.HEADING,
    LineStyle.DETAIL: Style.DETAIL,
    LineStyle.GOOD: Style.GOOD,
    LineStyle.CAUTION: Style.CAUTION,
}


@dataclass(frozen=True, slots=True)
class SincePrevious:
    """The belief against the previous generation's receipt (while comparing with it)."""

    change: BeliefChange
    earlier: Decision | None  # its last decision in that receipt
    packet_id: str  # the previous packet's
    earlier_content: str | None = None  # what that generation admitted, when changed


_SINCE_WORDS = {
    BeliefChange.NEW: "new since the previous receipt",
    BeliefChange.CHANGED: "content changed since the previous receipt",
    BeliefChange.UNCHANGED: "unchanged since the previous receipt",
}


def _s(value: JsonValue) -> str:
    return masked_shown(value, ONE_LINE_CHARS) if isinstance(value, str) else ""


def _note(note: str | None) -> str:
    return "" if note is None else note_text(note, ONE_LINE_CHARS)


class BeliefDetail(QWidget):
    """The selected belief below the table, across the pane's whole width: its content
    in full (wrapped) gets most of it, with the earlier text above it while comparing;
    evidence and history share a tab beside it."""

    pointerSelected = Signal(str)  # noqa: N815 - an evidence entry's node, for the tree

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._index = DetailIndex()
        self._check: WorkspaceCheck | None = None
        self._workspace: WorkspaceFacts | None = None
        self._belief: AdmittedBelief | None = None
        self._decisions: Sequence[Decision] = ()
        self._since: SincePrevious | None = None
        self.revealed = False  # the current belief's suspected credential shown as it is
        self._flagged = False  # its content, or its earlier text, holds one
        self.title = plain_label(wrap=True, selectable=True)
        self.secret_note = plain_label(wrap=True, selectable=True)
        self.secret_note.hide()
        self.content = _text_box("Content of the selected belief")
        self.earlier_label = plain_label(wrap=True)
        self.earlier = _text_box("Content the previous generation admitted")
        self.now_label = plain_label("Admitted now (inserted words marked):", wrap=True)
        for widget in (self.earlier_label, self.earlier, self.now_label):
            widget.hide()
        # The content is shown escaped, as everywhere (a bidi override would reorder what
        # the reviewer reads); the text as the packet wrote it is one click away.
        self.copy_raw_button = QPushButton("Copy raw value")
        set_tooltip(
            self.copy_raw_button,
            "Copy the belief's content as admitted, unescaped (controls, bidi and "
            "invisible characters included) to the clipboard",
        )
        self.copy_raw_button.clicked.connect(self.copy_raw_value)
        self.copy_raw_button.setEnabled(False)
        self._raw = ""
        self.confirm: Confirm = messages.confirm  # the pane's prompter asks, once wired
        self.reveal_action = QAction("Reveal the suspected credential", self)
        self.reveal_action.setShortcut(QKeySequence(REVEAL_KEYS))
        self.reveal_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.reveal_action.triggered.connect(self.toggle_reveal)
        self.addAction(self.reveal_action)
        self.reveal_button = QPushButton("Reveal")
        self.reveal_button.clicked.connect(self.toggle_reveal)
        set_tooltip(
            self.reveal_button,
            f"Show the belief's suspected credential as admitted ({REVEAL_KEYS}); again to mask it",
        )
        self.reveal_button.hide()
        self.evidence = BriefingView()
        self.evidence.setAccessibleName("Evidence of the selected belief")
        self.evidence.activated.connect(self._activate)
        self.evidence.installEventFilter(self)
        self.evidence_lines: tuple[EvidenceLine, ...] = ()
        self.evidence_action = QAction("Go to the evidence", self)
        self.evidence_action.setShortcut(QKeySequence(EVIDENCE_KEYS))
        self.evidence_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.evidence_action.triggered.connect(self.focus_evidence)
        self.history = QTreeWidget()
        self.history.setHeaderLabels(["At", "Reviewer", "From", "To", "Note", "Where"])
        self.history.setRootIsDecorated(False)
        self.side = QTabWidget()
        self.side.setDocumentMode(True)
        self.side.addTab(self.evidence, "Evidence")
        self.side.addTab(self.history, "History")
        texts = QWidget()
        texts_layout = QVBoxLayout(texts)
        texts_layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.earlier_label, self.earlier, self.now_label):
            texts_layout.addWidget(widget)
        texts_layout.addWidget(self.content, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("reviewDetailSplitter")
        self.splitter.addWidget(texts)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.reveal_button, 0, Qt.AlignmentFlag.AlignTop)
        heading.addWidget(self.copy_raw_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading)
        layout.addWidget(self.secret_note)
        layout.addWidget(self.splitter, 1)

    # --- what is shown -----------------------------------------------------------------

    @property
    def secrets(self) -> ReviewSecrets:
        """What the secret scan (made with the review's open) flags in this packet."""
        return self._index.secrets

    def set_packet(self, packet: Mapping[str, JsonValue], index: DetailIndex | None = None) -> None:
        """``index``: the packet's `detail_index`, made with the review's open (on the
        runner). The workspace check stays: it is kept where it still describes the
        packet's sources (`workspace_facts`)."""
        self._index = index if index is not None else DetailIndex()
        self._workspace = None if self._check is None else workspace_facts(self._check, self._index)
        self.show_belief(None, ())

    def set_workspace(self, check: WorkspaceCheck | None) -> None:
        """The claims checked against the workspace the reviewer named (the Briefing
        pane's check; None: no folder named)."""
        self._check = check
        self._workspace = None if check is None else workspace_facts(check, self._index)
        self._show_evidence()

    def show_belief(
        self,
        belief: AdmittedBelief | None,
        decisions: Sequence[Decision],
        since: SincePrevious | None = None,
    ) -> None:
        if belief is None or self._belief is None or belief != self._belief:
            self.revealed = False  # another belief: masked again
        self._belief, self._decisions, self._since = belief, decisions, since
        self.history.clear()
        if belief is None:
            self.title.setText("No belief selected")
            self._set_texts(ShownText("", ()), None)
            self._raw = ""
            self.copy_raw_button.setEnabled(False)
            self.reveal_button.hide()
            self.secret_note.hide()
            self._flagged = False
            self._show_evidence()
            return
        ref = belief.portable_ref
        demoted = (
            f" — arrived {masked_shown(belief.incoming_state, ONE_LINE_CHARS)}, demoted"
            if belief.demoted
            else ""
        )
        cut = "" if belief.cut is None else f" — {belief.cut.text}"
        changed = "" if since is None else f" — {_SINCE_WORDS[since.change]}"
        source = masked_shown(belief.source_id, ONE_LINE_CHARS)
        self.title.setText(
            f"{masked_shown(ref, ONE_LINE_CHARS)}  (source {source}){demoted}{cut}{changed}"
        )
        self._show_content()
        self._raw = belief.content
        self.copy_raw_button.setEnabled(True)
        for event in self._index.events.get(ref, ()):
            item = event.item
            self.history.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        _s(item.get("at")),
                        _s(item.get("reviewer")),
                        _s(item.get("fromState")),
                        _s(item.get("toState")),
                        event_note(self._index, event),
                        "packet",
                    ]
                )
            )
        if since is not None and since.earlier is not None:
            self._add_earlier(since)
        self._add_local_history(ref, decisions)
        self._show_evidence()
        self.side.setTabText(1, f"History ({self.history.topLevelItemCount()})")

    def _show_content(self) -> None:
        belief, since = self._belief, self._since
        assert belief is not None
        hits = self._index.secrets.by_ref.get(belief.portable_ref, ())
        earlier = since.earlier_content if since is not None else None
        if since is None or since.change is not BeliefChange.CHANGED:
            earlier = None
        # The earlier text was not scanned at open (it is the previous generation's): read
        # here, bounded by maxBeliefBytes. It may hold a credential the new text dropped.
        earlier_hits = scan_text(earlier) if earlier is not None else ()
        flagged = bool(hits or earlier_hits)
        self._flagged = flagged
        self.reveal_button.setVisible(flagged)
        self.reveal_button.setText("Mask again" if self.revealed else "Reveal")
        self.secret_note.setVisible(flagged)
        if flagged:
            state = "revealed: shown as admitted" if self.revealed else f"reveal with {REVEAL_KEYS}"
            words = hit_words(hits) if hits else f"the earlier text {hit_words(earlier_hits)}"
            self.secret_note.setText(f"Suspected credential: {words} ({state}).")
        hide = flagged and not self.revealed
        content = masked(belief.content, hits) if hide else belief.content
        if earlier is None:
            self._set_texts(ShownText(visible_lines(content, CONTENT_LIMIT), ()), None)
            return
        if hide:  # the earlier text may hold the same credential, or another: masked alike
            earlier = masked(earlier, earlier_hits)
        change = text_change(earlier, content)
        self._set_texts(change.now, change.earlier)

    def _set_texts(self, now: ShownText, earlier: ShownText | None) -> None:
        self.content.setPlainText(now.text)
        comparing = earlier is not None
        for widget in (self.earlier_label, self.earlier, self.now_label):
            widget.setVisible(comparing)
        if earlier is not None:
            assert self._since is not None
            self.earlier_label.setText(
                "Admitted by the previous generation (packet "
                f"{masked_shown(self._since.packet_id, ONE_LINE_CHARS)}; removed words marked):"
            )
            self.earlier.setPlainText(earlier.text)
            _mark(self.earlier, earlier, Tone.BAD)
        else:
            self.earlier.setPlainText("")
        _mark(self.content, now, Tone.GOOD)

    def _show_evidence(self) -> None:
        ref = self._belief.portable_ref if self._belief is not None else None
        lines = evidence_lines(self._index, ref, self._workspace) if ref is not None else ()
        self.evidence_lines = lines
        self.evidence.set_lines(
            "\n".join(line.text for line in lines),
            tuple(_STYLES.get(line.style, Style.PLAIN) for line in lines),
        )
        count = len(self._index.anchors.get(ref, ())) if ref is not None else 0
        self.side.setTabText(0, f"Evidence ({count})")

    # --- actions -----------------------------------------------------------------------

    def focus_evidence(self) -> None:
        """E (from the table): the keyboard goes to the evidence, on its first entry."""
        self.side.setCurrentWidget(self.evidence)
        self.evidence.setFocus(Qt.FocusReason.ShortcutFocusReason)
        first = next((n for n, line in enumerate(self.evidence_lines) if line.pointer), 0)
        block = self.evidence.document().findBlockByNumber(first)
        self.evidence.setTextCursor(QTextCursor(block))

    def toggle_reveal(self) -> None:
        """Show the belief's suspected credential as admitted (escaped, never
        interpreted), or mask it again: only ever on the reviewer's explicit request."""
        if self._belief is None or not self._flagged:
            return
        self.revealed = not self.revealed
        self._show_content()

    def copy_raw_value(self) -> None:
        """The selected belief's content exactly as admitted (the one unescaped path). A
        content holding a suspected credential the reviewer has not revealed is copied
        only once they say so: the clipboard is read by every program on the desktop."""
        if not self._raw:
            return
        if self._flagged and not self.revealed and not self.confirm(self, *COPY_SECRET_QUESTION):
            return
        set_clipboard(self._raw)

    def _activate(self, number: int) -> None:
        if 0 <= number < len(self.evidence_lines):
            pointer = self.evidence_lines[number].pointer
            if pointer is not None:
                self.pointerSelected.emit(pointer)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.evidence and event.type() == QEvent.Type.PaletteChange:
            self.evidence.restyle()
            if self._belief is not None:
                self._show_content()  # the marks' colours are the theme's
        return super().eventFilter(watched, event)

    # --- history -----------------------------------------------------------------------

    def _add_earlier(self, since: SincePrevious) -> None:
        earlier = since.earlier
        assert earlier is not None
        after = str(earlier.state)
        if earlier.superseded_by is not None:
            after += f" by {masked_shown(earlier.superseded_by, ONE_LINE_CHARS)}"
        self.history.addTopLevelItem(
            QTreeWidgetItem(
                [
                    masked_shown(earlier.at, ONE_LINE_CHARS),
                    masked_shown(earlier.reviewer, ONE_LINE_CHARS),
                    "",
                    after,
                    _note(earlier.note),  # an earlier receipt's: masked
                    f"receipt of {masked_shown(since.packet_id, ONE_LINE_CHARS)}",
                ]
            )
        )

    def _add_local_history(self, ref: str, decisions: Sequence[Decision]) -> None:
        before = "unreviewed"
        for decision in decisions:
            if decision.portable_ref != ref:
                continue
            after = str(decision.state)
            if decision.superseded_by is not None:
                after += f" by {masked_shown(decision.superseded_by, ONE_LINE_CHARS)}"
            self.history.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        masked_shown(decision.at, ONE_LINE_CHARS),
                        masked_shown(decision.reviewer, ONE_LINE_CHARS),
                        before,
                        after,
                        _note(decision.note),
                        "here",
                    ]
                )
            )
            before = str(decision.state)


def _text_box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)  # a plain-text editor never interprets markup
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    box.setAccessibleName(name)
    install_on_editor(box)  # escaped characters as tokens, named in their tooltips
    return box


def _mark(box: QPlainTextEdit, text: ShownText, tone: Tone) -> None:
    """Paint ``text``'s spans (positions in UTF-16 units, as the document counts them)."""
    colour = tone_background(tone, box.palette())
    selections = []
    for start, length in text.spans:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(box.document())
        cursor.setPosition(start)
        cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format.setBackground(colour)
        selections.append(selection)
    box.setExtraSelections(selections)
