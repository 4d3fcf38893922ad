"""One masking rule for every output (issue 34, point 1): credentials planted in every
kind of field a packet has — the texts the packet scan reads, and those it does not (ids,
tool names, session ids, extension values, the client's name, a key that is itself a
token) — and every command's every output (text and ``--json``, stdout and stderr) grepped
for the raw values. Before this, `diff` printed changed values raw, `unknown_field`
quoted a token key, and ids and names reached the terminal as the packet held them.

Receipt bytes are left out of the grep: a receipt is the destination's record of the
packet, and holds its id and tool names exactly as the packet does (that is what binds
it); the command's words beside it are grepped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from tests.conftest import EXAMPLES
from tests.core.helpers import GOLDENS, to_bytes
from zcf_inspector.cli import main

DEST = GOLDENS / "destination.json"
_ALPHABET = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def github(n: int) -> str:
    """A GitHub token unique to field ``n``: ghp_ and 36 token characters."""
    body = (f"{n:03d}" + _ALPHABET * 2)[:36]
    return "ghp_" + body


def aws(n: int) -> str:
    return f"AKIA{n:04d}QWERTYUIOPAS"[:20]


FIELDS: list[str] = []  # every raw value planted, in the order planted


def plant(value: str) -> str:
    FIELDS.append(value)
    return value


def planted_packet(name: str) -> dict[str, Any]:
    """A handoff with a credential in each kind of field (a different one in each)."""
    FIELDS.clear()
    n = iter(range(1, 1000))
    packet = g.handoff(name)
    packet["packet"]["intent"] = f"continue with {plant(github(next(n)))}"
    packet["source"]["client"]["name"] = plant(github(next(n)))
    packet["source"]["scopeRefs"] = [plant(github(next(n)))]
    packet["extensions"] = {"org.example.token": plant(github(next(n)))}
    c = packet["content"]
    c["capsule"]["objective"] = f"deploy with {plant(aws(next(n)))}"
    c["capsule"]["decisions"] = [f"Authorization: Bearer {plant(github(next(n)))}"]
    c["capsule"]["risks"] = [f"https://bob:{plant('hunter2hunter2x')}@example.org/x"]
    ref = plant(github(next(n)))
    c["beliefs"] = [
        g.belief(ref, f"the key is {plant(aws(next(n)))}"),
        g.belief("b-plain", "nothing here"),
    ]
    c["beliefs"][0]["sourceId"] = plant(github(next(n)))
    source_id = plant(github(next(n)))
    c["evidenceSources"] = [
        {"id": source_id, "kind": "external", "locator": f"https://x.org/?t={github(999)}"}
    ]
    FIELDS.append(github(999))
    c["evidenceAnchors"] = [
        {
            "id": plant(github(next(n))),
            "beliefRef": ref,
            "sourceRef": source_id,
            "excerpt": f"password={plant('s3cr3tPassw0rd!')}",
        }
    ]
    c["receipts"] = [
        {
            "id": plant(github(next(n))),
            "kind": "patch",
            "digest": "sha256:" + "0" * 64,
            "summary": f"token {plant(github(next(n)))}",
        }
    ]
    c["reviewEvents"] = [
        {
            "id": plant(github(next(n))),
            "beliefRef": ref,
            "reviewer": plant(github(next(n))),
            "fromState": "unreviewed",
            "toState": "unreviewed",
            "at": "2026-09-30T09:59:00Z",
            "note": plant(github(next(n))),
        }
    ]
    c["verification"] = [
        {"id": plant(github(next(n))), "kind": "pytest", "status": "passed", "summary": "ok"}
    ]
    c["sourceHandoff"] = {
        "fromSessionId": plant(github(next(n))),
        "toSessionId": plant(github(next(n))),
        "worktreeId": plant(github(next(n))),
        "checkpointBeliefIds": [ref],
    }
    c["allowedTools"] = ["zephr_recall"]
    return packet


def with_unknown_key(packet: dict[str, Any]) -> dict[str, Any]:
    """A field name that is itself a token (refused as unknown_field, which quotes it) and
    a tool name that is one (unknown_capability, which quotes it too)."""
    packet["content"][plant(github(500))] = "x"
    packet["content"]["allowedTools"] = [plant(github(501))]
    return packet


def written(tmp_path: Path, name: str, packet: dict[str, Any]) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_bytes(to_bytes(g.unsigned(packet)))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    main(list(argv))
    out, err = capsys.readouterr()
    return out + "\n" + err


def leaks(text: str, planted: list[str]) -> list[str]:
    """The planted values ``text`` holds, raw or JSON-escaped."""
    return [v for v in planted if v in text or json.dumps(v)[1:-1] in text]


@pytest.fixture
def packets(tmp_path: Path) -> tuple[Path, Path, Path, list[str]]:
    """A (the planted packet), B (A with every planted field changed, so `diff` shows
    each value), C (A with a token as an unknown key), and every value planted."""
    a = written(tmp_path, "a", planted_packet("mask-a"))
    planted = list(FIELDS)
    other = planted_packet("mask-b")
    # B: the same fields, other credentials (so each is a changed value on both sides).
    text = json.dumps(other)
    for index, value in enumerate(FIELDS):
        text = text.replace(value, value[:-3] + f"{index % 1000:03d}"[::-1])
    b = written(tmp_path, "b", json.loads(text))
    planted += [value[:-3] + f"{index % 1000:03d}"[::-1] for index, value in enumerate(FIELDS)]
    c = written(tmp_path, "c", with_unknown_key(planted_packet("mask-c")))
    planted += FIELDS
    return a, b, c, sorted(set(planted))


def test_the_planted_values_are_credentials_the_scan_knows() -> None:
    # Each planted value, in the text it was planted in, is one the scan flags: masking
    # the packet's every string and member name leaves none of them.
    from zcf_inspector.core.secrets.masking import mask_json

    masked = json.dumps(mask_json(with_unknown_key(planted_packet("mask-check"))))
    assert leaks(masked, FIELDS) == []


def test_no_command_prints_a_planted_credential(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    packets: tuple[Path, Path, Path, list[str]],
) -> None:
    a, b, c, planted = packets
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    decisions = tmp_path / "decisions.json"
    ref = json.loads(a.read_text())["content"]["beliefs"][0]["portableRef"]
    assert ref in planted
    decisions.write_text(json.dumps([{"portableRef": ref, "state": "confirmed"}]))
    commands: list[tuple[str, ...]] = []
    for packet in (a, b, c):
        commands += [
            ("validate", str(packet)),
            ("validate", "--json", str(packet)),
            ("validate", "--destination", str(DEST), str(packet)),
            ("validate", "--destination", str(DEST), "--json", str(packet)),
            ("validate", "--workspace", str(tmp_path), str(packet)),
            ("brief", str(packet)),
            ("brief", "--json", str(packet)),
            ("brief", "--destination", str(DEST), "--workspace", str(tmp_path), str(packet)),
            ("brief", "--json", "--workspace", str(tmp_path), str(packet)),
        ]
    commands += [
        ("diff", str(a), str(b)),
        ("diff", "--json", str(a), str(b)),
        ("diff", str(a), str(c)),
        ("diff", "--json", str(c), str(a)),
    ]
    for n, packet in enumerate((a, c)):
        commands += [
            ("ingest", str(packet), "--destination", str(DEST), "--out", str(out_dir / f"i{n}")),
            (
                "ingest",
                str(packet),
                "--destination",
                str(DEST),
                "--json",
                "--out",
                str(out_dir / f"ij{n}"),
            ),
            (
                "review",
                str(packet),
                "--destination",
                str(DEST),
                "--reviewer",
                "alice",
                "--decisions",
                str(decisions),
                "--out",
                str(out_dir / f"r{n}"),
            ),
            (
                "review",
                str(packet),
                "--destination",
                str(DEST),
                "--reviewer",
                "alice",
                "--decisions",
                str(decisions),
                "--json",
                "--out",
                str(out_dir / f"rj{n}"),
            ),
        ]
    found = {" ".join(argv): leaks(run(capsys, *argv), planted) for argv in commands}
    receipts = sorted(out_dir.iterdir())
    assert len(receipts) >= 2  # the planted packet admitted and reviewed: receipts written
    commands = [("receipt", "verify", str(p)) for p in receipts]
    commands += [("receipt", "verify", "--json", str(p)) for p in receipts]
    # The audit report's HTML page (on stdout) of each receipt, with its packet (the name
    # ends with the packet's number; the packet with a token as a key is refused, no receipt).
    for receipt in receipts:
        packet = (a, c)[int(receipt.name[-1])]
        report = ("receipt", "report", str(receipt), "--packet", str(packet))
        commands.append((*report, "--destination", str(DEST)))
    report = ("receipt", "report", str(out_dir / "r0"), "--packet", str(a))
    commands.append((*report, "--destination", str(DEST), "--workspace", str(tmp_path)))
    found.update({" ".join(argv): leaks(run(capsys, *argv), planted) for argv in commands})
    assert {command: values for command, values in found.items() if values} == {}
    assert len(found) > 40


def test_the_diff_shows_each_change_masked_with_its_kind_of_key(
    capsys: pytest.CaptureFixture[str], packets: tuple[Path, Path, Path, list[str]]
) -> None:
    a, b, _, _ = packets
    out = run(capsys, "diff", str(a), str(b))
    # Masked, not dropped: the public prefix and the length say what changed.
    assert "ghp_…(40 characters, hidden)" in out
    assert "AKIA…(20 characters, hidden)" in out
    result = json.loads(run(capsys, "diff", "--json", str(a), str(b)).split("\n\n")[0].strip())
    intent = next(c for c in result["changes"] if c["pointer"] == "/packet/intent")
    assert intent["fields"][0]["a"] == "continue with ghp_…(40 characters, hidden)"


def test_the_format_s_own_random_values_are_shown_as_they_are(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A nonce reads as random (the entropy check would flag it): it is the format's own,
    # not a credential, and the packet scan does not read it either.
    first, second = g.handoff("nonce-a"), g.handoff("nonce-b")
    a, b = written(tmp_path, "na", first), written(tmp_path, "nb", second)
    out = run(capsys, "diff", str(a), str(b))
    assert first["packet"]["nonce"] in out
    data = json.loads(run(capsys, "diff", "--json", str(a), str(b)).split("\n\n")[0].strip())
    nonce = next(c for c in data["changes"] if c["pointer"] == "/packet/nonce")
    assert nonce["fields"][0]["a"] == first["packet"]["nonce"]


def test_plan_masks_a_token_named_plan_in_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ASIF session whose plan id is a token: `plan` quotes it on many lines (and in
    every node's JSON) — masked each time."""
    token = github(700)
    text = (EXAMPLES / "another-agent.session.json").read_text().replace("continue-main", token)
    session = tmp_path / "s.json"
    session.write_text(text)
    out = run(capsys, "plan", str(session))
    assert "ghp_…(40 characters, hidden)" in out
    assert leaks(out, [token]) == []
    out = run(capsys, "plan", "--json", str(session))
    assert json.loads(out.split("\n\n")[0])["verdict"].startswith("ASIF-SESSION VALID")
    assert leaks(out, [token]) == []


