"""Benchmark of issue 20's review evidence at 200,000 beliefs.

    .venv/bin/python -m tests.perf.bench_review_evidence

The 200,000-belief benchmark packet admitted whole: `detail_index` as the review's open
makes it on the runner (the evidence index and the secret scan of every admitted belief
and evidence text), then what one selection costs on the UI thread — the evidence lines
of a belief and the old-beside-new spans of a 16 KiB belief with one word changed.
Not part of the default test run.
"""

from __future__ import annotations

import random
import time

from tests.perf.bench_review_previous import destination
from tests.perf.make_packets import big_packet_path
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import ReviewTarget
from zcf_inspector.present.review_evidence import detail_index, evidence_lines
from zcf_inspector.present.text_changes import text_change


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    target = ReviewTarget.from_ingest(ingest_bytes(big_packet_path().read_bytes(), destination()))
    print(f"{len(target.beliefs):,} admitted beliefs")
    plain = best(3, lambda: detail_index(target.packet))
    scanned = best(3, lambda: detail_index(target.packet, target.beliefs))
    index = detail_index(target.packet, target.beliefs)
    print(f"detail_index without the scan: {plain * 1000:.0f} ms")
    print(
        f"detail_index with the secret scan ({index.secrets.texts:,} texts): "
        f"{scanned * 1000:.0f} ms"
    )
    cited = next(iter(index.anchors), target.beliefs[0].portable_ref)
    lines = best(20, lambda: evidence_lines(index, cited))
    print(f"evidence lines of one belief: {lines * 1e6:.0f} µs")
    words = " ".join(f"word{i}" for i in range(2_000))[:16_384]
    edited = words.replace("word1000 ", "changed ", 1)
    spans = best(5, lambda: text_change(words, edited))
    print(f"old-beside-new spans of a 16 KiB belief: {spans * 1000:.1f} ms")
    rewrite = best(3, lambda: text_change(words, words[::-1]))
    print(f"a 16 KiB belief rewritten whole: {rewrite * 1000:.1f} ms")
    # The matcher's bad cases: repeated tokens (it rescans them), near the token limit.
    vocabulary = [f"w{i}" for i in range(150)]
    rng = random.Random(1)
    one = " ".join(rng.choice(vocabulary) for _ in range(500))
    two = " ".join(rng.choice(vocabulary) for _ in range(500))
    mixed = best(3, lambda: text_change("a" + one, "b" + two))
    print(f"500 random words of 150 a side: {mixed * 1000:.1f} ms")
    alternating = best(3, lambda: text_change("a" + "x y " * 50, "b" + "y x x " * 33))
    print(f"alternating tokens, 200 a side: {alternating * 1000:.1f} ms")


if __name__ == "__main__":
    main()
