"""Issue 12, point 7: usable at 1024x700 (the tree's status column stays, the review
pane fits), and the splitters and column widths the user chose are remembered."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHeaderView, QSplitter
from pytestqt.qtbot import QtBot

from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.gui import plain_tooltip
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.packet_tree_model import (
    DIGEST_COLUMN,
    KEY_COLUMN,
    STATUS_COLUMN,
    TYPE_COLUMN,
    VALUE_COLUMN,
)
from zcf_inspector.gui.review.table_model import Column


def open_review(qtbot: QtBot, window: MainWindow, width: int, height: int) -> DocumentTab:
    window.resize(width, height)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "truncation.json"])
    tab.show_pane("Review")
    qtbot.wait(50)  # let the layout settle at this size
    return tab


def in_view(header: QHeaderView, column: int) -> bool:
    left = header.sectionViewportPosition(column)
    return (
        not header.isSectionHidden(column)
        and left >= 0
        and left + header.sectionSize(column) <= header.viewport().width() + 1
        and header.sectionSize(column) >= 60
    )


def test_usable_at_1024_by_700(qtbot: QtBot, window: MainWindow) -> None:
    tab = open_review(qtbot, window, 1024, 700)
    assert window.width() <= 1024
    tree_header = tab.tree.header()
    for column in (KEY_COLUMN, VALUE_COLUMN, STATUS_COLUMN):
        assert in_view(tree_header, column), column  # the digest status is not pushed off
    assert tree_header.textElideMode() is Qt.TextElideMode.ElideRight
    pane = tab.review_pane
    assert pane is not None
    # the pane fits beside the tree: neither is squeezed to nothing
    assert pane.minimumSizeHint().width() <= 0.6 * 1024
    left, right = tab.splitter.sizes()
    assert left >= 300
    assert right >= pane.minimumSizeHint().width()
    table = pane.table.horizontalHeader()
    for column in Column:
        assert in_view(table, column), column
    assert table.sectionSize(Column.CONTENT) >= 120
    assert pane.ui.signer.minimumSizeHint().width() < 400  # the fingerprint is shortened


def drag(widget: Any, start: QPoint, by: int) -> None:
    QTest.mousePress(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    end = QPoint(start.x() + by, start.y())
    QTest.mouseMove(widget, end)
    QTest.mouseRelease(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def drag_splitter(splitter: QSplitter, by: int) -> None:
    handle = splitter.handle(1)
    drag(handle, QPoint(handle.width() // 2, handle.height() // 2), by)


def test_splitters_and_columns_are_remembered(qtbot: QtBot, window: MainWindow) -> None:
    tab = open_review(qtbot, window, 1400, 900)
    before = tab.splitter.sizes()
    drag_splitter(tab.splitter, -120)
    moved = tab.splitter.sizes()
    assert moved[0] < before[0] - 60
    header = tab.tree.header()
    edge = header.sectionViewportPosition(KEY_COLUMN) + header.sectionSize(KEY_COLUMN) - 1
    key_before = header.sectionSize(KEY_COLUMN)
    header.viewport().setMouseTracking(True)
    drag(header.viewport(), QPoint(edge, header.height() // 2), 35)
    key_width = header.sectionSize(KEY_COLUMN)
    assert key_width > key_before
    pane = tab.review_pane
    assert pane is not None
    split_before = pane.ui.splitter.sizes()
    pane_handle = pane.ui.splitter.handle(1)
    QTest.mousePress(pane_handle, Qt.MouseButton.LeftButton, pos=QPoint(5, 2))
    QTest.mouseMove(pane_handle, QPoint(5, 42))
    QTest.mouseRelease(pane_handle, Qt.MouseButton.LeftButton, pos=QPoint(5, 42))
    review_split = pane.ui.splitter.sizes()
    assert review_split != split_before
    table = pane.table.horizontalHeader()
    note_edge = table.sectionViewportPosition(Column.NOTE) + table.sectionSize(Column.NOTE) - 1
    note_before = table.sectionSize(Column.NOTE)
    drag(table.viewport(), QPoint(note_edge, table.height() // 2), 30)
    note_width = table.sectionSize(Column.NOTE)
    assert note_width > note_before
    window.close_current()  # remembered when the tab closes, as the user left them
    again = open_review(qtbot, window, 1400, 900)
    fraction = moved[0] / sum(moved)
    assert abs(again.splitter.sizes()[0] / sum(again.splitter.sizes()) - fraction) < 0.02
    assert again.tree.header().sectionSize(KEY_COLUMN) == key_width
    pane = again.review_pane
    assert pane is not None
    assert pane.ui.splitter.sizes() == review_split
    assert pane.table.horizontalHeader().sectionSize(Column.NOTE) == note_width


def test_a_long_path_does_not_widen_the_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    deep = tmp_path / ("folder-" * 12) / ("another-" * 12)
    deep.mkdir(parents=True)
    packet = deep / "minimal.json"
    shutil.copy(PUBLICATION / "minimal.json", packet)
    window.resize(1024, 700)
    tab = drop_and_wait(qtbot, window, [packet])
    assert tab.header.subject.full_text == str(packet)
    # The whole path is its tooltip, as plain text (never Qt's own, which may render HTML).
    subject = tab.header.subject
    assert subject.toolTip() == ""
    QApplication.sendEvent(
        subject, QHelpEvent(QEvent.Type.ToolTip, QPoint(2, 2), subject.mapToGlobal(QPoint(2, 2)))
    )
    tip = plain_tooltip.tip_label()
    assert tip is not None
    assert tip.isVisible()
    assert tip.textFormat() == Qt.TextFormat.PlainText
    assert tip.text() == str(packet)
    plain_tooltip.hide_tip()
    assert tab.header.minimumSizeHint().width() < 600
    qtbot.waitUntil(lambda: "…" in tab.header.subject.text())
    assert tab.header.subject.text().endswith("minimal.json")  # elided in the middle


def test_digest_and_type_step_aside_when_narrow_and_come_back(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.resize(1600, 1000)
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    header = tab.tree.header()
    qtbot.waitUntil(lambda: tab.tree.viewport().width() > 700)
    assert not header.isSectionHidden(DIGEST_COLUMN)
    assert in_view(header, DIGEST_COLUMN)
    # the user sizes a column: the widths are theirs from now on...
    edge = header.sectionViewportPosition(KEY_COLUMN) + header.sectionSize(KEY_COLUMN) - 1
    drag(header.viewport(), QPoint(edge, header.height() // 2), 20)
    key_width = header.sectionSize(KEY_COLUMN)
    # ...yet a narrow tree still keeps Status in view, and a wide one gets Digest back
    tab.splitter.setSizes([330, 1200])
    qtbot.waitUntil(lambda: header.isSectionHidden(DIGEST_COLUMN))
    assert header.isSectionHidden(TYPE_COLUMN)
    assert not header.isSectionHidden(STATUS_COLUMN)
    tab.splitter.setSizes([900, 600])
    qtbot.waitUntil(lambda: not header.isSectionHidden(DIGEST_COLUMN))
    assert not header.isSectionHidden(TYPE_COLUMN)
    assert header.sectionSize(KEY_COLUMN) == key_width
