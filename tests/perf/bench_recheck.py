"""Benchmark of issue 18, point 4: the UI thread while a 200,000-decision review is
restored from its journal, and while it is checked again after a Settings change.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_recheck [--beliefs N]

"before": what the UI thread did on main — `JournaledReview.open` (restoring every
decision) and `prepare_review` (ingest and the review target) called on it, timed here
directly. "after": the window as it is — the longest gap of a 5 ms UI-thread heartbeat
(tests/perf/bench_window.py's `Heartbeat`) from the open to the restored review shown,
and from a Settings change (another destination file, the "Assess at" clock moved) to
every tab shown again with its decisions, filters and position. The window's own
garbage collections (`UiThreadGarbageCollector`, on the UI thread by design) are timed
too, and the longest stall is also given without the gaps one of them falls in: a
collection of the whole heap is that collector's policy, not the open's. Settings,
journals and files in a temp folder. Not part of the default test run.

What keeps the stall short (issue 18): the review's open waits until the UI thread is calm
(`gui/calm.py`) — before, it ran beside the new tab's first paints and made each of their
Python model calls wait for the GIL (a 50-90 ms paint became a 240-400 ms stall) — and the
previous review is freed off the UI thread by the `Releaser` (`gui/release.py` `let_go`).
"""

from __future__ import annotations

import copy
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication


def main() -> int:
    count = int(sys.argv[sys.argv.index("--beliefs") + 1]) if "--beliefs" in sys.argv else 200_000
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = home
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtCore import QSettings

        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
        return run(count, Path(home))


