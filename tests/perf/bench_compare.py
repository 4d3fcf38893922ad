"""Benchmark of issue 13: compare two 50 MB, 200,000-belief packets that differ in one belief.

    .venv/bin/python -m tests.perf.bench_compare
    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_compare --window

Prints the time of `compare(a, b)` (both packets read and checked strictly, then compared:
what `zcf-inspector diff` runs), its parts, and the peak memory of a process that does it.
Targets: under 3 s, and under 10x the two packets' combined size in peak memory.
With ``--window``: the same comparison in the window (A open in a tab, B compared with
it on a worker), the time until the compare view shows and the longest UI-thread stall
meanwhile (a 5 ms heartbeat; the window's budget is 100 ms).
Not part of the default test run (timings belong here, not in tests).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable

from tests.perf.make_packets import big_packet_path, next_generation_path
from tests.perf.processes import peak_rss
from zcf_inspector.core.compare.model import ChangeKind
from zcf_inspector.core.compare.packets import budget_for, compare, compare_inspections
from zcf_inspector.core.packet.inspection import inspect_bytes

TIME_TARGET_S = 3.0
MEMORY_TARGET = 10.0

# Run in a fresh process, so that its peak memory is the compare's own.
PEAK_IMPORTS = "from zcf_inspector.core.compare.packets import compare"
PEAK_WORK = """
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
result = compare(a, b)
assert len(result.changes) == 3, result.changes
"""


def best_of(runs: int, func: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def window_timings() -> int:
    from PySide6.QtWidgets import QApplication

    from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from zcf_inspector.gui.main_window import MainWindow

    window = MainWindow()
    window.show()
    window.open_paths([str(big_packet_path())])
    run_until(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    beat = Heartbeat()
    window.runner.progressChanged.connect(lambda what, _fraction: setattr(beat, "label", what))
    beat.timer.start()
    app.processEvents()
    beat.reset()
    start = time.perf_counter()
    window.compare_paths(tab, str(next_generation_path()))
    run_until(app, lambda: window.current_compare() is not None and not window.runner.busy)
    app.processEvents()
    elapsed = time.perf_counter() - start
    view = window.current_compare()
    assert view is not None
    worst = beat.worst()
    print(f"window: Compare With… to compare view shown: {elapsed:.2f} s")
    print(f"longest UI-thread stall meanwhile: {worst[0][0] * 1000:.0f} ms (budget 100 ms)")
    for gap, label in worst:
        print(f"    {gap * 1000:6.0f} ms  {label}")
    beat.reset()
    view.next_change()
    run_until(app, lambda: not window.runner.busy)
    app.processEvents()
    stall = max((g for g, _ in beat.gaps), default=0.0)
    print(f"next change (F7): longest stall {stall * 1000:.0f} ms")
    window.close()
    return 0 if worst[0][0] <= STALL_BUDGET_S else 1


def main() -> int:
    if "--window" in sys.argv[1:]:
        return window_timings()
    path_a, path_b = big_packet_path(), next_generation_path()
    a, b = path_a.read_bytes(), path_b.read_bytes()
    size = len(a) + len(b)
    print(f"packets: {path_a.name} ({len(a) / 1e6:.1f} MB), {path_b.name} ({len(b) / 1e6:.1f} MB)")

    result = compare(a, b)
    beliefs = [c for c in result.changes if c.section == "beliefs"]
    assert [(c.change, c.id) for c in beliefs] == [(ChangeKind.CHANGED, "b-123456")], beliefs
    print(f"found: {[(str(c.change), c.pointer) for c in result.changes]}")

    t_compare = best_of(5, lambda: compare(a, b))
    inspected_a, inspected_b = inspect_bytes(a), inspect_bytes(b)
    t_inspect = best_of(3, lambda: inspect_bytes(a))
    budget = budget_for(len(a), len(b))
    t_elements = best_of(5, lambda: compare_inspections(inspected_a, inspected_b, budget=budget))
    print(f"compare(a, b), best of 5: {t_compare:.2f} s  (target < {TIME_TARGET_S} s)")
    print(f"  inspecting one packet (all stages): {t_inspect:.2f} s")
    print(f"  sections and elements compared:     {t_elements:.2f} s")

    base, peak = peak_rss(PEAK_IMPORTS, PEAK_WORK, str(path_a), str(path_b))
    print(
        f"peak RSS of a compare process: {peak / 1e6:.0f} MB "
        f"(interpreter alone {base / 1e6:.0f} MB; packets {size / 1e6:.0f} MB together)"
    )
    print(f"RATIO peak memory / combined size = {peak / size:.2f}  (target < {MEMORY_TARGET:g})")
    ok = t_compare < TIME_TARGET_S and peak / size < MEMORY_TARGET
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
