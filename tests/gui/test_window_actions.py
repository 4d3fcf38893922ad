"""Issue 22, point 1: the window's actions and menus are made from one table of actions
(`window_actions.WINDOW_ACTIONS`: id, text, key, menu block, when enabled), and the
Review menu's blocks are named by which of the pane's actions they hold — never read back
from an action's label or key."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.window_actions import WINDOW_ACTIONS, Menu, Needs, review_blocks

PACKET = PUBLICATION / "full-handoff.json"
RECEIPT = PUBLICATION / "full-handoff.receipt.json"


def blocks(menu: QMenu) -> list[list[QAction]]:
    """A menu's actions, split at its separators (submenus left out)."""
    found: list[list[QAction]] = [[]]
    for action in menu.actions():
        if action.isSeparator():
            found.append([])
        elif action.menu() is None:
            found[-1].append(action)
    return [b for b in found if b]


def menu_named(window: MainWindow, title: str) -> QMenu:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == title)
    assert isinstance(menu, QMenu)
    return menu


def test_every_menu_is_laid_out_from_the_table(window: MainWindow) -> None:
    for title in Menu:
        rows = [r for r in WINDOW_ACTIONS if r.menu is title]
        expected: list[list[QAction]] = []
        for row in rows:
            action = window.window_actions[row.id]
            assert action.text() == row.text
            assert action.shortcut() == QKeySequence(row.key or "")
            if expected and rows[rows.index(row) - 1].group == row.group:
                expected[-1].append(action)
            else:
                expected.append([action])
        assert blocks(menu_named(window, title.value)) == expected, title
    # Every key is the window's (so Help → Shortcuts lists it), and no key is used twice.
    keys = [a.shortcut().toString() for a in window.window_actions.values()]
    keys = [k for k in keys if k]
    assert len(keys) == len(set(keys))
    assert set(window.window_actions.values()) <= set(window.actions())


def test_actions_are_enabled_by_what_their_row_needs(qtbot: QtBot, window: MainWindow) -> None:
    def enabled(needs: Needs) -> set[bool]:
        return {window.window_actions[r.id].isEnabled() for r in WINDOW_ACTIONS if r.needs is needs}

    assert enabled(Needs.DOCUMENT) == enabled(Needs.ANY_TAB) == {False}  # the start page
    assert enabled(Needs.ALWAYS) == {True}
    drop_and_wait(qtbot, window, [RECEIPT])
    assert enabled(Needs.DOCUMENT) == enabled(Needs.ANY_TAB) == {True}
    assert enabled(Needs.COMPARABLE) == enabled(Needs.COMPARISON) == {False}
    assert enabled(Needs.REVIEW) == {False}  # a receipt has no review to export


def test_the_review_menus_blocks_are_the_panes_actions_by_identity(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [PACKET])
    pane = tab.review_pane
    assert pane is not None
    grouped = review_blocks(pane)
    # Every action the pane offers is in exactly one block, in the pane's order.
    assert [a for block in grouped for a in block] == pane.review_actions()
    window.review_menu.aboutToShow.emit()
    shown = blocks(window.review_menu)
    assert shown == [*(list(b) for b in grouped), [window.export_action]]
    # Renamed or re-keyed, an action stays in its block: nothing is read from its words.
    pane.compare_previous_action.setText("Bulk: Z")
    pane.pane_actions.next.setShortcut(QKeySequence("Ctrl+Z"))
    window.review_menu.aboutToShow.emit()
    assert blocks(window.review_menu) == shown
