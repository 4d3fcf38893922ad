"""The snapshot contract's pieces (CAPABILITIES.md): exact bytes, timestamps, the current
snapshot's comparison and what it says changed."""

from __future__ import annotations

import base64
import json

import pytest

from tests.core.continuation.upstream_cases_05 import (
    SPEC_05,
    check,
    raw_capabilities,
    raw_report,
    raw_session,
    supply,
)
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.export.to_json import continuation_json
from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES, DestinationReport03
from zcf_inspector.core.continuation.results import CurrentState, SnapshotState
from zcf_inspector.core.continuation.rules.snapshot import (
    Verified,
    read_snapshot,
    snapshot_bytes,
)
from zcf_inspector.core.continuation.rules.snapshot_current import describe_changes, tokens
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_snapshot_time

Json = dict[str, object]


def _report(raw: bytes) -> DestinationReport03:
    receipt = json.loads(raw_report("another-computer"))
    supply(receipt, raw)
    return DestinationReport03.model_validate(receipt)


def _vectors() -> list[bytes]:
    listing = json.loads((SPEC_05 / "tests" / "capability-snapshot-vectors.json").read_text())
    return [v["utf8"].encode() for v in listing["vectors"]]


def test_the_vectors_verify_as_exact_bytes_and_read_as_one_object() -> None:
    values = []
    for raw in _vectors():
        out = Verified(SnapshotState.REFUSED)
        assert snapshot_bytes(_report(raw), out) == raw
        assert out.findings == []
        value, why = read_snapshot(raw)
        assert value is not None, why
        values.append(value)
    # Semantically equal, byte-distinct: no canonicalisation hides the difference.
    assert all(v == values[0] for v in values)
    first = _vectors()[0]
    for other in _vectors()[1:]:
        assert describe_changes(first, other) == (
            "the same snapshot re-serialised (other bytes, other SHA-256)",
        )


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("e30", PlanCode.SNAPSHOT_ENCODING_INVALID),  # unpadded
        ("e31=", PlanCode.SNAPSHOT_ENCODING_INVALID),  # non-zero pad bits
        ("e3 0=", PlanCode.SNAPSHOT_ENCODING_INVALID),  # whitespace
        ("e30=\n", PlanCode.SNAPSHOT_ENCODING_INVALID),
        ("e30=", None),
    ],
)
def test_only_strict_canonical_padded_base64_decodes(data: str, code: PlanCode | None) -> None:
    receipt = json.loads(raw_report("another-computer"))
    supply(receipt, b"{}")
    receipt["destination"]["capabilities_snapshot"]["data"] = data
    out = Verified(SnapshotState.REFUSED)
    raw = snapshot_bytes(DestinationReport03.model_validate(receipt), out)
    assert [f.code for f in out.findings] == ([] if code is None else [code])
    assert (raw == b"{}") is (code is None)


def test_the_limit_is_one_mebibyte_of_decoded_bytes() -> None:
    at_limit = b" " * (MAX_SNAPSHOT_BYTES - 2) + b"{}"
    out = Verified(SnapshotState.REFUSED)
    assert snapshot_bytes(_report(at_limit), out) == at_limit
    over = at_limit + b" "
    receipt = json.loads(raw_report("another-computer"))
    supply(receipt, over)
    receipt["destination"]["capabilities_snapshot"]["bytes"] = MAX_SNAPSHOT_BYTES
    out = Verified(SnapshotState.REFUSED)
    assert snapshot_bytes(DestinationReport03.model_validate(receipt), out) is None
    assert [f.code for f in out.findings] == [PlanCode.SNAPSHOT_TOO_LARGE]


