"""Cyclic garbage collection on the UI thread only.

CPython runs its cycle collector in whichever thread happens to allocate. When that is a
worker (the core allocates millions of objects while reading a packet), the collector can
free a cycle holding Qt wrappers there, and Qt objects must die on their own thread: a
segfault. So while a window is open the automatic collector is off and this timer runs
the same generational collections on the UI thread (the recipe pyqtgraph uses).

A collection costs in proportion to the objects it looks at, and all of it is a UI-thread
stall. CPython collects the youngest generation every 700 allocations; a timer sees a
worker's hundreds of thousands at once (a 200,000-decision step: a 63 ms young
collection, then an 88 ms middle one). So the timer ticks often, the middle generation is
collected as soon as it holds about `MIDDLE_BUDGET` objects rather than after ten young
collections, and the oldest only when CPython would — once the objects that reached it
since its last collection are a quarter of those it held then — and at most once a
minute: a collection of the whole heap looks at every object (1.4 million under a
200,000-belief review: 385 ms), and collecting the middle generation often would
otherwise make it frequent. Cyclic garbage that reached the oldest generation waits that
long; everything else is freed by reference counting as always.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QObject, QTimer

_INTERVAL_MS: Final = 20
# About 10 ms of collecting, at ~0.25 µs an object on the development machine.
MIDDLE_BUDGET: Final = 40_000
FULL_INTERVAL_S: Final = 60.0  # the least time between two collections of the whole heap
_holders = 0  # windows that need the collector on the UI thread


@dataclass
class Estimates:
    """What CPython tracks and Python cannot read, estimated from the collections' own
    counts (allocations less deallocations, less what each collection freed): an
    overestimate when older objects die meanwhile, so collections come early, not late."""

    middle: int = 0  # objects in the middle generation
    pending: int = 0  # objects moved to the oldest generation since it was collected
    long_lived: int = 0  # objects the oldest generation held after its last collection


def due(
    counts: tuple[int, int, int],
    thresholds: tuple[int, int, int],
    estimates: Estimates,
    since_full: float,
) -> int | None:
    """The generation to collect now (None: none), by CPython's rules, the budget and
    ``since_full``, the seconds since the whole heap was last collected."""
    young, middle_collections, old_collections = counts
    if young <= thresholds[0]:
        return None
    if middle_collections <= thresholds[1] and estimates.middle + young <= MIDDLE_BUDGET:
        return 0
    if (
        old_collections > thresholds[2]
        and estimates.pending > estimates.long_lived // 4
        and since_full >= FULL_INTERVAL_S
    ):
        return 2
    return 1


def account(generation: int, young: int, freed: int, estimates: Estimates) -> None:
    """Move the estimates on after collecting ``generation`` (``young``: the youngest
    generation's count before it; ``freed``: what the collection found unreachable)."""
    if generation == 0:
        estimates.middle += max(0, young - freed)
    elif generation == 1:
        estimates.pending += max(0, estimates.middle + young - freed)
        estimates.middle = 0
    else:
        whole = estimates.long_lived + estimates.pending + estimates.middle + young
        estimates.long_lived = max(0, whole - freed)
        estimates.pending = estimates.middle = 0


class UiThreadGarbageCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(_INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._active = False
        self.estimates = Estimates()
        self._last_full = time.monotonic()

    def start(self) -> None:
        global _holders  # noqa: PLW0603 - the collector switch is process-wide too
        if not self._active:
            self._active = True
            _holders += 1
            gc.disable()
            # Once, at start: every object there is counts as long-lived (a few
            # milliseconds at a window's start-up).
            self.estimates = Estimates(long_lived=len(gc.get_objects()))
            self._timer.start()

    def stop(self) -> None:
        global _holders  # noqa: PLW0603
        if self._active:
            self._active = False
            self._timer.stop()
            _holders -= 1
            if _holders == 0:
                gc.enable()

    def check(self) -> int | None:
        """Collect the generation that is due, if one is; returns which."""
        counts = gc.get_count()
        now = time.monotonic()
        generation = due(counts, gc.get_threshold(), self.estimates, now - self._last_full)
        if generation is not None:
            account(generation, counts[0], gc.collect(generation), self.estimates)
            if generation == 2:
                self._last_full = now
        return generation
