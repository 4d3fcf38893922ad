"""Profile §7: the goldens are the conformance suite; every refusal code has a vector."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from goldens import generate
from tests.core.helpers import GOLDENS
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.conformance import check_goldens, x_zephr_keys
from zcf_inspector.core.reading import read_json


def test_every_golden_passes() -> None:
    results = check_goldens(GOLDENS)
    assert [r for r in results if not r.passed] == []
    assert sum(r.group == "publication" for r in results) >= 10


def test_every_refusal_code_has_a_negative_vector() -> None:
    expected = set()
    for path in (GOLDENS / "negative").glob("*.expect.json"):
        value = read_json(path.read_bytes())
        assert isinstance(value, dict)
        expected.add(value["code"])
    assert expected == {c.value for c in ErrorCode}


def test_generator_output_is_checked_in() -> None:
    assert generate.main(["--check"]) == 0


def test_stale_golden_is_reported_with_the_regenerate_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (copy / "publication" / "minimal.json").write_text("{}")
    (copy / "negative" / "stray.json").write_text("{}")
    monkeypatch.setattr(generate, "HERE", copy)
    assert generate.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "publication/minimal.json" in err
    assert "negative/stray.json" in err
    assert generate.REGENERATE in err


def test_wrong_expected_code_fails(tmp_path: Path) -> None:
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (copy / "negative" / "bom.expect.json").write_text('{"code": "invalid_json"}')
    failed = [r for r in check_goldens(copy) if not r.passed]
    assert [(r.name, r.problems) for r in failed] == [
        ("bom.json", ("expected invalid_json, got invalid_encoding",))
    ]


def test_missing_receipt_and_destination_are_failures(tmp_path: Path) -> None:
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (copy / "publication" / "archive.receipt.json").unlink()
    failed = [r for r in check_goldens(copy) if not r.passed]
    assert [(r.name, r.problems) for r in failed] == [
        ("archive.json", ("archive.receipt.json is missing",))
    ]
    (copy / "destination.json").unlink()
    [setup] = check_goldens(copy)
    assert setup.group == "setup"
    assert not setup.passed


def test_x_zephr_keys_found_at_any_depth() -> None:
    value: JsonValue = {"a": [{"b": {"x-zephr-deep": 1}}], "x-zephr-top": 2, "x-other": 3}
    assert sorted(x_zephr_keys(value)) == ["x-zephr-deep", "x-zephr-top"]


@pytest.mark.parametrize("value", [10**15, 2**53 - 1, -1, 1.5, True, "64"])
def test_a_vectors_numbers_are_bounded_before_use(tmp_path: Path, value: object) -> None:
    # Issue 19: maxBytes 10^15 went to the reader as its limit and asked ~1 PB of the
    # allocator. Every vector's number is checked first; the other vectors still run.
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    expect = copy / "negative" / "bom.expect.json"
    expect.write_text(json.dumps({"code": "invalid_encoding", "maxBytes": value}))
    results = check_goldens(copy)
    failed = [r for r in results if not r.passed]
    assert [r.name for r in failed] == ["bom.json"]
    assert "bad maxBytes: an integer from 0 to 67,108,864" in failed[0].problems[0]
    assert len(results) == len(check_goldens(GOLDENS))


def test_a_vector_limit_within_the_readers_is_used(tmp_path: Path) -> None:
    copy = tmp_path / "goldens"
    shutil.copytree(GOLDENS, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (copy / "negative" / "bom.expect.json").write_text(
        json.dumps({"code": "packet_too_large", "maxBytes": 10})
    )
    assert all(r.passed for r in check_goldens(copy))
