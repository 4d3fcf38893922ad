"""Issue 12, point 11: the theme follows the system or View → Theme (remembered), every
custom-painted part takes the palette's colours, and journals live in one folder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui import theme
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.plangraph import style
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.review.storage import default_data_dir
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.theme import Theme, Tone, ToneLabel, is_dark, tone_colour


@pytest.fixture(autouse=True)
def system_palette_after() -> Iterator[None]:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.setPalette(QPalette())  # the next test starts from the platform's palette


def lightness(widget: QWidget) -> float:
    """The mean lightness (0-255) of what the widget paints."""
    image: QImage = widget.grab().toImage().scaled(40, 40)
    values = [image.pixelColor(x, y).lightness() for x in range(40) for y in range(40)]
    return sum(values) / len(values)


def test_view_theme_menu_applies_and_is_remembered(qtbot: QtBot, window: MainWindow) -> None:
    assert window.theme.theme is Theme.SYSTEM
    assert window.theme_actions[Theme.SYSTEM].isChecked()
    assert [a.text() for a in window.theme_actions.values()] == ["&System", "&Light", "&Dark"]
    window.theme_actions[Theme.DARK].trigger()
    assert is_dark(QGuiApplication.palette())
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.theme.theme is Theme.DARK
    assert again.theme_actions[Theme.DARK].isChecked()
    again.theme_actions[Theme.LIGHT].trigger()
    assert not is_dark(QGuiApplication.palette())
    assert settings_store().value(theme.THEME_KEY) == "light"


def test_system_follows_the_desktops_colour_scheme(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not is_dark(QGuiApplication.palette())
    # The desktop switches to dark (offscreen has no desktop: its answer is given here).
    monkeypatch.setattr(theme, "system_wants_dark", lambda: True)
    hints = QGuiApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert is_dark(QGuiApplication.palette())
    window.set_theme(Theme.LIGHT)  # a chosen theme does not follow the desktop
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert not is_dark(QGuiApplication.palette())


def test_dark_theme_reaches_every_painted_part(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.resize(1400, 900)
    session = drop_and_wait(qtbot, window, [EXAMPLES / "another-computer.session.json"])
    graph = session.plan_graph_pane
    assert graph is not None
    graph.wait_for_layout()
    session.show_pane("Plan graph")
    qtbot.waitUntil(lambda: graph.scene is not None, timeout=20_000)
    assert lightness(graph.view.viewport()) > 200
    window.set_theme(Theme.DARK)
    scene = graph.scene
    assert scene is not None
    qtbot.waitUntil(lambda: scene.colours.dark)  # palette changes arrive as events
    base = QGuiApplication.palette().color(QPalette.ColorRole.Base)
    assert scene.colours.dark
    assert scene.backgroundBrush().color() == base
    assert lightness(graph.view.viewport()) < 90  # the canvas is dark, not left light
    node = next(iter(scene.nodes.values()))
    kind = style.type_style(node.facts.node.type)
    assert node._pens().brush.color().name() == scene.colours.fill(kind)
    assert node._pens().brush.color().name() != kind.fill
    assert scene.bundles[0].pen().color().name() == scene.colours.edge
    graph.side.setCurrentIndex(2)  # the legend
    qtbot.waitUntil(lambda: graph.legend.colours.dark)
    assert lightness(graph.legend) < 90
    # a packet: chips, headline, hex view
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "minimal.json"])
    assert lightness(tab.header) < 90
    headline = tab.header.headline.palette().windowText().color()
    # VALID · UNSIGNED is neutral (never green): the dark theme's own text colour
    assert headline == tab.header.palette().windowText().color()
    assert headline != tone_colour(Tone.GOOD, tab.header.palette())
    tab.show_pane("Canonical bytes")
    tab.select_pointer("/packet")
    pane = tab.canonical_pane
    pane.views.setCurrentWidget(pane.hex)
    qtbot.waitUntil(lambda: bool(pane.hex.toPlainText()), timeout=10_000)
    assert lightness(pane.hex.viewport()) < 90
    # back to light: the canvas follows
    window.set_theme(Theme.LIGHT)
    qtbot.waitUntil(lambda: not scene.colours.dark)
    assert scene.backgroundBrush().color() == QColor(style.BACKGROUND)


def test_tone_labels_follow_the_theme(qtbot: QtBot, window: MainWindow) -> None:
    label = ToneLabel(Tone.BAD)
    qtbot.addWidget(label)
    assert label.palette().windowText().color() == QColor("#b3261e")
    window.set_theme(Theme.DARK)
    qtbot.waitUntil(lambda: label.palette().windowText().color() == QColor("#ff7b72"))


def test_journals_live_in_one_folder_and_old_ones_are_moved(
    qtbot: QtBot, isolated_data_dir: Path, tmp_path: Path
) -> None:
    assert default_data_dir() == isolated_data_dir / "zcf-inspector" / "review-journals"
    # A review in progress in the old, doubled folder...
    first = MainWindow()
    qtbot.addWidget(first)
    first.apply_destination(str(DESTINATION))
    wait_idle(qtbot, first)
    tab = drop_and_wait(qtbot, first, [PUBLICATION / "full-handoff.json"])
    pane = tab.review_pane
    assert pane is not None
    save_identity(pane.settings, "carol", "")
    pane.decide_current(ReviewState.CONFIRMED)
    first.close()
    old = isolated_data_dir / "zcf-inspector" / "zcf-inspector" / "review-journals"
    old.parent.mkdir(parents=True)
    shutil.move(default_data_dir(), old)
    # ...is moved on start, and restored when the packet opens again
    window = MainWindow()
    qtbot.addWidget(window)
    assert not old.exists()
    assert len(window.journal_move.moved) == 1
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Saved reviews: moved 1 saved review to the new folder")
    )
    tab = drop_and_wait(qtbot, window, [PUBLICATION / "full-handoff.json"])
    pane = tab.review_pane
    assert pane is not None
    assert pane.model.state("b-reader") is ReviewState.CONFIRMED
