"""Benchmark of issue 30: the hostile-text scan (`core.hostile`) is linear in the input.

    .venv/bin/python -m tests.perf.bench_hostile_text [--quick]

In process, on packets of 25,000 to 200,000 beliefs (about 6 to 50 MB), four shapes:
``ascii`` (plain ASCII: orjson's pass alone decides), ``accents`` (French with accents
and typographic quotes: every string looked at, nothing found), ``every-override``
(each belief's content holds a U+202E: a warning per belief, the first 10,000 kept) and
``lookalikes`` (each portableRef differs from another only by a Cyrillic letter: a
confusable pair per belief, the first 1,000 kept). Prints the best of three runs per
size, its time per MB, and the ratio to the smallest size's per-MB time (1.0: linear).

Not part of the default test run (timings belong here, not in tests).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from goldens import generate as g
from zcf_inspector.core.hostile.scan import scan_packet

SIZES = (25_000, 50_000, 100_000, 200_000)
QUICK_SIZES = (25_000, 50_000)
BODY = "Evidence-backed note about the parser, the manifest and the receipt path; " * 2


def _packet(count: int, belief: Callable[[int], dict[str, str]]) -> dict[str, Any]:
    packet = g.handoff("bench-hostile")
    packet["content"]["beliefs"] = [belief(i) for i in range(count)]
    return packet


def ascii_belief(i: int) -> dict[str, str]:
    return {"portableRef": f"b-{i:06d}", "sourceId": f"mem-{i:06d}", "content": f"{i} {BODY}"}


def accents_belief(i: int) -> dict[str, str]:
    text = f"{i} « Ça coûte déjà 12 € — naïve façade, évidemment » {BODY}"
    return {"portableRef": f"b-{i:06d}", "sourceId": f"mem-{i:06d}", "content": text}


def override_belief(i: int) -> dict[str, str]:
    text = f"{i} pay \u202egnp.exe {BODY}"
    return {"portableRef": f"b-{i:06d}", "sourceId": f"mem-{i:06d}", "content": text}


def lookalike_belief(i: int) -> dict[str, str]:
    ref = f"b-{i // 2:06d}-acme" if i % 2 == 0 else f"b-{i // 2:06d}-\u0430cme"
    return {"portableRef": ref, "sourceId": f"mem-{i:06d}", "content": f"{i} {BODY}"}


SHAPES = {
    "ascii": ascii_belief,
    "accents": accents_belief,
    "every-override": override_belief,
    "lookalikes": lookalike_belief,
}


def best_of(runs: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    sizes = QUICK_SIZES if "--quick" in sys.argv else SIZES
    print(f"{'shape':<16}{'beliefs':>9}{'MB':>7}{'seconds':>9}{'ms/MB':>8}{'ratio':>7}  warnings")
    for name, belief in SHAPES.items():
        first: float | None = None
        for count in sizes:
            packet = _packet(count, belief)
            megabytes = len(json.dumps(packet, ensure_ascii=False).encode()) / 1e6
            seconds = best_of(3, lambda p=packet: scan_packet(p))  # type: ignore[misc]
            per_mb = seconds * 1000 / megabytes
            first = first or per_mb
            scan = scan_packet(packet)
            print(
                f"{name:<16}{count:>9,}{megabytes:>7.1f}{seconds:>9.3f}{per_mb:>8.1f}"
                f"{per_mb / first:>7.2f}  {scan.count:,}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
