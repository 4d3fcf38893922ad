"""Benchmark of ASIF packages (not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_package`` from the repository root.

The tool-generated-files example grown to the member limit (1,020 more file resources of
64 KiB: 1,024 members, 64 MiB) and to the byte limits (three 60 MiB resources: 180 MiB)
is built in memory and read back: `inspect_package` (container, inventory, closure, the
session's core rules) must take time in proportion to the bytes — under 0.1 s per 10 MiB
of members on a quiet machine, the SHA-256 and CRC-32 of every byte being most of it.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from tests.core.package.cases import EXAMPLES, NOW
from zcf_inspector.core.package.verify import inspect_package
from zcf_inspector.core.package.writer import package_bytes

SECONDS_PER_10_MIB = 0.1


def grown(count: int, size: int) -> tuple[bytes, dict[str, bytes]]:
    source = EXAMPLES / "tool-generated-files.session.json"
    session: dict[str, Any] = json.loads(source.read_bytes())
    template = session["resources"][1]
    files = {
        name: (EXAMPLES / name).read_bytes() for name in ("assets/summary.md", "assets/totals.csv")
    }
    for i in range(count):
        data = i.to_bytes(4, "big") * (size // 4)
        resource = copy.deepcopy(template)
        resource.update(
            id=f"bench-{i}",
            path=f"bench/{i:04d}.bin",
            name=f"{i:04d}.bin",
            bytes=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
        )
        session["resources"].append(resource)
        files[resource["path"]] = data
    return (json.dumps(session, indent=2) + "\n").encode(), files


def timed(label: str, work: Callable[[], object], megabytes: float) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    budget = SECONDS_PER_10_MIB * megabytes / 10
    verdict = "ok" if best <= budget else "OVER"
    print(f"{label}: {best * 1000:.0f} ms (budget {budget * 1000:.0f} ms) {verdict}")
    return best


def main() -> None:
    for count, size in ((1020, 64 * 1024), (3, 60 * 1024 * 1024)):
        session, files = grown(count, size)
        raw = package_bytes(session, files, now=NOW)
        mib = len(raw) / (1024 * 1024)
        label = f"{count + 4} members, {mib:.0f} MiB"
        timed(f"build   {label}", functools.partial(package_bytes, session, files, now=NOW), mib)
        result = inspect_package(raw, now=NOW)
        assert result.ok, result.first_problem()
        timed(f"inspect {label}", functools.partial(inspect_package, raw, now=NOW), mib)


if __name__ == "__main__":
    main()
