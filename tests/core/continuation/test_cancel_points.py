"""Issue 19: Cancel stops the long continuation checks from inside their loops.

The schema check of the published schemas, the core-event rules, the resource decoding
and the tool-schema rules each loop over a document's items; `pulse.tick()` makes a
cancellation point every `pulse.EVERY` items. Each test grows one shape of a valid
session and looks at *where* the monitor is breathed from (the modules on the stack), and how
often against the number of items — counts, never times.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from tests.core.continuation import spec_examples
from tests.hostile.corpus import _session as base_session
from tests.hostile.corpus import by_name
from zcf_inspector.core.continuation import pulse
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.monitor import Cancelled, Monitor

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ITEMS = 3_000


class Recording(Monitor):
    """Records, for each cancellation point, the modules on the stack (file names such
    as ``core_events.py``); cancels at the first point inside ``stop_in`` if given."""

    def __init__(self, stop_in: str | None = None) -> None:
        super().__init__()
        self.stop_in = stop_in
        self.where: list[set[str]] = []

    def breathe(self) -> None:
        names: set[str] = set()
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            names.add(Path(frame.f_code.co_filename).name)
            frame = frame.f_back
        self.where.append(names)
        if self.stop_in in names:
            self.cancel()
        super().breathe()


def _grown(grow: str, count: int = ITEMS) -> bytes:
    session: dict[str, Any] = json.loads(base_session())
    if grow == "events":
        template = session["events"][0]
        last = session["events"][-1]["sequence"]
        for i in range(count):
            ident = f"x{i}"
            session["events"].append({**template, "id": ident, "sequence": last + 1 + i})
            session["branches"][0]["event_ids"].append(ident)
        session["branches"][0]["head_event_id"] = f"x{count - 1}"
    elif grow == "resources":
        template = session["resources"][0]
        for i in range(count):
            session["resources"].append({**template, "id": f"r{i}"})
    elif grow == "schema":
        # One tool whose input schema has ``count`` properties: a long tool-schema walk.
        props = {f"p{i}": {"type": "string"} for i in range(count)}
        session["tools"][0]["input_schema"] = {"type": "object", "properties": props}
    elif grow == "tools":
        template = session["tools"][0]
        for i in range(count):
            schema = {"type": "object", "properties": {f"p{i}": {"type": "string"}}}
            session["tools"].append({**template, "id": f"t{i}", "input_schema": schema})
    return json.dumps(session).encode()


def _count(monitor: Recording, module: str) -> int:
    return sum(1 for names in monitor.where if module in names)


# The shape grown, and the module whose loop must hold cancellation points.
SHAPES = [
    ("events", "core_events.py"),
    ("events", "schema_check.py"),
    ("resources", "resource_bytes.py"),
    ("resources", "schema_check.py"),
    ("tools", "core_events.py"),
    ("schema", "tool_schemas.py"),
    ("events", "index.py"),
]


@pytest.mark.parametrize(("grow", "module"), SHAPES)
def test_cancel_stops_inside_the_loop(grow: str, module: str) -> None:
    monitor = Recording(stop_in=module)
    with pytest.raises(Cancelled):
        inspect_continuation(_grown(grow), now=NOW, monitor=monitor)
    # It stopped at the first point in that module: nothing after it ran.
    assert module in monitor.where[-1]
    assert _count(monitor, module) == 1


@pytest.mark.parametrize(("grow", "module"), SHAPES)
def test_points_grow_with_the_items(grow: str, module: str) -> None:
    """At most `EVERY` items between two points: the points in the module grow with the
    items (a point per `EVERY` of them at least), where the small session has few."""
    small, large = Recording(), Recording()
    inspect_continuation(_grown(grow, 10), now=NOW, monitor=small)
    inspect_continuation(_grown(grow, ITEMS), now=NOW, monitor=large)
    assert _count(large, module) - _count(small, module) >= (ITEMS - 10) // pulse.EVERY


def test_tick_breathes_every_so_many_items() -> None:
    monitor = Recording()
    with pulse.pulsing(monitor):
        for _ in range(10 * pulse.EVERY + 5):
            pulse.tick()
    assert len(monitor.where) == 10
    pulse.tick()  # outside pulsing: no monitor, no point
    assert len(monitor.where) == 10


def test_a_cancelled_monitor_stops_at_the_first_point() -> None:
    monitor = Recording()
    monitor.cancel()

    def work() -> None:
        for _ in range(2 * pulse.EVERY):
            pulse.tick()

    with pulse.pulsing(monitor), pytest.raises(Cancelled):
        work()
    assert len(monitor.where) == 1


@pytest.mark.parametrize("grow", ["events", "resources", "tools", "schema"])
def test_results_are_the_same_with_a_monitor(grow: str) -> None:
    data = _grown(grow)
    without = inspect_continuation(data, now=NOW)
    with_monitor = inspect_continuation(data, now=NOW, monitor=Recording())
    assert with_monitor == without
    assert without.findings == inspect_continuation(data, now=NOW).findings


@pytest.mark.parametrize("name", ["delta-chain", "glob-excludes"])
def test_hostile_results_are_the_same_with_a_monitor(name: str) -> None:
    data = by_name(name).build()
    assert inspect_continuation(data, now=NOW, monitor=Recording()) == inspect_continuation(
        data, now=NOW
    )


# -- the report rules (issue 19): a large report stops as soon as Cancel is pressed --------


def _large_report(count: int = ITEMS) -> tuple[bytes, bytes]:
    """The another-computer session and its report with ``count`` more assessments (of
    subjects the plan does not inventory) and as many evidence items, bound to it."""
    source = spec_examples.raw_session("another-computer")
    receipt = spec_examples.report("another-computer")
    template = receipt["assessments"][-1]
    evidence = receipt["evidence"][0]
    for i in range(count):
        receipt["assessments"].append(
            {**template, "subject": {"kind": "resource", "id": f"extra-{i}"}}
        )
        receipt["evidence"].append({**evidence, "id": f"extra-evidence-{i}"})
    bound = spec_examples.rebind(receipt, source)
    return source, spec_examples.dump(bound)


@pytest.mark.parametrize("module", ["report.py", "report_claims.py"])
def test_cancel_stops_inside_the_report_rules(module: str) -> None:
    source, receipt = _large_report()
    monitor = Recording(stop_in=module)
    with pytest.raises(Cancelled):
        inspect_continuation(source, now=spec_examples.CLOCK, report=receipt, monitor=monitor)
    assert module in monitor.where[-1]
    assert _count(monitor, module) == 1  # it stopped at the first point: nothing after ran


@pytest.mark.parametrize("module", ["report.py", "report_claims.py"])
def test_report_points_grow_with_the_assessments(module: str) -> None:
    small, large = Recording(), Recording()
    for monitor, count in ((small, 10), (large, ITEMS)):
        source, receipt = _large_report(count)
        inspect_continuation(source, now=spec_examples.CLOCK, report=receipt, monitor=monitor)
    assert _count(large, module) - _count(small, module) >= (ITEMS - 10) // pulse.EVERY


def test_a_report_cancelled_before_it_starts_stops_at_the_first_point() -> None:
    """A monitor cancelled at its first check point: the check stops there, whatever the
    report's size (the session's first point comes before any report rule)."""
    source, receipt = _large_report()
    monitor = Recording()
    monitor.cancel()
    with pytest.raises(Cancelled):
        inspect_continuation(source, now=spec_examples.CLOCK, report=receipt, monitor=monitor)
    assert len(monitor.where) == 1


def test_report_results_are_the_same_with_a_monitor() -> None:
    source, receipt = _large_report()
    clock = spec_examples.CLOCK
    assert inspect_continuation(
        source, now=clock, report=receipt, monitor=Recording()
    ) == inspect_continuation(source, now=clock, report=receipt)


@pytest.mark.parametrize("module", ["reading.py", "bounded_validation.py"])
def test_cancel_stops_inside_reading_and_validating_the_session(module: str) -> None:
    """The strict read and the bounded validation of a session check the monitor of the
    check in progress (`pulse.current_monitor`): Cancel does not wait for either to end."""
    monitor = Recording(stop_in=module)
    with pytest.raises(Cancelled):
        inspect_continuation(_grown("events"), now=NOW, monitor=monitor)
    assert module in monitor.where[-1]
    assert _count(monitor, module) == 1
    assert pulse.current_monitor() is not monitor  # set for the check's duration only
