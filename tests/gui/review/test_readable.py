"""Issue 12, point 5: the text being judged is readable — rows wrap the content over
several lines, the detail below the table gives the whole content the pane's width, and
the note of each decision is a column of the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from goldens import generate as g
from tests.core.helpers import destination
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, focus_table
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui.review.layout import ROW_LINES
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.table_model import Column

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)

LONG = (
    "The reader refuses a lone surrogate at the offset of its first byte; the refusal "
    "names the pointer of the string that holds it and never decodes the rest, so a "
    "hostile packet cannot make the window spend time on what comes after. "
) * 2


def long_packet() -> bytes:
    packet: Any = g.handoff("long")
    packet["content"]["beliefs"] = [g.belief("b-long", LONG), g.belief("b-short", "short")]
    return json.dumps(g.unsigned(packet)).encode()


@pytest.fixture
def pane(qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter) -> ReviewPane:
    made = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(made)
    data = long_packet()
    dest = destination(maxBeliefBytes=4096)
    made.set_packet("/packets/long.json", data, inspect_bytes(data, dest), dest)
    made.resize(1000, 700)
    made.show()
    focus_table(qtbot, made)
    return made


def test_rows_wrap_the_content(pane: ReviewPane) -> None:
    table = pane.table
    assert table.wordWrap()
    lines = table.verticalHeader().sectionSize(0) // table.fontMetrics().lineSpacing()
    assert lines >= ROW_LINES
    content = pane.proxy.index(0, Column.CONTENT)
    assert content.data() == LONG  # the whole text is in the cell, wrapped, not one_line-cut
    viewport = table.viewport().width()
    assert table.columnWidth(Column.CONTENT) >= viewport * 0.4  # the widest column


def test_detail_gives_the_content_the_panes_width(pane: ReviewPane) -> None:
    detail = pane.detail
    assert detail.content.toPlainText() == LONG
    # below the table, not beside it: it spans the pane
    assert detail.width() >= pane.width() * 0.9
    assert detail.content.width() >= pane.width() * 0.5
    assert detail.content.lineWrapMode() is detail.content.LineWrapMode.WidgetWidth


def test_notes_are_a_column_of_the_table(pane: ReviewPane, prompter: ScriptedPrompter) -> None:
    pane.ui.note_field.setText("checked against the reader tests")
    QTest.keyClick(pane.table, Qt.Key.Key_C)
    prompter.script(("note", "too vague to keep"))
    QTest.keyClick(pane.table, Qt.Key.Key_R)
    header = pane.table.horizontalHeader()
    assert pane.proxy.headerData(Column.NOTE, Qt.Orientation.Horizontal) == "Note"
    assert not header.isSectionHidden(Column.NOTE)
    assert header.sectionSize(Column.NOTE) >= pane.table.fontMetrics().horizontalAdvance("a note")
    notes = [pane.proxy.index(r, Column.NOTE).data() for r in range(2)]
    assert notes == ["checked against the reader tests", "too vague to keep"]
    decisions = [pane.proxy.index(r, Column.CURRENT).data() for r in range(2)]
    assert decisions == ["confirmed", "rejected"]


def test_refs_differing_by_an_invisible_character_are_shown_apart(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> None:
    # Issue 19: U+034F (combining grapheme joiner) and U+3164 (Hangul filler) are printable
    # yet show nothing; the window escapes them as the terminal does.
    packet: Any = g.handoff("twins")
    packet["content"]["beliefs"] = [
        g.belief("b-payment", "one"),
        g.belief("b\u034f-payment", "two"),
        g.belief("b\u3164", "three"),
    ]
    data = json.dumps(g.unsigned(packet)).encode()
    made = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(made)
    dest = destination()
    made.set_packet("/packets/twins.json", data, inspect_bytes(data, dest), dest)
    shown = [made.proxy.index(r, Column.REF).data() for r in range(made.proxy.rowCount())]
    assert sorted(shown) == sorted(["b-payment", "b\\u034f-payment", "b\\u3164"])
