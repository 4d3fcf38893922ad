"""Report claims against the session: messages name both sides; the report's own data.

Verdicts and codes of these rules are pinned by the case data (test_upstream_checks.py);
this file checks what a reviewer reads: each message names what the report claims and
what the session (or the report's own evidence) says.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.core.continuation.spec_examples import (
    Json,
    dump,
    inspect,
    mutated,
    raw_report,
    raw_session,
    rebind,
    report,
    session,
)
from zcf_inspector.core.continuation.results import InspectionResult


def _message(result: InspectionResult, code: str) -> str:
    (finding,) = [f for f in result.all_findings() if f.code == code]
    return finding.message


def _check(
    name: str, mutate: Callable[[Json], object], session_name: str | None = None
) -> InspectionResult:
    receipt = mutated(report(name), mutate)
    return inspect(raw_session(session_name or name), dump(receipt))


def test_dependency_version_message_names_both_sides() -> None:
    def wrong(r: Json) -> None:
        r["assessments"][12]["resolved"]["version"] = "9"

    message = _message(_check("another-computer", wrong), "dependency_unverified")
    assert "accepts versions '1'" in message
    assert "the report resolves '9'" in message


def test_service_account_message_names_both_accounts() -> None:
    def wrong(r: Json) -> None:
        a = r["assessments"][7]
        a["status"] = "supported"
        a["resolved"] = {
            "account": {"provider": "example", "subject": "account-B"},
            "audience": "example.publisher",
            "scopes": ["reports:write"],
            "secret_handles": ["publisher-login"],
            "endpoint": "https://publisher.example.invalid",
        }

    message = _message(_check("pending-remote-operation", wrong), "service_identity_mismatch")
    assert "'subject': 'account-A'" in message
    assert "'subject': 'account-B'" in message


def test_known_blocker_message_names_the_claim_and_the_blocker() -> None:
    partial = dump(
        mutated(
            session("another-computer"),
            lambda d: d["configurations"][0].update(knowledge="partial"),
        )
    )
    result = inspect(partial, dump(rebind(report("another-computer"), partial)))
    message = _message(result, "known_blocker_claimed")
    assert message.startswith("configuration:effective is assessed supported")
    assert "configuration_not_effective: configuration 'effective' is partial" in message


def test_overflow_message_gives_the_arithmetic() -> None:
    message = _message(
        _check("another-computer", lambda r: r["model_assessment"].update(input_tokens=7999)),
        "context_overflow",
    )
    assert message.startswith(
        "7999 input tokens + 1000 reserved for output exceed the input limit 8000"
    )


def test_the_report_alone_still_checks_its_own_consistency() -> None:
    receipt = mutated(report("pending-remote-operation"), lambda r: r["blocking_reasons"].pop())
    result = inspect(dump(receipt))
    assert result.report is not None
    assert {str(f.code) for f in result.report.findings} == {"blocking_reasons_mismatch"}
    message = _message(result, "blocking_reasons_mismatch")
    assert "no reason names 'operation:publish-operation'" in message


def test_a_report_result_carries_its_reasons_and_times() -> None:
    result = inspect(
        raw_session("pending-remote-operation"), raw_report("pending-remote-operation")
    )
    assert result.report is not None
    assert [r.node_id for r in result.report.blocking_reasons] == [
        "service:publisher-service",
        "operation:publish-operation",
    ]
    assert result.report.blocking_reasons[1].pointer == "/blocking_reasons/1"
    times = result.report.times
    assert times is not None
    assert (times.assessed_at, times.expires_at, times.checked_at, times.expired) == (
        "2026-09-26T12:00:00Z",
        "2026-09-26T13:00:00Z",
        "2026-09-26T12:30:00Z",
        False,
    )
    assert result.report.model_fit == "fits"
