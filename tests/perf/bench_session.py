"""Benchmark of issue 33, item 6: the session view on a 100,000-event ASIF session.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_session [--events N] [--gil]

The window opens the session (read, core rules and the session outline on the worker),
then the session view is shown, and its timeline is walked: page by page from the top,
to the bottom, back to the middle, a row selected (its detail), then Enter (its node
selected in the tree: the tree's own cost, of expanding a range of a 100,000-element
array). The window's garbage collections (on the UI thread by design,
`gui/garbage_collector.py`) over 33 ms are named. With --gil, the core calls of the open
are then run on a thread while the main thread's gaps are measured, to say which of them
holds the GIL (as tests/perf/bench_window.py does).
Each step's time and the longest gap of a 5 ms UI-thread heartbeat
(tests/perf/bench_window.py's `Heartbeat`) are printed; the budget is 100 ms. The core
outline alone (what the worker adds to an open) is timed too. Not part of the default
test run.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from tests.core.many_events import many_events_bytes
from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until


def main() -> int:
    count = int(sys.argv[sys.argv.index("--events") + 1]) if "--events" in sys.argv else 100_000
    with tempfile.TemporaryDirectory() as home:
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
        os.environ["XDG_DATA_HOME"] = home
        return run(count, Path(home))


def run(count: int, home: Path) -> int:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from zcf_inspector.core.continuation.outline import session_outline
    from zcf_inspector.gui.document_tab import PANE_SESSION
    from zcf_inspector.gui.main_window import MainWindow

    data = many_events_bytes(count)
    path = home / "many.session.json"
    path.write_bytes(data)
    print(f"{count:,} events, {len(data) / 1e6:.1f} MB")
    value = json.loads(data)
    start = time.perf_counter()
    outline = session_outline(value)
    print(f"core outline (on the worker): {(time.perf_counter() - start) * 1000:.0f} ms")
    assert len(outline.events) == count
    del value, outline

    collections: list[tuple[float, float, int]] = []  # (start, end, generation)
    started: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            collections.append((started.pop(), time.perf_counter(), info["generation"]))

    gc.callbacks.append(timed)
    window = MainWindow()
    window.resize(1024, 700)
    window.show()
    beat = Heartbeat()
    window.runner.progressChanged.connect(lambda what, _f: setattr(beat, "label", what))
    beat.timer.start()
    worst_all = 0.0

    def measured(what: str, action: object, done: object = lambda: True) -> None:
        nonlocal worst_all
        app.processEvents()
        beat.reset()
        collections.clear()
        beat.label = what
        start = time.perf_counter()
        action()  # type: ignore[operator]
        run_until(app, done, timeout_s=900)  # type: ignore[arg-type]
        app.processEvents()
        elapsed = time.perf_counter() - start
        worst = max((g for g, _ in beat.gaps), default=elapsed)
        worst_all = max(worst_all, worst)
        print(f"  {what:<46} {elapsed * 1000:8.0f} ms   longest UI stall {worst * 1000:6.0f} ms")
        for gap, during in beat.worst(3):
            if gap > STALL_BUDGET_S / 2:
                print(f"      {gap * 1000:6.0f} ms during: {during}")
        for a, b, n in collections:
            if b - a > STALL_BUDGET_S / 3:
                print(
                    f"      UI-thread garbage collection of generation {n}: {(b - a) * 1000:.0f} ms"
                )

    measured(
        "open (read, check, outline on the worker)",
        lambda: window.open_paths([str(path)]),
        lambda: bool(window.document_tabs()) and not window.runner.busy,
    )
    tab = window.current_tab()
    assert tab is not None
    assert tab.session_pane is not None
    pane = tab.session_pane
    table = pane.timeline
    assert pane.timeline_model.rowCount() == count
    measured("show the session view", lambda: tab.focus_pane(PANE_SESSION))
    table.setCurrentIndex(pane.timeline_model.index(0, 0))

    def pages() -> None:
        for _ in range(50):
            QApplication.sendEvent(table, _key(Qt.Key.Key_PageDown))
            app.processEvents()

    measured("50 x Page Down", pages)
    measured("to the last event (Ctrl+End)", lambda: _send(table, Qt.Key.Key_End, ctrl=True))
    measured("scroll to the middle", lambda: table.verticalScrollBar().setValue(count // 2))
    measured("select a row (its detail)", lambda: table.selectRow(count // 2 + 3))
    assert pane.event_detail.toPlainText().startswith(f"event e{count // 2 + 4} ")
    measured("Enter: the event in the tree", lambda: _send(table, Qt.Key.Key_Return))
    assert tab.selected_pointer() == f"/events/{count // 2 + 3}"
    window.close()
    gc.callbacks.remove(timed)
    if "--gil" in sys.argv:
        gil_figures(data)
    verdict = "OK" if worst_all <= STALL_BUDGET_S else "OVER"
    print(
        f"longest UI-thread stall: {worst_all * 1000:.0f} ms "
        f"(budget {STALL_BUDGET_S * 1000:.0f} ms) — {verdict}"
    )
    return 0 if worst_all <= STALL_BUDGET_S else 1


def held_gil(work: object) -> tuple[float, float]:
    """(seconds ``work`` took on a thread, the longest the main thread waited meanwhile)."""
    done = threading.Event()
    worst = 0.0
    kept: list[object] = []  # the result outlives the measurement, as a tab's does: freeing
    # 100,000 rows at once is one long C call (a closed tab's, made off the UI thread)

    def run() -> None:
        kept.append(work())  # type: ignore[operator]
        done.set()

    start = time.perf_counter()
    threading.Thread(target=run).start()
    last = time.perf_counter()
    while not done.is_set():
        time.sleep(0.005)
        now = time.perf_counter()
        worst = max(worst, now - last)
        last = now
    return time.perf_counter() - start, worst


def gil_figures(data: bytes) -> None:
    from datetime import UTC, datetime

    from zcf_inspector.core.continuation.inspection import inspect_continuation
    from zcf_inspector.core.continuation.outline import session_outline

    value = json.loads(data)
    now = datetime.now(UTC)
    print("the open's core calls on a thread, and the longest the main thread waited:")
    gc.disable()  # as in the window, whose collections run on its UI thread
    for what, work in (
        (
            "inspect_continuation (the core rules)",
            lambda: inspect_continuation(data, now=now),
        ),
        ("session_outline (the session view's facts)", lambda: session_outline(value)),
    ):
        took, worst = held_gil(work)
        print(f"  {what:<46} {took * 1000:8.0f} ms   main thread waited {worst * 1000:6.0f} ms")


def _key(key: Qt.Key, *, ctrl: bool = False) -> QKeyEvent:
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    return QKeyEvent(QEvent.Type.KeyPress, key, modifier)


def _send(widget: object, key: Qt.Key, *, ctrl: bool = False) -> None:
    QApplication.sendEvent(widget, _key(key, ctrl=ctrl))  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
