"""Benchmark: the Briefing pane at 200,000 beliefs — the UI thread's longest stall while
the secret scan, the briefing and a workspace check run (issue 20).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_briefing_window [--beliefs N]

"before": the work as it would cost on the UI thread (scan, briefing and its lines in
one call). "after": the longest gap of a 5 ms UI-thread heartbeat (tests/perf/bench_window)
while the pane's work runs on the window's TaskRunner and its text is shown, and the time
until it shows: in the pane alone, with a credential planted every 1,000 beliefs, for a
workspace check and a reveal, then in the whole window from opening the packet until the
briefing is shown. Settings in a temp folder. Not part of the default test run.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROUNDS = 3


def main() -> int:
    beliefs = int(sys.argv[sys.argv.index("--beliefs") + 1]) if "--beliefs" in sys.argv else 200_000
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = home
        from PySide6.QtCore import QSettings

        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, home)
        return run(beliefs, Path(home))


def planted(data: bytes, every: int) -> bytes:
    """The packet with an AWS key id in every ``every``-th belief (resealed: still valid)."""
    from goldens import generate as g

    packet = json.loads(data)
    for i, belief in enumerate(packet["content"]["beliefs"]):
        if i % every == 0:
            belief["content"] += " (deploy key AKIAIOSFODNN7EXAMPLE)"
    packet["content"]["capsule"]["risks"] = ["the key AKIAIOSFODNN7EXAMPLE is still live"]
    return json.dumps(g.unsigned(packet), ensure_ascii=False).encode()


def run(count: int, home: Path) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    from tests.core.many_beliefs import many_beliefs_bytes
    from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, measure, run_until
    from zcf_inspector.core.monitor import NULL_MONITOR
    from zcf_inspector.core.packet.inspection import inspect_bytes
    from zcf_inspector.gui.briefing_pane import BriefingPane
    from zcf_inspector.gui.briefing_work import BriefingInput, make_briefing
    from zcf_inspector.gui.garbage_collector import UiThreadGarbageCollector
    from zcf_inspector.gui.main_window import MainWindow
    from zcf_inspector.gui.task_runner import TaskRunner
    from zcf_inspector.opener.documents import PacketDocument

    data = many_beliefs_bytes(count)
    inspection = inspect_bytes(data)
    print(f"{count:,} beliefs, {len(data) / 1e6:.0f} MB; load average {os.getloadavg()[0]:.1f}")

    # -- before: on the UI thread -------------------------------------------------------
    start = time.perf_counter()
    make_briefing(BriefingInput(inspection, None), None, NULL_MONITOR)
    before = time.perf_counter() - start
    print(f"before: scan + briefing + lines on the UI thread: {before * 1000:.0f} ms")

    # -- after: the pane ----------------------------------------------------------------
    # As in the window: the cycle collector runs on the UI thread (gui/garbage_collector),
    # and each collection longer than 20 ms is listed, so a stall can be told apart from
    # the pane's own work.
    collector = UiThreadGarbageCollector(app)
    collector.start()
    collections: list[tuple[int, float, str]] = []
    started: dict[str, float] = {}
    beat = Heartbeat()

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started["t"] = time.perf_counter()
        elif time.perf_counter() - started.get("t", 0.0) > 0.020:
            took = time.perf_counter() - started["t"]
            collections.append((info["generation"], took, beat.label))

    gc.callbacks.append(watch)
    runner = TaskRunner()
    pane = BriefingPane(runner)
    pane.resize(900, 800)
    pane.show()
    beat.timer.start()
    app.processEvents()
    worst: dict[str, list[float]] = {}

    def step(what: str, action: Callable[[], object], done: Callable[[], bool]) -> None:
        start = time.perf_counter()
        measure(app, beat, what, action, done)
        elapsed = time.perf_counter() - start  # the stall, when no heartbeat came between
        worst.setdefault(what, []).append(max((gap for gap, _ in beat.gaps), default=elapsed))

    secret = planted(data, 1000)
    secret_inspection = inspect_bytes(secret)
    assert secret_inspection.valid
    documents = [
        PacketDocument("/many.json", data, inspection),
        PacketDocument("/many-secret.json", secret, secret_inspection),
    ]
    folder = home / "workspace"
    folder.mkdir()
    pane.choose_folder = lambda: str(folder)
    for round_ in range(1, ROUNDS + 1):
        print(f"round {round_}:")
        for document, what in zip(documents, ("open", "open, 201 credentials"), strict=True):
            pane.text = None
            step(
                f"{what}: scan + briefing shown",
                lambda d=document: pane.set_packet(d, None),  # type: ignore[misc]
                lambda: pane.text is not None and not pane.busy,
            )
        step(
            "workspace check (empty folder) + re-render",
            pane.choose_and_check,
            lambda: not pane.busy and pane.find_line("folder: ") >= 0,
        )
        pane.forget_folder()
        run_until(app, lambda: not pane.busy)
        pane.go_to_line(pane.find_line("• the key AKIA"))
        step("reveal one credential", pane.toggle_reveal, lambda: True)
        step("mask it again", pane.toggle_reveal, lambda: True)
    hits = pane.result.scan.hits if pane.result is not None and pane.result.scan else ()
    lines = len(pane.text.lines) if pane.text else 0
    print(f"({len(hits):,} suspected credentials in the second packet, {lines:,} lines)")

    # -- the whole window: open the packet until its briefing shows ----------------------
    path = home / "many.json"
    path.write_bytes(data)
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    window.runner.progressChanged.connect(lambda what, _f: setattr(beat, "label", what))
    collector.stop()  # the window has its own
    app.processEvents()

    def briefed() -> bool:
        tab = window.current_tab()
        return tab is not None and tab.briefing_pane.text is not None and not window.runner.busy

    for round_ in range(1, ROUNDS + 1):
        beat.reset()
        beat.label = "opening"
        start = time.perf_counter()
        window.open_paths([str(path)])
        run_until(app, briefed)
        elapsed = time.perf_counter() - start
        window_gaps = beat.worst(4)
        # From the work's first step until the briefing is shown. Before it ("briefing"
        # alone) the task is started but waits for the new tab's first paint, which is the
        # load's own stall (it was labelled "opening …: done" before the pane existed).
        in_work = [gap for gap, label in beat.gaps if label.startswith("briefing: ")]
        waiting = [gap for gap, label in beat.gaps if label == "briefing"]
        briefing_worst = max(in_work, default=0.0)
        worst.setdefault("window: while the briefing's work ran", []).append(briefing_worst)
        print(
            f"window round {round_}: open to briefing shown {elapsed:.2f} s; longest stall "
            f"while the briefing's work ran {briefing_worst * 1000:.0f} ms; the tab's first "
            f"paint (the work waiting) {max(waiting, default=0.0) * 1000:.0f} ms; worst gaps: "
            + ", ".join(f"{gap * 1000:.0f} ({label})" for gap, label in window_gaps)
        )
        window.close_current()
        run_until(app, lambda: window.current_tab() is None and not window.runner.busy)
    print("UI-thread collections over 20 ms (generation, ms, during which step):")
    for generation, took, label in collections:
        print(f"    {generation}  {took * 1000:5.0f}  {label}")
    print("longest UI stall per step, each round (ms):")
    for what, gaps in worst.items():
        print(f"  {what:<48} " + " ".join(f"{g * 1000:5.0f}" for g in gaps))
    # The figure: per step, the best of the rounds (the machine's other load adds its own
    # gaps to any one round), then the worst step.
    best = {what: min(gaps) for what, gaps in worst.items()}
    longest = max(best.values())
    verdict = "OK" if longest <= STALL_BUDGET_S else "OVER"
    print(
        f"longest UI-thread stall of the briefing's work (best of {ROUNDS} rounds, worst "
        f"step): {longest * 1000:.0f} ms (budget {STALL_BUDGET_S * 1000:.0f} ms) — {verdict}"
    )
    window.close()
    runner.cancel_all()
    runner.wait_for_done(10_000)
    return 0 if verdict == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
