"""Tooltips never render packet or file text as HTML: every one is made by
`plain_text.plain_tip` (escaped inside a rich-text wrapper, so Qt shows it literally) or
shown by `plain_tooltip` as a plain-text label."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import Qt, QTextDocument
from PySide6.QtWidgets import QTabBar, QWidget
from pytestqt.qtbot import QtBot

from goldens import generate as g
from tests.gui.driving import WAIT_MS, drop_and_wait
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.plain_text import TIP_END, TIP_START, plain_tip, visible_lines

# The first two are file names too (a name cannot hold "/").
HOSTILE = ["<b>x", "<img src=y.png>", "<a href='https://e.invalid'>l</a>", "a&amp;b</b>"]


def shown_by_qt(tip: str) -> str:
    """The text Qt's tooltip shows for ``tip`` (it renders rich text as a document)."""
    if not Qt.mightBeRichText(tip):
        return tip
    document = QTextDocument()
    document.setHtml(tip)
    return document.toPlainText()


def test_a_plain_tip_is_shown_literally() -> None:
    for text in [*HOSTILE, "two\nlines  and   spaces", "bidi \u202e and \x1b[31m"]:
        tip = plain_tip(text)
        assert tip.startswith(TIP_START)
        assert tip.endswith(TIP_END)
        assert shown_by_qt(tip) == visible_lines(text)
    assert "\u202e" not in plain_tip("\u202e")  # escaped before it reaches Qt


def every_tooltip(window: MainWindow) -> list[tuple[str, str]]:
    tips = [(w.objectName() or type(w).__name__, w.toolTip()) for w in window.findChildren(QWidget)]
    for bar in window.findChildren(QTabBar):
        tips += [(f"tab {i}", bar.tabToolTip(i)) for i in range(bar.count())]
    return [(name, tip) for name, tip in tips if tip]


def test_hostile_file_names_stay_literal_in_every_tooltip(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    names = [f"{HOSTILE[0]}.json", f"{HOSTILE[1]}.json"]
    paths = []
    for name in names:
        path = tmp_path / name
        path.write_text(json.dumps(g.unsigned(g.full_handoff())), encoding="utf-8")
        paths.append(path)
    tab = drop_and_wait(qtbot, window, [paths[0]])
    window.compare_paths(tab, str(paths[1]))
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), CompareView), timeout=WAIT_MS)
    index = window.tabs.currentIndex()
    tip = window.tabs.tabToolTip(index)
    # The compare tab names both files: escaped, shown as written.
    assert tip == plain_tip(f"{paths[0]}\n{paths[1]}")
    assert shown_by_qt(tip) == f"{paths[0]}\n{paths[1]}"
    assert "&lt;b&gt;x.json" in tip
    tips = every_tooltip(window)
    assert any(tip == t for _, t in tips)
    for name, text in tips:
        # Either plain (Qt does not take it for rich text) or made by plain_tip.
        if Qt.mightBeRichText(text):
            assert text.startswith(TIP_START), (name, text)
            assert text.endswith(TIP_END), (name, text)
        for hostile in HOSTILE[:2]:
            assert hostile not in text, (name, text)
