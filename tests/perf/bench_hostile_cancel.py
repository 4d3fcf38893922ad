"""How soon Cancel stops the reading and checking of a hostile packet (issue 19; not part
of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_hostile_cancel`` from the repository root
(``--size MIB``, default just under the 64 MiB limit; ``--cases`` picks shapes).

Each shape is inspected (`inspect_bytes`, what `validate` and the window run) on a worker
thread with a `Monitor`; the main thread cancels it after a delay, for delays spread over
the whole run (the strict read, the structure and its pydantic validation, the hashing),
and measures how long the worker takes from ``cancel()`` to the check that raises
`Cancelled` (*stopped*: the target is 0.2 s at every delay) and to its end (*ended*:
unwinding frees what the work had built, which on a bomb is millions of objects).
``diff`` (`compare`) is measured the same way.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
import time
from collections.abc import Callable

from tests.hostile.corpus import by_name
from zcf_inspector.core.compare.packets import compare
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

MB = 1024 * 1024
CASES = ("empty-beliefs", "every-section", "numbers-as-ids", "tiny-strings", "unknown-keys")


class _Stamped(Monitor):
    """Notes when a check first raises `Cancelled`: the work stopped there; what follows
    is unwinding, which frees what the work had built (22 million objects at 64 MiB)."""

    stopped = 0.0

    def breathe(self) -> None:
        if self.cancelled and not self.stopped:
            self.stopped = time.perf_counter()
        super().breathe()


def latency(work: Callable[[Monitor], object], delay: float) -> tuple[float, float, bool]:
    """(seconds from cancel() to the check that raised, to the worker's end, whether it
    ended in `Cancelled`)."""
    monitor = _Stamped()
    outcome: list[bool] = []

    def run() -> None:
        try:
            work(monitor)
        except Cancelled:
            outcome.append(True)
        else:
            outcome.append(False)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(delay)
    start = time.perf_counter()
    monitor.cancel()
    worker.join()
    ended = time.perf_counter() - start
    stopped = monitor.stopped - start if monitor.stopped else ended
    return stopped, ended, bool(outcome and outcome[0])


def _inspect(data: bytes, monitor: Monitor) -> object:
    return inspect_bytes(data, monitor=monitor)


def _compare(data: bytes, monitor: Monitor) -> object:
    return compare(data, data, monitor=monitor)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--size", type=float, default=(DEFAULT_MAX_BYTES - 1024) / MB)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--diff", action="store_true", help="also diff each shape with itself")
    parser.add_argument("--delays", type=int, default=10, help="cancels spread over a run")
    args = parser.parse_args()
    size = int(args.size * MB)
    print(
        f"{'case':<18}{'input':>9}{'whole run':>11}{'stopped':>9}{'median':>8}{'ended':>8}"
        "  delay:stopped/ended"
    )
    for case in args.cases.split(","):
        data = by_name(case).build(size)
        works: list[tuple[str, Callable[[Monitor], object]]] = [
            (case, functools.partial(_inspect, data))
        ]
        if args.diff:
            works.append((f"diff {case}", functools.partial(_compare, data)))
        for name, work in works:
            start = time.perf_counter()
            work(Monitor())
            whole = time.perf_counter() - start
            # Spread over the first 90% of an undisturbed run (later ones may finish first).
            delays = [whole * 0.9 * k / args.delays for k in range(args.delays)]
            found = [latency(work, delay) for delay in delays]
            cancelled = [(stop, end) for stop, end, was in found if was]
            if len(cancelled) < len(found):
                finished = len(found) - len(cancelled)
                print(f"{name}: {finished} run(s) finished first", file=sys.stderr)
            stops = sorted(stop for stop, _ in cancelled) or [0.0]
            ends = sorted(end for _, end in cancelled) or [0.0]
            print(
                f"{name:<18}{len(data) / MB:>7.1f}MB{whole:>10.1f}s{stops[-1]:>8.3f}s"
                f"{stops[len(stops) // 2]:>7.3f}s{ends[-1]:>7.2f}s  "
                + " ".join(
                    f"{d:.1f}:{s:.2f}/{e:.2f}" for d, (s, e, _) in zip(delays, found, strict=True)
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