@pytest.mark.parametrize(
    "text",
    [
        "2026-09-26T12:00:00",  # no offset
        "2026-09-26T12:00Z",  # no seconds
        "2026-09-26T12:00:00.0001Z",  # past milliseconds
        "2026-09-31T12:00:00Z",  # no such date
        "2026-09-26T12:00:00+00:60",  # no such offset
        "2026-09-26T12:00:00+24:00",
        "2026-12-31T23:59:60Z",  # a leap second
        "2026-09-26t12:00:00z",  # lowercase
    ],
)
def test_snapshot_timestamps_refused(text: str) -> None:
    with pytest.raises(TimestampError):
        parse_snapshot_time(text)


def test_snapshot_timestamps_compare_as_instants() -> None:
    assert parse_snapshot_time("2026-09-26T14:00:00.5+02:00") == parse_snapshot_time(
        "2026-09-26T12:00:00.500Z"
    )


def test_a_smaller_model_context_is_named_in_the_stale_headline() -> None:
    snapshot = json.loads(raw_capabilities("another-computer"))
    model = next(c for c in snapshot["components"] if c["kind"] == "model")
    model.update(input_limit=32000, revision="model-2")
    current = json.dumps(snapshot).encode()
    result = check(raw_session("another-computer"), raw_report("another-computer"), current=current)
    assert result.report is not None
    assert result.report.snapshot is not None
    found = result.report.snapshot
    assert found.state is SnapshotState.VERIFIED
    assert found.current is CurrentState.DIFFERS
    assert found.changes[0] == f"model context 8k → 32k ({model['id']})"
    (finding,) = [f for f in result.all_findings() if f.severity == "error"]
    assert finding.code is PlanCode.CURRENT_SNAPSHOT_DIFFERS
    assert "model context 8k → 32k" in finding.message


def test_the_same_bytes_match_and_an_unverified_report_is_not_compared() -> None:
    same = raw_capabilities("another-computer")
    result = check(raw_session("another-computer"), raw_report("another-computer"), same)
    assert result.ok
    assert result.report is not None
    assert result.report.snapshot is not None
    assert result.report.snapshot.current is CurrentState.MATCHES
    receipt = json.loads(raw_report("another-computer"))
    receipt["destination"]["capabilities_sha256"] = "0" * 64
    broken = json.dumps(receipt).encode()
    result = check(raw_session("another-computer"), broken, same)
    assert result.report is not None
    assert result.report.snapshot is not None
    assert result.report.snapshot.state is SnapshotState.REFUSED
    assert result.report.snapshot.current is CurrentState.UNVERIFIED


def test_tokens_are_spelled_as_people_say_them() -> None:
    assert [tokens(128000), tokens(32768), tokens(None), tokens(0)] == [
        "128k",
        "32,768",
        "unknown",
        "0",
    ]


def test_an_unavailable_snapshot_is_its_own_state() -> None:
    receipt = json.loads(raw_report("another-computer"))
    evidence = receipt["destination"]["capabilities_snapshot"]
    del evidence["data"], evidence["bytes"]
    evidence.update(availability="unavailable", explanation="Not supplied.")
    result = check(raw_session("another-computer"), json.dumps(receipt).encode())
    assert result.report is not None
    assert result.report.snapshot is not None
    assert result.report.snapshot.state is SnapshotState.UNAVAILABLE
    assert {str(f.code) for f in result.all_findings()} == {"snapshot_unavailable"}


def test_the_json_shape_gains_the_snapshot_only_for_0_5_reports() -> None:
    result = check(raw_session("another-computer"), raw_report("another-computer"))
    shape = continuation_json(result)
    report = shape["report"]
    assert isinstance(report, dict)
    snapshot = report["snapshot"]
    assert isinstance(snapshot, dict)
    assert snapshot["state"] == "verified"
    assert snapshot["bytes"] == len(raw_capabilities("another-computer"))
    bindings = snapshot["bindings"]
    assert isinstance(bindings, list)
    assert bindings
    data = base64.b64decode(
        json.loads(raw_report("another-computer"))["destination"]["capabilities_snapshot"]["data"]
    )
    assert data == raw_capabilities("another-computer")


