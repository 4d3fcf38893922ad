"""GUI tests run offscreen, with QSettings in a temp folder and the real core."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before anything loads Qt

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test starts with empty settings (no destination, no recent files)."""
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture(autouse=True)
def isolated_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Review journals (under QStandardPaths' GenericDataLocation) go to a temp folder per
    test, so no test restores another's decisions and nothing is written to the real home."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder


@pytest.fixture(autouse=True)
def close_keeps_reviews(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A window a test made and closes (by hand or by qtbot at the end) may hold a review
    with unexported decisions, whose close question is a modal box no one answers
    offscreen: it would hang the run. Every such question is answered Keep for later (the
    journal keeps them), and what it said is kept for a test to read. The tests of the
    question itself answer it through their own prompter (`ScriptedPrompter`)."""
    from zcf_inspector.gui.review import dialogs
    from zcf_inspector.gui.review.close_question import CloseAnswer

    asked: list[str] = []

    def keep(parent: Any, text: str) -> CloseAnswer:
        asked.append(text)
        return CloseAnswer.KEEP

    monkeypatch.setattr(dialogs, "ask_close", keep)
    return asked


# The offscreen platform has no window manager: it cannot pass size hints, raise a window
# or give a popup (a completer's) the keyboard, and says so each time; that is the test
# platform talking, not the window.
OFFSCREEN_NOTICE = (
    r"This plugin does not support (propagateSizeHints\(\)|raise\(\)|grabbing the keyboard)"
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/gui" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOTICE))


@pytest.fixture
def window(qtbot):
    from zcf_inspector.gui.main_window import MainWindow

    main = MainWindow()
    main.show()
    qtbot.waitExposed(main)
    yield main
    # Closed here rather than by qtbot (which closes its widgets before any fixture's
    # teardown): the reviews it holds are answered first.
    keep_on_close(main)
    main.close()
    main.deleteLater()


def keep_on_close(main: Any) -> None:
    """A test's window closes at its end: a review with unexported decisions would ask
    (a modal box no one answers offscreen). Answer Keep for later, as a reviewer who
    means to come back would."""
    from zcf_inspector.gui.review.close_question import CloseAnswer
    from zcf_inspector.gui.review.dialogs import Prompter

    class Keeping(Prompter):
        def ask_close(self, parent: Any, text: str) -> CloseAnswer:
            return CloseAnswer.KEEP

    for tab in main.document_tabs():
        if tab.review_pane is not None:
            tab.review_pane.prompter = Keeping()
