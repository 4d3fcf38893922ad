"""How the core behaves at its limits (not part of the default test run).

Run: ``.venv/bin/python -m tests.perf.bench_limits`` from the repository root.

Each case goes through the whole pipeline (``inspect_bytes`` for packets,
``inspect_continuation`` for the ASIF session) and prints the wall time, the peak Python
heap during the call (tracemalloc; the input itself is built before measuring) and the
verdict with its first error codes:

1. an oversized file: one byte over the reader's 64 MiB limit;
2. a 10 MB single string (a belief's content) in an otherwise valid packet, re-sealed;
3. nesting at exactly 128 levels (accepted) and at 129 (refused), inside ``extensions``;
4. a 1,000,000-element array of small ints (inside ``extensions``, re-sealed);
5. a 100,000-long ``depends_on`` chain in an ASIF session (a plan selecting all of it),
   after a 10,000-long one to show how the time scales;
6. ASIF histories shaped to make a naive check quadratic: 20,000 checkpoints over a
   20,000-event branch (each checkpoint's open calls are checked against its prefix of
   the branch: one fold serves them all) and a 20,000-update task chain (each update's
   cycle walk reaches every earlier task: the walk is bounded and then refuses).

tracemalloc slows allocation-heavy code, so the time is measured in a second, untraced run.
"""

from __future__ import annotations

import copy
import gc
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from goldens import generate
from tests.conftest import CONTINUATION_SPEC
from tests.core.continuation.spec_examples import session_with_events, task_chain_session
from tests.perf.bench_continuation import dependency as _dependency
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.findings import Severity
from zcf_inspector.core.packet.destination import parse_destination
from zcf_inspector.core.packet.inspection import PacketInspection, inspect_bytes
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

NOW = parse_datetime("2026-09-26T12:30:00Z")
MB = 1024 * 1024


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _packet(mutate: Callable[[dict[str, Any]], None]) -> bytes:
    packet = generate.handoff("limits")
    mutate(packet)
    return _dump(generate.unsigned(packet))


def oversized() -> bytes:
    # A valid packet padded with spaces to one byte over the limit (spaces are JSON).
    base = _packet(lambda p: None)
    return base + b" " * (DEFAULT_MAX_BYTES + 1 - len(base))


def huge_string() -> bytes:
    def put(p: dict[str, Any]) -> None:
        p["content"]["beliefs"] = [generate.belief("b-huge", "x" * (10 * 1000 * 1000))]

    return _packet(put)


def nested(depth: int) -> bytes:
    # extensions sits at level 2 (inside the top-level object): depth - 1 more levels.
    def put(p: dict[str, Any]) -> None:
        value: Any = []
        for _ in range(depth - 3):
            value = [value]
        p["extensions"] = {"deep": value}

    return _packet(put)


def million_ints() -> bytes:
    def put(p: dict[str, Any]) -> None:
        p["extensions"] = {"ints": [i % 1000 for i in range(1_000_000)]}

    return _packet(put)


def chain_session(length: int) -> bytes:
    example = CONTINUATION_SPEC / "examples" / "continuation" / "another-computer.session.json"
    session: dict[str, Any] = json.loads(example.read_text())
    profile = session["continuation"]
    ids = [f"c{i}" for i in range(length)]
    profile["dependencies"] = [
        _dependency(ident, [ids[i + 1]] if i + 1 < length else []) for i, ident in enumerate(ids)
    ]
    plan = copy.deepcopy(profile["plans"][0])
    plan["dependency_ids"] = ids
    plan["next_action"] = {"kind": "model_request"}
    profile["plans"] = [plan]
    return _dump(session)


def many_checkpoints(count: int) -> bytes:
    events = [
        {"id": f"m{i}", "kind": "note", "data": {"parts": [], "category": "bench"}}
        for i in range(count)
    ]
    session = session_with_events(events)
    head = session["checkpoints"][0]
    extra = [
        dict(copy.deepcopy(head), id=f"cp{i}", at_event_id=f"m{i}", context_id=None)
        for i in range(count - 1)
    ]
    session["checkpoints"] += extra
    return _dump(session)


def task_chain(count: int) -> bytes:
    return _dump(task_chain_session(count))


@dataclass(frozen=True)
class Measure:
    name: str
    size: int
    seconds: float
    peak: int
    verdict: str


def _verdict(result: object) -> str:
    if isinstance(result, PacketInspection):
        errors = [f for f in result.findings if f.severity is Severity.ERROR]
        codes = sorted({str(f.code) for f in errors})
        failed = next((s.stage for s in result.stages if s.status == "failed"), None)
        if result.valid:
            return "valid (" + ", ".join(f"{s.stage}={s.status}" for s in result.stages) + ")"
        return f"refused at {failed}: {', '.join(codes)}"
    assert isinstance(result, InspectionResult)
    errors = [f for f in result.all_findings() if f.severity is Severity.ERROR]
    plans = ", ".join(
        f"plan {p.id}: {len(p.nodes)} nodes, closure {len(p.closure.dependencies)}"
        for p in result.plans
    )
    codes = sorted({str(f.code) for f in errors})
    return f"{'ok' if result.ok else 'errors: ' + ', '.join(codes)}; {plans}"


def measure(name: str, data: bytes, run: Callable[[bytes], object]) -> Measure:
    gc.collect()
    tracemalloc.start()
    result = run(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    gc.collect()
    start = time.perf_counter()
    result = run(data)
    seconds = time.perf_counter() - start
    return Measure(name, len(data), seconds, peak, _verdict(result))


def main() -> int:
    destination = parse_destination({**generate.DESTINATION, "maxBeliefBytes": 16_384})

    def packet(data: bytes) -> object:
        return inspect_bytes(data, destination)

    def session(data: bytes) -> object:
        return inspect_continuation(data, now=NOW)

    cases: list[tuple[str, Callable[[], bytes], Callable[[bytes], object]]] = [
        ("oversized file (64 MiB + 1 byte)", oversized, packet),
        ("10 MB single string (belief content)", huge_string, packet),
        ("nesting 128 deep", lambda: nested(128), packet),
        ("nesting 129 deep", lambda: nested(129), packet),
        ("1,000,000-element array of small ints", million_ints, packet),
        ("10,000-long depends_on chain (ASIF, scale)", lambda: chain_session(10_000), session),
        ("100,000-long depends_on chain (ASIF)", lambda: chain_session(100_000), session),
        ("20,000 checkpoints on a 20,000-event branch", lambda: many_checkpoints(20_000), session),
        ("20,000-update task dependency chain", lambda: task_chain(20_000), session),
    ]
    print(f"{'case':42} {'bytes':>12} {'time':>9} {'peak heap':>11}  result")
    for name, make, run in cases:
        data = make()
        m = measure(name, data, run)
        print(f"{m.name:42} {m.size:>12,} {m.seconds:>8.2f}s {m.peak / MB:>9.1f}MB  {m.verdict}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
