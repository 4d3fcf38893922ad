"""Random mutations of the public examples, by rule family (for compare_reference.py).

Each family picks a public example pair (or a session alone) and changes it the way the
rules of that family are about: tool-call correlation, configuration bindings, inline
resource integrity, model fit, dependency resolution, path bindings, known blockers,
services, recovery, core requirements, observed evidence, blocking reasons, omissions,
instruction roots, context configuration, native versions, model source, stale contexts
and open calls, and exact numbers (big and non-integral numbers in every integer field
and in free JSON). Mutations are JSON Patch operations on the example, as in the upstream
case data; about half of the report mutations then restate the report's outcome and
blocking reasons so that they agree with its (mutated) assessments, so the comparison
reaches the rules behind the outcome instead of stopping at it.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tests.core.continuation.spec_examples import report, session
from tests.core.continuation.upstream_cases import PatchError, apply_patch, materialise

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


# -- families ----------------------------------------------------------------------------------
def tool_correlation(d: Draft) -> None:
    doc = d.doc
    inputs = doc["contexts"][0]["inputs"]
    tools = [i for i, x in enumerate(inputs) if x["kind"] in ("tool_call", "tool_result")]
    j = d.pick(tools)
    at = f"/contexts/0/inputs/{j}"
    item = inputs[j]
    choice = d.rng.randrange(9)
    if choice == 0:
        d.s("replace", at + "/call_id", d.pick(["absent", "call-2", item["call_id"]]))
    elif choice == 1 and item["kind"] == "tool_result":
        d.s("replace", at + "/result_index", d.pick([0, 1, 2]))
    elif choice == 2 and item["kind"] == "tool_result":
        terminal = d.pick([True, False])
        d.s("replace", at + "/terminal", terminal)
        d.s("replace", at + "/outcome", "unknown" if not terminal else d.pick(["success", "error"]))
    elif choice == 3 and item["kind"] == "tool_call":
        d.s("replace", at + "/arguments", d.pick([{}, {"resource_id": "other"}, item["arguments"]]))
    elif choice == 4:
        d.s("add", at + "/transformation", "Mutation: re-encoded for the destination.")
        if item["kind"] == "tool_call":
            d.s("replace", at + "/arguments", {"changed": True})
        else:
            d.s("replace", at + "/parts", [])
    elif choice == 5:
        d.s("add", "/contexts/0/inputs/-", copy.deepcopy(item) | {"id": "dup-" + item["id"]})
    elif choice == 6:
        d.s("remove", at)
    elif choice == 7:
        others = [e["id"] for e in doc["events"]]
        d.s("replace", at + "/source_events", [{"event_id": d.pick(others)}])
    elif item["kind"] == "tool_call":
        d.s("replace", at + "/arguments_status", d.pick(["partial", "unknown", "complete"]))
    else:
        d.s("replace", at + "/parts", [{"kind": "text", "text": "changed"}])


def instruction_binding(d: Draft) -> None:
    doc = d.doc
    at = "/continuation/configuration_bindings/0"
    binding = doc["continuation"]["configuration_bindings"][0]
    choice = d.rng.randrange(8)
    if choice == 0:
        d.s("replace", at + "/instruction_rules", [])
    elif choice == 1:
        d.s(
            "replace",
            at + "/effective_order",
            d.pick([[], ["other"], binding["effective_order"] * 1]),
        )
    elif choice == 2:
        rule = copy.deepcopy(binding["instruction_rules"][0]) | {"instruction_id": "extra"}
        d.s("add", at + "/instruction_rules/-", rule)
        if d.rng.random() < 0.5:
            d.s("add", at + "/effective_order/-", "extra")
    elif choice == 3:
        d.s("replace", at + "/policy_ids", d.pick([[], ["workspace-only", "other"], ["other"]]))
    elif choice == 4:
        # A second instruction, bound, ordered by priority or against it.
        instruction = copy.deepcopy(doc["configurations"][0]["instructions"][0]) | {"id": "second"}
        d.s("add", "/configurations/0/instructions/-", instruction)
        rule = copy.deepcopy(binding["instruction_rules"][0]) | {
            "instruction_id": "second",
            "priority": d.pick([-1, 0, 5]),
        }
        d.s("add", at + "/instruction_rules/-", rule)
        order = d.pick([["workspace-rule", "second"], ["second", "workspace-rule"]])
        d.s("replace", at + "/effective_order", order)
    elif choice == 5:
        d.s("replace", at + "/instruction_rules/0/priority", d.pick([-3, 0, 7]))
    elif choice == 6:
        d.s(
            "replace",
            at + "/instruction_rules/0/activation",
            d.pick([{"kind": "always"}, {"kind": "predicate", "dialect": "x", "expression": True}]),
        )
    else:
        d.s("replace", at + "/instruction_rules/0/group_id", "other-group")


def resource_integrity(d: Draft) -> None:
    doc = d.doc
    embedded = [i for i, r in enumerate(doc["resources"]) if r["availability"] == "embedded"]
    i = d.pick(embedded)
    res = doc["resources"][i]
    at = f"/resources/{i}"
    raw = res["text"].encode()
    choice = d.rng.randrange(6)
    if choice == 0:
        d.s("replace", at + "/sha256", hashlib.sha256(raw + b"x").hexdigest())
    elif choice == 1:
        d.s("replace", at + "/bytes", res["bytes"] + d.pick([-1, 1]))
    elif choice == 2:
        d.s("replace", at + "/text", res["text"] + d.pick(["", " ", "\n"]))
    elif choice == 3:
        d.s("remove", at + "/text")
        d.s("add", at + "/data", base64.b64encode(raw).decode())
    elif choice == 4:
        d.s("remove", at + "/text")
        d.s("add", at + "/data", d.pick(["not base64!", "YWJj", "YW=J"]))
    else:
        text = d.pick(["é", "e\u0301", "日本"])
        d.s("replace", at + "/text", text)
        data = text.encode()
        d.s("replace", at + "/bytes", len(data) + d.pick([0, 0, 1]))
        d.s("replace", at + "/sha256", hashlib.sha256(data).hexdigest())


def model_fit(d: Draft) -> None:
    rep = d.rep
    model = rep["model_assessment"]
    choice = d.rng.randrange(6)
    if choice == 0:
        d.r("replace", "/model_assessment/tokenizer", d.pick([None, "other/1"]))
    elif choice == 1:
        limit = model["input_limit"] or 8000
        reserve = model["output_reserve"]
        d.r("replace", "/model_assessment/input_limit", limit)
        d.r("replace", "/model_assessment/input_tokens", limit - reserve + d.pick([-1, 0, 1]))
        if model["tokenizer"] is None:
            d.r("replace", "/model_assessment/tokenizer", "t/1")
        d.r("replace", "/model_assessment/fit", "fits")
    elif choice == 2:
        d.r("replace", "/model_assessment/fit", d.pick(["fits", "exceeds", "unknown"]))
    elif choice == 3:
        d.r("replace", "/model_assessment/input_limit", d.pick([None, 0, 100000]))
    elif choice == 4:
        d.r(
            "replace",
            "/model_assessment/target",
            model["target"] | {"id": d.pick(["other", model["target"]["id"]])},
        )
    else:
        d.r("replace", "/model_assessment/output_reserve", d.pick([0, 7999, 100000]))
    m = d.assessment("model")
    if m is not None and d.rng.random() < 0.6:
        d.status(m)


def dependency_resolution(d: Draft) -> None:
    rep = d.rep
    i = d.assessment("dependency")
    if i is None:
        return
    dep_id = rep["assessments"][i]["subject"]["id"]
    doc = d.doc
    k = _index(doc["continuation"]["dependencies"], lambda x: x["id"] == dep_id)
    choice = d.rng.randrange(6)
    if choice == 0:
        d.r("replace", f"/assessments/{i}/resolved", {"identity": "wrong", "version": "1"})
    elif choice == 1:
        ident = doc["continuation"]["dependencies"][k]["identity"]
        d.r(
            "replace",
            f"/assessments/{i}/resolved",
            {"identity": ident, "version": d.pick(["1", "2", "9"])},
        )
    elif choice == 2:
        d.r("replace", "/destination/runtime/os", d.pick(["linux", "macos", "windows"]))
    elif choice == 3:
        d.r("replace", "/destination/runtime/architecture", d.pick(["x86_64", "arm64", "riscv"]))
    elif choice == 4:
        d.s(
            "replace",
            f"/continuation/dependencies/{k}/accepted_versions",
            d.pick([[], ["2"], ["1", "2"]]),
        )
    else:
        d.s(
            "replace",
            f"/continuation/dependencies/{k}/platform",
            {"os": d.pick([[], ["linux"]]), "architectures": ["x86_64"]},
        )
    if d.rng.random() < 0.4:
        d.status(i, d.pick(["supported", "unsupported", "adapted"]))


def path_bindings(d: Draft) -> None:
    rep = d.rep
    choice = d.rng.randrange(7)
    if choice == 0:
        d.r("replace", "/path_bindings", [])
    elif choice == 1 and rep["path_bindings"]:
        d.r("add", "/path_bindings/-", copy.deepcopy(rep["path_bindings"][0]))
    elif choice == 2:
        d.r(
            "add",
            "/path_bindings/-",
            {
                "root_id": "elsewhere",
                "destination_path": "/x",
                "case_sensitive": True,
                "unicode_normalization": "none",
            },
        )
    elif choice in (3, 4, 5) and rep["path_bindings"]:
        doc = d.doc
        ws = doc["continuation"]["workspaces"][0]
        entry = copy.deepcopy(ws["entries"][0])
        path = entry["path"]
        variant = d.pick(
            [
                path.upper(),
                unicodedata.normalize("NFD", "café.md"),
                unicodedata.normalize("NFC", "café.md"),
                "Summary.MD",
                "other.txt",
            ]
        )
        entry["path"] = variant
        d.s("add", "/continuation/workspaces/0/entries/-", entry)
        if choice == 5:
            second = copy.deepcopy(entry) | {"path": unicodedata.normalize("NFC", "café.md")}
            entry2 = second if variant != second["path"] else second | {"path": "CAFÉ.md"}
            d.s("add", "/continuation/workspaces/0/entries/-", entry2)
        d.r("replace", "/path_bindings/0/case_sensitive", d.pick([True, False]))
        d.r("replace", "/path_bindings/0/unicode_normalization", d.pick(["none", "NFC", "NFD"]))
    else:
        w = d.assessment("workspace")
        if w is not None:
            d.status(w)
            d.r("replace", "/path_bindings", d.pick([[], rep["path_bindings"]]))


def known_blockers(d: Draft) -> None:
    doc = d.doc
    plan_index = (
        0
        if d.report_name is None
        else _index(doc["continuation"]["plans"], lambda p: p["id"] == d.rep["source"]["plan_id"])
    )
    plan = f"/continuation/plans/{plan_index}"
    choice = d.rng.randrange(10)
    target_kind = None
    if choice == 0:
        d.s("replace", plan + "/boundary/consistency", d.pick(["partial", "unknown", "consistent"]))
        target_kind = "plan"
    elif choice == 1:
        d.s("replace", plan + "/boundary/method", d.pick(["best_effort", "bounded_read"]))
        target_kind = "plan"
    elif choice == 2:
        d.s(
            "replace",
            "/configurations/0/knowledge",
            d.pick(["partial", "declared", "unknown", "effective"]),
        )
        target_kind = "configuration"
    elif choice == 3:
        field_name = d.pick(["authority", "merge_behavior"])
        d.s(
            "replace",
            f"/continuation/configuration_bindings/0/instruction_rules/0/{field_name}",
            "unknown",
        )
        target_kind = "instruction"
    elif choice == 4:
        d.s(
            "replace",
            "/contexts/0/fidelity",
            d.pick(["partial", "unknown", "exact", "reconstructed"]),
        )
        target_kind = "context"
    elif choice == 5:
        accounting = doc["continuation"]["plans"][plan_index]["context_accounting"]
        k = d.rng.randrange(len(accounting))
        d.s("replace", f"{plan}/context_accounting/{k}/disposition", "unavailable")
        target_kind = "context"
    elif choice == 6:
        embedded = [i for i, r in enumerate(doc["resources"]) if r["availability"] == "embedded"]
        i = d.pick(embedded)
        d.s("remove", f"/resources/{i}/text")
        d.s("remove", f"/resources/{i}/bytes")
        d.s("remove", f"/resources/{i}/sha256")
        d.s(
            "replace",
            f"/resources/{i}/availability",
            d.pick(["unavailable", "excluded", "redacted", "unknown"]),
        )
        d.s("add", f"/resources/{i}/explanation", "Mutation: not captured.")
        target_kind = "resource"
    elif choice == 7 and doc["continuation"]["operations"]:
        field_name, value = d.pick(
            [
                ("recovery/strategy", d.pick(["refuse", "reconnect", "reconcile"])),
                ("state", d.pick(["pending", "running", "succeeded", "failed", "outcome_unknown"])),
            ]
        )
        d.s("replace", f"/continuation/operations/0/{field_name}", value)
        target_kind = "operation"
    elif choice == 8:
        d.s("add", "/required_features/-", d.pick(["asif.streams/0.1", "example.unknown/1"]))
        if doc.get("streams") is None and d.s_ops[-1]["value"] == "asif.streams/0.1":
            d.s("add", "/streams", [])
        target_kind = "feature"
    else:
        d.s("replace", "/checkpoints/0/open_decisions", [])
        target_kind = "plan"
    if d.report_name is not None and target_kind is not None:
        i = d.assessment(target_kind)
        if i is not None:
            d.status(i)


def services(d: Draft) -> None:
    i = d.assessment("service")
    if i is None:
        return
    rep = d.rep
    doc = d.doc
    svc_id = rep["assessments"][i]["subject"]["id"]
    svc = next(s for s in doc["continuation"]["service_bindings"] if s["id"] == svc_id)
    resolved = {
        "account": copy.deepcopy(svc["account"]),
        "audience": svc["audience"],
        "scopes": list(svc["scopes"]),
        "secret_handles": list(svc["secret_handles"]),
        "endpoint": "https://x.example.invalid",
    }
    change = d.pick(["account", "audience", "scopes", "secret_handles", "endpoint", "none"])
    if change == "account":
        resolved["account"] = resolved["account"] | {"subject": "account-B"}
    elif change == "audience":
        resolved["audience"] = "other"
    elif change in ("scopes", "secret_handles") and resolved[change]:
        resolved[change] = resolved[change][:-1]
    elif change == "endpoint":
        del resolved["endpoint"]
    d.r("replace", f"/assessments/{i}/status", d.pick(["supported", "supported", "unresolved"]))
    d.r("add", f"/assessments/{i}/resolved", resolved, note=f"service resolved, {change} changed")


def recovery(d: Draft) -> None:
    i = d.assessment("operation")
    if i is None:
        return
    choice = d.rng.randrange(6)
    if choice == 0:
        d.r(
            "add",
            f"/assessments/{i}/resolved",
            {
                "recovery_strategy": d.pick(["reconcile", "reconnect"]),
                "external_identity": {"namespace": "example.jobs/account-A", "value": "job-42"},
            },
        )
    elif choice == 1:
        d.r("replace", f"/assessments/{i}/evidence_ids", [])
    elif choice == 2:
        d.s(
            "replace",
            "/continuation/operations/0/recovery/strategy",
            d.pick(["reconnect", "refuse", "reconcile"]),
        )
    elif choice == 3:
        d.s(
            "replace",
            "/continuation/operations/0/external_identity",
            d.pick([None, {"namespace": "n", "value": "v"}]),
        )
    elif choice == 4:
        d.s(
            "replace",
            "/continuation/operations/0/state",
            d.pick(["pending", "succeeded", "failed"]),
        )
    else:
        d.r(
            "add",
            f"/assessments/{i}/resolved",
            {
                "recovery_strategy": "reconcile",
                "external_identity": {"namespace": "wrong", "value": "job-42"},
            },
        )
    if d.rng.random() < 0.5:
        d.status(i, d.pick(["supported", "unresolved"]))


def core_requirements(d: Draft) -> None:
    i = d.assessment("checkpoint_requirement")
    if i is None:
        i = d.assessment("environment_requirement")
    if i is None:
        return
    choice = d.rng.randrange(4)
    if choice == 0:
        d.r("replace", f"/assessments/{i}/evidence_ids", [])
    elif choice == 1:
        d.r(
            "add",
            f"/assessments/{i}/resolved",
            d.pick([{}, {"status": "available"}, {"status": "available", "secret_handles": ["x"]}]),
        )
    elif choice == 2:
        d.s("add", "/checkpoints/0/requirements/0/secret_handle", "publisher-login")
    else:
        d.status(i)


def observed(d: Draft) -> None:
    d.r("replace", "/evaluation_mode", "observed")
    rep = d.rep
    evidence = rep["evidence"]
    choice = d.rng.randrange(5)
    if choice == 0:
        for k in range(len(evidence)):
            d.r(
                "replace",
                f"/evidence/{k}/kind",
                d.pick(["inspection", "synthetic", "import", "continuation"]),
            )
    elif choice == 1:
        for k in range(len(evidence)):
            d.r("replace", f"/evidence/{k}/kind", "inspection")
        d.r("replace", "/import_result/status", d.pick(["imported", "failed", "not_attempted"]))
        d.r("replace", "/import_result/evidence_ids", [evidence[0]["id"]])
    elif choice == 2:
        for k in range(len(evidence)):
            d.r("replace", f"/evidence/{k}/kind", d.pick(["import", "continuation"]))
        d.r("replace", "/continuation_result/status", d.pick(["continued", "blocked"]))
        d.r("replace", "/continuation_result/evidence_ids", [evidence[0]["id"]])
    elif choice == 3:
        d.r(
            "add",
            "/evidence/-",
            evidence[0] | {"id": d.pick([evidence[0]["id"], "second"]), "kind": "import"},
        )
    else:
        for k in range(len(evidence)):
            d.r("replace", f"/evidence/{k}/kind", "inspection")


def blocking_reasons(d: Draft) -> None:
    rep = d.rep
    choice = d.rng.randrange(3)
    if choice == 0 and rep["blocking_reasons"]:
        d.r("remove", f"/blocking_reasons/{d.rng.randrange(len(rep['blocking_reasons']))}")
    elif choice == 1:
        a = d.pick(rep["assessments"])
        d.r("add", "/blocking_reasons/-", {"subject": a["subject"], "reason": "Mutation."})
    else:
        i = d.assessment(None, lambda a: a["required"])
        if i is not None:
            d.status(i, d.pick(list(BLOCKING)))
    d.rng.random()  # no settle bias


def omissions(d: Draft) -> None:
    rep = d.rep
    i = d.assessment()
    assert i is not None
    d.status(i, "omitted")
    subject = rep["assessments"][i]["subject"]
    d.r(
        "add",
        "/transformations/-",
        {
            "id": "omit",
            "subject": subject,
            "target": "none",
            "rule": "Omitted by mutation.",
            "losses": d.pick([[], ["The subject is dropped."]]),
            "accepted": False,
            "evidence_ids": [rep["evidence"][0]["id"]],
        },
    )


def instruction_roots(d: Draft) -> None:
    at = "/continuation/configuration_bindings/0/instruction_rules/0/scope"
    d.s(
        "replace",
        at,
        d.pick(
            [
                {"kind": "global"},
                {"kind": "root", "root_id": "project"},
                {"kind": "root", "root_id": "elsewhere"},
                {"kind": "path_prefix", "root_id": "project", "relative_path": "docs"},
                {"kind": "path_prefix", "root_id": "elsewhere", "relative_path": ""},
                {"kind": "path_prefix", "root_id": "project", "relative_path": "../up"},
            ]
        ),
    )


def context_configuration(d: Draft) -> None:
    if d.rng.random() < 0.5:
        d.s("remove", "/contexts/0/configuration_id")
        if d.doc["contexts"][0]["fidelity"] == "exact":
            d.s("replace", "/contexts/0/fidelity", "reconstructed")
    else:
        d.s("replace", "/contexts/0/configuration_id", d.pick(["other", "effective"]))


def native_version(d: Draft) -> None:
    doc = d.doc
    if not doc["continuation"]["native_imports"]:
        return
    choice = d.rng.randrange(3)
    if choice == 0:
        d.r("replace", "/destination/runtime/agent/version", d.pick([None, "1", "2", "3"]))
    elif choice == 1:
        d.s(
            "replace",
            "/continuation/native_imports/0/accepted_target_agent_versions",
            d.pick([[], ["1"], ["2"], ["1", "2"]]),
        )
    i = d.assessment("native_import")
    if i is not None and d.rng.random() < 0.6:
        d.status(i, d.pick(["supported", "unsupported"]))


def model_source(d: Draft) -> None:
    rep = d.rep
    source = rep["model_assessment"]["source"]
    changed = source | d.pick([{"revision": None}, {"revision": "2"}, {"id": "model-b"}, {}])
    d.r("replace", "/model_assessment/source", changed)
    if d.rng.random() < 0.5:
        d.r("replace", "/model_assessment/target", changed)


def stale_context(d: Draft) -> None:
    doc = d.doc
    events = [e["id"] for e in doc["events"]]
    choice = d.rng.randrange(3)
    if choice == 0:
        d.s("replace", "/contexts/0/at_event_id", d.pick(events))
    elif choice == 1:
        j = d.rng.randrange(len(doc["contexts"][0]["inputs"]))
        d.s("replace", f"/contexts/0/inputs/{j}/source_events", [{"event_id": d.pick(events)}])
    else:
        d.s("replace", "/checkpoints/0/at_event_id", d.pick(events))


def open_calls(d: Draft) -> None:
    doc = d.doc
    choice = d.rng.randrange(4)
    if choice == 0:
        d.s(
            "replace",
            "/checkpoints/0/open_calls",
            d.pick([[], [{"call_id": "call-1", "state": "pending"}]]),
        )
    elif choice == 1 and doc["continuation"]["operations"]:
        op = copy.deepcopy(doc["continuation"]["operations"][0]) | {"id": "second-op"}
        d.s("add", "/continuation/operations/-", op)
        d.s("add", "/continuation/plans/0/operation_ids/-", "second-op")
    elif choice == 2 and doc["continuation"]["operations"]:
        d.s("add", "/continuation/operations/0/call_id", d.pick(["call-1", "call-9"]))
        d.s("replace", "/continuation/operations/0/kind", "tool")
    else:
        d.s("replace", "/continuation/plans/0/operation_ids", [])


def history_order(d: Draft) -> None:
    doc = d.doc
    n = len(doc["events"])
    choice = d.rng.randrange(5)
    if choice == 0:
        i = d.rng.randrange(n)
        d.s("replace", f"/events/{i}/sequence", d.pick([0, 1, 5, 99]))
    elif choice == 1:
        i = d.rng.randrange(n)
        d.s(
            "replace",
            f"/events/{i}/causes",
            [{"event_id": d.pick([e["id"] for e in doc["events"]])}],
        )
    elif choice == 2:
        d.s("replace", "/branches/0/head_event_id", d.pick([e["id"] for e in doc["events"]]))
    elif choice == 3:
        d.s(
            "replace",
            f"/events/{d.rng.randrange(n)}/actor_id",
            d.pick(["person", "agent", "nobody"]),
        )
    else:
        results = [i for i, e in enumerate(doc["events"]) if e["kind"] == "tool_result"]
        if results:
            d.s("replace", f"/events/{d.pick(results)}/data/result_index", d.pick([0, 1]))


def outcomes(d: Draft) -> None:
    for _ in range(d.rng.randrange(1, 4)):
        i = d.assessment()
        if i is not None:
            d.status(i)
    if d.rng.random() < 0.3:
        rep = d.rep
        if rep["transformations"]:
            k = d.rng.randrange(len(rep["transformations"]))
            d.r("replace", f"/transformations/{k}/accepted", d.pick([True, False]))


def tool_schema(d: Draft) -> None:
    schema = d.pick(
        [
            {"type": "objekt"},
            {"type": ["object", "object"]},
            {"type": []},
            {"required": ["a", "a"]},
            {"required": "a"},
            {"pattern": "("},
            {"pattern": "^[a-z]+$"},
            {"properties": []},
            {"properties": {"a": 3}},
            {"properties": {"a": {"type": "string"}}},
            {"minLength": -1},
            {"minLength": 1.5},
            {"items": [{"type": "string"}]},
            {"items": {"type": "string"}},
            {"$id": "urn:x#frag"},
            {"$id": "urn:x#"},
            {"$anchor": "9bad"},
            {"enum": "a"},
            {"enum": []},
            {"allOf": []},
            {"anyOf": [{"type": "string"}, True]},
            {"not": 5},
            {"x-unknown": {"anything": 1}},
            {"patternProperties": {"(": {}}},
            {"dependentRequired": {"a": ["b", "b"]}},
            {"dependencies": {"a": ["b"], "c": {"type": "string"}}},
            {"dependencies": {"a": 3}},
            {"multipleOf": 0},
            {"$vocabulary": {"urn:v": "yes"}},
            {"uniqueItems": "yes"},
        ]
    )
    d.s(
        "replace",
        "/tools/0/input_schema",
        d.pick([schema, True, False, {"type": "object"}]) if d.rng.random() < 0.15 else schema,
    )
    if d.rng.random() < 0.3:
        d.s("add", "/tools/0/output_schema", d.pick([{"type": "object"}, {"type": 3}, False]))


def _blob(text: str, fmt: str) -> str:
    raw = text.encode()
    return hashlib.new(fmt, b"blob %d\0" % len(raw) + raw).hexdigest()


def git_state(d: Draft) -> None:
    doc = d.doc
    fmt = d.pick(["sha1", "sha256"])  # other formats: a deliberate difference
    length = 64 if fmt == "sha256" else 40
    source = doc["resources"][0]
    good = _blob(source["text"], fmt if fmt != "md5" else "sha1")
    entry = {
        "path": d.pick(["inventory.csv", "../x", "a/b.txt"]),
        "stage": d.pick([0, 0, 1, 2]),
        "mode": d.pick(["100644", "100755", "644", "040000"]),
        "resource_id": d.pick([source["id"], source["id"], None, "absent"]),
        "object_id": d.pick([good, good, "0" * length, None, "A" * length]),
    }
    entries = [entry]
    if d.rng.random() < 0.4:
        entries.append(entry | {"stage": d.pick([0, 1, 2, 3])})
    git = {
        "object_format": fmt,
        "head": d.pick(["a" * length, None, "z" * length, "a" * (length - 1)]),
        "branch": d.pick(["main", None]),
        "bundle_resource_ids": d.pick([[], [source["id"]], ["absent"]]),
        "prerequisites": d.pick(
            [
                [],
                [{"object_id": "b" * length, "availability": "external"}],
                [{"object_id": "b" * length, "availability": "embedded"}],
                [{"object_id": "xyz", "availability": "unknown"}],
            ]
        ),
        "index_entries": d.pick([[], entries, entries]),
        "submodules": d.pick(
            [
                [],
                [
                    {
                        "path": "vendor/lib",
                        "object_id": "c" * length,
                        "dependency_id": doc["continuation"]["dependencies"][0]["id"],
                    }
                ],
                [{"path": "vendor/lib", "object_id": "c" * length, "dependency_id": "absent"}],
            ]
        ),
        "lfs_dependency_ids": d.pick(
            [[], [doc["continuation"]["dependencies"][0]["id"]], ["absent"]]
        ),
    }
    d.s("add", "/continuation/workspaces/0/git", git)


def streams(d: Draft) -> None:
    doc = d.doc
    results = [e for e in doc["events"] if e["kind"] == "tool_result"]
    calls = [e for e in doc["events"] if e["kind"] == "tool_call"]
    text_resource = doc["resources"][0]
    size = text_resource["bytes"]
    kind = d.pick(["tool_arguments", "tool_result_text"])
    event = d.pick(calls if kind == "tool_arguments" else results or calls)
    segments = []
    offset = 0
    for index in range(d.rng.randrange(0, 3)):
        length = d.rng.randrange(0, size + 2)
        segments.append(
            {
                "index": d.pick([index, index, index + 1]),
                "resource_id": d.pick([text_resource["id"], text_resource["id"], "absent"]),
                "offset": offset,
                "length": length,
                "terminal": False,
            }
        )
        offset = 0
    if segments and d.rng.random() < 0.6:
        segments[d.pick([-1, -1, 0])]["terminal"] = True
    stream = {
        "id": "stream-1",
        "kind": kind,
        "event_id": event["id"],
        "call_id": d.pick([event["data"].get("call_id", "x"), "other"]),
        "status": d.pick(["complete", "partial"]),
        "segments": segments,
    }
    if kind == "tool_result_text" or d.rng.random() < 0.2:
        stream["result_index"] = d.pick([0, 0, 1])
    d.s("add", "/streams", d.pick([[stream], [stream, stream]]))
    d.s("add", "/required_features/-", "asif.streams/0.1")


def external_bindings(d: Draft) -> None:
    doc = d.doc
    tool = doc["tools"][0]["id"]
    bindings = []
    if d.rng.random() < 0.7:
        bindings.append(
            {
                "kind": "call",
                "id": d.pick(["ext-call", "call-1"]),
                "source": {"session_id": "s0", "capture_id": "c0", "event_id": "x1"},
                "descriptor": {
                    "tool_id": d.pick([tool, "absent"]),
                    "arguments": {},
                    "arguments_status": "complete",
                },
            }
        )
    if d.rng.random() < 0.7:
        bindings.append(
            {
                "kind": "request",
                "id": d.pick(["ext-request", "choose-next"]),
                "source": {"session_id": "s0", "capture_id": "c0", "event_id": "x2"},
                "descriptor": {
                    "decision_kind": "question",
                    "prompt": d.pick([[], [{"kind": "resource", "resource_id": "absent"}]]),
                    "options": d.pick([[], [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]]),
                },
            }
        )
    if bindings and d.rng.random() < 0.3:
        bindings.append(copy.deepcopy(bindings[0]))
    d.s("add", "/external_bindings", bindings)
    if d.rng.random() < 0.9:
        d.s("add", "/required_features/-", "asif.external-bindings/0.1")


def _integer_leaves(value: Json, path: str = "") -> list[tuple[str, int]]:
    """Every integer in ``value`` (never a bool) with its pointer: the integer fields."""
    if isinstance(value, dict):
        return [
            leaf
            for key, member in value.items()
            for leaf in _integer_leaves(
                member, f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            )
        ]
    if isinstance(value, list):
        return [
            leaf for i, item in enumerate(value) for leaf in _integer_leaves(item, f"{path}/{i}")
        ]
    if isinstance(value, int) and not isinstance(value, bool):
        return [(path, value)]
    return []


def _number_variants(value: int) -> list[Json]:
    """Exact numbers near ``value`` and far from any double: integral spellings (1.0,
    1e0), values a double rounds to it, and magnitudes beyond ±2^53 and a double."""
    below = f"{value - 1}.99999999999999999999" if value > 0 else "-0.00000000000000000001"
    return [
        Decimal(f"{value}.0"),
        Decimal(f"{value}e0"),
        Decimal(f"{value}.0000000000000000001"),
        Decimal(below),
        Decimal("1e-400"),
        Decimal("-0.0"),
        2**53,
        2**53 + 1,
        2**64,
        Decimal("1e400"),
        Decimal("9007199254740993.5"),
    ]


_FREE_NUMBERS: list[Json] = [
    9007199254740993,
    2**64,
    -(2**70),
    Decimal("1e400"),
    Decimal("-1e400"),
    Decimal("1e-400"),
    Decimal("0.70000000000000000001"),
    Decimal("1.00000000000000001"),
    Decimal("1.0"),
    1,
    True,
]


def exact_numbers(d: Draft) -> None:
    """Big and non-integral numbers in every integer field and in free JSON."""
    choice = d.rng.randrange(4)
    if choice == 0 or (choice == 1 and d.report_name is None):
        path, value = d.pick(_integer_leaves(d.doc))
        d.s("replace", path, d.pick(_number_variants(value)))
    elif choice == 1:
        path, value = d.pick(_integer_leaves(d.rep))
        d.r("replace", path, d.pick(_number_variants(value)))
    elif choice == 2:
        doc = d.doc
        where = d.pick(
            [
                f"/contexts/{i}/request_parameters"
                for i, c in enumerate(doc["contexts"])
                if isinstance(c.get("request_parameters"), dict)
            ]
            + [f"/tools/{i}/input_schema" for i in range(len(doc["tools"]))]
        )
        key = "maximum" if "input_schema" in where else "seed"
        d.s("add", f"{where}/{key}", d.pick(_FREE_NUMBERS))
    else:
        # A tool call's arguments in its event and in a context input, exactly equal or
        # not: equal exactly is no transformation, a double's equality is not enough.
        doc = d.doc
        for c, ctx in enumerate(doc["contexts"]):
            for j, item in enumerate(ctx["inputs"]):
                if item["kind"] == "tool_call" and isinstance(item.get("arguments"), dict):
                    source = item["source_events"][0]["event_id"]
                    e = _index(doc["events"], lambda ev, source=source: ev["id"] == source)
                    first = d.pick(_FREE_NUMBERS)
                    second = first if d.rng.random() < 0.5 else d.pick(_FREE_NUMBERS)
                    d.s("add", f"/events/{e}/data/arguments/n", first)
                    d.s("add", f"/contexts/{c}/inputs/{j}/arguments/n", second)
                    return


def _insert_event(d: Draft, event: Json) -> None:
    """Insert ``event`` into main's history just before the head, keeping the head."""
    doc = d.doc
    events = doc["events"]
    head = len(events) - 1
    while events[head]["id"] != doc["branches"][0]["head_event_id"]:
        head -= 1
    for i in range(head, len(events)):
        d.s("replace", f"/events/{i}/sequence", events[i]["sequence"] + 1)
    event = event | {"sequence": events[head]["sequence"]}
    d.s("add", f"/events/{head}", event)
    position = doc["branches"][0]["event_ids"].index(events[head]["id"])
    d.s("add", f"/branches/0/event_ids/{position}", event["id"])
    for k in range(len(doc["continuation"]["plans"])):
        d.s(
            "add",
            f"/continuation/plans/{k}/context_accounting/-",
            {
                "event_id": event["id"],
                "disposition": "not_input",
                "input_ids": [],
                "explanation": "Inserted by a mutation.",
            },
        )


