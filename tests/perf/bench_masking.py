"""Benchmark of issue 34, point 1: the cost of the one masking step on `diff`'s output.

    .venv/bin/python -m tests.perf.bench_masking [BELIEFS]

Two packets of BELIEFS beliefs (default 20,000; about 2.3 MB each) whose every belief's
content differs, so `diff` lists as many changes as its budget allows. Prints the best of
5 rounds of CPU time (this machine is shared) for, in-process: the comparison itself (the
floor), the text output (`cli.diff.write_text`: every quoted text masked, one scan first
by `masking.prime`), the JSON output's masking (`masking.mask_json` of `--json`'s value),
and the text output with every mask_text call a scan of its own (the cost `prime` saves).

Not part of the default test run (timings belong here, not in tests).
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable

from goldens import generate as g
from tests.core.helpers import to_bytes
from zcf_inspector.cli import diff
from zcf_inspector.cli.diff import _shown_as_is, write_text
from zcf_inspector.core.compare.model import Comparison
from zcf_inspector.core.compare.packets import budget_for, compare_inspections
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.secrets import masking

ROUNDS = 5


def packet(count: int, tag: str) -> bytes:
    value = g.handoff("bench-masking")
    value["content"]["beliefs"] = [
        {"portableRef": f"b-{i:06d}", "sourceId": f"m-{i}", "content": f"{tag} belief {i}"}
        for i in range(count)
    ]
    return to_bytes(g.unsigned(value))


def best_cpu(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        masking._CACHE.clear()
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    a, b = packet(count, "old"), packet(count, "new")
    first, second = inspect_bytes(a), inspect_bytes(b)
    budget = budget_for(len(a), len(b))
    result: Comparison = compare_inspections(first, second, budget=budget)
    out = result.to_json("a", "b")
    listed = len(result.changes)

    def unprimed() -> None:
        prime = getattr(diff, "prime")  # noqa: B009 - the name diff imported, replaced a while
        setattr(diff, "prime", lambda texts: None)  # noqa: B010
        try:
            write_text(result, "a", "b", io.StringIO())
        finally:
            setattr(diff, "prime", prime)  # noqa: B010

    figures = {
        "compare (floor)": best_cpu(lambda: compare_inspections(first, second, budget=budget)),
        "text output, masked": best_cpu(lambda: write_text(result, "a", "b", io.StringIO())),
        "--json value masked": best_cpu(
            lambda: masking.mask_json(out, keep=lambda p: _shown_as_is(result, p))
        ),
        "text output, a scan per text": best_cpu(unprimed),
    }
    print(f"{count:,} beliefs, {len(a):,} + {len(b):,} bytes, {listed:,} changes listed")
    for name, cpu in figures.items():
        print(f"  {name:<30} {cpu:6.2f} s CPU")


if __name__ == "__main__":
    main()
