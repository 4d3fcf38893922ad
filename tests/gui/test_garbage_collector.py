"""The UI-thread garbage collector: CPython's generational schedule, run by a timer on the
UI thread, with the middle generation kept small and the oldest collected as rarely as
CPython would."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from zcf_inspector.gui import garbage_collector
from zcf_inspector.gui.garbage_collector import (
    FULL_INTERVAL_S,
    MIDDLE_BUDGET,
    Estimates,
    UiThreadGarbageCollector,
    account,
)

THRESHOLDS = (700, 10, 10)
LONG_AGO = FULL_INTERVAL_S


def due(
    counts: tuple[int, int, int],
    thresholds: tuple[int, int, int],
    estimates: Estimates,
    since_full: float = LONG_AGO,
) -> int | None:
    return garbage_collector.due(counts, thresholds, estimates, since_full)


def test_nothing_is_due_below_the_youngest_threshold() -> None:
    assert due((700, 50, 50), THRESHOLDS, Estimates(pending=10**9)) is None


def test_the_youngest_generation_while_the_middle_one_is_small() -> None:
    assert due((701, 0, 0), THRESHOLDS, Estimates()) == 0
    assert due((701, 10, 0), THRESHOLDS, Estimates(middle=MIDDLE_BUDGET - 701)) == 0


def test_the_middle_generation_after_ten_young_collections_or_past_its_budget() -> None:
    assert due((701, 11, 0), THRESHOLDS, Estimates()) == 1  # CPython's own rule
    # A worker's burst: one young count of 200,000 objects goes on to the middle at once.
    assert due((200_000, 0, 0), THRESHOLDS, Estimates()) == 1
    assert due((701, 1, 0), THRESHOLDS, Estimates(middle=MIDDLE_BUDGET)) == 1


def test_the_oldest_only_once_a_quarter_of_it_is_new() -> None:
    many = Estimates(pending=250_000, long_lived=1_000_000)
    assert due((701, 11, 11), THRESHOLDS, many) == 1  # not more than a quarter yet
    many.pending += 1
    assert due((701, 11, 11), THRESHOLDS, many) == 2
    assert due((701, 11, 10), THRESHOLDS, many) == 1  # and only after ten middle ones
    # At most once a minute: the whole heap is every object there is.
    assert due((701, 11, 11), THRESHOLDS, many, since_full=FULL_INTERVAL_S - 1) == 1


def test_the_estimates_follow_the_objects_through_the_generations() -> None:
    estimates = Estimates(long_lived=1000)
    account(0, young=800, freed=100, estimates=estimates)
    assert estimates == Estimates(middle=700, pending=0, long_lived=1000)
    account(1, young=900, freed=600, estimates=estimates)
    assert estimates == Estimates(middle=0, pending=1000, long_lived=1000)
    account(0, young=750, freed=0, estimates=estimates)
    account(2, young=710, freed=2000, estimates=estimates)
    assert estimates == Estimates(middle=0, pending=0, long_lived=1000 + 1000 + 750 + 710 - 2000)
    account(0, young=10, freed=50, estimates=estimates)  # deaths of older objects
    assert estimates.middle == 0


def test_cycles_are_collected_on_the_ui_thread_while_the_automatic_collector_is_off(
    qtbot: Any,
) -> None:
    collector = UiThreadGarbageCollector()
    was_enabled = gc.isenabled()
    collector.start()
    try:
        assert not gc.isenabled()
        assert collector.estimates.long_lived > 0  # every object at start counts as old

        class Node:
            other: Node

        freed: list[bool] = []
        for _ in range(50):
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: only the collector frees it
            weakref.finalize(a, freed.append, True)
            del a, b
        # Kept alive, so that the youngest count stays past its threshold.
        kept: list[list[int]] = [[] for _ in range(2000)]
        qtbot.waitUntil(lambda: len(freed) == 50, timeout=5_000)
        assert len(kept) == 2000
    finally:
        collector.stop()
    assert gc.isenabled() == was_enabled
