"""Random mutations of the ASIF 0.5 examples' capability snapshots and their bindings
(for compare_reference.py run against the 0.5 reference checker).

Each mutation picks one of the eight public 0.5 example pairs and changes it the way one
rule family of CAPABILITIES.md is about: the envelope and its bytes (format,
availability, base64, byte count, digest, BOM, reformatting), the snapshot object
(version, identity, runtime, mode, times, features), its components (status, kind,
duplicate IDs, the typed facts of each kind), the assessments' component bindings, the
report's own times and the snapshot evidence, and the caller's current snapshot. A
mutation is data in the form of tests/core/continuation/upstream_cases_05.py (JSON Patch
on the session, report and snapshot, exact bytes, current bytes), so any disagreement
can be pasted into the case data as it is.
"""

from __future__ import annotations

import base64
import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.core.continuation.upstream_cases_05 import (
    materialise,
    raw_capabilities,
    raw_report,
)

Json = Any
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
D = "/destination/capabilities_snapshot"
TIMES = [
    "2026-09-26T11:00:00Z",
    "2026-09-26T12:00:00Z",
    "2026-09-26T12:00:00.000Z",
    "2026-09-26T14:00:00+02:00",
    "2026-09-26T12:00:00.5Z",
    "2026-09-26T12:15:00Z",
    "2026-09-26T12:30:00Z",
    "2026-09-26T13:00:00Z",
    "2026-09-26T13:30:00Z",
    "2026-09-26T12:00:00.1234Z",
    "2026-09-26t12:00:00z",
    "2026-09-26T12:00:00",
    "2026-09-26T12:00:60Z",
    "2026-02-30T12:00:00Z",
    "2026-09-26T12:00:00+24:00",
    "2026-09-26T12:00:00-00:30",
    "2026-09-26T12:00Z",
]


@dataclass(frozen=True)
class Mutation05:
    family: str
    label: str
    session: str
    report: str
    report_patch: tuple[Json, ...]
    snapshot_patch: tuple[Json, ...] | None
    snapshot_bytes: Json
    current: Json

    def materialise(self) -> tuple[bytes, bytes | None, bytes | None]:
        return materialise(
            self.session,
            (),
            self.report,
            self.report_patch,
            snapshot_patch=self.snapshot_patch,
            snapshot_bytes=self.snapshot_bytes,
            current=self.current,
        )


@dataclass
class Draft05:
    rng: random.Random
    session: str
    report: str
    r_ops: list[Json] = field(default_factory=list)
    s_ops: list[Json] | None = None
    exact: Json = None
    current: Json = None
    notes: list[str] = field(default_factory=list)

    @property
    def rep(self) -> Json:
        return json.loads(raw_report(self.report))

    @property
    def snap(self) -> Json:
        return json.loads(raw_capabilities(self.report))

    def r(self, op: str, path: str, value: Json = None) -> None:
        self.r_ops.append(_op(op, path, value))
        self.notes.append(f"report {op} {path}={_short(value)}")

    def s(self, op: str, path: str, value: Json = None) -> None:
        if self.s_ops is None:
            self.s_ops = []
        self.s_ops.append(_op(op, path, value))
        self.notes.append(f"snapshot {op} {path}={_short(value)}")

    def pick(self, items: list[Json]) -> Json:
        return self.rng.choice(items)


def _op(op: str, path: str, value: Json) -> Json:
    return {"op": op, "path": path} if op == "remove" else {"op": op, "path": path, "value": value}


def _short(value: Json) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- families ----------------------------------------------------------------------------------
def envelope(d: Draft05) -> None:
    rep = d.rep
    data = rep["destination"]["capabilities_snapshot"]["data"]
    raw = base64.b64decode(data)
    choice = d.rng.randrange(12)
    if choice == 0:
        d.r("replace", D + "/data", data.rstrip("="))
    elif choice == 1:
        d.r("replace", D + "/data", data[:10] + "\n" + data[10:])
    elif choice == 2:
        d.r("replace", D + "/bytes", len(raw) + d.pick([-1, 1, 1000]))
    elif choice == 3:
        d.r("replace", "/destination/capabilities_sha256", "f" * 64)
    elif choice == 4:
        d.exact = {"prefix_hex": d.pick(["efbbbf", "20", "0a"])}
        d.notes.append(f"snapshot bytes prefixed {d.exact['prefix_hex']}")
    elif choice == 5:
        d.s_ops = []
        d.notes.append("snapshot re-serialised")
    elif choice == 6:
        d.r("replace", D + "/format", d.pick(["asif.destination-capabilities/0.2", "other/1"]))
    elif choice == 7:
        d.r("remove", D + "/data")
        d.r("remove", D + "/bytes")
        d.r("replace", D + "/availability", "unavailable")
        if d.rng.random() < 0.8:
            d.r("add", D + "/explanation", "Not supplied.")
    elif choice == 8:
        d.exact = {"hex": d.pick(["7b7d", "6e756c6c", "22737472696e6722", "7b7d0a7b7d"])}
        d.notes.append(f"snapshot bytes {d.exact['hex']}")
    elif choice == 9:
        d.exact = {"replace_first": ['"components"', '"components":[],"components"']}
        d.notes.append("duplicate components member")
    elif choice == 10:
        d.r("replace", D + "/data", data[:-4] + d.pick(["AAAA", "////", "===="]))
    else:
        d.r("replace", D + "/evidence_id", d.pick(["absent", rep["evidence"][0]["id"]]))