def history_insert(d: Draft) -> None:
    doc = d.doc
    provenance = doc["events"][0]["provenance"]
    calls = [e["data"]["call_id"] for e in doc["events"] if e["kind"] == "tool_call"]
    requests = [e["data"]["request_id"] for e in doc["events"] if e["kind"] == "decision_request"]
    base = {"id": "ins", "actor_id": "agent", "causes": [], "provenance": provenance}
    kind = d.pick(
        [
            "tool_result",
            "decision_request",
            "decision_resolution",
            "task_update",
            "tool_call",
            "execution_transition",
        ]
    )
    if kind == "tool_result":
        data = {
            "call_id": d.pick([*calls, "nope"]),
            "result_index": d.pick([0, 1, 5]),
            "terminal": False,
            "outcome": "unknown",
            "parts": [],
        }
    elif kind == "tool_call":
        data = {
            "call_id": d.pick([*calls, "call-new"]),
            "tool_id": doc["tools"][0]["id"],
            "arguments": {},
            "arguments_status": "complete",
        }
        if d.rng.random() < 0.3:
            data["retry_of"] = d.pick([*calls, data["call_id"]])
    elif kind == "decision_request":
        data = {
            "request_id": d.pick([*requests, "ask-new"]),
            "decision_kind": "question",
            "prompt": [],
            "options": d.pick(
                [
                    [{"id": "y", "label": "Y"}],
                    [{"id": "y", "label": "Y"}, {"id": "y", "label": "Z"}],
                ]
            ),
        }
        if d.rng.random() < 0.3:
            data["call_id"] = d.pick([*calls, "nope"])
    elif kind == "decision_resolution":
        data = {"request_id": d.pick([*requests, "nope"]), "outcome": "answered", "answer": []}
        if d.rng.random() < 0.5:
            data["selected_option_id"] = d.pick(["approve", "y", "nope"])
    elif kind == "task_update":
        data = {
            "task_id": "t1",
            "revision": d.pick([0, 1]),
            "status": d.pick(["pending", "completed"]),
        }
        if d.rng.random() < 0.4:
            data["previous_revision"] = d.pick([0, 1, 3])
        if d.rng.random() < 0.3:
            data["dependencies"] = d.pick([["t1"], ["t9"], []])
    else:
        data = {"execution_id": d.pick(["exec-1", "nope"]), "status": "running"}
    _insert_event(d, base | {"kind": kind, "data": data})


