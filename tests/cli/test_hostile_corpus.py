"""The hostile corpus (tests/hostile/corpus.py, kept in tests/data/hostile/) through the CLI:
every answer is an exit code and words — no traceback, no control character from the
input on the terminal, no line as long as the input — and past the findings budget the
output stops growing with the input while saying plainly what was cut."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from tests.hostile.corpus import (
    CORPUS,
    DESTINATION,
    FOLDER,
    PACKET_RECEIPT,
    Hostile,
    by_name,
    path_of,
)
from zcf_inspector.cli import main

# No line the CLI prints from these files is longer than this: a 1 MB key is cut.
MAX_LINE = 4500
CUT_SAYS = "more findings, not listed"


def commands(hostile: Hostile, path: Path) -> list[list[str]]:
    f = str(path)
    if hostile.kind == "packet":
        return [
            ["canonicalize", f],
            ["validate", f],
            ["validate", "--json", f],
            ["ingest", "--destination", str(DESTINATION), f],
            ["ingest", "--json", "--destination", str(DESTINATION), f],
            # compared with itself, and with another packet (every change is listed)
            ["diff", f, f],
            ["diff", f, str(path_of(by_name("terminal-ids")))],
            ["diff", "--json", str(path_of(by_name("terminal-ids"))), f],
        ]
    if hostile.kind in ("session", "report"):
        return [["plan", f], ["plan", "--json", f], ["plan", "--dot", f]]
    if hostile.kind == "receipt":
        return [["receipt", "verify", f], ["receipt", "verify", "--json", f]]
    if hostile.kind == "decisions":
        review = ["review", str(PACKET_RECEIPT), "--destination", str(DESTINATION)]
        return [[*review, "--decisions", f, "--reviewer", "carol"], [*review, "--json",
                "--decisions", f, "--reviewer", "carol"]]  # fmt: skip
    return [["canonicalize", f]]


def hidden(text: str) -> list[str]:
    """Characters a terminal could act on, or that hide or reorder text (the newline of
    each line aside)."""
    found = []
    for char in text:
        if char == "\n":
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs") or (category == "Zs" and char != " "):
            found.append(char)
    return found


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def check_answer(code: int, out: str, err: str, argv: list[str]) -> None:
    if argv[0] == "diff" and code == 2:  # a packet refused at the byte stage
        assert "cannot be compared: refused at the byte stage" in err, (argv, err)
    else:
        assert code in (0, 1), (argv, err)
    assert "Traceback" not in out + err
    # canonicalize writes exact bytes to a file or pipe (a terminal gets escapes:
    # test_canonicalize_escapes_for_a_terminal); everything else never carries them.
    if "canonicalize" not in argv:
        assert not hidden(out), (argv, sorted(set(hidden(out))))
    assert not hidden(err), (argv, sorted(set(hidden(err))))
    longest = max((len(line) for line in (out + err).splitlines()), default=0)
    if "--json" not in argv and "canonicalize" not in argv:  # data, not messages
        assert longest <= MAX_LINE, (argv, longest)


def test_the_kept_corpus_is_what_the_generators_make() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.hostile.corpus", "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=FOLDER.parents[2],
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("hostile", CORPUS, ids=[h.name for h in CORPUS])
def test_every_command_answers_in_words(
    capsys: pytest.CaptureFixture[str], hostile: Hostile
) -> None:
    path = path_of(hostile)
    for argv in commands(hostile, path):
        code, out, err = run(capsys, argv)
        check_answer(code, out, err, argv)
        if "--json" in argv and out:
            beside_every_findings_list(json.loads(out))  # exact JSON, escapes and all


def beside_every_findings_list(value: object) -> None:
    """``findingsOmitted`` is there wherever ``findings`` is: a stable shape."""
    if isinstance(value, dict):
        if "findings" in value:
            assert isinstance(value.get("findingsOmitted"), list), sorted(value)
        for item in value.values():
            beside_every_findings_list(item)
    elif isinstance(value, list):
        for item in value:
            beside_every_findings_list(item)


@pytest.mark.parametrize(
    "name", ["empty-beliefs", "numbers-as-ids", "tiny-strings", "every-section", "unknown-keys"]
)
def test_past_the_budget_the_text_stops_growing_and_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    hostile = next(h for h in CORPUS if h.name == name)
    outputs = {}
    for size in (64 * 1024, 512 * 1024):
        path = tmp_path / f"{size}.json"
        path.write_bytes(hostile.build(size))
        code, out, err = run(capsys, ["validate", str(path)])
        check_answer(code, out, err, ["validate"])
        assert code == 1
        assert CUT_SAYS in out
        outputs[size] = out
        code, out, _ = run(capsys, ["validate", "--json", str(path)])
        (result,) = json.loads(out)
        assert len(result["findings"]) <= 1100
        omitted = result["findingsOmitted"]
        assert omitted
        assert all(o["count"] >= 1 and o["firstPointer"].startswith("/") for o in omitted)
        # Every finding is accounted for: the kept ones and the counted ones together.
        total = len(result["findings"]) + sum(o["count"] for o in omitted)
        errors = re.search(r"— ([\d,]+) error", outputs[size])
        assert errors is not None
        assert int(errors.group(1).replace(",", "")) <= total
    # Eight times the input, about the same output: only the counts grow.
    small, large = outputs[64 * 1024], outputs[512 * 1024]
    assert len(large) <= len(small) + 2000


def test_counts_past_the_budget_are_exact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    beliefs = 5000
    hostile = next(h for h in CORPUS if h.name == "empty-beliefs")
    data = hostile.build(10)  # one empty belief: then make exactly `beliefs` of them
    data = data.replace(b'"beliefs":[{}]', b'"beliefs":[' + b",".join([b"{}"] * beliefs) + b"]")
    path = tmp_path / "p.json"
    path.write_bytes(data)
    _, out, _ = run(capsys, ["validate", "--json", str(path)])
    (result,) = json.loads(out)
    missing = [f for f in result["findings"] if f["code"] == "missing_field"]
    counted = {o["code"]: o for o in result["findingsOmitted"]}
    assert len(missing) + counted["missing_field"]["count"] == 3 * beliefs
    # The first counted one follows the last listed one.
    assert missing[-1]["pointer"] == "/content/beliefs/333/portableRef"
    assert counted["missing_field"]["firstPointer"] == "/content/beliefs/333/sourceId"
    assert result["valid"] is False


def test_terminal_escapes_in_ids_and_keys_are_escaped_everywhere(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ids = path_of(next(h for h in CORPUS if h.name == "terminal-ids"))
    code, out, _ = run(capsys, ["ingest", "--destination", str(DESTINATION), str(ids)])
    assert code == 0  # a valid packet: its receipt, on stdout, is the exact JSON...
    receipt = json.loads(out)
    assert "\u202e" in receipt["packetId"]
    assert "\\u202e" in out  # ...with the bidi override written as an escape
    keys = path_of(next(h for h in CORPUS if h.name == "terminal-keys"))
    _, out, _ = run(capsys, ["validate", str(keys)])
    assert "\\u001b]0;pwned\\u0007" in out
    plan = path_of(next(h for h in CORPUS if h.name == "terminal-plan"))
    for argv in (["plan", str(plan)], ["plan", "--dot", str(plan)]):
        _, out, _ = run(capsys, argv)
        assert "\\u202eevil" in out or "\\\\u202eevil" in out


def test_canonicalize_escapes_for_a_terminal_only(tmp_path: Path) -> None:
    """To a pipe, the exact canonical bytes; to a terminal (a pty here), the same JSON
    value with every character a terminal could act on escaped, and a note saying so."""
    ids = path_of(next(h for h in CORPUS if h.name == "terminal-ids"))
    command = [sys.executable, "-m", "zcf_inspector", "canonicalize", str(ids)]
    piped = subprocess.run(command, capture_output=True, check=True, timeout=120).stdout
    assert "\u202e".encode() in piped  # exact: the override itself
    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(command, stdout=terminal, stderr=subprocess.PIPE)
        os.close(terminal)
        chunks = []
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the pty closes with the child
                break
            if not chunk:
                break
            chunks.append(chunk)
        _, err = process.communicate(timeout=120)
    finally:
        os.close(controller)
    shown = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert process.returncode == 0
    assert not hidden(shown)
    assert json.loads(shown) == json.loads(piped)
    assert b"redirect the output for the exact canonical bytes" in err