def snapshot_object(d: Draft05) -> None:
    snap = d.snap
    choice = d.rng.randrange(11)
    if choice == 0:
        d.s("replace", "/snapshot_version", d.pick(["0.1", "0.2", 0.1, None]))
    elif choice == 1:
        d.s("replace", "/destination_id", d.pick(["other-destination", snap["destination_id"]]))
    elif choice == 2:
        d.s("replace", "/producer", d.pick(["someone-else", snap["producer"]]))
    elif choice == 3:
        d.s("replace", "/evaluation_mode", d.pick(["observed", "synthetic"]))
    elif choice == 4:
        d.s("replace", "/observed_at", d.pick(TIMES))
    elif choice == 5:
        d.s("replace", "/expires_at", d.pick(TIMES))
    elif choice == 6:
        member = d.pick(["os", "architecture"])
        d.s("replace", f"/runtime/{member}", d.pick(["other", snap["runtime"][member]]))
    elif choice == 7:
        d.s("add", "/runtime/extension", d.pick([True, 1, 1.0, "x"]))
        if d.rng.random() < 0.5:
            d.r("add", "/destination/runtime/extension", d.pick([True, 1, 1.0, "x"]))
    elif choice == 8:
        d.s("replace", "/supported_features", d.pick([[], ["asif.portable-continuation/0.2"]]))
    elif choice == 9:
        d.s("remove", "/" + d.pick(["id", "runtime_revision", "components", "supported_features"]))
    else:
        d.s("replace", "/runtime_revision", d.pick(["", "changed"]))


def components(d: Draft05) -> None:
    snap = d.snap
    listed = snap["components"]
    i = d.rng.randrange(len(listed))
    c = listed[i]
    at = f"/components/{i}"
    kind = c["kind"]
    choice = d.rng.randrange(8)
    if choice == 0:
        d.s("replace", at + "/status", d.pick(["unavailable", "unknown", "available"]))
    elif choice == 1:
        d.s("replace", at + "/kind", d.pick(["dependency", "environment", "policy", "model"]))
    elif choice == 2:
        d.s("add", "/components/-", copy.deepcopy(c))
    elif choice == 3:
        d.s("replace", at + "/version", d.pick([None, "9", c["version"]]))
    elif choice == 4:
        d.s("replace", at + "/identity", d.pick(["other-identity", c["identity"]]))
    elif choice == 5:
        d.s("add", at + "/extension", {"note": "kept"})
    elif choice == 6:
        d.s("replace", at + "/id", d.pick(["renamed", listed[0]["id"]]))
    else:
        _typed_fact(d, at, kind, c)


