"""Progress and cancellation: a Monitor stops work at its next check; the shared null
monitor cannot be cancelled (that would stop every caller relying on it)."""

from __future__ import annotations

import pytest

from zcf_inspector.core.monitor import NULL_MONITOR, Cancelled, Monitor


def test_cancel_stops_at_the_next_step() -> None:
    seen: list[tuple[str, float]] = []
    monitor = Monitor(lambda what, fraction: seen.append((what, fraction)))
    monitor.step("reading", 0.25)
    monitor.cancel()
    assert monitor.cancelled
    with pytest.raises(Cancelled):
        monitor.step("hashing", 0.5)
    assert seen == [("reading", 0.25)]


def test_null_monitor_refuses_cancel_and_keeps_running() -> None:
    with pytest.raises(TypeError, match="shared"):
        NULL_MONITOR.cancel()
    assert not NULL_MONITOR.cancelled
    NULL_MONITOR.step("still running", 1.0)  # no Cancelled
    NULL_MONITOR.breathe()
