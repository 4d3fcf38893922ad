"""What the benchmarks measure of a child process: its wall and CPU time, its peak memory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

# VmHWM is the process's own high-water mark; ru_maxrss would include the parent's, since
# Linux keeps it across fork and exec.
_HWM = """
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
base = hwm()
"""


def timed_process(
    argv: list[str], env: dict[str, str], cwd: Path | None = None
) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run, which must succeed."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{argv} exited with {code}")
    return wall, usage.ru_utime + usage.ru_stime


def peak_rss(imports: str, work: str, *args: str) -> tuple[int, int]:
    """(bytes resident once ``imports`` ran, peak bytes) of a fresh interpreter that runs
    the Python source ``imports`` then ``work``, with ``sys.argv[1:]`` = ``args``."""
    script = f"import sys\n{imports}\n{_HWM}\n{work}\nprint(base, hwm())\n"
    out = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
    )
    base, peak = (int(x) for x in out.stdout.split())
    return base, peak
