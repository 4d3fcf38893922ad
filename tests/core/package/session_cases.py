"""Core-session mutations (issue 33, item 5): the reference's validate_document and our
core rules must agree on each (`scripts/compare_package_reference.py`); the session is
read with the examples' files given as bytes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from tests.core.package.cases import BASE, EXAMPLES


@dataclass(frozen=True)
class SessionCase:
    name: str
    session: str  # an example's name
    mutate: Callable[[dict[str, object]], object]
    code: str | None  # the PlanCode our core rules give first (None: accepted)


def _set(path: tuple[object, ...], value: object) -> Callable[[dict[str, object]], object]:
    def change(doc: dict[str, object]) -> None:
        target: object = doc
        for step in path[:-1]:
            target = target[step]  # type: ignore[index]
        target[path[-1]] = value  # type: ignore[index]

    return change


SESSION_CASES: list[SessionCase] = [
    SessionCase("unchanged", BASE, lambda d: None, None),
    SessionCase(
        "corrupt-digest", BASE, _set(("resources", 1, "sha256"), "0" * 64), "resource_integrity"
    ),
    SessionCase("wrong-byte-count", BASE, _set(("resources", 1, "bytes"), 0), "resource_integrity"),
    SessionCase(
        "inline-digest", BASE, _set(("resources", 0, "sha256"), "0" * 64), "resource_integrity"
    ),
    SessionCase(
        "missing-reference",
        BASE,
        _set(("events", 2, "data", "parts", 0, "resource_id"), "absent"),
        "dangling_reference",
    ),
    SessionCase(
        "path-traversal", BASE, _set(("resources", 1, "path"), "../SPEC.md"), "unsafe_path"
    ),
    SessionCase(
        "missing-file",
        BASE,
        _set(("resources", 1, "path"), "assets/absent.csv"),
        "resource_integrity",
    ),
    SessionCase(
        "wrong-branch-head",
        BASE,
        _set(("branches", 0, "head_event_id"), "e1"),
        "event_order_invalid",
    ),
    SessionCase(
        "missing-actor", BASE, _set(("events", 0, "actor_id"), "nobody"), "dangling_reference"
    ),
    SessionCase(
        "duplicate-sequence",
        BASE,
        lambda d: d["events"][1].update(sequence=d["events"][0]["sequence"]),  # type: ignore[index]
        "event_order_invalid",
    ),
    SessionCase(
        "checkpoint-boundary",
        BASE,
        _set(("checkpoints", 0, "at_event_id"), "e9"),
        "dangling_reference",
    ),
    SessionCase(
        "missing-tool",
        BASE,
        _set(("events", 1, "data", "tool_id"), "no-such-tool"),
        "dangling_reference",
    ),
]


def session_bytes(case: SessionCase) -> bytes:
    doc = json.loads((EXAMPLES / f"{case.session}.session.json").read_bytes())
    case.mutate(doc)
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()


def example_files() -> dict[str, bytes]:
    """Every asset of the examples, by the path a session names it with."""
    return {f"assets/{p.name}": p.read_bytes() for p in sorted((EXAMPLES / "assets").iterdir())}
