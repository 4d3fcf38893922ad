"""History checks stay bounded on hostile shapes: one fold serves every checkpoint of a
branch, and the task-cycle walk stops at a documented limit and refuses."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.core.continuation.spec_examples import (
    dump,
    inspect,
    session_with_events,
    task_chain_session,
)
from zcf_inspector.core.continuation.rules import contexts, history

Json = Any


def _messages(doc: Json) -> set[str]:
    return {
        f.message for f in inspect(dump(doc)).all_findings() if f.code == "history_state_invalid"
    }


def test_a_long_task_chain_is_checked_within_the_walk_limit() -> None:
    assert not any("too large" in m for m in _messages(task_chain_session(60)))


def test_past_the_walk_limit_the_history_is_refused_not_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(history, "MAX_TASK_WALK", 100)
    messages = _messages(task_chain_session(60))
    assert "task dependencies are too large to check for cycles within 100 steps" in messages


def test_a_task_cycle_is_found_by_the_walk() -> None:
    doc = task_chain_session(4)  # task3 → task2 → task1 → task0
    # task0 is updated to depend on task3: a cycle through the whole chain.
    extra = copy.deepcopy(doc["events"][-1])
    extra.update(id="t4b", sequence=extra["sequence"] + 1)
    extra["data"] = {
        "task_id": "task0",
        "revision": 1,
        "previous_revision": 0,
        "status": "pending",
        "parts": [],
        "dependencies": ["task3"],
    }
    doc["events"].append(extra)
    doc["branches"][0]["event_ids"].append("t4b")
    doc["branches"][0]["head_event_id"] = "t4b"
    assert "task 'task0' depends on itself" in _messages(doc)


def _notes(count: int) -> Json:
    doc = session_with_events(
        [
            {"id": f"n{i}", "kind": "note", "data": {"parts": [], "category": "test"}}
            for i in range(count)
        ]
    )
    head = doc["checkpoints"][0]
    doc["checkpoints"] += [
        dict(copy.deepcopy(head), id=f"cp{i}", at_event_id=f"n{i}", context_id=None)
        for i in range(count - 1)
    ]
    return doc


def test_every_checkpoint_of_a_branch_is_checked_on_one_fold() -> None:
    doc = _notes(30)
    doc["checkpoints"][5]["open_calls"] = [{"call_id": "call-1", "state": "pending"}]
    result = inspect(dump(doc))
    (finding,) = [
        f for f in result.all_findings() if f.pointer == "/checkpoints/5/open_calls/0/call_id"
    ]
    assert finding.code == "history_state_invalid"
    assert "has a terminal result" in finding.message


def test_a_corrected_history_folds_each_checkpoint_within_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = _notes(6)
    correction = copy.deepcopy(doc["events"][-1])
    correction.update(id="n-fix", sequence=correction["sequence"] + 1)
    correction["supersedes"] = {"event_id": "n0"}
    doc["events"].append(correction)
    doc["branches"][0]["event_ids"].append("n-fix")
    doc["branches"][0]["head_event_id"] = "n-fix"
    doc["checkpoints"][0]["at_event_id"] = "n-fix"
    monkeypatch.setattr(contexts, "MAX_PREFIX_WORK", 8)
    messages = {f.message for f in inspect(dump(doc)).all_findings()}
    assert (
        "too many checkpoints over a corrected history to check within 8 folded events" in messages
    )