def _variants(
    value: object, at: tuple[object, ...] = ()
) -> list[tuple[tuple[object, ...], object]]:
    """(path, replacement) pairs: each member removed (None marker) or of another shape."""
    out: list[tuple[tuple[object, ...], object]] = []
    if isinstance(value, dict):
        for key, member in value.items():
            here = (*at, key)
            out += [(here, _REMOVED), (here, None), (here, ""), (here, 1), (here, 1.5), (here, [])]
            out += [(here, True), (here, {}), (here, ["x", "x"])]
            out += _variants(member, here)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _variants(item, (*at, i))
    return out


_REMOVED = object()


def _apply(value: object, path: tuple[object, ...], replacement: object) -> object:
    copy = json.loads(json.dumps(value))
    target = copy
    for token in path[:-1]:
        target = target[token]
    if replacement is _REMOVED:
        del target[path[-1]]
    else:
        target[path[-1]] = replacement
    return copy


@pytest.mark.parametrize("name", ["another-computer", "action-specific-reconcile_operation"])
def test_the_snapshot_models_are_never_looser_than_the_schema(name: str) -> None:
    """The models are the fast path (rules/snapshot.py): whatever they accept, the
    published `#/$defs/capability_snapshot` must accept too."""
    from pydantic import ValidationError

    from zcf_inspector.core.continuation.models.schema_check import compiled
    from zcf_inspector.core.continuation.models.snapshot import CapabilitySnapshot

    schema = compiled("continuation-report", "asif-0.5", "capability_snapshot")
    base = json.loads(raw_capabilities(name))
    assert schema(base, "", None)
    tried = accepted = 0
    for path, replacement in _variants(base):
        candidate = _apply(base, path, replacement)
        tried += 1
        try:
            CapabilitySnapshot.model_validate(candidate)
        except ValidationError:
            continue
        accepted += 1
        assert schema(candidate, "", None), (path, replacement)  # type: ignore[arg-type]
    assert tried > 500
    assert accepted > 0  # extensions and nullable members are accepted by both


def test_an_unreadable_current_snapshot_leaves_currentness_unverified() -> None:
    result = check(
        raw_session("another-computer"), raw_report("another-computer"), b'{"id": 1, "id": 2}'
    )
    (finding,) = [f for f in result.all_findings() if f.severity == "error"]
    assert finding.code is PlanCode.CURRENT_SNAPSHOT_UNREADABLE
    assert "currentness is unverified" in finding.message
    assert "duplicate" in finding.message.lower()


def test_the_api_takes_the_current_snapshot_too() -> None:
    from zcf_inspector import api

    result = api.inspect_continuation(
        raw_session("another-computer"),
        now=parse_snapshot_time("2026-09-26T12:30:00Z"),
        report=raw_report("another-computer"),
        current_capabilities=raw_capabilities("another-computer"),
    )
    assert result.ok
    assert result.report is not None
    assert result.report.snapshot is not None
    assert result.report.snapshot.current is CurrentState.MATCHES


def test_the_verdict_carries_a_snapshot_chip_for_0_5_reports_only() -> None:
    from tests.core.continuation import spec_examples as v04
    from zcf_inspector.present.asif import verdict

    shown = verdict(check(raw_session("another-computer"), raw_report("another-computer")))
    assert shown.rows[-1].text == "destination snapshot: pass · bytes verified, 12 components"
    snapshot = json.loads(raw_capabilities("another-computer"))
    snapshot["runtime_revision"] = "changed"
    stale = verdict(
        check(
            raw_session("another-computer"),
            raw_report("another-computer"),
            json.dumps(snapshot).encode(),
        )
    )
    assert stale.rows[-1].text == "destination snapshot: fail · current differs — report stale"
    assert "runtime revision 'synthetic-runtime-1' → 'changed'" in stale.rows[-1].detail
    old = verdict(
        v04.inspect(v04.raw_session("another-computer"), v04.raw_report("another-computer"))
    )
    assert all(r.check != "destination snapshot" for r in old.rows)
