"""Benchmark of issue 2: `validate` and canonicalization on a 50 MB, 200,000-belief packet.

    .venv/bin/python -m tests.perf.bench_validate

Prints each ratio. Not part of the default test run (timings belong here, not in tests).
Needs the test extras (scripts/setup.sh installs them): orjson, rfc8785.
"""

from __future__ import annotations

import gc
import hashlib
import subprocess
import sys
import time
from collections.abc import Callable

import orjson
import rfc8785

from tests.perf.make_packets import big_packet_path
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.packet.inspection import inspect_bytes
from zcf_inspector.core.reading import read_json


def best_of(runs: int, func: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


# VmHWM is the process's own high-water mark; ru_maxrss would include the parent's,
# since Linux keeps it across fork and exec.
PEAK_SCRIPT = """
import sys
from zcf_inspector.core.packet.inspection import inspect_bytes
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
base = hwm()
data = open(sys.argv[1], "rb").read()
report = inspect_bytes(data)
assert report.valid, report.findings[:3]
print(base, hwm())
"""


def main() -> int:
    path = big_packet_path()
    data = path.read_bytes()
    size = len(data)
    print(f"packet: {path.name}, {size / 1e6:.1f} MB")

    def floor() -> None:
        value = orjson.loads(data)
        orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        hashlib.sha256(data).digest()

    def validate() -> None:
        report = inspect_bytes(data)
        assert report.valid

    # Interleaved, best of 7 each: this machine's speed drifts between runs (a shared VM),
    # and the ratio should compare the two at the same moments.
    t_floor = t_validate = float("inf")
    for _ in range(7):
        t_floor = min(t_floor, best_of(1, floor))
        t_validate = min(t_validate, best_of(1, validate))
    print(f"floor (orjson loads + sorted dumps + sha256): {t_floor:.3f} s")
    print(f"validate (read, structure, manifest, auth):   {t_validate:.3f} s")
    print(f"RATIO validate / floor = {t_validate / t_floor:.2f}  (target <= 3)")

    value = read_json(data)
    ours = canonical(value)
    theirs = rfc8785.dumps(value)
    print(f"canonical byte-identical to rfc8785: {ours == theirs}")
    t_ours = best_of(3, lambda: canonical(value))
    t_theirs = best_of(1, lambda: rfc8785.dumps(value))
    print(f"canonical: {t_ours:.3f} s   rfc8785: {t_theirs:.3f} s")
    print(f"RATIO rfc8785 / canonical = {t_theirs / t_ours:.1f}  (target >= 10)")

    out = subprocess.run(
        [sys.executable, "-c", PEAK_SCRIPT, str(path)], capture_output=True, text=True, check=True
    )
    base, peak = (int(x) for x in out.stdout.split())
    print(
        f"peak RSS of a validate process: {peak / 1e6:.0f} MB "
        f"(interpreter alone {base / 1e6:.0f} MB)"
    )
    print(f"RATIO peak memory / packet size = {peak / size:.2f}  (target < 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
