"""Mutation families that change the report (and sometimes the session it assesses)."""

from __future__ import annotations

import copy
import unicodedata

from mutation_draft import BLOCKING, Draft, _index


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
