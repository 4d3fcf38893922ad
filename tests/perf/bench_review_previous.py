"""Benchmark of issue 13, point 4: review only what changed, at 200,000 beliefs.

    .venv/bin/python -m tests.perf.bench_review_previous
    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_review_previous --window

The previous generation is the 50 MB, 200,000-belief benchmark packet, every admitted
belief confirmed in its receipt (one step); the current one differs in one belief. Both
are admitted whole (maxBeliefs 200,000; ``--max-beliefs N`` admits the first N). Prints
the time of `load_previous` (read and verify the receipt, admit the previous packet
again, classify every belief) and of the carry-over (plan, check and apply the repeated
decisions as one step, and the receipt). With
``--window``: the comparison on the window's worker, the longest UI-thread stall meanwhile
(5 ms heartbeat; budget 100 ms), and the carry-over step on the UI thread (journalled).
Not part of the default test run.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from goldens import generate as g
from tests.perf.make_packets import DATA, big_packet_path, next_generation_path
from zcf_inspector.core.packet.destination import Destination, parse_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.carry_over import plan_carry_over
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.previous import load_previous
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget

BELIEFS = 200_000
# ``--max-beliefs N`` admits N of them (the profile's default destination admits 10,000).
ADMITTED = (
    int(sys.argv[sys.argv.index("--max-beliefs") + 1]) if "--max-beliefs" in sys.argv else BELIEFS
)
DESTINATION = {**copy.deepcopy(g.DESTINATION), "maxBeliefs": ADMITTED, "maxBeliefBytes": 16_384}


def destination() -> Destination:
    return parse_destination(copy.deepcopy(DESTINATION))


def destination_path() -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"destination-{ADMITTED}.json"
    path.write_text(json.dumps(DESTINATION), encoding="utf-8")
    return path


def receipt_path() -> Path:
    """The previous generation's receipt: every belief confirmed by alice, one step."""
    path = DATA / f"handoff-{BELIEFS}-admitted-{ADMITTED}.receipt.json"
    if not path.exists():
        dest = destination()
        target = ReviewTarget.from_ingest(ingest_bytes(big_packet_path().read_bytes(), dest))
        session = ReviewSession(target)
        requests = [DecisionRequest(ref, "confirmed") for ref in target.refs]
        session.apply(session.plan(requests, "alice", "2026-09-30T16:00:00Z"))
        path.write_bytes(receipt_bytes(session.receipt(g.NOW, dest.signing_key)))
    return path


def core_timings() -> int:
    dest = destination()
    previous, receipt = big_packet_path(), receipt_path()
    current_bytes = next_generation_path().read_bytes()
    size = previous.stat().st_size + receipt.stat().st_size
    mb = previous.stat().st_size / 1e6, receipt.stat().st_size / 1e6
    print(f"previous {mb[0]:.1f} MB, receipt {mb[1]:.1f} MB")
    start = time.perf_counter()
    current = ReviewTarget.from_ingest(ingest_bytes(current_bytes, dest))
    print(f"current packet admitted: {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    result = load_previous(str(previous), str(receipt), dest, current)
    t_load = time.perf_counter() - start
    print(f"load_previous (verify receipt, admit previous again, classify): {t_load:.2f} s")
    print(f"  {result.summary()}; {len(result.candidates):,} repeatable ({size / 1e6:.0f} MB read)")
    session = ReviewSession(current)
    start = time.perf_counter()
    plan = plan_carry_over(result, session.last_decisions(), "bench")
    step = session.plan(list(plan.requests), "carol", g.NOW)
    session.apply(step)
    t_carry = time.perf_counter() - start
    count = len(step.decisions)
    print(f"carry-over planned, checked and applied ({count:,} decisions): {t_carry:.2f} s")
    start = time.perf_counter()
    data = receipt_bytes(session.receipt(g.NOW, dest.signing_key))
    print(f"receipt made ({len(data) / 1e6:.1f} MB): {time.perf_counter() - start:.2f} s")
    return 0


def window_timings() -> int:
    with tempfile.TemporaryDirectory() as home:
        # Settings and journals in a temp folder: a benchmark leaves the user's alone.
        os.environ["XDG_DATA_HOME"] = home
        from PySide6.QtCore import QSettings

        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
        return _window_timings()


def _window_timings() -> int:
    from PySide6.QtWidgets import QApplication

    from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from zcf_inspector.gui.main_window import MainWindow
    from zcf_inspector.gui.review.settings import save_identity

    receipt = receipt_path()
    window = MainWindow()
    window.show()
    window.apply_destination(str(destination_path()))
    window.open_paths([str(next_generation_path())])
    run_until(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    pane = tab.review_pane
    assert pane is not None
    save_identity(pane.settings, "carol", "")
    beat = Heartbeat()
    window.runner.progressChanged.connect(lambda what, _f: setattr(beat, "label", what))
    beat.timer.start()
    app.processEvents()
    beat.reset()
    start = time.perf_counter()
    pane.load_previous(str(big_packet_path()), str(receipt))
    run_until(app, lambda: pane.previous is not None and not window.runner.busy)
    app.processEvents()
    elapsed = time.perf_counter() - start
    worst = beat.worst()
    print(f"window: compare with the previous generation until the filter shows: {elapsed:.2f} s")
    print(f"longest UI-thread stall meanwhile: {worst[0][0] * 1000:.0f} ms (budget 100 ms)")
    for gap, label in worst:
        print(f"    {gap * 1000:6.0f} ms  {label}")
    previous = pane.previous
    assert previous is not None
    start = time.perf_counter()
    pane.set_previous(previous, ("previous.json", "previous.receipt.json"))
    shown = time.perf_counter() - start
    print(f"  of which showing it (the table filtered on the UI thread): {shown:.2f} s")
    plan = plan_carry_over(previous, {}, "bench")
    start = time.perf_counter()
    assert pane._record(list(plan.requests), "carol")  # what Repeat does after the note
    app.processEvents()
    print(
        f"carry-over of {len(plan.requests):,} decisions, journalled, on the UI thread: "
        f"{time.perf_counter() - start:.2f} s"
    )
    window.close()
    return 0 if worst[0][0] <= STALL_BUDGET_S else 1


def main() -> int:
    if "--window" in sys.argv[1:]:
        return window_timings()
    return core_timings()


if __name__ == "__main__":
    sys.exit(main())
