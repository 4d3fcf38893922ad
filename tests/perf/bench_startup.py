"""Benchmark of issue 14: how fast the CLI starts, as whole processes.

    .venv/bin/python -m tests.perf.bench_startup [RUNS]

Runs the installed `zcf-inspector` script (as a user would) for `--help` and for
`validate goldens/publication/minimal.json`, RUNS times each (default 21), interleaved with
three references (`python -c pass`, `import pydantic`, and a process that validates one
value against one strict pydantic TypedDict: pydantic's own start-up floor), and prints
the best and the median wall time and CPU time (user + system, from the child's rusage).

Bytecode is enabled, as in a real install: the variable PYTHONDONTWRITEBYTECODE (which
this development environment sets) is removed from the children's environment, and one
untimed run of each command first writes the .pyc files. Target: both commands < 150 ms.

Not part of the default test run (timings belong here, not in tests).
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

from tests.perf.processes import timed_process

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "goldens" / "publication" / "minimal.json"
TARGET_MS = 150.0


def script() -> list[str]:
    """The console script next to this interpreter, as installed by pip."""
    installed = Path(sys.executable).with_name("zcf-inspector")
    if installed.exists():
        return [str(installed)]
    return [sys.executable, "-m", "zcf_inspector"]  # not installed: the module itself


# What any process that validates with pydantic pays before it does anything of its own:
# the import, pydantic's plugin lookup (importlib.metadata) and one strict TypedDict schema.
PYDANTIC_FLOOR = """
from typing_extensions import TypedDict
from pydantic import ConfigDict, TypeAdapter, with_config
@with_config(ConfigDict(strict=True, extra="forbid"))
class Item(TypedDict):
    name: str
TypeAdapter(list[Item]).validate_python([{"name": "x"}])
"""

CASES: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import pydantic'": [sys.executable, "-c", "import pydantic"],
    "pydantic: one TypedDict validated": [sys.executable, "-c", PYDANTIC_FLOOR],
    "zcf-inspector --help": [*script(), "--help"],
    "zcf-inspector validate minimal.json": [*script(), "validate", str(MINIMAL)],
}
CHECKED = ("zcf-inspector --help", "zcf-inspector validate minimal.json")


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYDANTIC_DISABLE_PLUGINS"] = "__all__"  # as the CLI sets it for itself
    return env


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    env = environment()
    for argv in CASES.values():  # writes the bytecode; not timed
        timed_process(argv, env, ROOT)
    walls: dict[str, list[float]] = {name: [] for name in CASES}
    cpus: dict[str, list[float]] = {name: [] for name in CASES}
    # Interleaved: this shared machine's speed drifts, so each case sees the same moments.
    for _ in range(runs):
        for name, argv in CASES.items():
            wall, cpu = timed_process(argv, env, ROOT)
            walls[name].append(wall * 1000)
            cpus[name].append(cpu * 1000)
    print(f"{runs} runs each, bytecode enabled (PYTHONDONTWRITEBYTECODE unset)")
    print(f"{'':38} {'wall best':>9} {'median':>7} {'cpu best':>9} {'median':>7}  (ms)")
    for name in CASES:
        print(
            f"{name:38} {min(walls[name]):9.0f} {statistics.median(walls[name]):7.0f} "
            f"{min(cpus[name]):9.0f} {statistics.median(cpus[name]):7.0f}"
        )
    for name in CHECKED:
        best = min(walls[name])
        verdict = "meets" if best < TARGET_MS else "MISSES"
        print(f"{name}: best wall {best:.0f} ms {verdict} the target (< {TARGET_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
