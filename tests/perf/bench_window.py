"""Benchmark of issue 4: the window on a 50 MB, 200,000-belief packet.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_window

Prints the time from "open" to the tree being shown, the longest UI-thread stall while
the packet loads (a 5 ms QTimer heartbeat), the stalls of later interactions (expand the
200,000 beliefs, scroll to the end, find, close), and then which core call causes each
stall: every core call the load makes is run on a thread while the main thread measures
how long it is kept from running (the GIL is held through long C calls).
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from tests.perf.make_packets import big_packet_path
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.auth import check_authentication
from zcf_inspector.core.packet.manifest import check_manifest, covered_sections
from zcf_inspector.core.packet.structure import check_structure
from zcf_inspector.core.reading import read_json

STALL_BUDGET_S = 0.100


class Heartbeat:
    """A QTimer on the UI thread; the longest gap between its ticks is the worst stall."""

    def __init__(self, interval_ms: int = 5) -> None:
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.label = "idle"
        self.reset()

    def reset(self) -> None:
        self.last = time.perf_counter()
        self.gaps: list[tuple[float, str]] = []

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self.last, self.label))
        self.last = now

    def worst(self, count: int = 5) -> list[tuple[float, str]]:
        return sorted(self.gaps, reverse=True)[:count]


def run_until(app: QApplication, done: Callable[[], bool], timeout_s: float = 120.0) -> None:
    deadline = time.perf_counter() + timeout_s
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("the window did not finish in time")
        app.processEvents()
        time.sleep(0.001)


def measure(
    app: QApplication,
    beat: Heartbeat,
    what: str,
    action: Callable[[], object],
    done: Callable[[], bool] = lambda: True,
) -> None:
    beat.reset()
    beat.label = what
    start = time.perf_counter()
    action()
    run_until(app, done)
    app.processEvents()
    elapsed = time.perf_counter() - start
    worst = max((g for g, _ in beat.gaps), default=elapsed)
    print(f"  {what:<44} {elapsed * 1000:8.0f} ms   longest UI stall {worst * 1000:6.0f} ms")


def window_timings(path: Path, destination: Path | None = None) -> None:
    from zcf_inspector.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    window = MainWindow()
    if destination is not None:
        # With a destination the load also ingests and prepares the review (on the worker).
        window.apply_destination(str(destination))
        print(f"with destination {destination.name}:")
    window.show()
    beat = Heartbeat()
    window.runner.progressChanged.connect(lambda what, _fraction: setattr(beat, "label", what))
    beat.timer.start()
    app.processEvents()
    beat.reset()
    start = time.perf_counter()
    window.open_paths([str(path)])

    def tree_visible() -> bool:
        tab = window.current_tab()
        return tab is not None and tab.tree.isVisible() and tab.model.rowCount() > 0

    run_until(app, tree_visible)
    app.processEvents()
    opened = time.perf_counter() - start
    load_gaps = beat.worst()
    print(f"open to tree visible: {opened:.2f} s")
    verdict = "OK" if load_gaps[0][0] <= STALL_BUDGET_S else "OVER"
    print(
        f"longest UI-thread stall while loading: {load_gaps[0][0] * 1000:.0f} ms "
        f"(budget {STALL_BUDGET_S * 1000:.0f} ms) — {verdict}"
    )
    print("  worst gaps (ms, during which step):")
    for gap, label in load_gaps:
        print(f"    {gap * 1000:6.0f}  {label}")
    tab = window.current_tab()
    assert tab is not None
    beliefs = tab.model.index_for_pointer("/content/beliefs", nearest=False)
    print("interactions:")
    measure(app, beat, "expand 200,000 beliefs", lambda: tab.tree.expand(beliefs))
    bar = tab.tree.verticalScrollBar()
    measure(app, beat, "scroll to the last belief", lambda: bar.setValue(bar.maximum()))

    def scroll_pages() -> None:
        for i in range(50):
            bar.setValue(bar.maximum() * i // 50)
            app.processEvents()

    measure(app, beat, "scroll through 50 pages", scroll_pages)
    measure(
        app,
        beat,
        "select /content/beliefs (canonical pane)",
        lambda: tab.select_pointer("/content/beliefs"),
        lambda: tab.canonical_pane.form is not None,
    )
    tab.find_bar.edit.setText("199999 Evidence")
    measure(
        app,
        beat,
        "find a value in the last belief",
        tab.find_bar.find_next,
        lambda: not window.runner.busy,
    )
    measure(app, beat, "close the tab (frees the packet)", window.close_current)
    beat.timer.stop()
    window.close()


def stall_of(what: str, call: Callable[[], object]) -> object:
    """Run ``call`` on a thread; report how long the main thread was kept waiting."""
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(call()))
    gaps: list[float] = []
    start = time.perf_counter()
    worker.start()
    last = time.perf_counter()
    while worker.is_alive():
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    elapsed = time.perf_counter() - start
    stall = max(gaps, default=0.0)
    print(
        f"  {what:<52} {elapsed * 1000:7.0f} ms   longest main-thread stall {stall * 1000:6.0f} ms"
    )
    return result[0] if result else None


def core_attribution(path: Path) -> None:
    print("which core call stalls the UI thread (run on a thread, main thread sampling 1 ms):")
    data = stall_of("read_bounded (file read)", lambda: read_bounded(path))
    assert isinstance(data, bytes)
    stall_of("bytes.decode('utf-8') inside read_json", lambda: data.decode("utf-8"))
    packet = stall_of("read_json (strict parse, 50 MB)", lambda: read_json(data))
    assert isinstance(packet, dict)
    _checks(packet)
    holder = [packet]
    del packet
    stall_of("freeing the parsed packet (last reference dropped)", holder.clear)


def _checks(packet: dict[str, JsonValue]) -> None:
    stall_of("check_structure", lambda: check_structure(packet))
    content = packet["content"]
    assert isinstance(content, dict)
    beliefs = content["beliefs"]
    encoded = stall_of(
        "canonical(content.beliefs) (one C encoder call)", lambda: canonical(beliefs)
    )
    assert isinstance(encoded, bytes)
    stall_of("sha256_digest(beliefs canonical bytes)", lambda: sha256_digest(encoded))
    stall_of("covered_sections (canonical of every section)", lambda: covered_sections(packet))
    stall_of("check_manifest (canonical + sha256 of every section)", lambda: check_manifest(packet))
    stall_of("check_authentication", lambda: check_authentication(packet, None))
    stall_of("gc.collect() with the packet alive", gc.collect)


def main() -> int:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    QApplication([])
    path = big_packet_path()
    print(f"packet: {path.name}, {path.stat().st_size / 1e6:.1f} MB")
    window_timings(path)
    gc.collect()
    # The default limits (10,000 admitted beliefs): the golden destination admits only 8.
    destination = Path(tempfile.mkdtemp()) / "destination.json"
    destination.write_text('{"installationKeyId": "bench", "signingKey": "' + "A" * 43 + '"}')
    window_timings(path, destination)
    gc.collect()
    core_attribution(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
