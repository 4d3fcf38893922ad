"""Issue 18, point 5: one text policy for every widget. A packet whose every free-text
string (and a second one whose every string, ids too) carries a bidi override and an
isolate, a zero-width space, a line separator, ESC and C1 controls is opened — its file
name carries them too — every pane, belief and node is shown, and the text of every
visible widget (labels, buttons, items, editors, tooltips, tab and window titles) is
walked: none of those characters reaches a widget raw. The raw text stays one explicit
action away (Copy raw value)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.gui.driving import DESTINATION, GOLDENS, wait_idle
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.roles import PLAIN_TOOLTIP_ROLE

HOSTILE = "\u202e\u2066\u200b\u2028\x1b\x85\x9b"
RAW = frozenset(HOSTILE)
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, PLAIN_TOOLTIP_ROLE)
NODES = 5_000  # of a model walked: far more than these packets have


def _strings(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*at, index))
    elif isinstance(value, str):
        yield at


def hostile_packets(folder: Path) -> tuple[Path, Path]:
    """(valid, refused): the full handoff with the characters added to every string the
    profile lets through (the packet stays valid, so it is reviewed), and with them in
    every string but the envelope's (ids, refs, timestamps: refused, shown as findings)."""
    from tests.core.helpers import destination
    from zcf_inspector.core.packet.inspection import inspect_bytes

    base = json.loads((GOLDENS / "publication" / "full-handoff.json").read_text("utf-8"))
    dest = destination()

    def sealed(packet: Any) -> bytes:
        return json.dumps(g.unsigned(copy.deepcopy(packet)), ensure_ascii=False).encode()

    def valid(packet: Any) -> bool:
        findings = inspect_bytes(sealed(packet), dest).findings
        return not any(f.severity == "error" for f in findings)

    kept, every = copy.deepcopy(base), copy.deepcopy(base)
    for at in list(_strings(base)):
        if at[0] in ("manifest", "authentication", "format", "formatVersion"):
            continue
        for packet, keep_valid in ((kept, True), (every, False)):
            parent = packet
            for key in at[:-1]:
                parent = parent[key]
            old = parent[at[-1]]
            parent[at[-1]] = old + HOSTILE
            if keep_valid and not valid(packet):
                parent[at[-1]] = old
    good = folder / f"valid{HOSTILE}.json"
    good.write_bytes(sealed(kept))
    bad = folder / f"refused{HOSTILE}.json"
    bad.write_bytes(sealed(every))
    return good, bad


def _model_texts(model: QAbstractItemModel, where: str) -> Iterator[tuple[str, str]]:
    for section in range(model.columnCount()):
        yield where + " header", str(model.headerData(section, Qt.Orientation.Horizontal) or "")
    stack = [QModelIndex()]
    seen = 0
    while stack and seen < NODES:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                seen += 1
                for role in ROLES:
                    value = index.data(role)
                    if isinstance(value, str):
                        yield f"{where} ({row}, {column}) role {int(role)}", value
            first = model.index(row, 0, parent)
            if model.rowCount(first) > 0:
                stack.append(first)


def widget_texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    name = f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()}"
    yield name + " window title", widget.windowTitle()
    yield name + " tooltip", widget.toolTip()
    if isinstance(widget, QLabel):
        yield name, widget.text()
    if isinstance(widget, QAbstractButton):
        yield name, widget.text()
    if isinstance(widget, QLineEdit):
        yield name, widget.text()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        yield name, widget.toPlainText()
    if isinstance(widget, QComboBox):
        for i in range(widget.count()):
            yield f"{name} item {i}", widget.itemText(i)
    if isinstance(widget, QTabBar):
        for i in range(widget.count()):
            yield f"{name} tab {i}", widget.tabText(i)
            yield f"{name} tab {i} tooltip", widget.tabToolTip(i)
    if isinstance(widget, QAbstractItemView) and widget.model() is not None:
        yield from _model_texts(widget.model(), name)
    for action in widget.actions():
        yield f"{name} action", action.text()
        yield f"{name} action tooltip", action.toolTip()


