"""Hostile input at scale (issue 15; not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_hostile`` from the repository root
(``--quick`` stops at 12 MB; ``--cases empty-beliefs,halves`` picks cases).

Each case of the hostile corpus (tests/hostile/corpus.py) is made at 3 MB, 12 MB and just
under the 64 MiB packet limit and run through the CLI in a fresh process: wall time, peak
resident memory of that process (``wait4``) and the size of what it printed. The point is
the shape of the curves: time and memory grow in proportion to the input, and the output
does not grow at all once the findings budget is spent.

The worst case of issue 15 is ``empty-beliefs`` (``"beliefs": [{}, {}, ...]``: three
findings per three bytes); ``halves`` (``[0.5, 0.5, ...]``) is canonicalize's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.hostile.corpus import by_name
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

MB = 1024 * 1024
SIZES = (3 * MB, 12 * MB, DEFAULT_MAX_BYTES - 1024)
COMMANDS = {
    "empty-beliefs": ["validate"],
    "every-section": ["validate"],
    "numbers-as-ids": ["validate"],
    "tiny-strings": ["validate"],
    "unknown-keys": ["validate"],
    "listed-sections": ["validate"],
    "empty-plans": ["plan"],
    "dependency-cycles": ["plan"],
    "empty-decisions": ["receipt", "verify"],
    "halves": ["canonicalize"],
}


@dataclass(frozen=True)
class Run:
    case: str
    size: int
    seconds: float
    peak_rss: int
    output: int
    code: int


# A small process runs the command and reports its peak RSS: Linux carries a process's
# peak across fork and exec, so a child of this (large) process would report ours.
_RUNNER = """
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    code = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)
"""


def measure(case: str, path: Path) -> Run:
    command = [sys.executable, "-m", "zcf_inspector", *COMMANDS[case], str(path)]
    with tempfile.NamedTemporaryFile() as out:
        start = time.perf_counter()
        report = subprocess.run(
            [sys.executable, "-c", _RUNNER, out.name, *command],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        seconds = time.perf_counter() - start
        printed = Path(out.name).stat().st_size
    peak_kb, code = int(report[0]), int(report[1])  # ru_maxrss is in kilobytes on Linux
    return Run(case, path.stat().st_size, seconds, peak_kb * 1024, printed, code)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="3 MB and 12 MB only")
    parser.add_argument("--cases", default=",".join(COMMANDS), help="comma-separated")
    args = parser.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    print(f"{'case':<18}{'input':>10}{'time':>9}{'peak RSS':>11}{'x input':>8}{'output':>10}  exit")
    with tempfile.TemporaryDirectory() as folder:
        for case in args.cases.split(","):
            for size in sizes:
                path = Path(folder) / f"{case}.json"
                path.write_bytes(by_name(case).build(size))
                run = measure(case, path)
                path.unlink()
                print(
                    f"{case:<18}{run.size / MB:>8.1f}MB{run.seconds:>8.1f}s"
                    f"{run.peak_rss / MB:>9.0f}MB{run.peak_rss / run.size:>8.1f}"
                    f"{run.output / 1024:>8.0f}KB  {run.code}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
