"""Copy follows the view the user works in: the tree, the findings or the manifest (and,
from a menu, the view that had the focus before the menu opened)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication
from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, NEGATIVE, PUBLICATION, WAIT_MS, drop_and_wait, wait_idle
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.gui.clipboard import CopyKind
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.findings_pane import finding_line
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import PacketTreeModel
from zcf_inspector.gui.review.pane import ReviewPane

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
TAMPERED = NEGATIVE / "tampered-capsule.json"


def focus(qtbot: QtBot, window: MainWindow, view: QAbstractItemView) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)


def clipboard_after(qtbot: QtBot, press: object) -> str:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("(before)")
    assert callable(press)
    press()
    qtbot.waitUntil(lambda: clipboard.text() != "(before)", timeout=WAIT_MS)
    return clipboard.text()


def open_tampered(qtbot: QtBot, window: MainWindow) -> tuple[DocumentTab, dict[str, object]]:
    tab = drop_and_wait(qtbot, window, [TAMPERED])
    return tab, json.loads(TAMPERED.read_bytes())


def test_copy_in_the_findings_table_copies_the_finding(qtbot: QtBot, window: MainWindow) -> None:
    tab, packet = open_tampered(qtbot, window)
    tab.show_pane("Findings")
    table = tab.findings_pane.table
    focus(qtbot, window, table)
    table.selectRow(0)
    finding = tab.findings_pane.model.finding(0)
    assert tab.selected_pointer() == finding.pointer  # selecting it selected its node
    key = table  # keys go to the focused table; the window's shortcut acts on it
    assert clipboard_after(qtbot, lambda: QTest.keyClick(key, Qt.Key.Key_C, CTRL)) == (
        finding_line(finding)
    )
    assert clipboard_after(qtbot, lambda: QTest.keyClick(key, Qt.Key.Key_K, CTRL | SHIFT)) == (
        str(finding.code)
    )
    assert clipboard_after(qtbot, lambda: QTest.keyClick(key, Qt.Key.Key_C, CTRL | SHIFT)) == (
        finding.pointer
    )
    # the digest is of the node the finding points at
    node = tab.selected_node()
    assert node is not None
    digest = sha256_digest(canonical(node.value))
    assert clipboard_after(qtbot, lambda: QTest.keyClick(key, Qt.Key.Key_D, CTRL | SHIFT)) == (
        digest
    )
    assert packet  # the document is what was dropped


def test_copy_in_the_manifest_table_copies_the_section(qtbot: QtBot, window: MainWindow) -> None:
    tab, _ = open_tampered(qtbot, window)
    tab.show_pane("Manifest")
    table = tab.manifest_pane.table
    model = tab.manifest_pane.model
    row = model.row_of("capsule")
    assert row is not None
    focus(qtbot, window, table)
    table.selectRow(row)
    section = model.row(row)
    assert clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_D, CTRL | SHIFT)) == (
        section.computed
    )
    assert clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_K, CTRL | SHIFT)) == (
        "capsule"
    )
    assert clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_C, CTRL)) == (
        f"capsule: MISMATCH, listed {section.listed}, computed {section.computed}"
    )
    assert clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_C, CTRL | SHIFT)) == (
        section.pointer
    )
    assert "Copied pointer: " in window.statusBar().currentMessage()


def test_copy_in_the_tree_still_copies_the_node(qtbot: QtBot, window: MainWindow) -> None:
    tab, packet = open_tampered(qtbot, window)
    tab.show_pane("Findings")
    focus(qtbot, window, tab.findings_pane.table)
    tab.findings_pane.table.selectRow(0)
    focus(qtbot, window, tab.tree)
    tab.select_pointer("/format")
    assert (
        clipboard_after(qtbot, lambda: QTest.keyClick(tab.tree, Qt.Key.Key_C, CTRL))
        == (packet["format"])
    )


def test_menu_copy_acts_on_the_view_focused_before_the_menu(
    qtbot: QtBot, window: MainWindow
) -> None:
    tab, _ = open_tampered(qtbot, window)
    tab.show_pane("Findings")
    table = tab.findings_pane.table
    focus(qtbot, window, table)
    table.selectRow(0)
    finding = tab.findings_pane.model.finding(0)
    window.tabs.setFocus()  # e.g. the menu bar took the focus
    action = window.copy_actions[CopyKind.KEY]
    assert clipboard_after(qtbot, action.trigger) == str(finding.code)
    # once its pane is switched away, the table is out of view: the tree is used again
    tab.show_pane("Manifest")
    tab.select_pointer("/format")
    assert clipboard_after(qtbot, action.trigger) == "format"


def test_copy_in_the_review_table_copies_the_belief_row(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    tab.show_pane("Review")
    pane = tab.review_pane
    assert pane is not None
    assert isinstance(pane, ReviewPane)
    table = pane.table
    focus(qtbot, window, table)
    ref = pane.current_ref()
    assert ref is not None
    text = clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_C, CTRL))
    assert text.split("\t")[0] == ref
    assert clipboard_after(qtbot, lambda: QTest.keyClick(table, Qt.Key.Key_K, CTRL | SHIFT)) == ref


def test_wide_and_deep_models_pass_the_model_tester(qapp: QApplication, qtmodeltester: Any) -> None:
    wide: dict[str, JsonValue] = {f"k{i:05d}": {"n": i} for i in range(2500)}
    numbers: list[JsonValue] = list(range(2500))
    model = PacketTreeModel({"wide": wide, "list": numbers})
    qtmodeltester.check(model, force_py=True)
    deep: JsonValue = "bottom"
    for _ in range(127):
        deep = [deep]
    qtmodeltester.check(PacketTreeModel({"deep": deep}), force_py=True)
    index = model.index_for_pointer("/wide/k02499/n", nearest=False)
    assert index.isValid()
    node = model.node(index)
    assert node is not None
    assert (node.pointer, node.value, node.top_level_key) == ("/wide/k02499/n", 2499, "wide")
