"""Issue 18, point 4: a review is opened on the runner — ingest, the journal, the rows —
and shown in one go; Cancel stops it cleanly; a step running meanwhile ends first."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from tests.core.helpers import destination, golden_bytes
from tests.gui.review.conftest import OFFSCREEN_NOISE, ScriptedPrompter, wait_open
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.gui.review.pane import ReviewPane

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def make(qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter) -> ReviewPane:
    pane = ReviewPane(settings=settings, data_dir=data_dir, prompter=prompter)
    qtbot.addWidget(pane)
    return pane


def test_the_journal_is_read_on_the_runner_and_the_old_review_stays_until_then(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> None:
    pane = make(qtbot, settings, data_dir, prompter)
    data, dest = golden_bytes("full-handoff"), destination()
    inspection = inspect_bytes(data, dest)
    held = threading.Event()
    release = threading.Event()

    def hook(what: str, _fraction: float) -> None:
        if what == "restoring the saved review":
            held.set()
            release.wait(20)

    pane.runner.progress_hook = hook
    pane.set_packet("/p.json", data, inspection, dest)
    assert pane.opening  # asked for, not done on the UI thread
    qtbot.waitUntil(held.is_set)
    assert pane.review is None
    assert not pane.decide_actions[ReviewState.CONFIRMED].isEnabled()
    release.set()
    wait_open(qtbot, pane)
    assert pane.review is not None
    pane.decide_current(ReviewState.CONFIRMED)
    first = pane.review
    # Opened again: the review shown stays (steps disabled) until the new one is in.
    held.clear()
    release.clear()
    pane.set_packet("/p.json", data, inspection, dest)
    qtbot.waitUntil(held.is_set)
    assert pane.review is first
    assert not pane.decide_actions[ReviewState.CONFIRMED].isEnabled()
    release.set()
    wait_open(qtbot, pane)
    assert pane.review is not first
    assert [d.portable_ref for d in pane.review.session.decisions] == ["b-reader"]
    assert pane.current_ref() == "b-order"


def test_cancel_stops_the_open_and_the_pane_says_so(
    qtbot: Any, settings: QSettings, data_dir: Path, prompter: ScriptedPrompter
) -> None:
    pane = make(qtbot, settings, data_dir, prompter)
    data, dest = golden_bytes("full-handoff"), destination()
    held = threading.Event()
    release = threading.Event()

    def hook(what: str, _fraction: float) -> None:
        if what == "restoring the saved review":
            held.set()
            release.wait(20)

    pane.runner.progress_hook = hook
    pane.set_packet("/p.json", data, inspect_bytes(data, dest), dest)
    qtbot.waitUntil(held.is_set)
    pane.runner.cancel_all()  # the window's Cancel
    release.set()
    qtbot.waitUntil(lambda: not pane.opening, timeout=20_000)
    assert pane.review is None
    assert "Restoring the review was cancelled" in pane.ui.problem.text()
    pane.runner.progress_hook = None
    pane.set_packet("/p.json", data, inspect_bytes(data, dest), dest)
    wait_open(qtbot, pane)
    assert pane.review is not None