def raw_texts() -> list[tuple[str, str]]:
    found = []
    for widget in QApplication.allWidgets():
        if not widget.isVisible():
            continue
        for where, text in widget_texts(widget):
            if RAW & set(text):
                found.append((where, text))
    return found


def show_everything(qtbot: QtBot, tab: DocumentTab) -> list[tuple[str, str]]:
    """Every pane of ``tab`` in turn, every belief of its review, the tree expanded and
    each node selected; the raw texts found on the way."""
    found: list[tuple[str, str]] = []
    tab.tree.expandAll()
    for i in range(tab.panes.count()):
        tab.panes.setCurrentIndex(i)
        pane = tab.panes.widget(i)
        if isinstance(pane, ReviewPane):
            for row in range(pane.proxy.rowCount()):
                pane.table.selectRow(row)
                for side in range(pane.detail.side.count()):
                    pane.detail.side.setCurrentIndex(side)
                    found += raw_texts()
        else:
            found += raw_texts()
    model = tab.model
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            tab.tree.setCurrentIndex(index)
            stack.append(index)
        wait_idle(qtbot, tab.window())  # type: ignore[arg-type]
        found += raw_texts()
    return found


@pytest.mark.qt_log_ignore(".*")
def test_no_widget_shows_a_hostile_character_raw(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    valid, refused = hostile_packets(tmp_path)
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    window.open_paths([str(valid), str(refused)])
    qtbot.waitUntil(lambda: len(window.document_tabs()) == 2, timeout=20_000)
    wait_idle(qtbot, window)
    found: list[tuple[str, str]] = []
    for tab in window.document_tabs():
        window.tabs.setCurrentWidget(tab)
        wait_idle(qtbot, window)
        found += show_everything(qtbot, tab)
        tab.select_pointer("/content/capsule/summary")
        tab.show_full_value()
        wait_idle(qtbot, window)
        found += raw_texts()
        if tab.full_value_dialog is not None:
            tab.full_value_dialog.close()
    valid_tab = window.document_tabs()[0]
    pane = valid_tab.review_pane
    assert pane is not None
    assert pane.review is not None  # reviewed: its pane was walked
    assert len(pane.target.beliefs) == 3  # type: ignore[union-attr]
    assert not found, "\n".join(f"{where}: {text!r}" for where, text in dict(found).items())


@pytest.mark.qt_log_ignore(".*")
def test_the_detail_escapes_what_the_table_escapes_and_copies_the_raw_value(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """The reviewer's case: a bidi override reads "no-play" in a detail pane that applies
    it; escaped, it reads as written. Copy raw value puts the text itself on the
    clipboard."""
    packet = json.loads((GOLDENS / "publication" / "full-handoff.json").read_text("utf-8"))
    claim = "Deploy target is \u202eyalp-on\u202c safe\u2028really"
    packet["content"]["beliefs"][0]["content"] = claim
    path = tmp_path / "bidi.json"
    path.write_text(json.dumps(g.unsigned(packet), ensure_ascii=False), encoding="utf-8")
    window.apply_destination(str(DESTINATION))
    window.open_paths([str(path)])
    qtbot.waitUntil(lambda: len(window.document_tabs()) == 1, timeout=20_000)
    wait_idle(qtbot, window)
    pane = window.document_tabs()[0].review_pane
    assert pane is not None
    save_identity(pane.settings, "carol", "")
    pane.table.selectRow(0)
    escaped = "Deploy target is \\u202eyalp-on\\u202c safe\\u2028really"
    assert pane.detail.content.toPlainText() == escaped
    assert pane.model.index(0, 1).data() == escaped
    pane.detail.copy_raw_button.click()
    assert QGuiApplication.clipboard().text() == claim
