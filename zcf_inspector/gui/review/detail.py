"""The selected belief in full: content, evidence anchors with their sources, and history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.table import evidence_counts
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.gui.clipboard import set_clipboard
from zcf_inspector.gui.plain_text import one_line, plain_label, set_tooltip, visible_lines

CONTENT_LIMIT = 1_000_000  # characters of a belief's content shown (admission cuts it far shorter)

__all__ = ["BeliefDetail", "DetailIndex", "SincePrevious", "detail_index", "evidence_counts"]


def _objects(packet: Mapping[str, JsonValue], section: str) -> list[dict[str, JsonValue]]:
    content = packet.get("content")
    items = content.get(section, []) if isinstance(content, dict) else []
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _s(value: JsonValue) -> str:
    return one_line(value) if isinstance(value, str) else ""


@dataclass(frozen=True, slots=True)
class DetailIndex:
    """A packet's evidence sources by id, and its evidence anchors and review events by
    the belief they name: the detail of one belief is then a lookup, not a scan of
    every anchor (a 200,000-belief packet may have tens of thousands)."""

    sources: Mapping[str, Mapping[str, JsonValue]]
    anchors: Mapping[str, Sequence[Mapping[str, JsonValue]]]
    events: Mapping[str, Sequence[Mapping[str, JsonValue]]]


def detail_index(packet: Mapping[str, JsonValue]) -> DetailIndex:
    """Made once per packet (on the runner, by the review's open)."""
    sources: dict[str, Mapping[str, JsonValue]] = {}
    for source in _objects(packet, "evidenceSources"):
        sources[_s(source.get("id"))] = source  # the last of a repeated id, as before
    return DetailIndex(
        sources, _by_belief(packet, "evidenceAnchors"), _by_belief(packet, "reviewEvents")
    )


def _by_belief(
    packet: Mapping[str, JsonValue], section: str
) -> dict[str, list[Mapping[str, JsonValue]]]:
    found: dict[str, list[Mapping[str, JsonValue]]] = {}
    for item in _objects(packet, section):
        ref = item.get("beliefRef")
        if isinstance(ref, str):
            found.setdefault(ref, []).append(item)
    return found


@dataclass(frozen=True, slots=True)
class SincePrevious:
    """The belief against the previous generation's receipt (while comparing with it)."""

    change: BeliefChange
    earlier: Decision | None  # its last decision in that receipt
    packet_id: str  # the previous packet's


_SINCE_WORDS = {
    BeliefChange.NEW: "new since the previous receipt",
    BeliefChange.CHANGED: "content changed since the previous receipt",
    BeliefChange.UNCHANGED: "unchanged since the previous receipt",
}


class BeliefDetail(QWidget):
    """The selected belief below the table, across the pane's whole width: its content
    in full (wrapped) gets most of it; evidence and history share a tab beside it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._index = detail_index({})
        self.title = plain_label(wrap=True, selectable=True)
        self.content = QPlainTextEdit()
        self.content.setReadOnly(True)  # a plain-text editor never interprets markup
        self.content.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.content.setAccessibleName("Content of the selected belief")
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
        self.evidence = QTreeWidget()
        self.evidence.setHeaderLabels(["Anchor", "Source", "Kind", "Locator", "Excerpt"])
        self.evidence.setRootIsDecorated(False)
        self.history = QTreeWidget()
        self.history.setHeaderLabels(["At", "Reviewer", "From", "To", "Note", "Where"])
        self.history.setRootIsDecorated(False)
        self.side = QTabWidget()
        self.side.setDocumentMode(True)
        self.side.addTab(self.evidence, "Evidence")
        self.side.addTab(self.history, "History")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("reviewDetailSplitter")
        self.splitter.addWidget(self.content)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.copy_raw_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading)
        layout.addWidget(self.splitter, 1)

    def set_packet(self, packet: Mapping[str, JsonValue], index: DetailIndex | None = None) -> None:
        """``index``: the packet's `detail_index`, made off the UI thread (else here)."""
        self._index = index if index is not None else detail_index(packet)
        self.show_belief(None, ())

    def show_belief(
        self,
        belief: AdmittedBelief | None,
        decisions: Sequence[Decision],
        since: SincePrevious | None = None,
    ) -> None:
        self.evidence.clear()
        self.history.clear()
        if belief is None:
            self.title.setText("No belief selected")
            self.content.setPlainText("")
            self._raw = ""
            self.copy_raw_button.setEnabled(False)
            return
        ref = belief.portable_ref
        demoted = f" — arrived {one_line(belief.incoming_state)}, demoted" if belief.demoted else ""
        cut = "" if belief.cut is None else f" — {belief.cut.text}"
        changed = "" if since is None else f" — {_SINCE_WORDS[since.change]}"
        self.title.setText(
            f"{one_line(ref)}  (source {one_line(belief.source_id)}){demoted}{cut}{changed}"
        )
        self.content.setPlainText(visible_lines(belief.content, CONTENT_LIMIT))
        self._raw = belief.content
        self.copy_raw_button.setEnabled(True)
        sources = self._index.sources
        for anchor in self._index.anchors.get(ref, ()):
            source = sources.get(_s(anchor.get("sourceRef")), {})
            locator = _s(source.get("locator"))
            if isinstance(anchor.get("locator"), str):
                locator += f" @ {_s(anchor.get('locator'))}"
            self.evidence.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        _s(anchor.get("id")),
                        _s(anchor.get("sourceRef")),
                        _s(source.get("kind")),
                        locator,
                        _s(anchor.get("excerpt")),
                    ]
                )
            )
        for event in self._index.events.get(ref, ()):
            self.history.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        _s(event.get("at")),
                        _s(event.get("reviewer")),
                        _s(event.get("fromState")),
                        _s(event.get("toState")),
                        _s(event.get("note")),
                        "packet",
                    ]
                )
            )
        if since is not None and since.earlier is not None:
            self._add_earlier(since)
        self._add_local_history(ref, decisions)
        self.side.setTabText(0, f"Evidence ({self.evidence.topLevelItemCount()})")
        self.side.setTabText(1, f"History ({self.history.topLevelItemCount()})")

    def copy_raw_value(self) -> None:
        """The selected belief's content exactly as admitted (the one unescaped path)."""
        if self._raw:
            set_clipboard(self._raw)

    def _add_earlier(self, since: SincePrevious) -> None:
        earlier = since.earlier
        assert earlier is not None
        after = str(earlier.state)
        if earlier.superseded_by is not None:
            after += f" by {one_line(earlier.superseded_by)}"
        self.history.addTopLevelItem(
            QTreeWidgetItem(
                [
                    one_line(earlier.at),
                    one_line(earlier.reviewer),
                    "",
                    after,
                    _s(earlier.note),
                    f"receipt of {one_line(since.packet_id)}",
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
                after += f" by {one_line(decision.superseded_by)}"
            self.history.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        one_line(decision.at),
                        one_line(decision.reviewer),
                        before,
                        after,
                        _s(decision.note),
                        "here",
                    ]
                )
            )
            before = str(decision.state)
