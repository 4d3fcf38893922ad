"""`zcf-inspector plan --current-capabilities`: is the destination still what was assessed?"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.continuation.spec_examples import CLOCK_TEXT
from tests.core.continuation.upstream_cases_05 import EXAMPLES_05, raw_capabilities
from zcf_inspector.cli import exitcodes, main

SESSION = str(EXAMPLES_05 / "another-computer.session.json")
REPORT = str(EXAMPLES_05 / "another-computer.report.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", *argv, "--now", CLOCK_TEXT])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_same_bytes_keep_the_report_current(capsys: pytest.CaptureFixture[str]) -> None:
    current = str(EXAMPLES_05 / "another-computer.capabilities.json")
    code, out, _ = run(capsys, SESSION, "--report", REPORT, "--current-capabilities", current)
    assert code == exitcodes.OK
    assert "snapshot asif.destination-capabilities/0.1 (supplied): verified — 3,895 bytes" in out
    assert "CURRENT: the destination snapshot is byte for byte the one assessed" in out


def test_a_smaller_model_context_makes_the_report_stale(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    snapshot = json.loads(raw_capabilities("another-computer"))
    model = next(c for c in snapshot["components"] if c["kind"] == "model")
    model["input_limit"] = 2000
    current = tmp_path / "current.json"
    current.write_text(json.dumps(snapshot))
    code, out, _ = run(capsys, SESSION, "--report", REPORT, "--current-capabilities", str(current))
    assert code == exitcodes.REFUSED
    headline = next(line for line in out.splitlines() if line.startswith("REPORT STALE"))
    assert headline == (
        "REPORT STALE: destination changed since assessment — model context 8k → 2k "
        f"({model['id']})"
    )
    assert "error   current_snapshot_differs  /destination/capabilities_sha256" in out


def test_reformatted_bytes_are_a_change_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    current = tmp_path / "current.json"
    current.write_text(json.dumps(json.loads(raw_capabilities("another-computer"))))
    code, out, _ = run(
        capsys, SESSION, "--report", REPORT, "--current-capabilities", str(current), "--json"
    )
    assert code == exitcodes.REFUSED
    snapshot = json.loads(out)["report"]["snapshot"]
    assert snapshot["current"] == "differs"
    assert snapshot["changes"] == ["the same snapshot re-serialised (other bytes, other SHA-256)"]


def test_current_capabilities_need_a_report(capsys: pytest.CaptureFixture[str]) -> None:
    current = str(EXAMPLES_05 / "another-computer.capabilities.json")
    code, _, err = run(capsys, SESSION, "--current-capabilities", current)
    assert code == exitcodes.USAGE
    assert "--current-capabilities needs a destination report" in err
