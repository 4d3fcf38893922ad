"""Benchmark of issues 2 and 14: `validate` and canonicalization on a 50 MB packet.

    .venv/bin/python -m tests.perf.bench_validate

The packet: a sealed session handoff with 200,000 beliefs (tests/perf/make_packets.py).
The floor: orjson.loads + sorted orjson.dumps + sha256 of the same bytes, in-process.
Prints, each against that floor: `validate` in-process (inspect_bytes) and its stages, and
`zcf-inspector validate PACKET` as a whole process (interpreter start-up, imports, file
read and exit included; bytecode enabled: PYTHONDONTWRITEBYTECODE is removed from the
child's environment). Then canonicalization against the rfc8785 package, and peak memory.

Not part of the default test run (timings belong here, not in tests).
Needs the test extras (scripts/setup.sh installs them): orjson, rfc8785.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import rfc8785

from tests.perf.make_packets import big_packet_path
from tests.perf.processes import peak_rss, timed_process
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.packet.manifest import check_manifest
from zcf_inspector.core.packet.structure import check_structure
from zcf_inspector.core.reading import read_document, read_json, read_packet

IN_PROCESS_TARGET = 2.0
WHOLE_PROCESS_TARGET = 2.5


# Run in a fresh process, so that its peak memory is validate's own.
PEAK_IMPORTS = "from zcf_inspector.core.packet.inspection import inspect_bytes"
PEAK_WORK = """
data = open(sys.argv[1], "rb").read()
report = inspect_bytes(data)
assert report.valid, report.findings[:3]
"""


class Best:
    """The best wall time and the best CPU time seen for one case, in seconds."""

    def __init__(self) -> None:
        self.wall = float("inf")
        self.cpu = float("inf")

    def add(self, wall: float, cpu: float) -> None:
        self.wall = min(self.wall, wall)
        self.cpu = min(self.cpu, cpu)


def timed_call(func: Callable[[], object]) -> tuple[float, float]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def interleaved(
    rounds: int, cases: dict[str, Callable[[], tuple[float, float]]]
) -> dict[str, Best]:
    """Best wall and CPU time of each case over ``rounds`` rounds that run every case once,
    in turn: this machine is shared and its speed drifts, so a ratio should compare like
    moments; CPU time is the steadier of the two when other work competes for the cores."""
    best = {name: Best() for name in cases}
    for _ in range(rounds):
        for name, case in cases.items():
            best[name].add(*case())
    return best


def ratio_line(label: str, case: Best, floor: Best, target: float) -> str:
    return (
        f"RATIO {label} / floor = {case.wall / floor.wall:.2f} wall, "
        f"{case.cpu / floor.cpu:.2f} CPU  (target <= {target:g})"
    )


def validate_command(path: Path) -> list[str]:
    installed = Path(sys.executable).with_name("zcf-inspector")
    command = [str(installed)] if installed.exists() else [sys.executable, "-m", "zcf_inspector"]
    return [*command, "validate", str(path)]


def main() -> int:
    path = big_packet_path()
    data = path.read_bytes()
    size = len(data)
    print(f"packet: {path.name}, {size / 1e6:.1f} MB (best wall / best CPU time)")

    def floor() -> None:
        value = orjson.loads(data)
        orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        hashlib.sha256(data).digest()

    def validate() -> None:
        report = inspect_bytes(data)
        assert report.valid

    # In-process, best of 7 each, interleaved; the stages alone for a breakdown.
    packet = read_packet(data)
    best = interleaved(
        7,
        {
            "floor": lambda: timed_call(floor),
            "validate": lambda: timed_call(validate),
            "read": lambda: timed_call(lambda: read_document(data)),
            "structure": lambda: timed_call(lambda: check_structure(packet)),
            "manifest": lambda: timed_call(lambda: check_manifest(packet, reader_plain=True)),
        },
    )
    t_floor = best["floor"]
    print(f"floor (orjson loads + sorted dumps + sha256): {t_floor.wall:.3f} / {t_floor.cpu:.3f} s")
    print(
        f"validate (read, structure, manifest, auth):   {best['validate'].wall:.3f} / "
        f"{best['validate'].cpu:.3f} s"
    )
    for stage in ("read", "structure", "manifest"):
        print(f"  {stage:9} alone {best[stage].wall:.3f} / {best[stage].cpu:.3f} s")
    print(ratio_line("validate in-process", best["validate"], t_floor, IN_PROCESS_TARGET))

    # Whole process, best of 5, interleaved with the in-process floor. A process that
    # does only the floor's work is timed too, for scale: it pays start-up and exit too.
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = validate_command(path)
    floor_process = [
        sys.executable,
        "-c",
        "import hashlib, sys, orjson; data = open(sys.argv[1], 'rb').read(); "
        "orjson.dumps(orjson.loads(data), option=orjson.OPT_SORT_KEYS); "
        "hashlib.sha256(data).digest()",
        str(path),
    ]
    timed_process(command, env)  # writes the bytecode; not timed
    whole = interleaved(
        5,
        {
            "floor": lambda: timed_call(floor),
            "process": lambda: timed_process(command, env),
            "floor process": lambda: timed_process(floor_process, env),
        },
    )
    print(
        f"`zcf-inspector validate` as a process:        {whole['process'].wall:.3f} / "
        f"{whole['process'].cpu:.3f} s"
    )
    print(
        f"  a process doing only the floor's work:      {whole['floor process'].wall:.3f} / "
        f"{whole['floor process'].cpu:.3f} s"
    )
    print(
        f"  (floor in-process at those moments:         {whole['floor'].wall:.3f} / "
        f"{whole['floor'].cpu:.3f} s)"
    )
    print(ratio_line("validate process", whole["process"], whole["floor"], WHOLE_PROCESS_TARGET))

    value = read_json(data)
    ours = canonical(value)
    theirs = rfc8785.dumps(value)  # type: ignore[arg-type]  # the reader's ZCF mode: no Decimal
    print(f"canonical byte-identical to rfc8785: {ours == theirs}")
    t_ours = min(timed_call(lambda: canonical(value))[0] for _ in range(3))
    t_theirs = timed_call(lambda: rfc8785.dumps(value))[0]  # type: ignore[arg-type]
    print(f"canonical: {t_ours:.3f} s   rfc8785: {t_theirs:.3f} s")
    print(f"RATIO rfc8785 / canonical = {t_theirs / t_ours:.1f}  (target >= 10)")

    base, peak = peak_rss(PEAK_IMPORTS, PEAK_WORK, str(path))
    print(
        f"peak RSS of a validate process: {peak / 1e6:.0f} MB "
        f"(interpreter alone {base / 1e6:.0f} MB)"
    )
    print(f"RATIO peak memory / packet size = {peak / size:.2f}  (target < 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
