"""`receipt report` and `receipt reconcile` (issue 32), run as a user runs them: receipts
made by the `review` command under the goldens' destination (fixed keys and clock)."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.core.helpers import GOLDENS
from zcf_inspector.cli import main

PACKET = str(GOLDENS / "publication" / "full-handoff.json")
XSS = "<img src=x onerror=alert(1)>"
A = [
    {"portableRef": "b-reader", "state": "confirmed", "note": XSS},
    {"portableRef": "b-order", "state": "rejected", "note": "stale"},
    {"portableRef": "b-bench", "state": "confirmed"},
]
B = [
    {"portableRef": "b-reader", "state": "rejected", "note": "wrong"},
    {"portableRef": "b-order", "state": "confirmed"},
    {"portableRef": "b-bench", "state": "confirmed"},
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    dest = tmp_path / "destination.json"
    shutil.copy(GOLDENS / "destination.json", dest)
    dest.chmod(0o600)
    out = {"dest": str(dest)}
    for name, decisions, reviewer in (("A", A, "alice"), ("B", B, "bob")):
        path = tmp_path / f"{name}.decisions.json"
        path.write_text(json.dumps(decisions), encoding="utf-8")
        receipt = tmp_path / f"{name}.json"
        code, _, _ = run(
            capsys, "review", PACKET, "--destination", str(dest), "--decisions", str(path),
            "--reviewer", reviewer, "--out", str(receipt),
        )  # fmt: skip
        assert code == 0
        out[name] = str(receipt)
    return out


def digest(path: str) -> str:
    value: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    return str(value["receiptDigest"])


def test_reconcile_json_lists_both_disagreements_agreement_and_kappa(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, out, _ = run(
        capsys, "receipt", "reconcile", files["A"], files["B"], "--packet", PACKET,
        "--destination", files["dest"], "--json",
    )  # fmt: skip
    assert code == 0
    shown = json.loads(out)
    assert [d["portableRef"] for d in shown["disagreements"]] == ["b-reader", "b-order"]
    reader = shown["disagreements"][0]
    assert (reader["a"]["state"], reader["a"]["note"]) == ("confirmed", XSS)
    assert (reader["b"]["state"], reader["b"]["reviewer"], reader["b"]["note"]) == (
        "rejected",
        "bob",
        "wrong",
    )
    assert (shown["agreed"], shown["compared"]) == (1, 3)
    assert shown["kappa"] == {"exact": "-1/2", "value": -0.5}
    assert shown["perState"]["confirmed"]["both"] == 1
    assert [r["receiptDigest"] for r in shown["receipts"]] == [
        digest(files["A"]),
        digest(files["B"]),
    ]


def test_reconcile_text(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(
        capsys, "receipt", "reconcile", files["A"], files["B"], "--packet", PACKET,
        "--destination", files["dest"],
    )  # fmt: skip
    assert code == 0
    assert "agreement: 1 of 3 (33.3%)" in out
    assert "Cohen's kappa: -0.5000 (exactly -1/2)" in out
    assert "disagreements: 2" in out


def test_the_reconciled_receipt_verifies(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    choices = tmp_path / "choices.json"
    choices.write_text(json.dumps({"disagreed": "a", "note": "agreed on a call"}), "utf-8")
    made = tmp_path / "reconciled.json"
    code, _, err = run(
        capsys, "receipt", "reconcile", files["A"], files["B"], "--packet", PACKET,
        "--destination", files["dest"], "--choices", str(choices), "--reconciler", "carol",
        "--out", str(made),
    )  # fmt: skip
    assert code == 0, err
    assert f"reconciled receipt written to {made}" in err
    code, out, _ = run(capsys, "receipt", "verify", str(made), "--destination", files["dest"])
    assert code == 0
    assert "VALID RECEIPT · SIGNED (signature verified)" in out
    value = json.loads(made.read_text(encoding="utf-8"))
    notes = [d["note"] for d in value["review"]["decisions"]]
    assert len(notes) == 3
    assert all(digest(files["A"]) in n and digest(files["B"]) in n for n in notes)


def test_reconcile_refuses_an_unsigned_receipt_unless_accepted(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    unsigned = json.loads(Path(files["A"]).read_text(encoding="utf-8"))
    del unsigned["signature"]
    path = tmp_path / "unsigned.json"
    path.write_text(json.dumps(unsigned), encoding="utf-8")
    argv = ("receipt", "reconcile", str(path), files["B"], "--packet", PACKET,
            "--destination", files["dest"])  # fmt: skip
    code, out, _ = run(capsys, *argv)
    assert code == 1
    assert "reconcile_receipt_untrusted" in out
    assert "receipt A is unsigned" in out
    code, out, _ = run(capsys, *argv, "--accept-unsigned")
    assert code == 0
    assert "NOT signed by a key this destination trusts" in out


def test_reconcile_usage_errors(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    base = ("receipt", "reconcile", files["A"], files["B"], "--packet", PACKET,
            "--destination", files["dest"])  # fmt: skip
    assert run(capsys, *base, "--reconciler", "carol")[0] == 2  # without --out
    assert run(capsys, *base, "--out", "x.json")[0] == 2  # without --reconciler


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_report_writes_the_page(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    code, out, err = run(
        capsys, "receipt", "report", files["A"], "--packet", PACKET,
        "--destination", files["dest"], "--out", str(page),
    )  # fmt: skip
    assert (code, out, err) == (0, "", f"report written to {page}\n")
    parsed = _Tags()
    parsed.feed(page.read_text(encoding="utf-8"))
    assert "script" not in parsed.tags
    text = "".join(parsed.text)
    assert digest(files["A"]) in text
    assert "alice" in text
    assert XSS in parsed.text
    # never overwritten without --force
    code, _, err = run(
        capsys, "receipt", "report", files["A"], "--packet", PACKET,
        "--destination", files["dest"], "--out", str(page),
    )  # fmt: skip
    assert code == 2
    assert "already exists" in err


def test_report_of_another_packets_receipt_exits_1(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    other = str(GOLDENS / "publication" / "minimal.json")
    code, out, _ = run(
        capsys, "receipt", "report", files["A"], "--packet", other, "--destination", files["dest"]
    )
    assert code == 1
    assert "RECEIPT DOES NOT MATCH THE PACKET" in out
    assert "alice" not in out  # nothing of the review is reported


def test_report_with_the_signers_key_and_with_an_untrusted_signer(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    key = tmp_path / "dest.pub.json"
    code, _, _ = run(capsys, "keygen", "--public-of", files["dest"], "--out", str(key))
    assert code == 0
    argv = ("receipt", "report", files["A"], "--packet", PACKET, "--destination", files["dest"])
    code, out, _ = run(capsys, *argv, "--key", str(key))
    assert code == 0
    assert "VALID RECEIPT · SIGNED (signature verified)" in out
    # A destination without the signingKey that signed it: the signature is not checked.
    other = json.loads(Path(files["dest"]).read_text(encoding="utf-8"))
    del other["signingKey"]
    unsigned_dest = tmp_path / "other-destination.json"
    unsigned_dest.write_text(json.dumps(other), encoding="utf-8")
    unsigned_dest.chmod(0o600)
    code, out, _ = run(
        capsys, "receipt", "report", files["A"], "--packet", PACKET,
        "--destination", str(unsigned_dest),
    )  # fmt: skip
    assert code == 3
    assert "INTACT RECEIPT · SIGNATURE NOT CHECKED (no key)" in out
