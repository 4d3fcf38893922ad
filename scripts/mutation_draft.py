"""The pieces every mutation family of `reference_mutations.py` writes with: the public
example pairs, a `Draft` (the operations so far, with helpers to pick and restate), and the
finished `Mutation`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.core.continuation.spec_examples import report, session
from tests.core.continuation.upstream_cases import apply_patch, materialise

Json = Any
STATUSES = ("supported", "adapted", "omitted", "unresolved", "unsupported")
BLOCKING = ("omitted", "unresolved", "unsupported")
PAIRS = [
    ("another-computer", "another-computer"),
    ("another-agent", "another-agent"),
    ("pending-remote-operation", "pending-remote-operation"),
    ("action-specific", "action-specific"),
    ("action-specific", "action-specific-await_decision"),
    ("action-specific", "action-specific-reconcile_operation"),
    ("action-specific", "action-specific-model_request"),
    ("action-specific", "action-specific-resume_native"),
]


@dataclass(frozen=True)
class Mutation:
    family: str
    label: str
    session: str
    session_patch: tuple[Json, ...]
    report: str | None
    report_patch: tuple[Json, ...]

    def materialise(self) -> tuple[bytes, bytes | None]:
        return materialise(self.session, self.session_patch, self.report, self.report_patch)


@dataclass
class Draft:
    """One mutation being written: the fixture pair and the operations so far."""

    rng: random.Random
    session_name: str
    report_name: str | None
    s_ops: list[Json] = field(default_factory=list)
    r_ops: list[Json] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def doc(self) -> Json:
        return apply_patch(session(self.session_name), self.s_ops)

    @property
    def rep(self) -> Json:
        assert self.report_name is not None
        return apply_patch(report(self.report_name), self.r_ops)

    def s(self, op: str, path: str, value: Json = None, note: str = "") -> None:
        self.s_ops.append(_op(op, path, value))
        self.notes.append(note or f"session {op} {path}")

    def r(self, op: str, path: str, value: Json = None, note: str = "") -> None:
        self.r_ops.append(_op(op, path, value))
        self.notes.append(note or f"report {op} {path}={_short(value)}")

    def pick(self, items: list[Json]) -> Json:
        return self.rng.choice(items)

    def assessment(
        self, kind: str | None = None, pred: Callable[[Json], bool] | None = None
    ) -> int | None:
        found = [
            i
            for i, a in enumerate(self.rep["assessments"])
            if (kind is None or a["subject"]["kind"] == kind) and (pred is None or pred(a))
        ]
        return self.rng.choice(found) if found else None

    def status(self, index: int, status: str | None = None) -> None:
        self.r("replace", f"/assessments/{index}/status", status or self.pick(list(STATUSES)))

    def settle(self) -> None:
        """Restate outcome and blocking reasons from the assessments (half of the time)."""
        if self.report_name is None or self.rng.random() < 0.5:
            return
        rep = self.rep
        required = [a for a in rep["assessments"] if a["required"]]
        blocking = [a for a in required if a["status"] in BLOCKING]
        keys = {_key(a["subject"]) for a in required}
        pending = any(
            _key(t["subject"]) in keys and not t["accepted"] for t in rep["transformations"]
        )
        outcome = "blocked" if blocking else "adaptation_required" if pending else "ready"
        reasons = [
            {"subject": a["subject"], "reason": "Recomputed by the mutation."} for a in blocking
        ]
        self.r("replace", "/outcome", outcome, note=f"outcome restated as {outcome}")
        self.r("replace", "/blocking_reasons", reasons, note="blocking reasons restated")
        # Adapted subjects need a mapping; give one to any left without.
        mapped = {_key(t["subject"]) for t in rep["transformations"]}
        for a in rep["assessments"]:
            if a["status"] == "adapted" and _key(a["subject"]) not in mapped:
                self.r(
                    "add",
                    "/transformations/-",
                    {
                        "id": "mut-" + a["subject"]["id"],
                        "subject": a["subject"],
                        "target": "mutated",
                        "rule": "Mutation mapping.",
                        "losses": ["mutation"],
                        "accepted": self.rng.random() < 0.5,
                        "evidence_ids": [rep["evidence"][0]["id"]],
                    },
                    note="mapping added",
                )


def _op(op: str, path: str, value: Json) -> Json:
    return {"op": op, "path": path} if op == "remove" else {"op": op, "path": path, "value": value}


def _key(subject: Json) -> tuple[str, str | None, str]:
    return (subject["kind"], subject.get("owner_id"), subject["id"])


def _short(value: Json) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _index(items: list[Json], pred: Callable[[Json], bool]) -> int:
    return next(i for i, x in enumerate(items) if pred(x))
