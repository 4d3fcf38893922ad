"""The upstream ASIF 0.4 checks as data (`tests/data/asif-0.4/upstream-checks.json`).

Each case names a public example, the JSON Patch operations that make the case from it
and the verdict `plan` must give. This module turns a case into the exact bytes to check
(a patched session is re-serialised and its report rebound to those bytes) and tells
what `plan` said about them, so the parametrized test and the developer script
`scripts/compare_reference.py` share one reading of the data.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from tests.conftest import CONTINUATION_SPEC
from tests.core.continuation.spec_examples import CLOCK, dump, raw_report, raw_session
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.pointer import split

Json = Any
CHECKS = CONTINUATION_SPEC / "upstream-checks.json"
FAMILIES = CONTINUATION_SPEC / "family-mutations.json"
DIFFERENCES = CONTINUATION_SPEC / "deliberate-differences.json"
# The conformance edges of issue 23 (exact numbers, report times, §10a requirement edges),
# each with the verdict the text gives.
EDGES = CONTINUATION_SPEC / "conformance-edges.json"


class PatchError(ValueError):
    """A patch operation that does not apply to the document it names."""


def _parent(document: Json, path: str) -> tuple[Json, str]:
    tokens = split(path)
    if not tokens:
        raise PatchError("a patch never replaces the whole document")
    target = document
    for token in tokens[:-1]:
        target = target[int(token)] if isinstance(target, list) else target[token]
    return target, tokens[-1]


def apply_patch(document: Json, operations: list[Json]) -> Json:
    """``document`` changed by RFC 6902 ``add``/``remove``/``replace`` operations (a copy)."""
    out = copy.deepcopy(document)
    for op in operations:
        parent, last = _parent(out, op["path"])
        kind = op["op"]
        if isinstance(parent, list):
            if kind == "add":
                index = len(parent) if last == "-" else int(last)
                if not 0 <= index <= len(parent):
                    raise PatchError(f"{op['path']}: index out of range")
                parent.insert(index, copy.deepcopy(op["value"]))
                continue
            index = int(last)
            if not 0 <= index < len(parent):
                raise PatchError(f"{op['path']}: index out of range")
            if kind == "remove":
                del parent[index]
            elif kind == "replace":
                parent[index] = copy.deepcopy(op["value"])
            else:
                raise PatchError(f"unsupported operation {kind!r}")
        elif isinstance(parent, dict):
            if kind in ("remove", "replace") and last not in parent:
                raise PatchError(f"{op['path']}: no such member")
            if kind == "remove":
                del parent[last]
            elif kind in ("add", "replace"):
                parent[last] = copy.deepcopy(op["value"])
            else:
                raise PatchError(f"unsupported operation {kind!r}")
        else:
            raise PatchError(f"{op['path']}: the parent is not a container")
    return out


@dataclass(frozen=True)
class Case:
    name: str
    family: str | None
    session: str
    session_patch: tuple[Json, ...]
    report: str | None
    report_patch: tuple[Json, ...]
    expect: Json
    reference_message: str | None
    # Where the reference checker gives another verdict and the text wins (edges only):
    # {"verdict", "why"}.
    reference: Json = None


@cache
def _listing(path: Path = CHECKS) -> Json:
    # Non-integral numbers exactly (Decimal): a case may carry 27.999999999999999999.
    return json.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)


@dataclass(frozen=True)
class Difference:
    """A documented place where `plan` and the reference checker deliberately differ."""

    name: str
    session: str
    session_patch: tuple[Json, ...]
    report: str | None
    report_patch: tuple[Json, ...]
    plan: Json  # {"verdict", "code", "severity"}
    reference: Json  # {"verdict", "message"?}
    why: str


def differences() -> list[Difference]:
    listing = json.loads(DIFFERENCES.read_text(encoding="utf-8"))
    return [
        Difference(
            name=c["name"],
            session=c["session"],
            session_patch=tuple(c.get("session_patch", ())),
            report=c.get("report"),
            report_patch=tuple(c.get("report_patch", ())),
            plan=c["plan"],
            reference=c["reference"],
            why=c["why"],
        )
        for c in listing["cases"]
    ]


def cases(path: Path = CHECKS) -> list[Case]:
    """The upstream checks (or, with ``FAMILIES``, our further mutations) as cases."""
    return [
        Case(
            name=c["name"],
            family=c.get("family"),
            session=c["session"],
            session_patch=tuple(c.get("session_patch", ())),
            report=c.get("report"),
            report_patch=tuple(c.get("report_patch", ())),
            expect=c["expect"],
            reference_message=c.get("reference_message"),
            reference=c.get("reference"),
        )
        for c in _listing(path)["cases"]
    ]


def materialise(
    session_name: str,
    session_patch: tuple[Json, ...] | list[Json],
    report_name: str | None,
    report_patch: tuple[Json, ...] | list[Json],
) -> tuple[bytes, bytes | None]:
    """The session bytes and report bytes (or None) a case checks."""
    source = raw_session(session_name)
    if session_patch:
        source = dump(apply_patch(json.loads(source), list(session_patch)))
    if report_name is None:
        return source, None
    receipt = json.loads(raw_report(report_name))
    if session_patch:
        receipt["source"]["document_sha256"] = hashlib.sha256(source).hexdigest()
    if report_patch:
        receipt = apply_patch(receipt, list(report_patch))
    return source, dump(receipt)


def case_bytes(case: Case) -> tuple[bytes, bytes | None]:
    return materialise(case.session, case.session_patch, case.report, case.report_patch)


def check(source: bytes, receipt: bytes | None) -> InspectionResult:
    return inspect_continuation(source, now=CLOCK, report=receipt)


def verdict(result: InspectionResult, with_report: bool) -> str:
    """What `plan` concluded, in the terms the reference uses: rejected, or the outcome."""
    if not result.ok:
        return "rejected"
    if not with_report:
        return "accepted"
    assert result.report is not None
    return result.report.recomputed_outcome or "rejected"
