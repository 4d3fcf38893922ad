"""Issue 22, point 6: the compare view takes its colours from the theme. Under the dark
theme its change words and its marked characters were fixed light colours (contrast
1.08-1.24:1 on the dark palette); every one must now reach 4.5:1, in both themes, and
follow a theme change while the view is open."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tests.gui.driving import WAIT_MS, drop_and_wait
from tests.gui.test_compare import PACKET, next_generation, wait_for_compare
from zcf_inspector.gui.compare_view import CompareView
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.theme import Theme, contrast, is_dark

TEXT_CONTRAST = 4.5  # WCAG AA for text, the theme's own target


@pytest.fixture(autouse=True)
def system_palette_after() -> Iterator[None]:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.setPalette(QPalette())  # the next test starts from the platform's palette


def open_compare(qtbot: QtBot, window: MainWindow, folder: Path) -> CompareView:
    window.resize(1400, 900)
    tab = drop_and_wait(qtbot, window, [PACKET])
    window.compare_paths(tab, str(next_generation(folder)))
    view = wait_for_compare(qtbot, window)
    qtbot.waitUntil(lambda: bool(view.detail_lines), timeout=WAIT_MS)
    return view


def word_colours(view: CompareView) -> list[tuple[str, QColor]]:
    """Each coloured change word of both tables, with its colour."""
    found = []
    for model, column in ((view.parts_model, 1), (view.changes_model, 0)):
        for row in range(model.rowCount()):
            index = model.index(row, column)
            brush = index.data(Qt.ItemDataRole.ForegroundRole)
            if isinstance(brush, QBrush):
                found.append((str(index.data()), brush.color()))
    return found


def marks(view: CompareView) -> list[tuple[str, QColor, QColor]]:
    """Each run of the detail painted with a background: its text, text and mark colour."""
    text_colour = view.detail.palette().color(QPalette.ColorRole.Text)
    runs = []
    block = view.detail.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.background().style() != Qt.BrushStyle.NoBrush:
                shown = (
                    fmt.foreground().color()
                    if fmt.foreground().style() != Qt.BrushStyle.NoBrush
                    else text_colour
                )
                runs.append((fragment.text(), shown, fmt.background().color()))
            it += 1
        block = block.next()
    return runs


def assert_readable(view: CompareView) -> None:
    base = view.changes.palette().color(QPalette.ColorRole.Base)
    words = word_colours(view)
    assert {w for w, _ in words} >= {"changed", "added", "removed"}
    for word, colour in words:
        ratio = contrast(colour, base)
        assert ratio >= TEXT_CONTRAST, f"{word!r} {colour.name()} on {base.name()}: {ratio:.2f}"
    runs = marks(view)
    assert [text for text, _, _ in runs] == ["unit", "word", '"confirmed"']
    for text, shown, mark in runs:
        ratio = contrast(shown, mark)
        assert ratio >= TEXT_CONTRAST, f"{text!r} {shown.name()} on {mark.name()}: {ratio:.2f}"


def test_the_compare_view_is_readable_in_the_dark_theme(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.set_theme(Theme.DARK)
    assert is_dark(QGuiApplication.palette())
    view = open_compare(qtbot, window, tmp_path)
    assert_readable(view)
    # the marks are the dark theme's, not the light ones behind light text
    assert all(mark.lightness() < 128 for _, _, mark in marks(view))


def test_the_compare_view_follows_a_theme_change(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.set_theme(Theme.LIGHT)
    view = open_compare(qtbot, window, tmp_path)
    assert_readable(view)
    light_marks = [mark.name() for _, _, mark in marks(view)]
    light_words = [colour.name() for _, colour in word_colours(view)]
    window.set_theme(Theme.DARK)  # with the view open
    qtbot.waitUntil(lambda: all(m.lightness() < 128 for _, _, m in marks(view)), timeout=5_000)
    assert_readable(view)
    assert [colour.name() for _, colour in word_colours(view)] != light_words
    window.set_theme(Theme.LIGHT)
    qtbot.waitUntil(lambda: [m.name() for _, _, m in marks(view)] == light_marks, timeout=5_000)
    assert_readable(view)
