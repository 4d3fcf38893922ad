"""Benchmark of issue 20: the secret scan and `brief` on the 200,000-belief packet.

    .venv/bin/python -m tests.perf.bench_brief

The packet: tests/perf/make_packets.py (about 50 MB). Prints, best of 5 rounds that run
each case once in turn (this machine is shared; CPU time is the steadier figure):

- the secret scan in-process (`scan_packet` on the parsed packet), against
  `zcf-inspector validate PACKET` as a whole process — the scan must take less;
- `zcf-inspector brief PACKET` and `brief PACKET --json` as whole processes (read,
  validate, scan, brief, print), against `validate` as a process — the issue's bound is
  twice validate's time;
- `brief PACKET --workspace EMPTY` (every belief's roll-up is made; nothing is found);
- a planted copy: the same packet with one credential every 1,000 beliefs, scanned
  in-process, so the figure is not only that of a packet with nothing to find.

Not part of the default test run (timings belong here, not in tests).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.perf.bench_validate import interleaved, timed_call
from tests.perf.make_packets import big_packet_path
from tests.perf.processes import timed_process
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import read_packet
from zcf_inspector.core.secrets.scan import scan_packet

SCAN_TARGET = 1.0  # scan in-process / validate as a process
BRIEF_TARGET = 2.0  # brief as a process / validate as a process
PLANT_EVERY = 1000


def command(*args: str) -> list[str]:
    installed = Path(sys.executable).with_name("zcf-inspector")
    base = [str(installed)] if installed.exists() else [sys.executable, "-m", "zcf_inspector"]
    return [*base, *args]


def planted_copy(path: Path) -> dict[str, JsonValue]:
    packet: dict[str, Any] = json.loads(path.read_bytes())
    for index, belief in enumerate(packet["content"]["beliefs"]):
        if index % PLANT_EVERY == 0:
            belief["content"] += f" key AKIA{index:016d}"
    return packet


def main() -> int:
    path = big_packet_path()
    data = path.read_bytes()
    print(f"packet: {path.name}, {len(data) / 1e6:.1f} MB (best wall / best CPU time)")
    packet = read_packet(data)
    assert isinstance(packet, dict)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    validate = command("validate", str(path))
    brief = command("brief", str(path))
    brief_json = command("brief", str(path), "--json")
    empty = Path(tempfile.mkdtemp(prefix="bench-brief-"))  # nothing named is there
    brief_workspace = command("brief", str(path), "--workspace", str(empty))
    timed_process(brief, env)  # writes the bytecode; not timed
    scan = scan_packet(packet)
    print(
        f"texts scanned: {scan.texts:,}, {scan.scanned_bytes / 1e6:.1f} MB; hits: {len(scan.hits)}"
    )
    best = interleaved(
        5,
        {
            "scan": lambda: timed_call(lambda: scan_packet(packet)),
            "validate process": lambda: timed_process(validate, env),
            "brief process": lambda: timed_process(brief, env),
            "brief --json process": lambda: timed_process(brief_json, env),
            "brief --workspace process": lambda: timed_process(brief_workspace, env),
        },
    )
    for name, case in best.items():
        print(f"{name:24} {case.wall:.3f} / {case.cpu:.3f} s")
    v = best["validate process"]
    for name, target in (("scan", SCAN_TARGET), ("brief process", BRIEF_TARGET)):
        case = best[name]
        print(
            f"RATIO {name} / validate process = {case.wall / v.wall:.2f} wall, "
            f"{case.cpu / v.cpu:.2f} CPU  (target < {target:g})"
        )
    planted = planted_copy(path)
    hits = len(scan_packet(planted).hits)
    t = min(timed_call(lambda: scan_packet(planted))[1] for _ in range(3))
    print(f"planted copy: {hits:,} hits (one per {PLANT_EVERY:,} beliefs), scan {t:.3f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
