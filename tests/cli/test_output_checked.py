"""Every command's output is written whole or the command fails, in any stdout encoding
(issue 19, defects 4 and 5).

Each command runs in a child process with its stdout on a "full disk" (RLIMIT_FSIZE, as
``ulimit -f``, with SIGXFSZ ignored so the write fails with EFBIG instead of killing the
process): it must exit non-zero with one line on stderr, the ``output_unwritable`` code
first, and no traceback. On main ``review … > receipt.json`` left 1,024 of 445,545 bytes
and exited 0. Then each runs with ``PYTHONIOENCODING=latin-1`` and ``cp1252``: the same
exit code as under UTF-8 and no traceback (on main a UnicodeEncodeError made a valid
receipt read as invalid).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.core.generations import write_generations
from tests.core.helpers import GOLDENS

PUB = GOLDENS / "publication"
DEST = GOLDENS / "destination.json"
SESSION = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "asif-0.4"
    / "examples"
    / "continuation"
    / "action-specific.session.json"
)
LIMIT = 32  # bytes a file may grow to: less than any command's output
TIMEOUT = 300  # a bound on a hang, not a timing claim
NAME = "日本語→ü"  # outside latin-1 and cp1252: file names every report prints


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("outputs") / NAME
    folder.mkdir()
    gen1, receipt, gen2 = write_generations(folder / "stream")
    decisions = folder / "decisions.json"
    decisions.write_text(json.dumps([{"portableRef": "b-reader", "state": "confirmed"}]))
    packet = folder / f"{NAME}.json"
    shutil.copyfile(PUB / "unicode.json", packet)
    full = folder / "full.json"
    shutil.copyfile(PUB / "full-handoff.json", full)
    session = folder / f"{NAME}.session.json"
    shutil.copyfile(SESSION, session)
    return {
        "packet": str(packet),
        "full": str(full),
        "minimal": str(PUB / "minimal.json"),
        "receipt": str(PUB / "full-handoff.receipt.json"),
        "decisions": str(decisions),
        "session": str(session),
        "gen1": str(gen1),
        "gen1-receipt": str(receipt),
        "gen2": str(gen2),
    }


# Every command that prints, in each of its output forms.
COMMANDS: dict[str, Callable[[dict[str, str]], list[str]]] = {
    "validate": lambda f: ["validate", f["packet"], f["full"]],
    "validate --json": lambda f: ["validate", "--json", f["packet"]],
    "validate --destination": lambda f: ["validate", "--destination", str(DEST), f["packet"]],
    "ingest": lambda f: ["ingest", f["full"], "--destination", str(DEST)],
    "ingest refused": lambda f: [
        "ingest",
        str(GOLDENS / "negative" / "mac-invalid.json"),
        "--destination",
        str(DEST),
    ],
    "canonicalize": lambda f: ["canonicalize", f["packet"]],
    "receipt verify": lambda f: ["receipt", "verify", f["receipt"], "--destination", str(DEST)],
    "receipt verify --json": lambda f: ["receipt", "verify", "--json", f["receipt"]],
    "review": lambda f: [
        "review",
        f["full"],
        "--destination",
        str(DEST),
        "--reviewer",
        "carol",
        "--decisions",
        f["decisions"],
    ],
    "review --previous": lambda f: [
        "review",
        f["gen2"],
        "--destination",
        str(DEST),
        "--reviewer",
        "carol",
        "--previous",
        f["gen1"],
        "--previous-receipt",
        f["gen1-receipt"],
        "--repeat-unchanged",
        "--repeat-note",
        "read the diff",
    ],
    "keygen": lambda f: ["keygen"],
    "keygen --installation-key-id": lambda f: ["keygen", "--installation-key-id", "inst-x"],
    "keygen --public-of": lambda f: ["keygen", "--public-of", str(DEST)],
    "seal": lambda f: ["seal", f["minimal"]],
    "check-goldens": lambda f: ["check-goldens"],
    "plan": lambda f: ["plan", f["session"]],
    "plan --json": lambda f: ["plan", "--json", f["session"]],
    "plan --dot": lambda f: ["plan", "--dot", f["session"]],
    "brief": lambda f: ["brief", f["full"], "--destination", str(DEST)],
    "brief --json": lambda f: ["brief", "--json", f["packet"]],
    "diff": lambda f: ["diff", f["gen1"], f["gen2"]],
    "diff --json": lambda f: ["diff", "--json", f["gen1"], f["gen2"]],
}


def _full_disk() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _run(
    argv: list[str], stdout: int | object, env: dict[str, str] | None = None, **kwargs: object
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "zcf_inspector", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        timeout=TIMEOUT,
        check=False,
        **kwargs,
    )


@pytest.mark.parametrize("name", COMMANDS)
def test_stdout_on_a_full_disk_fails_in_one_line(
    name: str, files: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    with out.open("wb") as handle:
        proc = _run(COMMANDS[name](files), handle, preexec_fn=_full_disk)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0, err
    assert "Traceback" not in err
    lines = err.splitlines()
    # A command may say what it did first (the carry-over's summary); the failure is one
    # line, last, with its code.
    assert lines, "nothing said"
    assert lines[-1].startswith("zcf-inspector: output_unwritable: cannot write stdout: ")
    assert [line for line in lines if "output_unwritable" in line] == [lines[-1]]
    assert out.stat().st_size <= LIMIT


@pytest.mark.parametrize("name", COMMANDS)
def test_a_non_utf8_stdout_gives_the_same_exit_code(name: str, files: dict[str, str]) -> None:
    argv = COMMANDS[name](files)
    utf8 = _run(argv, subprocess.PIPE, {"PYTHONIOENCODING": "utf-8"})
    assert "Traceback" not in utf8.stderr.decode("utf-8", "replace")
    for encoding in ("latin-1", "cp1252"):
        proc = _run(argv, subprocess.PIPE, {"PYTHONIOENCODING": encoding})
        err = proc.stderr.decode(encoding, "replace")
        assert "Traceback" not in err, (encoding, err)
        assert proc.returncode == utf8.returncode, (encoding, err)
        # What the encoding cannot hold is written as a \\u escape, never lost.
        text = proc.stdout.decode(encoding, "replace")
        if "日本語" in utf8.stdout.decode("utf-8") and "--json" not in name:
            assert "\\u65e5\\u672c\\u8a9e" in text


def test_json_in_a_narrow_encoding_is_the_same_json_value(files: dict[str, str]) -> None:
    argv = ["validate", "--json", files["packet"]]
    wide = json.loads(_run(argv, subprocess.PIPE, {"PYTHONIOENCODING": "utf-8"}).stdout)
    narrow = _run(argv, subprocess.PIPE, {"PYTHONIOENCODING": "latin-1"}).stdout
    assert json.loads(narrow.decode("latin-1")) == wide


def test_byte_outputs_are_utf8_whatever_the_encoding(files: dict[str, str]) -> None:
    argv = ["canonicalize", files["packet"]]
    wide = _run(argv, subprocess.PIPE, {"PYTHONIOENCODING": "utf-8"}).stdout
    assert _run(argv, subprocess.PIPE, {"PYTHONIOENCODING": "latin-1"}).stdout == wide
    assert not wide.isascii()  # the golden's non-ASCII text, as UTF-8 bytes
    wide.decode("utf-8")


def test_a_short_write_to_an_out_file_fails_too(files: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "receipt.json"
    proc = _run(
        ["ingest", files["full"], "--destination", str(DEST), "--out", str(out)],
        subprocess.PIPE,
        preexec_fn=_full_disk,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert err.startswith("zcf-inspector: output_unwritable: cannot write ")
    assert len(err.splitlines()) == 1
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary left either
