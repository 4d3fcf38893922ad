"""Letting go of what a tab showed before off the UI thread, a slice at a time.

When a tab shows a document again (a re-check, F5) what it showed before dies: by
reference counting, on the thread that drops its last reference. For a packet of 200,000
beliefs that is one C call freeing every belief (about 110 ms on the development machine,
more under load), and a review pane's previous review (its target's 200,000 beliefs, the
journal's 200,000 decisions, the table's mappings) costs as much again; the last holder is
a pane on the UI thread — a stall the window feels. So the tab hands the old parse to
`Releaser.release`, and the review pane its old review to `Releaser.let_go`: its thread
keeps them alive until every other holder has let go (the panes do as they show the new
ones), then frees them with `free_in_slices`, sleeping in between so the UI thread gets
the GIL. Their containers are often tuples and frozen records, which cannot be emptied a
slice at a time, so `free_in_slices` first takes its own reference to every element of
each long container it finds (a bounded walk), lets the object graph go (the containers
die; their elements live on in that one list), and then frees that list `BIG` elements at
a time. Only core objects may be handed over — nothing with a Qt part or a finaliser that
needs the UI thread; what some holder keeps for longer than `WAIT_S` is simply let go.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue

POLL_S: Final = 0.05  # how often the thread looks whether the others have let go
WAIT_S: Final = 120.0  # the longest it waits for them
PAUSE_S: Final = 0.002  # between two slices: the UI thread's turn for the GIL
BIG: Final = 4_096  # arrays shorter than this are freed at once (a few milliseconds)
NEAR_STEPS: Final = 3  # how far `_held_by_each_other` looks (an instance's dict is a step)
WALK_LIMIT: Final = 20_000  # objects `free_in_slices` looks into, at most (the walk's bound)
_CONTAINERS: Final = (list, tuple, dict, set, frozenset)


def _breathe() -> None:
    time.sleep(PAUSE_S)


def _big(value: object) -> bool:
    return isinstance(value, _CONTAINERS) and len(value) >= BIG


def _large(value: JsonValue) -> bool:
    """Whether a parsed packet has a long array in its content."""
    content = value.get("content") if isinstance(value, dict) else None
    return isinstance(content, dict) and any(_big(items) for items in content.values())


def _worth_it(value: object) -> bool:
    """Whether freeing ``value`` could take long: a long container, or a record (which may
    hold them; the collector tracks every object that can hold others). Anything else is
    freed where it falls, at no cost — and a shared constant such as ``()`` would never be
    held by the Releaser alone."""
    if isinstance(value, _CONTAINERS):
        return _big(value)
    return gc.is_tracked(value)


def free_in_slices(objects: list[object], between: Callable[[], None]) -> None:
    """Free ``objects`` (the caller's list, the only holder of them) so that no single step
    frees more than about `BIG` elements of a long container; ``between`` runs between two
    steps. Empties ``objects``."""
    held: list[object] = []
    seen: set[int] = set()
    frontier = list(objects)
    looked = 0
    item: object = None
    while frontier and looked < WALK_LIMIT:
        item = frontier.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        looked += 1
        if _big(item):
            # Its elements outlive it here; they are not looked into (they are records
            # of a few fields each, freed a slice at a time below).
            held.extend(gc.get_referents(item))
        else:
            frontier.extend(r for r in gc.get_referents(item) if not isinstance(r, type))
    del frontier, item
    objects.clear()  # the graph goes; its long containers' elements live on in ``held``
    between()
    while held:
        del held[-BIG:]
        between()


def _held_by_each_other(objects: list[object]) -> bool:
    """Whether every reference to each of ``objects`` comes from ``objects`` itself or from
    within `NEAR_STEPS` steps of another of them (a pane hands over a review and its target,
    and the review's session holds that target; a tab, a parse and its content object).
    Long containers are not looked into, so this costs a few dozen look-ups however long
    the review."""
    within: dict[int, int] = {}
    layer = [o for o in objects if not _big(o)]
    for _ in range(NEAR_STEPS):
        layer = [n for o in layer for n in gc.get_referents(o) if not isinstance(n, type)]
        for near in layer:
            within[id(near)] = within.get(id(near), 0) + 1
        layer = [n for n in layer if not _big(n)]
        if len(layer) > WALK_LIMIT:
            return False  # too wide to tell cheaply: left to the deadline
    # Besides those: ``objects``, the loop's variable and getrefcount's argument.
    return all(sys.getrefcount(o) - 3 <= within.get(id(o), 0) for o in objects)


@dataclass(slots=True, eq=False)  # one entry is itself alone: compared by identity
class _Pending:
    deadline: float
    objects: list[object]  # freed together, once they hold only each other


class Releaser:
    """One thread that frees the old documents handed to it, in the order given."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[_Pending] = []
        self._thread: threading.Thread | None = None

    def release(self, value: JsonValue) -> None:
        """Take a document's parsed value, to free it once no one else holds it (nor its
        content object: a pane may hold that alone)."""
        if not isinstance(value, dict) or not _large(value):
            return  # small: freed where it falls, at no cost
        self._take(_Pending(time.monotonic() + WAIT_S, [value, value["content"]]))

    def let_go(self, *objects: object) -> None:
        """Take core objects (no Qt part) the caller is done with, to free once no one
        else holds them, a slice at a time (`free_in_slices`)."""
        kept = [o for o in objects if _worth_it(o)]
        if kept:
            self._take(_Pending(time.monotonic() + WAIT_S, kept))

    def _take(self, entry: _Pending) -> None:
        with self._lock:
            self._pending.append(entry)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="zcf-release", daemon=True)
                self._thread.start()

    @property
    def pending(self) -> int:
        """Values taken and not yet freed (or let go of)."""
        with self._lock:
            return len(self._pending)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._thread = None
                    return
                entries = list(self._pending)
            # The first that may go: one a pane keeps for longer holds up no other.
            now = time.monotonic()
            entry, alone = None, False
            for candidate in entries:
                alone = _held_by_each_other(candidate.objects)
                if alone or now > candidate.deadline:
                    entry = candidate
                    break
            del entries, candidate
            if entry is None:
                time.sleep(POLL_S)
                continue
            if alone:  # else past its deadline: simply let go of, as before
                free_in_slices(entry.objects, _breathe)
            with self._lock:
                self._pending.remove(entry)  # `pending` counts it until it is freed
            entry.objects = []
            del entry


RELEASER: Final = Releaser()  # the window's: one thread for every tab
