"""Issue 23's conformance edges through the library API (`zcf_inspector.api`).

Each family as data (tests/conformance_edges.py): the verdict, code and pointer the
texts give. The ASIF ones were decided differently before (numbers read as doubles, a
cycle the text lacks, 1-9 fraction digits); the `already_right` ones are pinned so they
stay right. The CLI (tests/cli/test_conformance_edges_cli.py) and the window
(tests/gui/test_conformance_edges_window.py) give the same verdicts.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from tests.conformance_edges import (
    ByteCase,
    PacketCase,
    asif_bytes,
    asif_cases,
    byte_cases,
    packet_cases,
)
from tests.core.continuation.spec_examples import CLOCK
from tests.core.continuation.upstream_cases import Case, verdict
from zcf_inspector import api
from zcf_inspector.core.reading import ReadError

ASIF = asif_cases()
BYTES = byte_cases()
PACKETS = packet_cases()


def test_every_family_of_the_issue_is_in_the_data() -> None:
    families = {c.family for c in ASIF}
    assert families == {
        "exact-integers",
        "free-json",
        "exact-comparison",
        "report-times",
        "requirement-edges",
        "configuration-binding",
    }
    assert len(BYTES) >= 3
    assert {p.code for p in PACKETS} >= {"dangling_reference", "invalid_value", "duplicate_id"}


def test_the_case_data_reaches_the_checker_exactly_as_written() -> None:
    (case,) = [c for c in ASIF if c.name == "resource-bytes-not-integral"]
    source, _ = asif_bytes(case)
    assert b'"bytes": 27.999999999999999999' in source
    (case,) = [c for c in ASIF if c.name == "resource-bytes-integral-decimal"]
    assert b'"bytes": 28.0' in asif_bytes(case)[0]


@pytest.mark.parametrize("case", ASIF, ids=[c.name for c in ASIF])
def test_asif_case_through_the_api(case: Case) -> None:
    source, receipt = asif_bytes(case)
    result = api.inspect_continuation(source, now=CLOCK, report=receipt)
    shown = [f.to_json() for f in result.all_findings()]
    assert verdict(result, receipt is not None) == case.expect["verdict"], shown
    if "code" in case.expect:
        hits = [
            f
            for f in result.all_findings()
            if f.code == case.expect["code"] and f.pointer == case.expect["pointer"]
        ]
        assert hits, shown


def test_free_json_values_are_kept_exactly_by_the_reader() -> None:
    (case,) = [c for c in ASIF if c.name == "call-arguments-beyond-a-double"]
    value: Any = api.read_json(asif_bytes(case)[0], exact=True)
    arguments = value["events"][1]["data"]["arguments"]
    assert arguments["scale"] == 10**400  # the integer 1e400, every digit
    (case,) = [c for c in ASIF if c.name == "request-temperature-fine-fraction"]
    value = api.read_json(asif_bytes(case)[0], exact=True)
    parameters = value["contexts"][0]["request_parameters"]
    assert parameters["temperature"] == Decimal("0.70000000000000000001")


def test_a_zcf_packet_keeps_the_profiles_2_53_rule() -> None:
    golden = json.loads(api.canonicalize(b'{"n": 9007199254740991}'))
    assert golden == {"n": 9007199254740991}
    inspection = api.inspect_packet(b'{"n": 9007199254740993}')
    assert [(f.code, f.pointer) for f in inspection.findings] == [("number_out_of_range", "/n")]
    with pytest.raises(ReadError):
        api.read_json(b"[1e400]")
    assert api.read_json(b"[1e400]", exact=True) == [10**400]


@pytest.mark.parametrize("case", BYTES, ids=[c.name for c in BYTES])
def test_the_first_problem_wins_through_the_api(case: ByteCase) -> None:
    inspection = api.inspect_packet(case.data)
    assert not inspection.valid
    first = inspection.findings[0]
    assert (first.code, first.offset) == (case.code, case.offset), first.message
    if case.pointer:
        assert first.pointer == case.pointer


@pytest.mark.parametrize("case", PACKETS, ids=[c.name for c in PACKETS])
def test_zcf_packet_case_through_the_api(case: PacketCase) -> None:
    inspection = api.inspect_packet(case.data)
    assert not inspection.valid
    assert (case.code, case.pointer) in [(f.code, f.pointer) for f in inspection.findings]


def test_a_receipt_decision_note_is_absent_never_null() -> None:
    """Already right (profile clarification: optional receipt members are never null)."""
    from tests.conformance_edges import GOLDENS

    receipt = json.loads((GOLDENS / "minimal.receipt.json").read_text(encoding="utf-8"))
    receipt["review"]["decisions"] = [
        {
            "portableRef": "b-1",
            "state": "confirmed",
            "reviewer": "reviewer-1",
            "at": "2026-10-01T12:00:00Z",
            "note": None,
        }
    ]
    report = api.verify_receipt(json.dumps(receipt).encode())
    assert report.status == "invalid"
    assert any(
        f.code == "invalid_value" and f.pointer.startswith("/review/decisions/0")
        for f in report.findings
    ), report.findings
