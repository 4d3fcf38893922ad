"""The tree, the panes, copying, finding, and text shown as data."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QGuiApplication, QHelpEvent
from PySide6.QtWidgets import QApplication

from goldens import generate as g
from tests.gui.driving import NEGATIVE, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui import plain_tooltip
from zcf_inspector.gui.clipboard import CopyKind
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.findings_pane import FindingsModel, SeverityFilter
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.manifest_pane import ManifestTableModel
from zcf_inspector.gui.packet_tree_model import STATUS_COLUMN, VALUE_COLUMN, PacketTreeModel
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE
from zcf_inspector.gui.tree_annotations import TreeAnnotations
from zcf_inspector.gui.tree_search import FindMode, FindQuery, find
from zcf_inspector.gui.verdict_header import VerdictTableModel
from zcf_inspector.present import packet

RICH = "<b>bold</b><img src=x>"


def rich_packet(tmp_path: Path) -> Path:
    packet = g.handoff("rich")
    content = packet["content"]
    assert isinstance(content, dict)
    content["beliefs"] = [g.belief("b-1", RICH), g.belief("b-2", "plain")]
    path = tmp_path / "rich.json"
    path.write_bytes(json.dumps(g.unsigned(packet), ensure_ascii=False, indent=2).encode())
    return path


def test_models_pass_the_model_tester(qapp, qtmodeltester) -> None:
    data = (NEGATIVE / "tampered-capsule.json").read_bytes()
    inspection = inspect_bytes(data)
    assert inspection.value is not None
    assert inspection.manifest is not None
    tree = PacketTreeModel(
        inspection.value, TreeAnnotations.build(inspection.findings, inspection.manifest)
    )
    qtmodeltester.check(tree)
    verdicts = VerdictTableModel()
    verdicts.set_rows(packet.verdict(inspection).rows)
    qtmodeltester.check(verdicts)
    manifest = ManifestTableModel()
    manifest.set_report(inspection.manifest)
    qtmodeltester.check(manifest)
    findings = FindingsModel()
    findings.set_findings(
        (*inspection.findings, Finding(inspection.findings[0].code, Severity.INFO, "", "note"))
    )
    qtmodeltester.check(findings)
    proxy = SeverityFilter()
    proxy.setSourceModel(findings)
    proxy.set_shown(Severity.ERROR, False)
    qtmodeltester.check(proxy)
    assert proxy.rowCount() == 1


def test_tree_is_lazy_over_200000_beliefs(qapp, qtmodeltester) -> None:
    beliefs: list[JsonValue] = [
        {"portableRef": f"b-{i}", "content": f"belief {i}"} for i in range(200_000)
    ]
    model = PacketTreeModel({"content": {"beliefs": beliefs}})
    beliefs_index = model.index_for_pointer("/content/beliefs", nearest=False)
    assert beliefs_index.siblingAtColumn(VALUE_COLUMN).data() == "[200,000]"
    # 200 ranges of 1,000 rows: expanding never lays out 200,000 rows at once
    assert model.rowCount(beliefs_index) == 200
    node = model.node(beliefs_index)
    assert node is not None
    assert len(node._children) == 0
    last = model.index_for_pointer("/content/beliefs/199999/content", nearest=False)
    assert last.data() == "content"
    assert last.siblingAtColumn(VALUE_COLUMN).data() == '"belief 199999"'
    element = last.parent()
    assert element.data() == "199999"
    element_node = model.node(element)
    assert element_node is not None
    assert element_node.pointer == "/content/beliefs/199999"
    assert element.parent().data() == "[199,000 … 199,999]"
    assert model.rowCount(element.parent()) == 1000
    assert len(node._children) == 1
    last_node = model.node(last)
    assert last_node is not None
    assert last_node.path() == ("content", "beliefs", 199999, "content")
    small = PacketTreeModel({"content": {"beliefs": beliefs[:2500]}})
    qtmodeltester.check(small)


def test_selecting_a_finding_selects_its_node(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "unknown-field.json"])
    tab.show_pane("Findings")
    pane = tab.findings_pane
    assert pane.model.rowCount() >= 1
    for row in range(pane.model.rowCount()):
        finding = pane.model.finding(row)
        tab.tree.clearSelection()
        pane.table.clearSelection()
        pane.select_finding(row)
        assert tab.selected_pointer() == finding.pointer
        assert finding.message in pane.detail.text()
    # the status column carries the finding
    node = tab.selected_node()
    assert node is not None
    assert tab.model.status(node).text == "unknown_field; not integrity-protected"


def test_findings_filter_by_severity(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "recipient-bound-mac.json"])
    pane = tab.findings_pane
    assert pane.proxy.rowCount() == 1  # the info finding: installation key unavailable
    pane.filters[Severity.INFO].setChecked(False)
    assert pane.proxy.rowCount() == 0
    assert pane.filters[Severity.INFO].text() == "info (1)"


def test_manifest_row_selects_the_section_in_the_tree(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [NEGATIVE / "tampered-capsule.json"])
    pane = tab.manifest_pane
    row = pane.model.row_of("capsule")
    assert row is not None
    pane.select_row(row)
    assert tab.selected_pointer() == "/content/capsule"
    listed = json.loads((NEGATIVE / "tampered-capsule.json").read_bytes())["manifest"]["sections"][
        "capsule"
    ]
    assert pane.listed.text() == listed
    assert pane.computed.text() == tab.document.inspection.manifest.sections[1].computed  # type: ignore[union-attr]
    assert "MISMATCH" in pane.verdict.text()


def _select(tab: DocumentTab, pointer: str) -> None:
    tab.select_pointer(pointer)
    assert tab.selected_pointer() == pointer


def test_copy_actions_put_the_right_text_on_the_clipboard(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    value = json.loads((PUBLICATION / "full-handoff.json").read_bytes())
    clipboard = QGuiApplication.clipboard()
    _select(tab, "/packet/intent")
    window.copy_actions[CopyKind.VALUE].trigger()
    assert clipboard.text() == value["packet"]["intent"]
    window.copy_actions[CopyKind.KEY].trigger()
    assert clipboard.text() == "intent"
    window.copy_actions[CopyKind.POINTER].trigger()
    assert clipboard.text() == "/packet/intent"
    _select(tab, "/content/capsule")
    capsule = canonical(value["content"]["capsule"])
    window.copy_actions[CopyKind.CANONICAL].trigger()
    qtbot.waitUntil(lambda: clipboard.text() == capsule.decode(), timeout=10_000)
    window.copy_actions[CopyKind.DIGEST].trigger()
    digest = "sha256:" + hashlib.sha256(capsule).hexdigest()
    qtbot.waitUntil(lambda: clipboard.text() == digest, timeout=10_000)
    assert digest == value["manifest"]["sections"]["capsule"]
    window.copy_actions[CopyKind.VALUE].trigger()
    qtbot.waitUntil(lambda: clipboard.text().startswith("{"), timeout=10_000)
    assert json.loads(clipboard.text()) == value["content"]["capsule"]
    # keys are shortcuts on the tree too, and the context menu offers every copy
    clipboard.clear()
    tab.tree.setFocus()
    qtbot.keyClick(
        tab.tree,
        Qt.Key.Key_C,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert clipboard.text() == "/content/capsule"
    assert [a.text() for a in tab.copy_actions.values()] == [k.value for k in CopyKind]


def test_canonical_pane_shows_bytes_hex_and_digest(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    tab.show_pane("Canonical bytes")
    value = json.loads((PUBLICATION / "full-handoff.json").read_bytes())
    _select(tab, "/content/beliefs")
    pane = tab.canonical_pane
    qtbot.waitUntil(lambda: pane.form is not None, timeout=10_000)
    data = canonical(value["content"]["beliefs"])
    assert pane.text.toPlainText() == data.decode()
    assert pane.digest.text() == value["manifest"]["sections"]["beliefs"]
    assert pane.hex.toPlainText().startswith("00000000  " + " ".join(f"{b:02x}" for b in data[:16]))
    assert pane.size_label.text().startswith(f"{len(data):,} bytes")


@pytest.mark.parametrize(
    ("mode", "text", "expected"),
    [
        ("Key", "objective", ["/content/capsule/objective"]),
        ("Value", "Benchmark on the 50 MB", ["/content/capsule/nextActions/0"]),
        ("JSON pointer", "/packet/nonce", ["/packet/nonce"]),
        # a query starting with "/" is a JSON pointer in every mode (issue 12, point 8)
        ("Key or value", "/content/beliefs/2", ["/content/beliefs/2"]),
        ("Key", "/content/beliefs/1/content", ["/content/beliefs/1/content"]),
        ("Value", "/packet/id", ["/packet/id"]),
    ],
)
def test_find_by_key_value_and_pointer(
    qtbot, window: MainWindow, mode: str, text: str, expected: list[str]
) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    window.find_action.trigger()
    assert tab.find_bar.isVisible()
    tab.find_bar.mode.setCurrentText(mode)
    qtbot.keyClicks(tab.find_bar.edit, text)
    qtbot.keyClick(tab.find_bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.selected_pointer() == expected[0], timeout=10_000)


def test_find_next_and_previous_wrap(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    value = json.loads((PUBLICATION / "full-handoff.json").read_bytes())
    beliefs = value["content"]["beliefs"]
    refs = [f"/content/beliefs/{i}/portableRef" for i in range(len(beliefs))]
    assert len(refs) >= 2
    window.find_action.trigger()
    tab.find_bar.mode.setCurrentText("Key")
    qtbot.keyClicks(tab.find_bar.edit, "portableRef")
    matches = [refs[0]]
    qtbot.keyClick(tab.find_bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "portableRef" in (tab.selected_pointer() or ""), timeout=10_000)
    first = tab.selected_pointer()
    assert first == matches[0]
    window.find_next_action.trigger()
    qtbot.waitUntil(lambda: tab.selected_pointer() == refs[1], timeout=10_000)
    qtbot.keyClick(tab.find_bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: tab.selected_pointer() == refs[0], timeout=10_000)
    window.find_previous_action.trigger()  # wraps to the last match in the document
    qtbot.waitUntil(lambda: tab.selected_pointer() != refs[0], timeout=10_000)
    last = tab.selected_pointer()
    assert last is not None
    assert last.endswith("portableRef")
    assert last != refs[0]
    tab.find_bar.edit.setText("no such key anywhere")
    tab.find_bar.find_next()
    qtbot.waitUntil(lambda: tab.find_bar.status.text() == "not found", timeout=10_000)
    tab.find_bar.edit.setText("/content/beliefs/99")
    tab.find_bar.find_next()
    qtbot.waitUntil(lambda: tab.find_bar.status.text() == "no node at that pointer", timeout=10_000)


def test_a_slash_query_that_names_no_node_is_searched_as_text() -> None:
    document: JsonValue = {"paths": ["/usr/bin", "/etc"], "x": {"y": 1}}
    for mode in (FindMode.ANY, FindMode.KEY, FindMode.VALUE, FindMode.POINTER):
        assert find(document, FindQuery("/x/y", mode, ()), NULL_MONITOR) == ("x", "y")
    assert find(document, FindQuery("/etc", FindMode.VALUE, ()), NULL_MONITOR) == ("paths", 1)
    assert find(document, FindQuery("/etc", FindMode.POINTER, ()), NULL_MONITOR) is None


def test_rich_text_in_a_belief_is_shown_literally(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    tab = drop_and_wait(qtbot, window, [rich_packet(tmp_path)])
    assert tab.verdict.headline == "VALID · UNSIGNED"
    pointer = "/content/beliefs/0/content"
    _select(tab, pointer)
    index = tab.tree.currentIndex()
    value_index = index.siblingAtColumn(VALUE_COLUMN)
    assert value_index.data() == f'"{RICH}"'
    assert RICH in value_index.data(PLAIN_TOOLTIP_ROLE)
    assert value_index.data(Qt.ItemDataRole.ToolTipRole) is None  # never Qt's rich-text guessing
    # the tooltip the user sees is a plain-text label with the literal markup
    tab.tree.scrollTo(value_index)
    rect = tab.tree.visualRect(value_index)
    viewport = tab.tree.viewport()
    event = QHelpEvent(QEvent.Type.ToolTip, rect.center(), viewport.mapToGlobal(rect.center()))
    QApplication.sendEvent(viewport, event)
    tip = plain_tooltip.tip_label()
    assert tip is not None
    assert tip.isVisible()
    assert tip.textFormat() == Qt.TextFormat.PlainText
    assert RICH in tip.text()
    plain_tooltip.hide_tip()
    # the canonical pane shows the bytes as text
    pane = tab.canonical_pane
    qtbot.waitUntil(lambda: pane.form is not None and pane.form.pointer == pointer, timeout=10_000)
    assert pane.text.toPlainText() == f'"{RICH}"'
    # labels: a finding about it and the find bar status are plain-text labels
    tab.show_pane("Findings")
    for label in (
        tab.findings_pane.detail,
        tab.header.headline,
        tab.header.subject,
        window.destination_label,
    ):
        assert label.textFormat() == Qt.TextFormat.PlainText
    # a key with markup is shown literally in the key column too
    model = PacketTreeModel({RICH: {"x": RICH}})
    assert model.index(0, 0).data() == RICH
    assert model.index(0, STATUS_COLUMN).data() == ""
    # and a chip tooltip (verdict header) goes through the plain-text tooltip as well
    chip = tab.header.chips[0]
    QApplication.sendEvent(
        chip, QHelpEvent(QEvent.Type.ToolTip, QPoint(2, 2), chip.mapToGlobal(QPoint(2, 2)))
    )
    tip = plain_tooltip.tip_label()
    assert tip is not None
    assert tip.isVisible()
    assert tip.text().startswith("bytes: pass")
    plain_tooltip.hide_tip()
    wait_idle(qtbot, window)


def test_uncovered_fields_are_marked_not_integrity_protected(qtbot, window: MainWindow) -> None:
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    model = tab.model
    for key in ("format", "authentication", "extensions", "manifest"):
        index = model.index_for_pointer(f"/{key}", nearest=False)
        assert index.siblingAtColumn(STATUS_COLUMN).data() == "not integrity-protected"
    covered = model.index_for_pointer("/packet", nearest=False)
    assert covered.siblingAtColumn(STATUS_COLUMN).data() == "digest matches (packetIdentity)"
    assert "format" in tab.manifest_pane.uncovered.text()
