"""Validation in bounded pieces (core/bounded_validation.py): what one pydantic call would
report, in the same order, while no call sees more than PIECE_NODES values; and, once the
budget is spent, the same errors counted by type without a dict per error."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from tests.conftest import EXAMPLES
from zcf_inspector.core import bounded_schemas, bounded_validation
from zcf_inspector.core.bounded_validation import PIECE_NODES, validate_bounded
from zcf_inspector.core.continuation.models.session import AsifSession
from zcf_inspector.core.packet.structure_models import (
    ARRAY_SECTIONS,
    ENVELOPE_TYPES,
    SECTION_OBJECT_TYPES,
)
from zcf_inspector.core.pydantic_findings import Loc, ValidationIssue, validation_issues

BIG = PIECE_NODES + PIECE_NODES // 4  # just past one piece: split, and quick


class Collect:
    """A sink with endless room (every issue in full) or none (every issue counted)."""

    def __init__(self, *, room: bool) -> None:
        self._room = room
        self.issues: list[tuple[str, Loc]] = []
        self.counts: Counter[str] = Counter()
        self.firsts: dict[str, Loc] = {}

    def room(self) -> bool:
        return self._room

    def issue(self, issue: ValidationIssue) -> None:
        self.issues.append((issue.error_type, issue.loc))

    def tally(self, error_type: str, count: int, first: Callable[[], Loc]) -> None:
        self.counts[error_type] += count
        self.firsts.setdefault(error_type, first())


def direct(tp: Any, value: object) -> list[tuple[str, Loc]]:
    adapter = TypeAdapter(tp) if isinstance(tp, type) and hasattr(tp, "model_fields") else None
    try:
        if adapter is None:
            bounded_schemas.adapter(tp, True).validate_python(value)
        else:
            tp.model_validate(value)
    except ValidationError as exc:
        return [(i.error_type, i.loc) for i in validation_issues(exc)]
    return []


def session_with_plans(plans: list[Any]) -> dict[str, Any]:
    session: dict[str, Any] = json.loads((EXAMPLES / "another-computer.session.json").read_bytes())
    session["continuation"]["plans"] = plans
    return session


CASES: dict[str, tuple[Any, Any]] = {
    "beliefs of every kind of fault": (
        ARRAY_SECTIONS["beliefs"].list_type,
        [{}, 1, "x", {"portableRef": 1}, {"k": [1] * 10}] * (BIG // 5)
        + [{f"k{i}": i for i in range(BIG)}]  # one item larger than a piece
        + [{"portableRef": "b", "sourceId": "s", "content": "c"}] * 100,
    ),
    "numbers where ids go, in an envelope object": (
        ENVELOPE_TYPES["source"],
        {"installationKeyId": 1, "scopeRefs": [1, "a", None] * BIG, "client": {"x": 1}, "z": 0},
    ),
    "a manifest listing many unknown sections": (
        ENVELOPE_TYPES["manifest"],
        {"sections": {f"s{i}": "x" if i % 2 else 1 for i in range(BIG)}, "extra": 1},
    ),
    "a capsule with huge lists": (
        SECTION_OBJECT_TYPES["capsule"],
        {"objective": "o", "decisions": [1] * BIG, "risks": [[1] * BIG], "unknown": 1},
    ),
    "a session of empty plans": (AsifSession, session_with_plans([{}] * BIG)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_pieces_report_what_one_call_reports_in_the_same_order(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tp, value = CASES[case]
    errors: list[int] = []
    report = bounded_validation._report

    def measured(exc: ValidationError, *args: Any) -> None:
        errors.append(exc.error_count())
        report(exc, *args)

    monkeypatch.setattr(bounded_validation, "_report", measured)
    sink = Collect(room=True)
    ok, _ = validate_bounded(tp, value, sink)
    assert not ok
    assert sink.issues == direct(tp, value)
    assert len(errors) > 1  # it was split...
    # ...into pieces whose errors stay bounded (a few per value of a piece at most).
    assert max(errors) <= 4 * PIECE_NODES


@pytest.mark.parametrize("case", sorted(CASES))
def test_past_the_budget_errors_are_counted_by_type(case: str) -> None:
    tp, value = CASES[case]
    sink = Collect(room=False)
    validate_bounded(tp, value, sink)
    everything = direct(tp, value)
    assert sink.counts == Counter(error_type for error_type, _ in everything)
    for error_type, first in sink.firsts.items():
        assert first == next(loc for t, loc in everything if t == error_type)


def test_a_valid_large_session_is_validated_whole_and_returned() -> None:
    session = json.loads((EXAMPLES / "another-computer.session.json").read_bytes())
    plan = session["continuation"]["plans"][0]
    session["continuation"]["plans"] = [dict(plan, id=f"p{i}") for i in range(400)]
    sink = Collect(room=True)
    ok, parsed = validate_bounded(AsifSession, session, sink)
    assert ok
    assert sink.issues == []
    assert isinstance(parsed, AsifSession)
    assert len(parsed.continuation.plans) == 400  # type: ignore[union-attr]


def test_a_large_models_failing_fields_come_first() -> None:
    """The documented difference for a model too large for one piece whose large field
    fails: that field's errors come first, then the other fields', and no model-level
    error (pydantic runs no model rule once a field fails)."""
    session = session_with_plans([{}] * BIG)
    del session["session"]  # a missing field of the model itself: still reported
    sink = Collect(room=True)
    validate_bounded(AsifSession, session, sink)
    expected = [i for i in direct(AsifSession, session) if len(i[1]) > 0]
    assert sink.issues[-1] == ("missing", ("session",))
    assert Counter(sink.issues) == Counter(expected)
    plans = [i for i in expected if i[1][:2] == ("continuation", "plans")]
    assert sink.issues[: len(plans)] == plans


def belief(i: int, **extra: object) -> dict[str, object]:
    return {"portableRef": f"b{i}", "sourceId": f"s{i}", "content": "c", **extra}


# One fault each, in one object of an otherwise valid array of like objects.
COLUMN_FAULTS: dict[str, object] = {
    "a missing required field": {"portableRef": "b", "content": "c"},
    "an unknown field": belief(0, extra=1),
    "an unknown field in place of an optional one": {**belief(0), "reviewStat": "confirmed"},
    "a bad optional value": belief(0, reviewState="maybe"),
    "a null optional value": belief(0, reviewState=None),
    "a bad required value": belief(0, sourceId="\x01"),
    "a number for a string": belief(0, content=1),
    "not an object": ["portableRef", "sourceId", "content"],
    "null": None,
    "a dict subclass": Counter(belief(0)),
}


@pytest.mark.parametrize("fault", sorted(COLUMN_FAULTS))
def test_arrays_of_like_objects_checked_by_columns_report_as_one_call(fault: str) -> None:
    tp = ARRAY_SECTIONS["beliefs"].list_type
    # Two blocks: the first clean, taken by columns; the fault in the second.
    length = bounded_validation.BLOCK_ITEMS + BIG
    value: list[Any] = [
        belief(i, reviewState="confirmed") if i % 3 else belief(i) for i in range(length)
    ]
    sink = Collect(room=True)
    assert validate_bounded(tp, value, sink) == (True, None)
    assert bounded_validation._clean_by_columns(typing_args(tp), value) is not None
    value[length - BIG // 2] = COLUMN_FAULTS[fault]
    assert bounded_validation._clean_by_columns(typing_args(tp), value) is None
    sink = Collect(room=True)
    ok, _ = validate_bounded(tp, value, sink)
    assert sink.issues == direct(tp, value)
    # pydantic's strict object check takes a dict subclass; the columns leave it to it.
    assert ok == (fault == "a dict subclass") != bool(sink.issues)


def typing_args(tp: Any) -> Any:
    (item,) = tp.__args__
    return item
