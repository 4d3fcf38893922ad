"""A fixed clock in force is said (issue 34, point 9): a destination file's ``now`` (a
test clock) stamps every time a receipt records — imported, decided, completed — and
nothing on screen said so. The words are `present.clock`'s; the export's summary and the
CLI beside a receipt it writes say them (the window's header:
tests/gui/test_fixed_clock_window.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import GOLDENS, destination, golden_bytes, to_bytes
from tests.present.review.test_controller import reviewing
from zcf_inspector.cli import exitcodes, main
from zcf_inspector.present.clock import fixed_clock_words

FIXED = 'FIXED CLOCK 2026-10-01T12:00:00Z (the destination file\'s "now", for tests)'
FIXED_WORDS = FIXED + (
    ": its receipts are stamped with it — imported, decided, completed — not with the present time"
)
FIXED_NOTE = f"note: {FIXED_WORDS}\n"  # what ingest and review print on stderr


def test_the_words_name_the_clock_and_only_when_one_is_fixed() -> None:
    words = fixed_clock_words(destination())  # the goldens' destination fixes its clock
    assert words is not None
    assert words == FIXED_WORDS
    assert fixed_clock_words(destination(now=None)) is None
    assert fixed_clock_words(None) is None


def test_the_export_summary_says_the_clock_is_fixed(tmp_path: Path) -> None:
    plan = reviewing(tmp_path / "fixed").export_plan()
    assert plan is not None
    assert FIXED in plan.summary_text
    system = reviewing(tmp_path / "system", dest=destination(now=None)).export_plan()
    assert system is not None
    assert "FIXED CLOCK" not in system.summary_text


def test_the_cli_says_so_beside_the_receipt_it_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packet = tmp_path / "p.json"
    packet.write_bytes(golden_bytes("full-handoff"))
    out = tmp_path / "r.json"
    code = main(["ingest", str(packet), "--destination", str(GOLDENS / "destination.json"),
                 "--out", str(out)])  # fmt: skip
    assert code == exitcodes.OK
    err = capsys.readouterr().err
    assert f"note: {FIXED}: " in err
    assert out.exists()
    decisions = tmp_path / "d.json"
    decisions.write_text("[]")
    code = main(["review", str(packet), "--destination", str(GOLDENS / "destination.json"),
                 "--reviewer", "alice", "--decisions", str(decisions),
                 "--out", str(tmp_path / "rr.json")])  # fmt: skip
    assert code == exitcodes.OK
    assert f"note: {FIXED}: " in capsys.readouterr().err


def test_the_cli_says_nothing_on_the_system_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = json.loads((GOLDENS / "destination.json").read_text())
    del dest["now"]
    dest_path = tmp_path / "dest.json"
    dest_path.write_text(json.dumps(dest))
    dest_path.chmod(0o600)
    # On the system clock: a packet that does not expire while this test is kept.
    value = g.handoff("system-clock")
    value["retention"]["expiresAt"] = "2999-01-01T00:00:00Z"
    packet = tmp_path / "p.json"
    packet.write_bytes(to_bytes(g.unsigned(value)))
    code = main(["ingest", str(packet), "--destination", str(dest_path),
                 "--out", str(tmp_path / "r.json")])  # fmt: skip
    assert code == exitcodes.OK
    assert "FIXED CLOCK" not in capsys.readouterr().err
