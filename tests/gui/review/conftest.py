"""Fixtures for the review pane: a pane on a golden, a scripted prompter, temp settings.

Qt must run offscreen; the shared ``tests/gui/conftest.py`` sets that when it exists, and
this one does too (before any Qt import) so these tests also run on their own.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget

from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui.review.close_question import CloseAnswer
from zcf_inspector.gui.review.dialogs import Prompter
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.previous_dialog import OpenFile
from zcf_inspector.gui.review.settings import save_identity

# Read when pytest-qt's ``qapp`` creates the QApplication, which is after this import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The offscreen platform warns when a window is shown; that says nothing about the pane.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


class ScriptedPrompter(Prompter):
    """Answers each question from a queue, in order, and logs every message shown."""

    def __init__(self) -> None:
        self.answers: deque[tuple[str, Any]] = deque()
        self.log: list[tuple[str, str, str]] = []

    def script(self, *answers: tuple[str, Any]) -> None:
        self.answers.extend(answers)

    def _answer(self, kind: str, title: str, text: str) -> Any:
        self.log.append((kind, title, text))
        assert self.answers, f"unexpected {kind}: {title}: {text}"
        expected, value = self.answers.popleft()
        assert expected == kind, f"expected {expected}, asked {kind}: {title}: {text}"
        return value

    def messages(self, kind: str) -> list[str]:
        return [text for k, _, text in self.log if k == kind]

    def confirm(self, parent: QWidget, title: str, text: str) -> bool:
        return bool(self._answer("confirm", title, text))

    def inform(self, parent: QWidget, title: str, text: str) -> None:
        self.log.append(("inform", title, text))

    def warn(self, parent: QWidget, title: str, text: str) -> None:
        self.log.append(("warn", title, text))

    def ask_note(
        self, parent: QWidget, title: str, prompt: str, initial: str, *, required: bool
    ) -> str | None:
        value: str | None = self._answer("note", title, prompt)
        return value

    def ask_replacement(
        self, parent: QWidget, ref: str, candidates: Sequence[tuple[str, str]], initial_note: str
    ) -> tuple[str, str] | None:
        value: tuple[str, str] | None = self._answer("replacement", ref, repr(candidates))
        return value

    def ask_save_path(self, parent: QWidget, suggested: str) -> str | None:
        value: str | None = self._answer("path", "save", suggested)
        return value

    def ask_previous(
        self, parent: QWidget, packets: Sequence[OpenFile], receipts: Sequence[OpenFile]
    ) -> tuple[str, str] | None:
        offered = repr(([p.path for p in packets], [(r.path, r.belongs_to) for r in receipts]))
        value: tuple[str, str] | None = self._answer("previous", "previous", offered)
        return value

    def ask_identity(self, parent: QWidget, settings: QSettings, scope: str = "") -> bool:
        name = self._answer("identity", "identity", "")
        if name:
            save_identity(settings, name, "", scope)
        return bool(name)

    def ask_close(self, parent: QWidget, text: str) -> CloseAnswer:
        value: CloseAnswer = self._answer("close", "close", text)
        return value


@pytest.fixture(autouse=True)
def collect_on_the_gui_thread() -> Iterator[None]:
    """Collect this test's garbage here, on the GUI thread.

    Python's cyclic collector runs on whichever thread happens to allocate; if that is a
    worker thread of a later test, it would finalize Qt objects off the GUI thread.
    """
    yield
    gc.collect()


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    value = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    save_identity(value, "carol", "")
    return value


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "appdata"


@pytest.fixture
def prompter() -> ScriptedPrompter:
    return ScriptedPrompter()


PaneFactory = Callable[..., ReviewPane]


def wait_open(qtbot: Any, pane: ReviewPane) -> None:
    """The review is opened on the runner (`ReviewPane.set_packet`): wait until it shows."""
    qtbot.waitUntil(lambda: not pane.opening and not pane.runner.busy, timeout=20_000)


def focus_table(qtbot: Any, pane: ReviewPane) -> None:
    """Shortcuts need an active window; a closed dialog may have taken activation away."""
    pane.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is pane)
    pane.table.setFocus()


def open_pane(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: Any, path: Path
) -> ReviewPane:
    """A review pane on the packet at ``path``, admitted at the goldens' destination,
    opened, shown and with the table focused."""
    dest = destination()
    pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(pane)
    data = path.read_bytes()
    pane.set_packet(str(path), data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, pane)
    pane.show()
    focus_table(qtbot, pane)
    return pane


@pytest.fixture
def make_pane(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> PaneFactory:
    def make(
        golden: str = "full-handoff",
        *,
        dest: Destination | None = None,
        show: bool = True,
        use_prompter: Prompter | None = None,
    ) -> ReviewPane:
        pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=use_prompter or prompter)
        qtbot.addWidget(pane)
        chosen = dest if dest is not None else destination()
        data = golden_bytes(golden)
        pane.set_packet(f"/packets/{golden}.json", data, inspect_bytes(data, chosen), chosen)
        wait_open(qtbot, pane)
        if show:
            pane.show()
            focus_table(qtbot, pane)
        return pane

    return make
