"""Under an address-space limit (``ulimit -v``) every command answers: within the limit it
does its work, past it it refuses in words with exit 2 — never an abort, a segfault, a
hang or a traceback (orjson and pydantic-core allocate in Rust, which cannot fail
cleanly; see core/headroom.py)."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile.corpus import by_name

MB = 1024 * 1024
# A generous bound on a run, not a timing claim: a hang would otherwise stall the suite.
TIMEOUT = 300
NO_MEMORY = "zcf-inspector: not enough memory to finish"


def limited(megabytes: int) -> Callable[[], None]:
    def apply() -> None:
        limit = megabytes * MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_limited(megabytes: int, *argv: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "zcf_inspector", *argv],
        capture_output=True,
        preexec_fn=limited(megabytes),
        timeout=TIMEOUT,
        check=False,
    )


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("limits")
    made = {
        "halves": by_name("halves").build(8 * MB),  # 2 million floats
        "beliefs": by_name("empty-beliefs").build(3 * MB),  # 3 million findings
        "plans": by_name("empty-plans").build(1 * MB),
        "receipt": by_name("empty-decisions").build(1 * MB),
    }
    paths = {}
    for name, data in made.items():
        paths[name] = folder / f"{name}.json"
        paths[name].write_bytes(data)
    return paths


def test_canonicalize_of_millions_of_floats_fits_in_a_few_hundred_megabytes(
    inputs: dict[str, Path],
) -> None:
    # Before issue 15 this took about 1.2 GB: one placeholder string per float.
    result = run_limited(400, "canonicalize", str(inputs["halves"]))
    assert result.returncode == 0, result.stderr
    assert result.stdout == inputs["halves"].read_bytes()  # already canonical


def test_validate_of_millions_of_findings_fits_in_a_few_hundred_megabytes(
    inputs: dict[str, Path],
) -> None:
    # Before issue 15: 1 GB and 375 MB of output for this file.
    result = run_limited(400, "validate", str(inputs["beliefs"]))
    assert result.returncode == 1, result.stderr
    assert b"more findings, not listed" in result.stdout
    assert len(result.stdout) < 200_000


def test_seal_of_a_packet_dense_in_empty_objects_streams_its_output(tmp_path: Path) -> None:
    # Issue 34: seal held its indented output as one text, its escaped copy and its bytes
    # at once (39x the input on 16.5 MB; 323 MB of address space for this 8 MB packet,
    # 262 MB since it is written in pieces).
    packet = tmp_path / "empty-beliefs.json"
    packet.write_bytes(by_name("empty-beliefs").build(8 * MB))
    result = run_limited(290, "seal", str(packet))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(b"{\n")
    assert result.stdout.endswith(b"}\n")


COMMANDS = {
    "canonicalize": ("canonicalize", "halves"),
    "validate": ("validate", "beliefs"),
    "plan": ("plan", "plans"),
    "receipt": ("receipt verify", "receipt"),
}


# Below about 90 MB the interpreter itself may fail to import (CPython's compile() can
# then raise SystemError): that is not a limit the program could answer under.
@pytest.mark.parametrize("megabytes", [96, 128, 160, 192])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_any_limit_gets_an_answer_never_a_crash(
    inputs: dict[str, Path], command: str, megabytes: int
) -> None:
    words, name = COMMANDS[command]
    result = run_limited(megabytes, *words.split(), str(inputs[name]))
    assert result.returncode in (0, 1, 2), (
        f"killed by {signal.Signals(-result.returncode).name}"
        if result.returncode < 0
        else result.returncode,
        result.stderr[-2000:],
    )
    assert b"Traceback" not in result.stderr
    if result.returncode == 2:
        assert NO_MEMORY.encode() in result.stderr
