"""Issue 19: `plan` flattened every workspace's delta chain again for every workspace, and
matched every deletion against every exclude — quadratic in the session. The walk is now
linear: the work (function calls, counted, not timed) of a session twice the size is
about twice the work, on each of the shapes that used to be quadratic.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import pytest

from tests.hostile.corpus import by_name
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.monitor import Cancelled, Monitor

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def calls(work: Callable[[], object]) -> int:
    """How many Python and C functions ``work`` calls (a count of work, not a time)."""
    count = 0

    def profile(_frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def units(data: bytes) -> int:
    """The grown part of a corpus session: its workspaces, entries, excludes, deletions."""
    workspaces = json.loads(data)["continuation"]["workspaces"]
    return sum(
        1 + len(w["entries"]) + len(w["deletions"]) + len(w["selection"]["exclude"])
        for w in workspaces
    )


def check(data: bytes) -> InspectionResult:
    return inspect_continuation(data, now=NOW)


@pytest.mark.parametrize(
    "shape", ["delta-chain", "deltas-over-snapshot", "literal-excludes", "glob-excludes"]
)
def test_the_work_grows_in_proportion_to_the_session(shape: str) -> None:
    hostile = by_name(shape)
    small, large = hostile.build(60_000), hostile.build(120_000)
    work_small, work_large = calls(lambda: check(small)), calls(lambda: check(large))
    growth = units(large) / units(small)
    assert 1.8 < growth < 2.6
    # Linear: the work per unit stays the same (a quadratic walk doubles it).
    assert work_large / work_small < 1.25 * growth, (work_small, work_large)


def test_glob_excludes_past_the_budget_are_said_to_be_unchecked() -> None:
    """Glob excludes against deletions are matched pair by pair up to a budget per session; past
    it the rest is reported as not checked (an error), never as checked."""
    data = by_name("glob-excludes").build(400_000)
    result = check(data)
    unchecked = [f for f in result.findings if f.code is PlanCode.WORKSPACE_TOO_COMPLEX]
    assert unchecked
    assert all(f.severity is Severity.ERROR for f in unchecked)


def test_a_collision_a_base_had_is_reported_once_not_per_delta() -> None:
    session = json.loads(by_name("delta-chain").build(10))
    workspaces = session["continuation"]["workspaces"]
    head = next(w for w in workspaces if w["id"] == "workspace-head")
    head["entries"].append({**head["entries"][0], "path": "inventory.csv/inner"})
    for i in range(5):  # five more deltas over the head, none touching the collision
        workspaces.append({**workspaces[0], "id": f"extra{i}", "base_snapshot_id": head["id"]})
        workspaces[-1]["deletions"] = ["totals.csv"]
        workspaces[-1]["entries"] = []
    result = check(json.dumps(session).encode())
    collisions = [f for f in result.findings if "lies under" in f.message]
    assert [f.message for f in collisions] == [
        "'inventory.csv/inner' lies under file 'inventory.csv'"
    ]


def test_a_file_over_a_base_directory_is_reported_at_the_entries_it_covers() -> None:
    session = json.loads(by_name("delta-chain").build(10))
    workspaces = session["continuation"]["workspaces"]
    head = next(w for w in workspaces if w["id"] == "workspace-head")
    head["entries"] += [
        {"path": "dir", "kind": "directory", "mode": 493},
        {**head["entries"][0], "path": "dir/a"},
        {**head["entries"][0], "path": "dir/b"},
    ]
    delta = {**workspaces[0], "id": "over", "base_snapshot_id": head["id"]}
    delta["deletions"] = ["totals.csv"]
    delta["entries"] = [{**head["entries"][0], "path": "dir"}]  # a file where the dir was
    workspaces.append(delta)
    result = check(json.dumps(session).encode())
    collisions = [f.message for f in result.findings if "lies under" in f.message]
    assert collisions == ["'dir/a' lies under file 'dir' (and 1 more entries under it)"]


def test_a_base_cycle_is_reported_for_each_workspace_that_runs_into_it() -> None:
    session = json.loads(by_name("delta-chain").build(10))
    workspaces = session["continuation"]["workspaces"]
    template = workspaces[0]
    workspaces += [
        {**template, "id": "c1", "base_snapshot_id": "c2"},
        {**template, "id": "c2", "base_snapshot_id": "c1"},
        {**template, "id": "tail", "base_snapshot_id": "c1"},
    ]
    result = check(json.dumps(session).encode())
    loops = sorted((f.pointer, f.message) for f in result.findings if "returns to" in f.message)
    at = {w["id"]: f"/continuation/workspaces/{i}" for i, w in enumerate(workspaces)}
    assert loops == sorted(
        [
            (at["c2"] + "/base_snapshot_id", "workspace base chain of 'c1' returns to 'c1'"),
            (at["c1"] + "/base_snapshot_id", "workspace base chain of 'c2' returns to 'c2'"),
            (at["c2"] + "/base_snapshot_id", "workspace base chain of 'tail' returns to 'c1'"),
        ]
    )


class CancelAfter(Monitor):
    """Cancelled once the work has passed ``points`` cancellation points."""

    def __init__(self, points: int) -> None:
        super().__init__()
        self.points = points
        self.passed = 0

    def breathe(self) -> None:
        self.passed += 1
        if self.passed > self.points:
            self.cancel()
        super().breathe()


def test_the_workspace_walk_stops_when_cancelled() -> None:
    """Cancel stops the walk at its next cancellation point, not after it: a large session
    passes many of them, and stopping leaves nothing behind."""
    data = by_name("deltas-over-snapshot").build(600_000)
    counting = CancelAfter(10**9)
    inspect_continuation(data, now=NOW, monitor=counting)
    assert counting.passed > 20  # the walk itself breathes, not only between checks
    with pytest.raises(Cancelled):
        inspect_continuation(data, now=NOW, monitor=CancelAfter(counting.passed // 2))
