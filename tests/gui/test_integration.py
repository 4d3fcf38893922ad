"""The review pane and the plan graph inside the window: the Review menu that follows the
current tab, export and reviewer identity from the menus, every shortcut in Help, receipts
matched to the open packets, and the plan graph's calls and signals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.gui.driving import (
    DESTINATION,
    PUBLICATION,
    WAIT_MS,
    drop_and_wait,
    rows,
    wait_idle,
)
from tests.gui.review.conftest import ScriptedPrompter
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.receipt import verify_receipt
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import (
    NAME_KEY,
    SCOPED_GROUP,
    load_identity,
    save_identity,
)
from zcf_inspector.gui.shortcuts import DIALOGS, PLAN_GRAPH, PLAN_GRAPH_KEYS, REVIEW, WINDOW
from zcf_inspector.present.vocabulary import CheckStatus

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
PACKET = PUBLICATION / "full-handoff.json"
RECEIPT = PUBLICATION / "full-handoff.receipt.json"


def activate(qtbot: QtBot, window: MainWindow, focus: QWidget) -> None:
    """Shortcuts need the window active; then put the focus where a user would click."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    focus.setFocus()
    qtbot.waitUntil(focus.hasFocus)


def review_pane(tab: DocumentTab) -> ReviewPane:
    pane = tab.review_pane
    assert isinstance(pane, ReviewPane)
    return pane


def open_for_review(qtbot: QtBot, window: MainWindow, path: Path = PACKET) -> ReviewPane:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [path])
    pane = review_pane(tab)
    assert pane.target is not None
    save_identity(pane.settings, "carol", "")
    return pane


# --- the Review menu --------------------------------------------------------------------


def test_review_menu_holds_the_current_panes_actions(qtbot: QtBot, window: MainWindow) -> None:
    assert not window.review_menu.menuAction().isEnabled()  # the start page: nothing to review
    pane = open_for_review(qtbot, window)
    menu = [a for a in window.review_menu.actions() if not a.isSeparator()]
    assert menu == [*pane.review_actions(), window.export_action]
    assert window.review_menu.menuAction().isEnabled()
    # a receipt tab has no review pane: the menu empties and is disabled
    drop_and_wait(qtbot, window, [RECEIPT])
    assert not window.review_menu.menuAction().isEnabled()
    assert [a.text() for a in window.review_menu.actions()] == [window.no_review_action.text()]
    assert not window.export_action.isEnabled()
    # back on the packet, the same pane's actions come back
    window.tabs.setCurrentIndex(0)
    assert next(a for a in window.review_menu.actions() if not a.isSeparator()) in (
        pane.review_actions()
    )
    window.review_menu.aboutToShow.emit()  # refilled each time it opens; no duplicates
    assert len([a for a in window.review_menu.actions() if not a.isSeparator()]) == len(menu)


