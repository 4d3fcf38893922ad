"""Cancellation points inside the long continuation checks, without threading a monitor
through every rule.

`inspect_continuation` sets the caller's monitor for the duration of the check
(`pulsing`); the loops over a document's items (schema validation of array elements and
object members, events, resources, tool schemas, contexts, streams) call `tick()` once
per item, and every `EVERY` items the monitor breathes (raises `Cancelled` once
cancelled). Why ambient rather than a parameter: the compiled schema checks are cached
closures shared by every call, so they cannot hold one caller's monitor, and the rules
are called from several places that have none. A `ContextVar` keeps concurrent checks
on other threads apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from zcf_inspector.core.monitor import NULL_MONITOR, Monitor

# Items between two cancellation points: small enough that even the costliest item
# (a schema-checked event, ~50 µs) keeps the gap far under 0.2 s, large enough that the
# counting costs nothing measurable (docs/notes/cancel19.md).
EVERY = 256


class _Pulse:
    __slots__ = ("count", "monitor")

    def __init__(self, monitor: Monitor) -> None:
        self.monitor = monitor
        self.count = 0


_CURRENT: ContextVar[_Pulse | None] = ContextVar("continuation_pulse", default=None)


@contextmanager
def pulsing(monitor: Monitor) -> Iterator[None]:
    """Within the block, `tick()` breathes ``monitor`` every `EVERY` items."""
    token = _CURRENT.set(_Pulse(monitor))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def tick(items: int = 1) -> None:
    """``items`` more work items done; a cancellation point every `EVERY` of them."""
    pulse = _CURRENT.get()
    if pulse is None:
        return
    pulse.count += items
    if pulse.count >= EVERY:
        pulse.count = 0
        pulse.monitor.breathe()


def current_monitor() -> Monitor:
    """The monitor of the check in progress (`NULL_MONITOR` outside one): for the reader
    and the bounded validation, which take a monitor and check it as they go."""
    pulse = _CURRENT.get()
    return NULL_MONITOR if pulse is None else pulse.monitor
