"""The public continuation examples and schemas, loaded read-only from the shared spec."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tests.conftest import CONTINUATION_SPEC
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.continuation.timestamps import parse_datetime

EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"
SCHEMAS = CONTINUATION_SPEC / "schemas"
# The fixed clock the spec's own checker evaluates the fixture reports at (examples README).
CLOCK_TEXT = "2026-09-26T12:30:00Z"
CLOCK = parse_datetime(CLOCK_TEXT)
ACTIONS = ("await_decision", "reconcile_operation", "model_request", "resume_native")

Json = Any


def session_names() -> list[str]:
    return sorted(p.name.removesuffix(".session.json") for p in EXAMPLES.glob("*.session.json"))


def report_names() -> list[str]:
    return sorted(p.name.removesuffix(".report.json") for p in EXAMPLES.glob("*.report.json"))


def session_of(report_name: str) -> str:
    """The session a report binds: action-specific reports share one capture."""
    for action in ACTIONS:
        suffix = "-" + action
        if report_name.endswith(suffix):
            return report_name.removesuffix(suffix)
    return report_name


@cache
def raw_session(name: str) -> bytes:
    return (EXAMPLES / f"{name}.session.json").read_bytes()


@cache
def raw_report(name: str) -> bytes:
    return (EXAMPLES / f"{name}.report.json").read_bytes()


def session(name: str) -> Json:
    return json.loads(raw_session(name))


def session_with_events(events: list[Json]) -> Json:
    """The another-computer example with ``events`` appended to its one branch (each given
    the next sequence, the agent as actor, no causes and the first event's provenance)."""
    doc = session("another-computer")
    provenance = doc["events"][0]["provenance"]
    base = len(doc["events"])
    for i, event in enumerate(events):
        event.update(sequence=base + i, actor_id="agent", causes=[], provenance=provenance)
    doc["events"] += events
    doc["branches"][0]["event_ids"] += [e["id"] for e in events]
    doc["branches"][0]["head_event_id"] = doc["branches"][0]["event_ids"][-1]
    return doc


def task_chain_session(count: int) -> Json:
    """The another-computer example with ``count`` pending tasks, each depending on the one
    before, and its task coverage claimed complete."""
    doc = session_with_events(
        [
            {
                "id": f"t{i}",
                "kind": "task_update",
                "data": {
                    "task_id": f"task{i}",
                    "revision": 0,
                    "status": "pending",
                    "parts": [],
                    "dependencies": [f"task{i - 1}"] if i else [],
                },
            }
            for i in range(count)
        ]
    )
    for item in doc["coverage"]:
        if item["scope"] == "tasks":
            item["status"] = "complete"
    return doc


def report(name: str) -> Json:
    return json.loads(raw_report(name))


def expected_results() -> dict[str, str]:
    """Case name → outcome, from the spec's own result listing."""
    listing = json.loads((CONTINUATION_SPEC / "tests" / "continuation-results.json").read_text())
    return {r["case"]: r["outcome"] for r in listing["results"]}


def dump(value: Json) -> bytes:
    # The examples' own spelling (SOURCE.txt): indent 2, no ASCII escaping, final newline.
    # A Decimal (case data read exactly, tests/data/asif-0.4/conformance-edges.json) is
    # written as its own literal, so `27.999999999999999999` reaches the checker as is.
    literals: list[str] = []

    def placeholder(number: object) -> str:
        if not isinstance(number, Decimal):
            raise TypeError(f"{type(number).__name__} is not JSON")
        literals.append(str(number))
        return f"\u0000decimal#{len(literals) - 1}\u0000"

    text = json.dumps(value, indent=2, ensure_ascii=False, default=placeholder)
    for index, literal in enumerate(literals):
        text = text.replace(f'"\\u0000decimal#{index}\\u0000"', literal, 1)
    return (text + "\n").encode()


def mutated(value: Json, mutate: Callable[[Json], object]) -> Json:
    out = copy.deepcopy(value)
    mutate(out)
    return out


def rebind(receipt: Json, source: bytes) -> Json:
    """``receipt`` bound to ``source``'s exact bytes (for reports of a mutated session)."""
    out = copy.deepcopy(receipt)
    out["source"]["document_sha256"] = hashlib.sha256(source).hexdigest()
    return out


def inspect(
    source: bytes,
    receipt: bytes | None = None,
    plan_id: str | None = None,
) -> InspectionResult:
    return inspect_continuation(source, now=CLOCK, report=receipt, plan_id=plan_id)


def codes(result: InspectionResult) -> set[str]:
    return {str(f.code) for f in result.all_findings() if f.severity == "error"}


@cache
def _validators() -> dict[str, Draft202012Validator]:
    schemas = {
        n: json.loads((SCHEMAS / f"{n}.schema.json").read_text())
        for n in ("session", "continuation", "continuation-report")
    }
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values()
    )
    return {n: Draft202012Validator(s, registry=registry) for n, s in schemas.items()}


def schema_valid(schema: str, value: Json) -> bool:
    return bool(_validators()[schema].is_valid(value))


def spec_path(*parts: str) -> Path:
    return CONTINUATION_SPEC.joinpath(*parts)
