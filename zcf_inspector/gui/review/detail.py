"""The selected belief in full: content, evidence anchors with their sources, and history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.decisions import AdmittedBelief, Decision
from zcf_inspector.core.review.previous import BeliefChange
from zcf_inspector.core.review.table import evidence_counts

__all__ = ["BeliefDetail", "SincePrevious", "evidence_counts"]
from zcf_inspector.gui.plain_text import one_line, plain_label


def _objects(packet: Mapping[str, JsonValue], section: str) -> list[dict[str, JsonValue]]:
    content = packet.get("content")
    items = content.get(section, []) if isinstance(content, dict) else []
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _s(value: JsonValue) -> str:
    return one_line(value) if isinstance(value, str) else ""


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
        self._packet: Mapping[str, JsonValue] = {}
        self.title = plain_label(wrap=True, selectable=True)
        self.content = QPlainTextEdit()
        self.content.setReadOnly(True)  # a plain-text editor never interprets markup
        self.content.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.content.setAccessibleName("Content of the selected belief")
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
        layout.addWidget(self.title)
        layout.addWidget(self.splitter, 1)

    def set_packet(self, packet: Mapping[str, JsonValue]) -> None:
        self._packet = packet
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
            return
        ref = belief.portable_ref
        demoted = f" — arrived {one_line(belief.incoming_state)}, demoted" if belief.demoted else ""
        cut = "" if belief.cut is None else f" — {belief.cut.text}"
        changed = "" if since is None else f" — {_SINCE_WORDS[since.change]}"
        self.title.setText(
            f"{one_line(ref)}  (source {one_line(belief.source_id)}){demoted}{cut}{changed}"
        )
        self.content.setPlainText(belief.content)
        sources = {_s(s.get("id")): s for s in _objects(self._packet, "evidenceSources")}
        for anchor in _objects(self._packet, "evidenceAnchors"):
            if anchor.get("beliefRef") != ref:
                continue
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
        for event in _objects(self._packet, "reviewEvents"):
            if event.get("beliefRef") == ref:
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
                    [decision.at, decision.reviewer, before, after, _s(decision.note), "here"]
                )
            )
            before = str(decision.state)