# family → (needs a report, mutate)
FAMILIES: dict[str, tuple[bool, Callable[[Draft], None]]] = {
    "tool-correlation": (False, tool_correlation),
    "instruction-binding": (False, instruction_binding),
    "resource-integrity": (False, resource_integrity),
    "model-fit": (True, model_fit),
    "dependency-resolution": (True, dependency_resolution),
    "path-bindings": (True, path_bindings),
    "known-blockers": (True, known_blockers),
    "services": (True, services),
    "recovery": (True, recovery),
    "core-requirements": (True, core_requirements),
    "observed-evidence": (True, observed),
    "blocking-reasons": (True, blocking_reasons),
    "omissions": (True, omissions),
    "instruction-roots": (False, instruction_roots),
    "context-configuration": (False, context_configuration),
    "native-version": (True, native_version),
    "model-source": (True, model_source),
    "stale-context": (False, stale_context),
    "open-calls": (False, open_calls),
    "history-order": (False, history_order),
    "outcomes": (True, outcomes),
    "tool-schemas": (False, tool_schema),
    "git-state": (False, git_state),
    "streams": (False, streams),
    "external-bindings": (False, external_bindings),
    "history-insert": (False, history_insert),
    "exact-numbers": (False, exact_numbers),
}


def random_mutations(
    rng: random.Random, count: int, families: list[str] | None = None
) -> list[Mutation]:
    """``count`` mutations drawn in turn from each family (or only from ``families``)."""
    out: list[Mutation] = []
    names = sorted(families or FAMILIES)
    unknown = set(names) - set(FAMILIES)
    if unknown:
        raise SystemExit(f"no such family: {', '.join(sorted(unknown))} (see FAMILIES)")
    while len(out) < count:
        family = names[len(out) % len(names)]
        needs_report, mutate = FAMILIES[family]
        session_name, report_name = rng.choice(PAIRS)
        if not needs_report and rng.random() < 0.5:
            report_name = None  # the session alone
        draft = Draft(rng, session_name, report_name)
        try:
            mutate(draft)
            if not draft.s_ops and not draft.r_ops:
                continue
            draft.settle()
            materialise(session_name, draft.s_ops, report_name, draft.r_ops)
        except (PatchError, KeyError, IndexError, StopIteration, TypeError):
            continue  # this draw does not fit this example: draw again
        label = (
            f"{family} #{len(out)} {session_name}"
            + (f" + {report_name}" if report_name else "")
            + ": "
            + "; ".join(draft.notes)
        )
        out.append(
            Mutation(
                family, label, session_name, tuple(draft.s_ops), report_name, tuple(draft.r_ops)
            )
        )
    return out
