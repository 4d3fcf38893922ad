"""Benchmark of issue 32: the audit report and a reconciliation of two receipts, at
10,000 and 40,000 beliefs (``--beliefs N`` for another size).

    .venv/bin/python -m tests.perf.bench_audit [--beliefs N]

Receipt A confirms every admitted belief in one step; receipt B confirms them too but
rejects every tenth, with a note. Prints the time of the report (admit the packet,
verify and match the receipt, scan, build the sections, write the page) and its size,
of the comparison (admit, verify and match both, compare every belief, kappa), and of
the reconciled receipt (every belief settled: the agreed ones and the rule "take B").
The best of three runs. Not part of the default test run.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TypeVar

from goldens import generate as g
from tests.core.many_beliefs import admitting, many_beliefs_bytes
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.audit import audit_facts
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.reconcile import reconcile_receipts
from zcf_inspector.core.review.reconcile_choices import parse_choices
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.present.audit_html import html_chunks
from zcf_inspector.present.audit_report import build_report

T = TypeVar("T")


def best(work: Callable[[], T], runs: int = 3) -> tuple[float, T]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    assert result is not None
    return min(times), result


def receipts(count: int) -> tuple[bytes, bytes, bytes]:
    data = many_beliefs_bytes(count)
    dest = admitting(count)
    target = ReviewTarget.from_ingest(ingest_bytes(data, dest))
    made = []
    for reviewer, rejected in (("alice", False), ("bob", True)):
        session = ReviewSession(target)
        requests = [
            DecisionRequest(ref, "rejected", "not so") if rejected and i % 10 == 0
            else DecisionRequest(ref, "confirmed")
            for i, ref in enumerate(target.rows)
        ]  # fmt: skip
        session.apply(session.plan(requests, reviewer, g.NOW))
        made.append(receipt_bytes(session.receipt(g.NOW, dest.signing_key)))
    return data, made[0], made[1]


def bench(count: int) -> None:
    data, a, b = receipts(count)
    dest = admitting(count)

    def report() -> int:
        facts = audit_facts(data, dest, a)
        return sum(len(c.encode()) for c in html_chunks(build_report(facts, "p.json", "a.json")))

    seconds, size = best(report)
    print(f"{count:>7,} beliefs  report {seconds * 1000:8.0f} ms  ({size / 1e6:.1f} MB of HTML)")
    seconds, result = best(lambda: reconcile_receipts(data, dest, a, b))
    assert result.agreement is not None
    print(
        f"{'':>16}compare {seconds * 1000:7.0f} ms  "
        f"(kappa {float(result.agreement.kappa or 0):.4f}, "
        f"{len(result.agreement.disagreements):,} disagreements)"
    )
    choices = parse_choices({"disagreed": "b"})
    seconds, made = best(
        lambda: reconcile_receipts(data, dest, a, b, choices=choices, reconciler="carol")
    )
    assert made.receipt is not None
    print(f"{'':>16}reconciled receipt {seconds * 1000:7.0f} ms")


def main(argv: list[str]) -> int:
    sizes = [int(argv[argv.index("--beliefs") + 1])] if "--beliefs" in argv else [10_000, 40_000]
    for count in sizes:
        bench(count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
