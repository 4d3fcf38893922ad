"""Work that waits until the UI thread is calm: the gate between a tab's first paints and
the runner's Python work.

Why: after a load the new tab paints and lays out more than once (the tree of a
200,000-belief packet: tens of milliseconds each, most of them Python model calls), and
every Qt call into a Python override takes the GIL. A worker running Python meanwhile makes
each of those calls wait behind it, so a paint of 50 ms became a stall of 150-400 ms
(`tests/perf/bench_recheck.py`). Work started from the load (the review's open, the
briefing) is handed to the runner at once but first waits here, costing no GIL, until the
UI thread has answered `CALM_TICKS` polls in a row on time (at most `READY_WAIT_S`).
"""

from __future__ import annotations

import threading
import time
from typing import Final

from PySide6.QtCore import QObject, QTimer
from shiboken6 import isValid

from zcf_inspector.core.monitor import Monitor

CALM_POLL_MS: Final = 10  # the UI thread is calm when it answers these polls on time…
CALM_SLACK_S: Final = 0.015  # …give or take this…
CALM_TICKS: Final = 3  # …this many times in a row
READY_WAIT_S: Final = 2.0  # the longest the work waits for the UI thread's first paints
WAIT_SLICE_S: Final = 0.02  # how often the waiting work looks whether it was cancelled


def when_calm(owner: QObject) -> threading.Event:
    """An event the UI thread sets once it is calm (see the module's docstring); when
    ``owner`` is deleted first the event is set too, so no work waits for a dead widget."""
    ready = threading.Event()
    _poll(owner, ready, 0.0, 0)
    return ready


def _poll(owner: QObject, ready: threading.Event, last: float, calm: int) -> None:
    now = time.perf_counter()
    calm = calm + 1 if last and now - last < CALM_POLL_MS / 1000 + CALM_SLACK_S else 0
    if calm >= CALM_TICKS or ready.is_set() or not isValid(owner):
        ready.set()
        return
    # No context object: a timer bound to ``owner`` would die with it and leave the work
    # waiting out `READY_WAIT_S`; the next poll sees ``owner`` gone and sets the event.
    QTimer.singleShot(CALM_POLL_MS, lambda: _poll(owner, ready, now, calm))


def wait_until_calm(ready: threading.Event | None, monitor: Monitor) -> None:
    """Worker side: hold the work until ``ready`` is set (at most `READY_WAIT_S`); Cancel
    still stops it at once. Waiting on the event costs no GIL."""
    if ready is None:
        return
    deadline = time.perf_counter() + READY_WAIT_S
    while not ready.wait(WAIT_SLICE_S):
        monitor.breathe()
        if time.perf_counter() > deadline:
            return