def _typed_fact(d: Draft05, at: str, kind: str, c: Json) -> None:
    if kind == "model":
        member = d.pick(["input_limit", "tokenizer", "model", "capabilities", "media_types"])
        value = {
            "input_limit": d.pick([None, 600, 32000, c.get("input_limit")]),
            "tokenizer": d.pick([None, "other-tokenizer", c.get("tokenizer")]),
            "model": c["model"] | {"id": d.pick(["other-model", c["model"]["id"]])},
            "capabilities": d.pick([[], c.get("capabilities", [])]),
            "media_types": d.pick([[], c.get("media_types", [])]),
        }[member]
        d.s("replace", f"{at}/{member}", value)
    elif kind == "service":
        member = d.pick(["account", "audience", "endpoint", "scopes", "secret_handles"])
        value = {
            "account": c["account"] | {"subject": d.pick(["account-B", c["account"]["subject"]])},
            "audience": d.pick(["other-audience", c["audience"]]),
            "endpoint": d.pick([None, "https://other.example", c["endpoint"]]),
            "scopes": d.pick([[], c["scopes"][:1], c["scopes"] + ["extra"]]),
            "secret_handles": d.pick([[], c["secret_handles"] + ["extra"]]),
        }[member]
        d.s("replace", f"{at}/{member}", value)
    elif kind == "workspace":
        member = d.pick(["root_id", "destination_path", "case_sensitive", "unicode_normalization"])
        value = {
            "root_id": d.pick(["other-root", c["root_id"]]),
            "destination_path": d.pick(["/elsewhere", c["destination_path"]]),
            "case_sensitive": not c["case_sensitive"],
            "unicode_normalization": d.pick(["none", "NFC", "NFD"]),
        }[member]
        d.s("replace", f"{at}/{member}", value)
    elif kind == "operation":
        member = d.pick(["recovery_strategy", "external_identity"])
        value = {
            "recovery_strategy": d.pick(["reconcile", "reconnect", "restart", "refuse"]),
            "external_identity": d.pick(
                [None, {"namespace": "other", "value": "job-other"}, c.get("external_identity")]
            ),
        }[member]
        d.s("replace", f"{at}/{member}", value)
    else:
        d.s("remove", f"{at}/revision")


def bindings(d: Draft05) -> None:
    rep = d.rep
    snap = d.snap
    ids = [c["id"] for c in snap["components"]]
    i = d.rng.randrange(len(rep["assessments"]))
    a = rep["assessments"][i]
    at = f"/assessments/{i}"
    choice = d.rng.randrange(7)
    if choice == 0:
        d.r("replace", at + "/component_ids", [])
    elif choice == 1:
        d.r("replace", at + "/component_ids", [*a["component_ids"], "absent"])
    elif choice == 2:
        extra = d.pick(ids)
        if extra not in a["component_ids"]:
            d.r("replace", at + "/component_ids", [*a["component_ids"], extra])
    elif choice == 3:
        d.r("replace", at + "/component_ids", a["component_ids"][1:])
    elif choice == 4:
        d.r("replace", at + "/component_ids", [d.pick(ids)])
    elif choice == 5:
        d.r("remove", at + "/component_ids")
    else:
        d.r("replace", at + "/status", d.pick(["supported", "adapted", "unresolved"]))


def times(d: Draft05) -> None:
    rep = d.rep
    choice = d.rng.randrange(5)
    if choice == 0:
        d.r("replace", "/assessed_at", d.pick(TIMES))
    elif choice == 1:
        d.r("replace", "/expires_at", d.pick(TIMES))
    else:
        wanted = rep["destination"]["capabilities_snapshot"]["evidence_id"]
        k = next(j for j, e in enumerate(rep["evidence"]) if e["id"] == wanted)
        member = ["time", "producer", "kind"][choice - 2]
        value = {
            "time": d.pick(TIMES),
            "producer": d.pick(["someone-else", rep["evidence"][k]["producer"]]),
            "kind": d.pick(["inspection", "synthetic", "compatibility_test"]),
        }[member]
        d.r("replace", f"/evidence/{k}/{member}", value)


def current(d: Draft05) -> None:
    snap = d.snap
    choice = d.rng.randrange(5)
    if choice == 0:
        d.current = "same"
    elif choice == 1:
        d.current = {"patch": []}
    elif choice == 2:
        d.current = {"patch": [_op("replace", "/runtime_revision", "changed")]}
    else:
        i = d.rng.randrange(len(snap["components"]))
        d.current = {"patch": [_op("replace", f"/components/{i}/revision", "changed")]}
    d.notes.append(f"current {d.current if d.current == 'same' else 'patched'}")


FAMILIES: dict[str, Callable[[Draft05], None]] = {
    "snapshot-envelope": envelope,
    "snapshot-object": snapshot_object,
    "snapshot-components": components,
    "component-bindings": bindings,
    "snapshot-times": times,
    "current-snapshot": current,
}


def random_snapshot_mutations(rng: random.Random, count: int) -> list[Mutation05]:
    out: list[Mutation05] = []
    names = sorted(FAMILIES)
    while len(out) < count:
        family = names[len(out) % len(names)]
        session, report = rng.choice(PAIRS)
        draft = Draft05(rng, session, report)
        for _ in range(rng.choice([1, 1, 2])):
            FAMILIES[family](draft)
        if not draft.notes:
            continue
        out.append(
            Mutation05(
                family,
                f"{family}/{report}#{len(out)}: " + "; ".join(draft.notes),
                session,
                report,
                tuple(draft.r_ops),
                None if draft.s_ops is None else tuple(draft.s_ops),
                draft.exact,
                draft.current,
            )
        )
    return out
