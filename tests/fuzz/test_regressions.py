"""Minimal reproductions of core bugs the fuzz harness found, one test each.

Each test states the documented behaviour and fails until the core is fixed; the harness
must never catch the problem on the core's behalf.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.fuzz.checks import check_continuation
from tests.fuzz.strategies.corpus import example_files
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime

CLOCK = parse_datetime("2026-09-26T12:30:00Z")


@pytest.mark.parametrize(
    "stamp",
    [
        "0001-01-01T00:00:00+01:00",  # year 0 once moved to UTC
        "9999-12-31T23:59:59-01:00",  # year 10000 once moved to UTC
    ],
)
@pytest.mark.parametrize("field", ["assessed_at", "expires_at"])
def test_report_time_out_of_range_in_utc_is_a_finding_not_an_overflow(
    field: str, stamp: str
) -> None:
    """Found by test_mutated_sessions_and_reports_get_findings_never_exceptions.

    ``continuation/timestamps.py: parse_datetime`` converts an offset date-time with
    ``astimezone(UTC)``; at the edges of ``datetime``'s range that raises ``OverflowError``
    (not a ``ValueError``), which neither its own ``except ValueError`` nor
    ``rules.report._times``'s ``except TimestampError`` catches, so ``inspect_continuation``
    — documented never to raise on content — raises it.
    """
    report = json.loads(example_files()["another-computer.report.json"])
    report[field] = stamp
    result = inspect_continuation(json.dumps(report).encode(), now=CLOCK)
    check_continuation(result)
    assert result.report is not None
    codes = {f.code for f in result.report.findings}
    assert PlanCode.REPORT_TIME_INVALID in codes, codes


def test_parse_datetime_refuses_out_of_range_instants_with_its_own_error() -> None:
    """The helper's contract: a bad date-time is a ``TimestampError``, whatever the cause."""
    with pytest.raises(TimestampError):
        parse_datetime("0001-01-01T00:00:00+01:00")


def _another_computer_session() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(example_files()["another-computer.session.json"])
    return value


@pytest.mark.parametrize("bad_id", [[], {}, ["person"]])
def test_participant_id_that_is_a_container_is_a_finding_not_a_type_error(bad_id: object) -> None:
    """Found by test_mutated_sessions_and_reports_get_findings_never_exceptions.

    ``continuation/index.py: index_core`` puts each ``participants[i].id`` into a set to
    find repeats; the model types participants as ``dict[str, JsonValue]``, so an id that
    is an array or object reaches ``seen.add(pid)`` and raises ``TypeError: unhashable
    type``, out of ``inspect_continuation``.
    """
    session = _another_computer_session()
    session["participants"][0]["id"] = bad_id
    result = inspect_continuation(json.dumps(session).encode(), now=CLOCK)
    check_continuation(result)
    assert not result.ok


@pytest.mark.parametrize("bad_id", [None, 1, True])
def test_participant_id_of_the_wrong_type_is_not_accepted(bad_id: object) -> None:
    """Seen while reducing the case above: a verdict gap, not a crash.

    The public session schema refuses a participant whose ``id`` is not a string, but
    ``inspect_continuation`` reports such a session as fine (no finding at all), because
    ``AsifSession.participants`` is ``list[dict[str, JsonValue]]`` and nothing checks ids.
    """
    session = _another_computer_session()
    session["participants"][0]["id"] = bad_id
    result = inspect_continuation(json.dumps(session).encode(), now=CLOCK)
    check_continuation(result)
    codes = {f.code for f in result.all_findings()}
    assert PlanCode.SCHEMA_VIOLATION in codes, codes