def test_review_keys_and_menu_work_in_the_window_and_the_window_has_no_undo(
    qtbot: QtBot, window: MainWindow
) -> None:
    pane = open_for_review(qtbot, window)
    undo_keys = {QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z")}
    assert not [a for a in window.actions() if a.shortcut() in undo_keys]
    tab = window.current_tab()
    assert tab is not None
    tab.show_pane("Review")
    activate(qtbot, window, pane.table)
    first = pane.current_ref()
    assert first is not None
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    assert pane.model.state(first) is ReviewState.CONFIRMED
    second = pane.current_ref()
    QTest.keyClick(pane.table, Qt.Key.Key_Z, CTRL)
    assert pane.model.state(first) is ReviewState.UNREVIEWED
    QTest.keyClick(pane.table, Qt.Key.Key_Z, CTRL | SHIFT)
    assert pane.model.state(first) is ReviewState.CONFIRMED
    # the menu entries are the same actions: triggering them from the menu works too
    menu = {a.shortcut().toString(): a for a in window.review_menu.actions()}
    menu["J"].trigger()
    assert pane.current_ref() == second
    menu["C"].trigger()
    assert second is not None
    assert pane.model.state(second) is ReviewState.CONFIRMED


def test_reviewer_identity_from_the_review_menu_is_kept_in_the_window_settings(
    qtbot: QtBot, window: MainWindow
) -> None:
    pane = open_for_review(qtbot, window)
    prompter = ScriptedPrompter()
    pane.prompter = prompter
    prompter.script(("identity", "dana"))
    identity = next(a for a in window.review_menu.actions() if a.text().startswith("Reviewer"))
    identity.trigger()
    assert load_identity(pane.settings, pane.identity_scope).name == "dana"
    assert window.settings._store.fileName() == pane.settings.fileName()
    # kept for this destination (issue 31): the unscoped keys are untouched
    assert pane.identity_scope
    assert pane.settings.value(f"{SCOPED_GROUP}/{pane.identity_scope}/name") == "dana"
    assert pane.settings.value(f"{SCOPED_GROUP}/{pane.identity_scope}/keyFile") == ""
    assert pane.settings.value(NAME_KEY) == "carol"  # the name set before, unscoped


def test_ctrl_e_exports_a_receipt_that_opens_and_matches_its_packet(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    pane = open_for_review(qtbot, window)
    prompter = ScriptedPrompter()
    pane.prompter = prompter
    tab = window.current_tab()
    assert tab is not None
    tab.show_pane("Review")
    activate(qtbot, window, pane.table)
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    out = tmp_path / "exported.receipt.json"
    prompter.script(("confirm", True), ("confirm", True), ("path", str(out)))
    QTest.keyClick(window, Qt.Key.Key_E, CTRL)
    assert not prompter.answers
    receipt = json.loads(out.read_bytes())
    assert verify_receipt(receipt, None).valid
    assert receipt["review"]["decisions"][0]["state"] == "confirmed"
    # opened in the window: verdict header, tree, and the packet it belongs to
    receipt_tab = drop_and_wait(qtbot, window, [out])
    wait_idle(qtbot, window)
    assert receipt_tab.verdict.headline == "VALID RECEIPT · SIGNED (signature verified)"
    assert rows(receipt_tab)["packet"] == ("pass", "belongs to full-handoff.json")
    assert receipt_tab.model.rowCount() == len(receipt)
    assert "Review" not in receipt_tab.pane_names()


def test_receipt_opened_first_is_matched_when_its_packet_opens(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.apply_destination(str(DESTINATION))
    receipt_tab = drop_and_wait(qtbot, window, [RECEIPT])
    wait_idle(qtbot, window)
    state, summary = rows(receipt_tab)["packet"]
    assert (state, summary) == ("not checkable", "no open packet to match")
    other = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    wait_idle(qtbot, window)
    assert rows(receipt_tab)["packet"] == ("not checkable", "matches no open packet")
    drop_and_wait(qtbot, window, [PACKET])
    wait_idle(qtbot, window)
    assert rows(receipt_tab)["packet"] == ("pass", "belongs to full-handoff.json")
    match = receipt_tab.receipt_match
    assert match is not None
    assert "correlationId" in match.detail
    # closing the packet takes the match away again
    window.close_tab(window.tabs.indexOf(window.document_tabs()[-1]))
    wait_idle(qtbot, window)
    assert rows(receipt_tab)["packet"][1] == "matches no open packet"
    assert other in window.document_tabs()


def test_receipt_of_another_review_of_the_same_packet_is_flagged(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    forged = json.loads(RECEIPT.read_bytes())
    forged["correlationId"] = "not-the-one"
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    open_for_review(qtbot, window)
    tab = drop_and_wait(qtbot, window, [path])
    wait_idle(qtbot, window)
    # correlationId is no longer a digest, and the digest no longer matches
    assert tab.verdict.headline == "REFUSED RECEIPT at receipt shape, receipt digest"
    state, summary = rows(tab)["packet"]
    assert (state, summary) == ("fail", "does NOT match full-handoff.json")
    assert tab.receipt_match is not None
    assert "correlationId" in tab.receipt_match.detail


def test_receipt_without_a_destination_says_what_matching_needs(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    drop_and_wait(qtbot, window, [PACKET])
    copy = tmp_path / "receipt.bin"  # recognised by content, not by name
    shutil.copy(RECEIPT, copy)
    tab = drop_and_wait(qtbot, window, [copy])
    wait_idle(qtbot, window)
    match = tab.receipt_match
    assert match is not None
    assert match.state is CheckStatus.NOT_CHECKABLE
    assert "destination" in match.detail


# --- Help → Keyboard Shortcuts ------------------------------------------------------------


def test_help_lists_every_shortcut_of_the_window_and_both_panes(
    qtbot: QtBot, window: MainWindow
) -> None:
    pane = open_for_review(qtbot, window)
    activate(qtbot, window, window.tabs)
    QTest.keyClick(window, Qt.Key.Key_F1)
    dialog = window.shortcuts_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    listed = dialog.rows()
    native = QKeySequence.SequenceFormat.NativeText
    window_keys = {keys for section, keys, _ in listed if section == WINDOW}
    for action in window.actions():
        if not action.shortcut().isEmpty():
            assert action.shortcut().toString(native) in window_keys
    for wanted in ("Ctrl+E", "Ctrl+F", "Ctrl+C", "F1", "Ctrl+Return"):
        assert QKeySequence(wanted).toString(native) in window_keys
    # the review keys listed are exactly the pane's real shortcuts
    review_keys = {keys for section, keys, _ in listed if section == REVIEW}
    real = {
        a.shortcut().toString(native) for a in pane.review_actions() if not a.shortcut().isEmpty()
    }
    assert review_keys == real
    graph_keys = [keys for section, keys, _ in listed if section == PLAN_GRAPH]
    assert graph_keys == [k for k, _ in PLAN_GRAPH_KEYS]
    for wanted in ("Ctrl+F", "F", "+", "Esc", "Left", "Right"):
        assert wanted in graph_keys
    dialog_keys = {keys for section, keys, _ in listed if section == DIALOGS}
    assert dialog_keys == {"Ctrl+Enter", "Esc"}
    assert len(listed) == len(dialog.entries)
    dialog.close()


# --- the plan graph ---------------------------------------------------------------------


def test_plan_graph_gets_the_document_reports_selection_and_is_cleared_on_close(
    qtbot: QtBot, window: MainWindow
) -> None:
    from zcf_inspector.gui.plangraph.pane import PlanGraphPane

    session = EXAMPLES / "action-specific.session.json"
    tab = drop_and_wait(qtbot, window, [session])
    pane = tab.plan_graph_pane
    assert isinstance(pane, PlanGraphPane)
    # A session opens on its plan graph, which gets the room the tree can spare.
    assert tab.panes.tabText(tab.panes.currentIndex()) == "Plan graph"
    tree_width, panes_width = tab.splitter.sizes()
    assert panes_width > tree_width
    assert pane.wait_for_layout()
    qtbot.waitUntil(lambda: pane.scene is not None, timeout=WAIT_MS)
    plan = pane.current_plan
    assert plan is not None
    assert pane._document == json.loads(session.read_bytes())  # the side pane has the objects
    node = next(iter(pane.scene.nodes)) if pane.scene is not None else ""
    with qtbot.waitSignal(pane.node_selected, timeout=WAIT_MS):
        pane.select_node(node)
    assert node in window.statusBar().currentMessage()
    assert pane.details.toPlainText()
    window.close_current()
    assert pane.current_plan is None  # cleared before it is deleted
    assert pane.scene is None


def test_ctrl_f_in_the_graph_finds_a_node_and_in_the_tree_opens_the_find_bar(
    qtbot: QtBot, window: MainWindow
) -> None:
    from zcf_inspector.gui.plangraph.pane import PlanGraphPane

    tab = drop_and_wait(qtbot, window, [EXAMPLES / "another-computer.session.json"])
    pane = tab.plan_graph_pane
    assert isinstance(pane, PlanGraphPane)
    tab.show_pane("Plan graph")
    assert pane.wait_for_layout()
    activate(qtbot, window, pane.view)
    assert not window.find_action.isEnabled()  # the key is the graph's here
    QTest.keyClick(pane.view, Qt.Key.Key_F, CTRL)
    assert pane.find_edit.hasFocus()
    assert not tab.find_bar.isVisible()
    activate(qtbot, window, tab.tree)
    assert window.find_action.isEnabled()
    QTest.keyClick(tab.tree, Qt.Key.Key_F, CTRL)
    assert tab.find_bar.isVisible()
