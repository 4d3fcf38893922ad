"""Issue 19: after Cancel the window said idle while a cancelled core call kept a CPU and
memory for as long as it ran. It now says "cancelling…" until the worker has returned,
and a continuation check stops at its next cancellation point (it passes them inside
the long checks, not only between files)."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

from tests.gui.driving import drop
from tests.hostile.corpus import by_name
from zcf_inspector.gui.main_window import CANCELLING, MainWindow


def test_cancel_says_cancelling_until_the_worker_has_stopped(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    session = tmp_path / "chain.json"
    session.write_bytes(by_name("deltas-over-snapshot").build(300_000))
    reached = threading.Event()
    release = threading.Event()

    def hold(what: str, fraction: float) -> None:  # runs on the worker thread
        del fraction
        if what.startswith("checking"):
            reached.set()
            release.wait(timeout=60)

    stopped_by_cancel: list[int] = []

    def cancelled(task: int) -> None:  # a builtin method is not a slot PySide calls
        stopped_by_cancel.append(task)

    window.runner._signals.cancelled.connect(cancelled)
    window.runner.progress_hook = hold
    drop(window, [session])
    qtbot.waitUntil(reached.is_set, timeout=20_000)
    qtbot.waitUntil(window.cancel_button.isVisible, timeout=20_000)
    try:
        qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
        assert not window.runner.busy  # the window may start other work at once...
        assert window.runner.stopping  # ...but it says the cancelled one still runs
        assert window.statusBar().currentMessage() == CANCELLING
    finally:
        release.set()
    qtbot.waitUntil(lambda: not window.runner.stopping, timeout=60_000)
    assert window.statusBar().currentMessage() == "Cancelled."
    # The check itself stopped at a cancellation point: it raised Cancelled, it did not
    # run to the end and have its result dropped.
    assert len(stopped_by_cancel) == 1
    assert window.document_tabs() == []