def run(count: int, home: Path) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from goldens import generate as g
    from tests.core.many_beliefs import many_beliefs_bytes
    from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until
    from zcf_inspector.core.continuation.timestamps import parse_datetime
    from zcf_inspector.core.formats import ReviewState
    from zcf_inspector.core.packet.destination import load_destination
    from zcf_inspector.core.packet.inspection import inspect_bytes
    from zcf_inspector.core.review.decisions import DecisionRequest
    from zcf_inspector.core.review.journal import JournaledReview
    from zcf_inspector.core.review.target import prepare_review
    from zcf_inspector.gui.main_window import MainWindow
    from zcf_inspector.gui.review.settings import save_identity
    from zcf_inspector.gui.review.storage import default_data_dir, default_key_dir
    from zcf_inspector.gui.settings import settings_store

    def destination_file(name: str) -> Path:
        path = home / name
        path.write_text(json.dumps({**copy.deepcopy(g.DESTINATION), "maxBeliefs": count}))
        return path

    packet = home / "many.json"
    data = many_beliefs_bytes(count)
    packet.write_bytes(data)
    first, second = destination_file("first.json"), destination_file("second.json")
    dest = load_destination(str(first))
    store = settings_store()
    save_identity(store, "carol", "")
    data_dir, key_dir = default_data_dir(), default_key_dir(store)
    print(f"{count:,} beliefs, {len(data) / 1e6:.1f} MB")

    # -- the journal: every belief decided, as a reviewer's bulk step would -------------
    inspection = inspect_bytes(data, dest)
    start = time.perf_counter()
    prepared = prepare_review(data, inspection, dest)
    before_prepare = time.perf_counter() - start
    target = prepared.target
    assert target is not None
    review = JournaledReview.open(data_dir, target, keys=key_dir)
    review.decide(
        [DecisionRequest(ref, ReviewState.CONFIRMED) for ref in target.rows], "carol", g.NOW
    )
    start = time.perf_counter()
    restored = JournaledReview.open(data_dir, target, keys=key_dir)
    before_restore = time.perf_counter() - start
    assert restored.session.index.decision_count == count
    print(f"before: prepare_review on the UI thread: {before_prepare * 1000:.0f} ms")
    print(
        f"before: JournaledReview.open ({count:,} decisions) on the UI thread: "
        f"{before_restore * 1000:.0f} ms"
    )

    # -- after: the window --------------------------------------------------------------
    collections: list[tuple[float, float, int]] = []  # (start, end, generation)
    started: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            collections.append((started.pop(), time.perf_counter(), info["generation"]))

    gc.callbacks.append(timed)
    window = MainWindow()
    window.apply_destination(str(first))
    window.resize(1600, 1000)
    window.show()
    beat = Heartbeat()
    window.runner.progressChanged.connect(lambda what, _f: setattr(beat, "label", what))
    ticks: list[float] = []
    beat.timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    beat.timer.start()
    worst_all = 0.0
    worst_no_gc = 0.0

    def settled() -> bool:
        tabs = window.document_tabs()
        return (
            bool(tabs)
            and not window.runner.busy
            and not any(t.review_pane is not None and t.review_pane.opening for t in tabs)
        )

    def measured(what: str, action: object) -> None:
        nonlocal worst_all, worst_no_gc
        app.processEvents()
        beat.reset()
        beat.label = what
        ticks.clear()
        collections.clear()
        start = time.perf_counter()
        action()  # type: ignore[operator]
        run_until(app, settled, timeout_s=600)
        app.processEvents()
        elapsed = time.perf_counter() - start
        worst, where = beat.worst(1)[0] if beat.gaps else (elapsed, what)
        worst_all = max(worst_all, worst)
        long_ones = [(a, b, n) for a, b, n in collections if b - a > 0.030]
        gaps = [(b - a, a, b) for a, b in zip([start, *ticks], ticks, strict=False)]
        clean = [
            gap for gap, a, b in gaps if not any(a <= c0 and c1 <= b for c0, c1, _ in long_ones)
        ]
        no_gc = max(clean, default=0.0)
        worst_no_gc = max(worst_no_gc, no_gc)
        print(
            f"after: {what}: shown in {elapsed * 1000:.0f} ms; longest UI stall "
            f"{worst * 1000:.0f} ms (during: {where}); without the collections' gaps "
            f"{no_gc * 1000:.0f} ms"
        )
        for a, b, n in long_ones:
            print(f"       UI-thread garbage collection of generation {n}: {(b - a) * 1000:.0f} ms")

    measured(
        f"open, restoring {count:,} decisions (runner)", lambda: window.open_paths([str(packet)])
    )
    tab = window.current_tab()
    assert tab is not None
    pane = tab.review_pane
    assert pane is not None
    assert pane.review is not None
    assert pane.review.session.index.decision_count == count
    pane.table.selectRow(count // 2)
    pane.table.scrollTo(pane.proxy.index(count // 2, 0))
    current, scroll = pane.current_ref(), pane.table.verticalScrollBar().value()
    measured(
        "re-check after a Settings change (runner)",
        lambda: window.apply_settings(str(second), parse_datetime("2026-10-01T13:00:00Z")),
    )
    assert pane.review is not None
    assert pane.review.session.index.decision_count == count
    assert pane.current_ref() == current
    assert pane.table.verticalScrollBar().value() == scroll
    release_figures(app, data)
    window.close()
    gc.callbacks.remove(timed)
    verdict = "OK" if worst_all <= STALL_BUDGET_S else "OVER"
    print(
        f"longest UI-thread stall: {worst_all * 1000:.0f} ms (budget "
        f"{STALL_BUDGET_S * 1000:.0f} ms) — {verdict}; without the gaps of the "
        f"garbage collections: {worst_no_gc * 1000:.0f} ms"
    )
    return 0 if worst_all <= STALL_BUDGET_S else 1


def release_figures(app: QApplication, data: bytes) -> None:
    """The previous parse freed by reference counting on the UI thread (what a re-check
    did before `gui/release.py`), and handed to the `Releaser` instead: the UI thread's
    longest gap while its thread frees it a slice at a time."""
    from zcf_inspector.core.reading import read_document
    from zcf_inspector.gui.release import RELEASER

    drain(app, 0.01)  # the window's own hand-overs (the previous review) first
    value = read_document(data).value
    gc.collect()  # the parse's young objects, collected before either is timed
    start = time.perf_counter()
    del value
    on_ui = time.perf_counter() - start
    value = read_document(data).value
    gc.collect()
    start = time.perf_counter()
    RELEASER.release(value)
    del value
    longest = drain(app, 0.001)
    elapsed = time.perf_counter() - start
    print(
        f"freeing the previous parse: on the UI thread {on_ui * 1000:.0f} ms; through the "
        f"Releaser {elapsed * 1000:.0f} ms in all, longest UI gap "
        f"{longest * 1000:.0f} ms (one turn of its loop: 1 ms of sleep and the events)"
    )


def drain(app: QApplication, pause: float) -> float:
    """Turn the UI thread's loop until the `Releaser` has nothing left; the longest turn
    (``pause`` of sleep and the events): how long the UI thread waited for the GIL."""
    from zcf_inspector.gui.release import RELEASER

    start = last = time.perf_counter()
    longest = 0.0
    while RELEASER.pending:
        app.processEvents()
        time.sleep(pause)
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        if now - start > 60:
            raise TimeoutError("the Releaser did not finish in time")
    return longest


if __name__ == "__main__":
    sys.exit(main())