def planted_session(tmp_path: Path) -> tuple[Path, list[str]]:
    """The public ASIF example with a token as its plan's id (and model's), a second as a
    resource's id and a third as a dependency's: ids the scan does not read, which `plan`
    prints in every form, DOT too."""
    tokens = [github(710), github(711), github(712)]
    text = (EXAMPLES / "another-agent.session.json").read_text()
    for old, token in zip(("continue-main", "source-csv", "summary-tool"), tokens, strict=True):
        assert old in text
        text = text.replace(old, token)
    session = tmp_path / "planted.session.json"
    session.write_text(text)
    return session, tokens


def test_plan_prints_no_planted_id_in_any_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, tokens = planted_session(tmp_path)
    forms = [
        ("plan", str(session)),
        ("plan", "--json", str(session)),
        ("plan", "--dot", str(session)),
        ("plan", "--plan", tokens[0], str(session)),
        ("plan", "--plan", tokens[0], "--dot", str(session)),
        ("plan", "--plan", tokens[0], "--json", str(session)),
    ]
    found = {" ".join(argv[:-1]): leaks(run(capsys, *argv), tokens) for argv in forms}
    assert {form: values for form, values in found.items() if values} == {}


def test_plan_dot_keeps_nodes_whose_ids_mask_alike_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two subjects whose ids are two different tokens mask alike; DOT names nodes by
    number, so they stay two nodes, each labelled with the masked id."""
    session, _ = planted_session(tmp_path)
    dot = run(capsys, "plan", "--dot", str(session))
    assert dot.startswith('digraph "plan:ghp_…(40 characters, hidden)" {')
    nodes = {
        line.strip().split(" ", 1)[0]: line.split("label=", 1)[1].split('"', 2)[1]
        for line in dot.splitlines()
        if "[label=" in line and "->" not in line
    }
    assert list(nodes) == [f"n{i}" for i in range(len(nodes))]
    hidden = "ghp_…(40 characters, hidden)"
    assert nodes["n0"] == f"plan:{hidden}"
    assert f"resource:{hidden}" in nodes.values()
    assert f"dependency:{hidden}" in nodes.values()
    assert f"model:{hidden}" in nodes.values()
    # Every edge joins two listed nodes.
    ends = {
        end
        for line in dot.splitlines()
        if "->" in line
        for end in line.strip().split(" [", 1)[0].split(" -> ")
    }
    assert ends
    assert ends <= set(nodes)
