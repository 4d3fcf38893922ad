"""The upstream ASIF 0.5 checks as data (`tests/data/asif-0.5/upstream-checks.json`).

As for 0.4 (upstream_cases.py), each case names a public example pair and JSON Patch
operations; 0.5 cases may also change the destination capability snapshot the report
embeds, the way the upstream suite does:

- ``snapshot_patch``: operations on the decoded snapshot object, which is then written as
  ``json.dumps(value, ensure_ascii=False) + "\\n"`` and supplied again (data, bytes and
  capabilities_sha256 of the new bytes);
- ``snapshot_bytes``: exact bytes instead (``{"hex": …}``, ``{"prefix_hex": …}`` before the
  example's bytes, or ``{"replace_first": [old, new]}`` on them), supplied the same way;
- ``current``: the caller's current snapshot — ``"same"`` (the report's bytes) or
  ``{"patch": […]}`` (the decoded snapshot patched and written with ``json.dumps(value)``).

Snapshot changes apply before ``report_patch``, so a case can also break the binding.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.conftest import DATA
from tests.core.continuation.spec_examples import CLOCK, dump
from tests.core.continuation.upstream_cases import apply_patch, verdict
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult

Json = Any
SPEC_05 = DATA / "asif-0.5"
EXAMPLES_05 = SPEC_05 / "examples" / "continuation"
CHECKS_05 = SPEC_05 / "upstream-checks.json"
FAMILIES_05 = SPEC_05 / "snapshot-mutations.json"
DIFFERENCES_05 = SPEC_05 / "deliberate-differences.json"

__all__ = ["CLOCK", "Case05", "case_bytes", "cases", "check", "materialise", "verdict"]


@cache
def raw_session(name: str) -> bytes:
    return (EXAMPLES_05 / f"{name}.session.json").read_bytes()


@cache
def raw_report(name: str) -> bytes:
    return (EXAMPLES_05 / f"{name}.report.json").read_bytes()


@cache
def raw_capabilities(name: str) -> bytes:
    return (EXAMPLES_05 / f"{name}.capabilities.json").read_bytes()


def supplied(receipt: Json) -> bytes:
    return base64.b64decode(receipt["destination"]["capabilities_snapshot"]["data"])


def supply(receipt: Json, raw: bytes) -> None:
    """``receipt`` made to embed ``raw`` as its snapshot (data, bytes and digest)."""
    receipt["destination"]["capabilities_snapshot"].update(
        data=base64.b64encode(raw).decode(), bytes=len(raw)
    )
    receipt["destination"]["capabilities_sha256"] = hashlib.sha256(raw).hexdigest()


def snapshot_text(value: Json) -> bytes:
    # The upstream suite's spelling of a changed snapshot: no indent, UTF-8, final newline.
    return (json.dumps(value, ensure_ascii=False) + "\n").encode()


def exact_bytes(spec: Json, original: bytes) -> bytes:
    if "hex" in spec:
        return bytes.fromhex(spec["hex"])
    if "prefix_hex" in spec:
        return bytes.fromhex(spec["prefix_hex"]) + original
    old, new = spec["replace_first"]
    return original.replace(old.encode(), new.encode(), 1)


@dataclass(frozen=True)
class Case05:
    name: str
    family: str | None
    session: str
    session_patch: tuple[Json, ...]
    report: str | None
    report_patch: tuple[Json, ...]
    snapshot_patch: tuple[Json, ...] | None
    snapshot_bytes: Json
    current: Json
    expect: Json
    reference_message: str | None

    def materialise(self) -> tuple[bytes, bytes | None, bytes | None]:
        return materialise(
            self.session,
            self.session_patch,
            self.report,
            self.report_patch,
            snapshot_patch=self.snapshot_patch,
            snapshot_bytes=self.snapshot_bytes,
            current=self.current,
        )


def _case(c: Json) -> Case05:
    patch = c.get("snapshot_patch")
    return Case05(
        name=c["name"],
        family=c.get("family"),
        session=c["session"],
        session_patch=tuple(c.get("session_patch", ())),
        report=c.get("report"),
        report_patch=tuple(c.get("report_patch", ())),
        snapshot_patch=None if patch is None else tuple(patch),
        snapshot_bytes=c.get("snapshot_bytes"),
        current=c.get("current"),
        expect=c["expect"],
        reference_message=c.get("reference_message"),
    )


def cases(path: Path = CHECKS_05) -> list[Case05]:
    listing = json.loads(path.read_text(encoding="utf-8"))
    return [_case(c) for c in listing["cases"]]


def materialise(
    session_name: str,
    session_patch: tuple[Json, ...] | list[Json],
    report_name: str | None,
    report_patch: tuple[Json, ...] | list[Json],
    *,
    snapshot_patch: tuple[Json, ...] | list[Json] | None = None,
    snapshot_bytes: Json = None,
    current: Json = None,
) -> tuple[bytes, bytes | None, bytes | None]:
    """The session bytes, report bytes (or None) and current snapshot bytes (or None)."""
    source = raw_session(session_name)
    if session_patch:
        source = dump(apply_patch(json.loads(source), list(session_patch)))
    if report_name is None:
        return source, None, None
    receipt = json.loads(raw_report(report_name))
    if session_patch:
        receipt["source"]["document_sha256"] = hashlib.sha256(source).hexdigest()
    original = supplied(receipt)
    if snapshot_patch is not None:
        supply(receipt, snapshot_text(apply_patch(json.loads(original), list(snapshot_patch))))
    elif snapshot_bytes is not None:
        supply(receipt, exact_bytes(snapshot_bytes, original))
    if report_patch:
        receipt = apply_patch(receipt, list(report_patch))
    now: bytes | None = None
    if current == "same":
        now = supplied(receipt)
    elif isinstance(current, dict):
        now = json.dumps(apply_patch(json.loads(original), current["patch"])).encode()
    return source, dump(receipt), now


def case_bytes(case: Case05) -> tuple[bytes, bytes | None, bytes | None]:
    return case.materialise()


def check(source: bytes, receipt: bytes | None, current: bytes | None = None) -> InspectionResult:
    return inspect_continuation(source, now=CLOCK, report=receipt, current_capabilities=current)
