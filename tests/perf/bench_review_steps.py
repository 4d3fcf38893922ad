"""Benchmark: the review pane's bulk step and filter at 200,000 beliefs — UI-thread time.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_review_steps [--beliefs N]

"before": the work as it ran on the UI thread before (the journalled bulk step through
`JournaledReview.decide`, and the filter computed row by row on the UI thread — the
core's `shown_rows`, which is cheaper than the proxy's ``filterAcceptsRow`` it replaced).
"after": the pane as it is — the longest gap of a 5 ms UI-thread heartbeat while the
runner makes the step or computes the rows, and the time until the result shows.
Settings and journals in a temp folder. Not part of the default test run.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    beliefs = int(sys.argv[sys.argv.index("--beliefs") + 1]) if "--beliefs" in sys.argv else 200_000
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = home
        from PySide6.QtCore import QSettings

        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
        return run(beliefs, Path(home))


def run(count: int, home: Path) -> int:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from goldens import generate as g
    from tests.core.many_beliefs import admitting, many_beliefs_bytes
    from tests.gui.review.conftest import ScriptedPrompter
    from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until
    from zcf_inspector.core.formats import ReviewState
    from zcf_inspector.core.packet.inspection import inspect_bytes
    from zcf_inspector.core.review.decisions import DecisionRequest, prepare_review
    from zcf_inspector.core.review.journal import JournaledReview
    from zcf_inspector.gui.review.pane import ReviewPane
    from zcf_inspector.gui.review.settings import save_identity
    from zcf_inspector.present.review_table import Filters, shown_rows

    data, dest = many_beliefs_bytes(count), admitting(count)
    inspection = inspect_bytes(data, dest)
    prepared = prepare_review(data, inspection, dest)
    target = prepared.target
    assert target is not None
    print(f"{count:,} admitted beliefs")

    # -- before: on the UI thread -------------------------------------------------------
    review = JournaledReview.open(home / "before", target, keys=home / "before-keys")
    requests = [DecisionRequest(ref, ReviewState.CONFIRMED) for ref in target.rows]
    start = time.perf_counter()
    review.decide(requests, "carol", g.NOW)
    before_step = time.perf_counter() - start
    facts_session = review.session
    from zcf_inspector.present.review_table import TableFacts, evidence_counts

    facts = TableFacts(
        target.beliefs, facts_session.last_decisions(), evidence_counts(target.packet)
    )
    start = time.perf_counter()
    shown_rows(facts, Filters(text="parser", state=ReviewState.CONFIRMED))
    before_filter = time.perf_counter() - start
    print(f"before: bulk step (journalled) on the UI thread: {before_step * 1000:.0f} ms")
    print(f"before: filter computed on the UI thread (core rows): {before_filter * 1000:.0f} ms")

    # -- after: the pane ----------------------------------------------------------------
    settings = QSettings(str(home / "settings.ini"), QSettings.Format.IniFormat)
    save_identity(settings, "carol", "")
    prompter = ScriptedPrompter()
    pane = ReviewPane(settings=settings, data_dir=home / "after", prompter=prompter)
    pane.set_packet("/many.json", data, inspection, dest, prepared)
    pane.show()
    run_until(app, lambda: not pane.runner.busy)
    from zcf_inspector.gui.garbage_collector import UiThreadGarbageCollector

    collector = UiThreadGarbageCollector()  # as the window runs it: on the UI thread
    collector.start()
    beat = Heartbeat()
    pane.runner.progressChanged.connect(lambda what, _f: setattr(beat, "label", what))
    beat.timer.start()
    worst_all = 0.0

    def measured(what: str, action: object, done: object) -> None:
        nonlocal worst_all
        app.processEvents()
        beat.reset()
        beat.label = what
        start = time.perf_counter()
        action()  # type: ignore[operator]
        run_until(app, done)  # type: ignore[arg-type]
        app.processEvents()
        elapsed = time.perf_counter() - start
        worst, where = beat.worst(1)[0] if beat.gaps else (elapsed, what)
        worst_all = max(worst_all, worst)
        print(
            f"after: {what}: shown in {elapsed * 1000:.0f} ms; longest UI stall "
            f"{worst * 1000:.0f} ms (during: {where})"
        )

    prompter.script(("confirm", True))
    measured(
        "bulk confirm of every row (runner)",
        lambda: pane.bulk_decide(ReviewState.CONFIRMED),
        lambda: not pane.runner.busy,
    )
    assert pane.review is not None
    assert pane.review.session.summary().counts[ReviewState.CONFIRMED] == count
    measured(
        "undo of it (runner)",
        pane.undo,
        lambda: not pane.runner.busy,
    )
    measured(
        "text filter 'parser' (runner)",
        lambda: pane.rows.request(Filters(text="parser")),
        lambda: not pane.rows.pending,
    )
    assert pane.proxy.rowCount() == len(shown_rows(pane.table_facts(), Filters(text="parser")))

    def type_parser() -> None:
        for n in range(1, 7):
            pane.ui.text_filter.setText("parser"[:n])

    measured(
        "typing 'parser' in the filter box (debounced, runner)",
        type_parser,
        lambda: not pane.rows.pending,
    )
    pane.close()
    print(
        f"longest UI-thread stall: {worst_all * 1000:.0f} ms (budget "
        f"{STALL_BUDGET_S * 1000:.0f} ms)"
    )
    return 0 if worst_all <= STALL_BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
