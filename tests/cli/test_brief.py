"""`zcf-inspector brief` (issue 20): the Briefing of every golden pinned as text and
--json, and what a pin cannot show — masking, escaping, the workspace, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goldens import generate as g
from tests.cli import brief_pins  # the one place the pins are made (and regenerated)
from tests.cli.test_hostile_corpus import check_answer
from tests.cli.test_memory_limits import NO_MEMORY, run_limited
from tests.conftest import REPO
from tests.core.helpers import to_bytes
from tests.hostile.corpus import CORPUS, Hostile, by_name, path_of
from zcf_inspector.cli import exitcodes, main
from zcf_inspector.core.briefing.build import build_briefing
from zcf_inspector.core.briefing.model import INTEGRITY_WORDS, Integrity
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.secrets.scan import scan_packet

PINS = brief_pins.PINS
GOLDEN_PACKETS = brief_pins.golden_packets()
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"


@pytest.mark.parametrize("packet", GOLDEN_PACKETS, ids=[p.name for p in GOLDEN_PACKETS])
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_the_briefing_of_every_golden_is_pinned(packet: Path, as_json: bool) -> None:
    pin = PINS / brief_pins.pin_name(packet, "json" if as_json else "txt")
    assert brief_pins.brief_output(packet, as_json=as_json) == pin.read_text(encoding="utf-8")


def test_every_golden_has_its_pins() -> None:
    expected = {brief_pins.pin_name(p, s) for p in GOLDEN_PACKETS for s in ("txt", "json")}
    assert {p.name for p in PINS.iterdir()} == expected
    assert len(GOLDEN_PACKETS) > 40


def test_the_pins_say_what_the_issue_asks() -> None:
    text = (PINS / "publication-full-handoff.txt").read_text(encoding="utf-8")
    headings = [
        "Objective", "Decisions (2)", "Constraints", "Changed files (2)", "Risks",
        "Open questions", "Next actions (2)", "Capture (2)", "Limitations",
        "Source handoff (5)", "Allowed tools (3)", "Redactions", "Omissions",
    ]  # fmt: skip
    for heading in headings:
        assert f"\n{heading}  /" in text
    assert "capture: partial — " in text
    # Unsigned: "covered" is said not to name who sealed it; a verified MAC packet is not.
    assert "not who sealed it" in text
    signed = (PINS / "publication-recipient-bound-mac.txt").read_text(encoding="utf-8")
    assert "VALID · SIGNED" in signed
    assert "not who sealed it" not in signed
    assert INTEGRITY_WORDS[Integrity.COVERED] in text
    assert "checkpoint belief: b-order\n      belief /content/beliefs/1" in text
    omissions = (PINS / "publication-omissions-redactions.txt").read_text(encoding="utf-8")
    assert "1 section omitted by the source: evidenceAnchors" in omissions
    assert "[not_covered]" in omissions  # the manifests are outside the root
    data = json.loads((PINS / "publication-tools.json").read_text(encoding="utf-8"))
    tools = next(s for s in data["sections"] if s["key"] == "tools")
    assert [i["note"].split(" ")[0] for i in tools["items"]] == [
        "native", "unsupported", "narrated", "narrated", "native",
    ]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def secret_packet() -> bytes:
    packet = g.handoff("brief-secret")
    packet["content"]["capsule"]["risks"] = [f"the deploy key {AWS_KEY} is still live"]
    packet["content"]["capsule"]["objective"] = "Fix \x1b[31mred\x1b[0m and \u202etext"
    packet["content"]["beliefs"] = [g.belief("b-1", f"uses {AWS_KEY}")]
    return to_bytes(g.unsigned(packet))


def test_a_secret_is_masked_in_the_briefing_and_never_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(secret_packet())
    code, out, _ = run(capsys, "brief", str(path))
    assert code == exitcodes.OK  # a warning, not a refusal
    assert AWS_KEY not in out
    assert "the deploy key AKIA…(20 characters, hidden) is still live" in out
    assert "warning secret_suspected: looks like an AWS access key id" in out
    assert "2 suspected credentials in 2 of" in out
    assert "warning secret_suspected  /content/beliefs/0/content" in out
    code, out, _ = run(capsys, "brief", str(path), "--json")
    assert AWS_KEY not in out
    data = json.loads(out)
    assert [h["pointer"] for h in data["secrets"]["hits"]] == [
        "/content/capsule/risks/0",
        "/content/beliefs/0/content",
    ]


def test_document_text_is_escaped_for_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(secret_packet())
    _, out, _ = run(capsys, "brief", str(path))
    assert "\x1b" not in out
    assert "\u202e" not in out
    assert "Fix \\u001b[31mred\\u001b[0m and \\u202etext" in out
    _, out, _ = run(capsys, "brief", str(path), "--json")
    assert "\x1b" not in out
    assert json.loads(out)["sections"][1]["items"][0]["text"].startswith("Fix \x1b[31m")


def test_the_workspace_check_in_the_briefing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "ws"
    (root / "zcf").mkdir(parents=True)
    (root / "zcf" / "reading.py").write_text("x = 1\n")
    packet = g.handoff("brief-ws")
    c = packet["content"]
    c["capsule"]["changedFiles"] = ["zcf/reading.py", "gone.py"]
    c["beliefs"] = [g.belief("b-1", "the reader"), g.belief("b-2", "other")]
    c["evidenceSources"] = [
        {"id": "s-1", "kind": "local", "locator": "zcf/reading.py", "digest": "sha256:" + "0" * 64}
    ]
    c["evidenceAnchors"] = [{"id": "a-1", "beliefRef": "b-1", "sourceRef": "s-1"}]
    path = tmp_path / "p.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    code, out, _ = run(capsys, "brief", str(path), "--workspace", str(root))
    assert code == exitcodes.OK  # claims vs workspace never changes the validity
    assert "claims vs workspace: 1 differs, 1 differ" not in out
    # Files, not entries: zcf/reading.py is a source and a changed file, one file.
    assert (
        "claims vs workspace: 1 differs, 1 missing "
        "(1 file named both as a source and as a changed file, counted once)" in out
    )
    assert "- zcf/reading.py\n      /content/capsule/changedFiles/0 [covered]\n" in out
    assert "      workspace: differs — its content differs per evidence source s-1" in out
    assert "- b-1: cites a mismatch  /content/beliefs/0" in out
    code, out, _ = run(capsys, "brief", str(path), "--workspace", str(root), "--json")
    data = json.loads(out)
    assert data["workspace"]["sources"][0]["status"] == "differs"
    assert data["workspace"]["beliefs"][0]["rollUp"] == "cites_mismatch"
    code, _, err = run(capsys, "brief", str(path), "--workspace", str(tmp_path / "none"))
    assert code == exitcodes.USAGE
    assert "is not a folder" in err


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused = REPO / "goldens" / "negative" / "manifest-root-mismatch.json"
    code, out, _ = run(capsys, "brief", str(refused))
    assert code == exitcodes.REFUSED
    assert "[changed]" in out
    code, _, _ = run(capsys, "brief", str(tmp_path / "missing.json"))
    assert code == exitcodes.USAGE
    bom = REPO / "goldens" / "negative" / "bom.json"
    code, _, err = run(capsys, "brief", str(bom), "--workspace", str(tmp_path / "none"))
    assert code == exitcodes.USAGE  # checked before the packet is read
    assert "is not a folder" in err


def test_an_intact_packet_is_not_a_valid_one(capsys: pytest.CaptureFixture[str]) -> None:
    # A recipient MAC with no destination keys was not checked: brief says and exits what
    # validate says and exits, never 0.
    path = str(REPO / "goldens" / "publication" / "recipient-bound-mac.json")
    validate_code, validate_out, _ = run(capsys, "validate", path)
    code, out, _ = run(capsys, "brief", path)
    assert code == validate_code == exitcodes.UNCHECKED
    assert out.splitlines()[0] == validate_out.splitlines()[0]
    assert "INTACT · MAC NOT CHECKED" in out.splitlines()[0]
    code, out, _ = run(capsys, "brief", path, "--json")
    assert code == exitcodes.UNCHECKED
    assert json.loads(out)["trust"] == "unchecked"


def test_the_model_masks_and_points_without_the_cli() -> None:
    inspection = inspect_bytes(secret_packet())
    assert inspection.value is not None
    briefing = build_briefing(inspection, secrets=scan_packet(inspection.value))
    (risk,) = briefing.section("risks").items
    assert risk.pointer == "/content/capsule/risks/0"
    assert risk.text == "the deploy key AKIA…(20 characters, hidden) is still live"
    assert [h.kind for h in risk.secrets] == ["aws-access-key-id"]
    assert risk.integrity is Integrity.COVERED
    assert briefing.section("redactions").items == ()
    assert briefing.refused is False


HOSTILE_PACKETS = [h for h in CORPUS if h.kind == "packet"]


@pytest.mark.parametrize("hostile", HOSTILE_PACKETS, ids=[h.name for h in HOSTILE_PACKETS])
def test_the_hostile_corpus_is_briefed_in_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, hostile: Hostile
) -> None:
    # The corpus's rule for every command: an exit code and words, no traceback, nothing
    # hidden on the terminal, no line as long as the input.
    f = str(path_of(hostile))
    for argv in (["brief", f], ["brief", "--json", f], ["brief", "--workspace", str(tmp_path), f]):
        code, out, err = run(capsys, *argv)
        check_answer(code, out, err, argv)


@pytest.mark.parametrize("megabytes", [128, 192])
def test_brief_under_a_memory_limit_answers_never_crashes(tmp_path: Path, megabytes: int) -> None:
    path = tmp_path / "beliefs.json"
    path.write_bytes(by_name("empty-beliefs").build(3 * 1024 * 1024))
    result = run_limited(megabytes, "brief", str(path))
    assert result.returncode in (0, 1, 2), result.stderr[-2000:]
    assert b"Traceback" not in result.stderr
    if result.returncode == 2:
        assert NO_MEMORY.encode() in result.stderr


def test_a_locator_holding_a_password_is_masked_in_the_workspace_lines_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    password = "Hunter2Secret9"
    packet = g.handoff("brief-locator")
    packet["content"]["evidenceSources"] = [
        {
            "id": "s-db",
            "kind": "local",
            "locator": f"pg://admin:{password}@db/x",
            "digest": "sha256:" + "0" * 64,
        }
    ]
    path = tmp_path / "p.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    for extra in ([], ["--json"]):
        _, out, _ = run(capsys, "brief", str(path), "--workspace", str(tmp_path), *extra)
        assert password not in out
        assert "pg://admin:…(14 characters, hidden)@db/x" in out
