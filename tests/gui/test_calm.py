"""Issue 18, the UI-stall benchmark: work started from a load waits, costing no GIL,
until the UI thread is calm (`gui/calm.py`), so the new tab's first paints are not made
to wait for the GIL behind it; Cancel still stops the waiting work at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.gui import calm
from zcf_inspector.gui.calm import wait_until_calm, when_calm


def test_the_event_is_set_once_the_ui_thread_answers_its_polls(qtbot: Any) -> None:
    owner = QWidget()
    qtbot.addWidget(owner)
    ready = when_calm(owner)
    assert not ready.is_set()  # not before the event loop has answered
    qtbot.waitUntil(ready.is_set, timeout=2000)


def test_a_busy_ui_thread_is_not_calm(qtbot: Any) -> None:
    owner = QWidget()
    qtbot.addWidget(owner)
    ready = when_calm(owner)
    for _ in range(8):  # the UI thread answers late, eight times in a row
        time.sleep(calm.CALM_POLL_MS / 1000 + calm.CALM_SLACK_S + 0.01)
        qtbot.wait(0)
        assert not ready.is_set()
    qtbot.waitUntil(ready.is_set, timeout=2000)


def test_the_event_is_set_when_its_owner_is_gone(qtbot: Any) -> None:
    owner = QWidget()
    ready = when_calm(owner)
    owner.deleteLater()
    qtbot.waitUntil(ready.is_set, timeout=2000)


def test_the_work_waits_for_the_event() -> None:
    ready = threading.Event()
    done = threading.Event()

    def work() -> None:
        wait_until_calm(ready, Monitor())
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    assert not done.wait(0.1)
    ready.set()
    assert done.wait(2.0)
    worker.join()


def test_cancel_stops_the_waiting_work() -> None:
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        wait_until_calm(threading.Event(), monitor)


def test_the_wait_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calm, "READY_WAIT_S", 0.05)
    start = time.perf_counter()
    wait_until_calm(threading.Event(), Monitor())  # never set: it gives up
    assert time.perf_counter() - start < 1.0


def test_no_event_no_wait() -> None:
    monitor = Monitor()
    monitor.cancel()  # it would raise at its first look: without an event it never looks
    start = time.perf_counter()
    wait_until_calm(None, monitor)
    assert time.perf_counter() - start < 0.01
