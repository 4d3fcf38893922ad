"""Issue 30, point 1, in the window: an escaped character is drawn as a token typed text
cannot produce — its own background and frame in the tree, its name in the tooltip —
while the same six characters typed are drawn as plain text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.gui.driving import GOLDENS, drop_and_wait
from zcf_inspector.gui.escape_tokens import EscapeTokenDelegate, _segments, token_tip
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.theme import token_colours


def test_segments_tell_a_real_character_from_its_typed_spelling() -> None:
    assert _segments("pay \\u202egnp") == [
        ("pay ", None, ""),
        ("\\u202e", "\u202e", "\\u202e"),
        ("gnp", None, ""),
    ]
    assert _segments("pay \\\\u202egnp") == [
        ("pay ", None, ""),
        ("\\\\", None, ""),  # a typed backslash, drawn as text, as the text form has it
        ("u202egnp", None, ""),
    ]
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in token_tip("\\u202e", "\u202e")


def _count(image: object, colour: QColor) -> int:
    from PySide6.QtGui import QImage

    assert isinstance(image, QImage)
    target = colour.rgb()
    return sum(
        1
        for y in range(image.height())
        for x in range(0, image.width(), 2)
        if image.pixel(x, y) == target
    )


@pytest.mark.qt_log_ignore(".*")
def test_the_tree_draws_a_real_override_as_a_token_and_typed_text_as_text(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    packet = json.loads((GOLDENS / "publication" / "full-handoff.json").read_text("utf-8"))
    packet["packet"]["intent"] = "pay \u202egnp.exe"
    packet["content"]["capsule"]["objective"] = "pay \\u202egnp.exe"  # typed
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps(g.unsigned(packet), ensure_ascii=False), encoding="utf-8")
    window.resize(1024, 700)
    tab = drop_and_wait(qtbot, window, [path])
    tree = tab.tree
    assert isinstance(tree.itemDelegate(), EscapeTokenDelegate)
    _, back = token_colours(tree.palette())

    def cell(pointer: str) -> object:
        tab.select_pointer(pointer)
        index = tree.currentIndex().siblingAtColumn(1)
        tree.scrollTo(index)
        qtbot.wait(50)
        rect = tree.visualRect(index)
        return tree.viewport().grab(rect).toImage()

    real = cell("/packet/intent")
    typed = cell("/content/capsule/objective")
    assert _count(real, back) > 20  # the token's background
    assert _count(typed, back) == 0  # typed text: no token
    tab.select_pointer("/packet/intent")
    index = tree.currentIndex().siblingAtColumn(1)
    assert index.data(Qt.ItemDataRole.DisplayRole) == '"pay \\u202egnp.exe"'
    delegate = tree.itemDelegate()
    assert isinstance(delegate, EscapeTokenDelegate)
    rect = tree.visualRect(index)
    tips = {
        delegate.token_at(tree, index, QPoint(x, rect.center().y()))
        for x in range(rect.left(), rect.right(), 2)
    }
    assert any("U+202E RIGHT-TO-LEFT OVERRIDE" in tip for tip in tips)
