"""Issue 23's conformance edges through `plan` and `validate`, text and ``--json``.

The same data and verdicts as tests/test_conformance_edges_api.py; here what a person or
a script reads: the verdict word, the exit code, the code and pointer of the finding,
and numbers shown exactly as the document wrote them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance_edges import (
    ByteCase,
    PacketCase,
    asif_bytes,
    asif_cases,
    byte_cases,
    packet_cases,
)
from tests.core.continuation.spec_examples import CLOCK_TEXT
from tests.core.continuation.upstream_cases import Case
from zcf_inspector.cli import exitcodes, main

ASIF = asif_cases()
BYTES = byte_cases()
PACKETS = packet_cases()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _ = capsys.readouterr()
    return code, out


def _files(case: Case, tmp_path: Path) -> list[str]:
    source, receipt = asif_bytes(case)
    session = tmp_path / "case.session.json"
    session.write_bytes(source)
    argv = [str(session), "--now", CLOCK_TEXT]
    if receipt is not None:
        report = tmp_path / "case.report.json"
        report.write_bytes(receipt)
        argv += ["--report", str(report)]
    return argv


@pytest.mark.parametrize("case", ASIF, ids=[c.name for c in ASIF])
def test_plan_text_and_json(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = _files(case, tmp_path)
    rejected = case.expect["verdict"] == "rejected"
    code, text = run(capsys, "plan", *argv)
    assert code == (exitcodes.REFUSED if rejected else exitcodes.OK), text
    headline = text.splitlines()[0]
    assert "ASIF-SESSION" in headline, text
    if rejected:
        assert "REFUSED" in headline or "EXPIRED" in headline, text
    else:
        assert "VALID" in headline, text
        assert "REFUSED" not in headline, text
    if "code" in case.expect:
        assert f"error   {case.expect['code']}  {case.expect['pointer']}\n" in text, text
    if case.report is not None and not rejected:
        assert f"recomputed {case.expect['verdict']}" in text, text
    code_json, out = run(capsys, "plan", *argv, "--json")
    assert code_json == code
    doc = json.loads(out)
    findings = [*doc["findings"], *(f for p in doc["plans"] for f in p["findings"])]
    if doc["report"] is not None:
        findings += doc["report"]["findings"]
        if not rejected:
            assert doc["report"]["recomputedOutcome"] == case.expect["verdict"]
    errors = {(f["code"], f["pointer"]) for f in findings if f["severity"] == "error"}
    if "code" in case.expect:
        assert (case.expect["code"], case.expect["pointer"]) in errors
    assert bool(errors) == rejected, errors


def test_plan_json_quotes_numbers_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finding that quotes a JSON value quotes it as written, never as a double."""
    (case,) = [c for c in ASIF if c.name == "argument-2-64-against-2-64-plus-1"]
    _, out = run(capsys, "plan", *_files(case, tmp_path), "--json")
    (finding,) = [
        f for f in json.loads(out)["findings"] if f["code"] == "unreported_transformation"
    ]
    assert "18446744073709551617" in finding["message"]
    assert "18446744073709551616" in finding["message"]
    (case,) = [c for c in ASIF if c.name == "argument-1-00000000000000001-against-1"]
    _, out = run(capsys, "plan", *_files(case, tmp_path), "--json")
    (finding,) = [
        f for f in json.loads(out)["findings"] if f["code"] == "unreported_transformation"
    ]
    assert "1.00000000000000001" in finding["message"]
    assert "Decimal" not in finding["message"]


@pytest.mark.parametrize("case", BYTES, ids=[c.name for c in BYTES])
def test_validate_reports_the_first_problem(
    case: ByteCase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "packet.json"
    path.write_bytes(case.data)
    code, text = run(capsys, "validate", str(path))
    assert code == exitcodes.REFUSED
    assert f" {case.code}  " in text, text
    assert f"at byte {case.offset}\n" in text, text
    code, out = run(capsys, "validate", "--json", str(path))
    assert code == exitcodes.REFUSED
    (result,) = json.loads(out)
    (finding,) = result["findings"]
    assert finding["code"] == case.code
    assert finding["offset"] == case.offset
    assert finding["pointer"] == case.pointer


@pytest.mark.parametrize("case", PACKETS, ids=[c.name for c in PACKETS])
def test_validate_packet_case(
    case: PacketCase, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "packet.json"
    path.write_bytes(case.data)
    code, text = run(capsys, "validate", str(path))
    assert code == exitcodes.REFUSED
    assert f" {case.code}  {case.pointer}\n" in text, text
    code, out = run(capsys, "validate", "--json", str(path))
    (result,) = json.loads(out)
    assert result["valid"] is False
    assert (case.code, case.pointer) in [(f["code"], f["pointer"]) for f in result["findings"]]
