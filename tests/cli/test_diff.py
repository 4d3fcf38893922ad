"""`zcf-inspector diff A B [--json]`: exit codes, the JSON shape, and terminal-safe text."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, to_bytes
from zcf_inspector.cli import main

PUB = GOLDENS / "publication"
NEG = GOLDENS / "negative"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(folder: Path, name: str, packet: dict[str, Any] | bytes) -> Path:
    path = folder / name
    path.write_bytes(packet if isinstance(packet, bytes) else to_bytes(packet))
    return path


@pytest.fixture
def generations(tmp_path: Path) -> tuple[Path, Path]:
    """Generation A and a B with one belief edited and confirmed, one added, one receipt
    removed, and an extension changed (outside the root)."""
    a = g.full_handoff()
    b = copy.deepcopy(a)
    beliefs = b["content"]["beliefs"]
    beliefs[1]["content"] = "Keys are sorted by code point."
    beliefs[1]["reviewState"] = "confirmed"
    beliefs.append(g.belief("b-new", "A new belief."))
    del b["content"]["receipts"][0]
    b = g.unsigned(b)
    b["extensions"] = {"org.example.ticket": "ZCF-43"}
    return write(tmp_path, "gen-a.json", a), write(tmp_path, "gen-b.json", b)


def test_identical_packets_exit_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    packet = PUB / "full-handoff.json"
    reformatted = write(tmp_path, "same.json", json.dumps(json.loads(packet.read_bytes())).encode())
    code, out, err = run(capsys, "diff", packet, reformatted)
    assert code == 0
    assert err == ""
    assert "identical: A and B are canonically the same" in out
    assert "changes:" not in out
    code, out, _ = run(capsys, "diff", "--json", packet, reformatted)
    assert code == 0
    assert json.loads(out)["changes"] == []


def test_json_has_the_documented_shape(
    capsys: pytest.CaptureFixture[str], generations: tuple[Path, Path]
) -> None:
    a, b = generations
    code, out, err = run(capsys, "diff", "--json", a, b)
    assert code == 1
    assert err == ""
    result = json.loads(out)
    assert list(result) == ["a", "b", "sections", "changes"]
    assert result["a"]["path"] == str(a)
    assert result["b"]["path"] == str(b)
    manifest_a = json.loads(a.read_bytes())["manifest"]["sections"]
    manifest_b = json.loads(b.read_bytes())["manifest"]["sections"]
    assert [s["name"] for s in result["sections"]] == sorted(manifest_a)
    for section in result["sections"]:
        assert list(section) == ["name", "a", "b", "status"]
        assert section["a"] == manifest_a[section["name"]]
        assert section["b"] == manifest_b[section["name"]]
        expected = "same" if section["a"] == section["b"] else "changed"
        assert section["status"] == expected
    short = [(c["change"], c["section"], c["id"], c["pointer"]) for c in result["changes"]]
    assert short == [
        ("changed", "beliefs", "b-order", "/content/beliefs/1"),
        ("added", "beliefs", "b-new", "/content/beliefs/3"),
        ("removed", "receipts", "r-patch", "/content/receipts/0"),
        ("changed", None, "org.example.ticket", "/extensions/org.example.ticket"),
        ("changed", None, "rootHash", "/manifest/rootHash"),
        ("changed", None, "sections", "/manifest/sections"),
    ]
    order = result["changes"][0]
    assert order["fields"] == [
        {
            "path": "/content",
            "a": "Keys are sorted by code point, not by UTF-16 unit.",
            "b": "Keys are sorted by code point.",
        },
        {"path": "/reviewState", "b": "confirmed"},
    ]
    assert order["reviewState"] == {"a": None, "b": "confirmed"}
    assert order["integrityProtected"] is True
    assert result["changes"][3]["integrityProtected"] is False


def test_text_is_one_line_per_change_then_its_fields(
    capsys: pytest.CaptureFixture[str], generations: tuple[Path, Path]
) -> None:
    a, b = generations
    code, out, _ = run(capsys, "diff", a, b)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"A: {a} — VALID · UNSIGNED"  # `validate`'s words
    assert lines[2].startswith("DIFFERENT: 2 of 13 covered sections, 2 fields outside the root")
    changes = lines[lines.index("changes:") + 1 :]
    heads = [line for line in changes if not line.startswith("      ")]
    assert len(heads) == 6
    assert heads[0] == (
        '  changed   beliefs  "b-order"  /content/beliefs/1  '
        "review state unreviewed (absent) → confirmed"
    )
    assert changes[1] == (
        '      /content  "Keys are sorted by code point, not by UTF-16 unit."'
        ' → "Keys are sorted by code point."'
    )
    assert heads[3].startswith(
        '  changed   extensions (not integrity-protected)  "org.example.ticket"'
    )


def test_document_text_is_escaped_before_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a = g.full_handoff()
    b = copy.deepcopy(a)
    b["content"]["beliefs"][0]["content"] = "evil\x1b[2J\u202etxt.exe"
    b["content"]["beliefs"].append(g.belief("b-\u202ehidden", "x\u200b"))
    b["extensions"] = {"k\x1b]0;title\x07": "v"}
    path_a = write(tmp_path, "a.json", a)
    path_b = write(tmp_path, "b\u202e.json", g.unsigned(b))
    code, out, err = run(capsys, "diff", path_a, path_b)
    assert code == 1
    for text in (out, err):
        assert "\x1b" not in text
        assert "\u202e" not in text
        assert "\u200b" not in text
        assert "\x07" not in text
    assert '"evil\\u001b[2J\\u202etxt.exe"' in out
    assert '"b-\\u202ehidden"' in out
    assert "b\\u202e.json" in out
    code, out, _ = run(capsys, "diff", "--json", path_a, path_b)
    assert out.isascii()
    assert json.loads(out)["changes"][0]["fields"][0]["b"] == "evil\x1b[2J\u202etxt.exe"


def test_a_packet_refused_after_the_byte_stage_is_still_compared(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "diff", PUB / "full-handoff.json", NEG / "tampered-capsule.json")
    assert code == 1
    assert "REFUSED at manifest" in out.splitlines()[1]
    assert "changed  capsule" in out


@pytest.mark.parametrize(
    "bad", [b"{", b"\xef\xbb\xbf{}", b"[]", b'{"a": 1, "a": 2}', b'{"n": 1e400}']
)
def test_a_byte_stage_refusal_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: bytes
) -> None:
    good = PUB / "minimal.json"
    path = write(tmp_path, "bad.json", bad)
    for argv in (("diff", good, path), ("diff", "--json", path, good)):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert out == ""
        assert f"{path} cannot be compared: refused at the byte stage — " in err
        assert "Traceback" not in err


def test_missing_files_and_folders_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = PUB / "minimal.json"
    for other in (tmp_path / "missing.json", tmp_path):
        code, out, err = run(capsys, "diff", good, other)
        assert code == 2
        assert out == ""
        assert err.startswith("zcf-inspector: ")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["diff", str(PUB / "minimal.json")])
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_changes_past_the_budget_are_announced_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a = g.full_handoff()
    b = copy.deepcopy(a)
    b["content"]["beliefs"] = [g.belief(f"b-{n:05d}", "x") for n in range(1500)]
    path_a, path_b = write(tmp_path, "a.json", a), write(tmp_path, "b.json", g.unsigned(b))
    code, out, err = run(capsys, "diff", "--json", path_a, path_b)
    assert code == 1
    listed = json.loads(out)["changes"]
    assert len(listed) < 1503
    assert f"{1503 + 2 - len(listed):,} further changes are counted but not listed" in err


def test_ids_differing_by_an_invisible_character_print_differently(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 19: U+034F (combining grapheme joiner) is printable but shows nothing; the two
    # ids printed as the same "b-payment" on a removed and an added line.
    a = g.full_handoff()
    a["content"]["beliefs"].append(g.belief("b-payment", "Payments are idempotent."))
    b = copy.deepcopy(a)
    b["content"]["beliefs"][-1]["portableRef"] = "b\u034f-payment"
    code, out, _ = run(
        capsys,
        "diff",
        write(tmp_path, "a.json", g.unsigned(a)),
        write(tmp_path, "b.json", g.unsigned(b)),
    )
    assert code == 1
    assert "\u034f" not in out
    removed = [line for line in out.splitlines() if line.startswith("  removed")]
    added = [line for line in out.splitlines() if line.startswith("  added")]
    assert any('"b-payment"' in line for line in removed)
    assert any('"b\\u034f-payment"' in line for line in added)
