"""Benchmark of the ASIF 0.5 snapshot contract (not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_snapshot`` from the repository root.

The another-computer 0.5 report with its embedded snapshot grown to just under the
format's 1 MiB limit (the example's components plus unreferenced dependency components
— "it need not disclose unrelated installed software", but may) is checked against its
session: the whole `plan` pipeline from bytes must take under 0.5 s. The snapshot checks
alone, and the comparison with a changed current snapshot, are timed too.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.core.continuation.upstream_cases_05 import (
    raw_capabilities,
    raw_report,
    raw_session,
    supply,
)
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES, DestinationReport03
from zcf_inspector.core.continuation.rules.snapshot_bindings import PlanView
from zcf_inspector.core.continuation.rules.snapshot_check import check_snapshot
from zcf_inspector.core.continuation.timestamps import parse_datetime

BUDGET_SECONDS = 0.5
NOW = parse_datetime("2026-09-26T12:30:00Z")


def big_snapshot() -> bytes:
    snapshot: dict[str, Any] = json.loads(raw_capabilities("another-computer"))
    extra: list[dict[str, Any]] = snapshot["components"]
    i = 0
    while True:
        extra.append(
            {
                "id": f"unrelated-{i}",
                "kind": "dependency",
                "identity": f"bench.unrelated.{i}",
                "version": "1",
                "revision": f"rev-{i:08d}",
                "status": "available",
            }
        )
        i += 1
        if i % 500 == 0:
            raw = (json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n").encode()
            if len(raw) > MAX_SNAPSHOT_BYTES - 60_000:
                break
    while len(raw) > MAX_SNAPSHOT_BYTES:  # pragma: no cover - the step above stays under
        extra.pop()
        raw = (json.dumps(snapshot, indent=2, ensure_ascii=False) + "\n").encode()
    return raw


def timed(label: str, work: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    print(f"{label}: {best * 1000:.1f} ms (best of {runs})")
    return best


def main() -> int:
    snapshot = big_snapshot()
    receipt = json.loads(raw_report("another-computer"))
    supply(receipt, snapshot)
    report = json.dumps(receipt, indent=2).encode()
    session = raw_session("another-computer")
    print(
        f"snapshot: {len(snapshot):,} bytes ({MAX_SNAPSHOT_BYTES:,} allowed), "
        f"{len(json.loads(snapshot)['components']):,} components; report {len(report):,} bytes"
    )
    changed = snapshot.replace(b'"rev-00000007"', b'"rev-changed"', 1)

    def whole() -> None:
        result = inspect_continuation(session, now=NOW, report=report)
        assert result.ok, [f.to_json() for f in result.all_findings()][:3]
        assert result.report is not None
        assert result.report.snapshot is not None
        assert result.report.snapshot.state == "verified"

    model = DestinationReport03.model_validate(receipt)
    view = PlanView(("text",), ("text/plain",), "resume_native", None)
    best = timed("session + 1 MiB-snapshot report, from bytes (all checks)", whole)
    timed(
        "snapshot checks alone (bytes, object, bindings)",
        lambda: check_snapshot(model, view, NOW, None),
    )
    timed(
        "with a changed current snapshot (compare + describe)",
        lambda: inspect_continuation(session, now=NOW, report=report, current_capabilities=changed),
    )
    ok = best < BUDGET_SECONDS
    print(f"{'OK' if ok else 'TOO SLOW'}: {best:.3f} s against a budget of {BUDGET_SECONDS} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
