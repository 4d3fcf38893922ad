"""Benchmark of issue 29: `validate` as users run it (every stage on, the secret scan
included) on tests/perf's packet and the three text mixes, each against the floor.

    .venv/bin/python -m tests.perf.bench_scan_mixes [--rounds N] [--mixes a,b]

For each packet (tests/perf/make_packets.py's, and tests/perf/text_mixes.py's `ascii`,
`latin-cjk` and `credential-prose`), best CPU time of interleaved rounds:

- the floor in-process (`orjson.loads`, sorted `orjson.dumps`, SHA-256 of the bytes), and
  `validate` in-process as the CLI runs it: `inspect_bytes` then the advisories' scan;
- the secret scan alone (`scan_packet` of a freshly inspected value, which reads the
  structure stage's columns; of a value scanned before, which takes its own; and the
  standard library's scan), against the floor;
- `zcf-inspector validate PACKET` as a whole process, against a process that does only the
  floor's work (start-up and exit in both), and the peak memory of the validate process.

The load average is printed at the start and the end: the machine is shared, and CPU
time is the figure that load inflates least. Not part of the default test run.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import orjson

from tests.perf.bench_validate import interleaved, timed_call, validate_command
from tests.perf.make_packets import big_packet_path
from tests.perf.processes import timed_process
from tests.perf.text_mixes import MIXES, mix_path
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.secrets.scan import scan_packet, scan_texts
from zcf_inspector.core.secrets.texts import gather

PROCESS_TARGET = 2.5  # validate process / floor process (the goal: 2)
IN_PROCESS_TARGET = 1.5
SCAN_TARGET = 0.2  # the scan alone / the floor
FLOOR_PROCESS = (
    "import hashlib, sys, orjson; data = open(sys.argv[1], 'rb').read(); "
    "orjson.dumps(orjson.loads(data), option=orjson.OPT_SORT_KEYS); "
    "hashlib.sha256(data).digest()"
)
# The peak of a child of a small runner: Linux keeps a process's peak across fork and exec,
# so a child of this (large) process would report ours.
_RUNNER = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def peak_kb(command: list[str], env: dict[str, str]) -> int:
    out = subprocess.run(
        [sys.executable, "-c", _RUNNER, *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout.split()[-1])


def measure(name: str, path: Path, rounds: int) -> None:
    data = path.read_bytes()
    print(f"\n{name}: {path.name}, {len(data) / 1e6:.1f} MB", flush=True)
    inspection = inspect_bytes(data)
    assert inspection.value is not None
    value = inspection.value
    paths, texts = gather(value)
    scan = scan_packet(value)
    assert scan.hits == (), [(h.pointer, h.kind) for h in scan.hits[:3]]
    print(f"  {scan.texts:,} texts, {scan.scanned_bytes / 1e6:.1f} MB of text, no finding")

    def floor() -> None:
        orjson.dumps(orjson.loads(data), option=orjson.OPT_SORT_KEYS)
        hashlib.sha256(data).digest()

    def validate() -> None:
        scan_packet(inspect_bytes(data).value or {})

    def scan_as_validate_runs_it() -> tuple[float, float]:
        # After a fresh inspection, which lends its structure stage's columns (one walk).
        inspected = inspect_bytes(data).value or {}
        return timed_call(lambda: scan_packet(inspected))

    best = interleaved(
        rounds,
        {
            "floor": lambda: timed_call(floor),
            "validate": lambda: timed_call(validate),
            "scan": scan_as_validate_runs_it,
            "scan again": lambda: timed_call(lambda: scan_packet(value)),
            "texts": lambda: timed_call(lambda: gather(value)),
            "stdlib scan": lambda: timed_call(lambda: scan_texts(paths, texts, use_engine=False)),
        },
    )
    f = best["floor"].cpu
    print(f"  floor in-process        {f:.3f} s CPU")
    for case, target in (("validate", IN_PROCESS_TARGET), ("scan", SCAN_TARGET)):
        print(f"  {case:<24}{best[case].cpu:.3f} s CPU, {best[case].cpu / f:.2f}x (<= {target})")
    print(f"  scan again (own walk)   {best['scan again'].cpu:.3f} s CPU")
    print(f"    of which its texts    {best['texts'].cpu:.3f} s CPU")
    print(f"  stdlib scan (no engine) {best['stdlib scan'].cpu:.3f} s CPU")

    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = validate_command(path)
    floor_process = [sys.executable, "-c", FLOOR_PROCESS, str(path)]
    timed_process(command, env)  # writes the bytecode; not timed
    whole = interleaved(
        rounds,
        {
            "floor process": lambda: timed_process(floor_process, env),
            "validate process": lambda: timed_process(command, env),
        },
    )
    fp, vp = whole["floor process"].cpu, whole["validate process"].cpu
    print(f"  floor process           {fp:.3f} s CPU")
    print(f"  validate process        {vp:.3f} s CPU, {vp / fp:.2f}x (<= {PROCESS_TARGET})")
    print(f"  peak RSS of validate    {peak_kb(command, env) / 1024:.0f} MB", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mixes", default=",".join(("perf", *MIXES)))
    args = parser.parse_args()
    print(load(), flush=True)
    for name in args.mixes.split(","):
        path = big_packet_path() if name == "perf" else mix_path(name)
        measure(name, path, args.rounds)
    print(f"\n{load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
