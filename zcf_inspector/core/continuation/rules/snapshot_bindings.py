"""CAPABILITIES.md "Assessment bindings": each assessment against the components it names.

Every `component_ids` entry must exist in the snapshot. A `supported` or `adapted`
assessment needs every named component `available` ("an unavailable or unknown component
cannot establish support, even for an optional subject") and exactly one of the kind its
subject matches; a required feature needs its exact identifier in `supported_features`.
The supported facts must then agree with the bound component: dependency identity and
version, service account/audience/endpoint and access no wider than the component's,
the assessed target model (and, when fit is measured, tokenizer and input limit) and
the requested capabilities and media types, the workspace's logical root and its exact
path binding, and a reconciliation's recovery strategy and external identity.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.models.json_values import json_key
from zcf_inspector.core.continuation.models.report import PathBinding
from zcf_inspector.core.continuation.models.v0_5 import Assessment03, DestinationReport03
from zcf_inspector.core.continuation.results import ComponentBinding, SnapshotComponent
from zcf_inspector.core.continuation.rules.report_subjects import as_json, subject_key
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonValue

# The binding table: assessment subject kind → the component kind that must match it.
# Plan/boundary and resource need none; a feature is looked up in supported_features.
MATCHING_KIND = {
    "dependency": "dependency",
    "configuration": "configuration",
    "instruction": "configuration",
    "capability": "capability",
    "policy": "policy",
    "model": "model",
    "context": "model",
    "workspace": "workspace",
    "service": "service",
    "operation": "operation",
    "native_import": "native_import",
    "environment": "environment",
    "checkpoint_requirement": "environment",
    "environment_requirement": "environment",
}
CLAIMS = frozenset({"supported", "adapted"})


@dataclass(frozen=True, slots=True)
class PlanView:
    """What the binding table needs from the session (None fields: report checked alone)."""

    capabilities: tuple[str, ...] | None
    media_types: tuple[str, ...] | None
    next_action: str | None
    workspace_roots: dict[str, str] | None  # workspace ID → logical root ID


def _same(a: JsonValue, b: JsonValue) -> bool:
    return json_key(a) == json_key(b)


def _text(value: JsonValue) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=False)[:80]
    return repr(value)


def _strings(value: JsonValue) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


class _Binder:
    def __init__(
        self,
        report: DestinationReport03,
        components: dict[str, SnapshotComponent],
        snapshot: dict[str, JsonValue],
        plan: PlanView,
    ) -> None:
        self.report = report
        self.components = components
        self.snapshot = snapshot
        self.plan = plan
        self.findings: list[Finding] = []
        self.codes: list[str] = []
        self.subject: str | None = None  # the node the assessment being bound names
        # Each root's path binding (the last, as the reference reads them), found once.
        self.path_bindings: dict[str, tuple[int, PathBinding]] = {}
        for k, binding in enumerate(report.path_bindings):
            self.path_bindings[binding.root_id] = (k, binding)

    def add(self, code: PlanCode, where: str, message: str) -> None:
        """A finding about the binding of the assessment being bound (its subject)."""
        self.findings.append(error(code, where, message, self.subject))
        self.codes.append(str(code))

    def run(self) -> tuple[ComponentBinding, ...]:
        out = []
        for i, item in enumerate(self.report.assessments):
            self.codes = []
            self.subject = subject_key(item.subject).node_id
            matching = self._one(i, item)
            out.append(
                ComponentBinding(
                    node_id=subject_key(item.subject).node_id,
                    pointer=f"/assessments/{i}",
                    component_ids=tuple(item.component_ids),
                    matching=matching,
                    problems=tuple(dict.fromkeys(self.codes)),
                )
            )
        return tuple(out)

    def _one(self, i: int, item: Assessment03) -> str | None:
        at = f"/assessments/{i}"
        node = subject_key(item.subject).node_id
        bound: list[SnapshotComponent] = []
        for j, ident in enumerate(item.component_ids):
            component = self.components.get(ident)
            if component is None:
                self.add(
                    PlanCode.COMPONENT_REFERENCE_UNRESOLVED,
                    f"{at}/component_ids/{j}",
                    f"{node} names component {ident!r}; the snapshot has no such component",
                )
            else:
                bound.append(component)
        if item.status not in CLAIMS:
            return None
        for j, ident in enumerate(item.component_ids):
            component = self.components.get(ident)
            if component is not None and component.status != "available":
                self.add(
                    PlanCode.COMPONENT_NOT_AVAILABLE,
                    f"{at}/component_ids/{j}",
                    f"{node} is assessed {item.status}; its component {ident!r} is "
                    f"{component.status}, which cannot establish support",
                )
        kind = item.subject.kind
        expected = MATCHING_KIND.get(kind)
        if expected is None:
            if kind == "feature":
                features = self.snapshot.get("supported_features")
                if not isinstance(features, list) or item.subject.id not in features:
                    self.add(
                        PlanCode.SNAPSHOT_FEATURE_MISSING,
                        f"{at}/subject/id",
                        f"feature {item.subject.id!r} is assessed {item.status}; the "
                        "snapshot's supported_features do not list it",
                    )
            return None
        selected = [c for c in bound if c.kind == expected]
        if len(selected) != 1:
            named = ", ".join(repr(c.id) for c in selected) or "none"
            self.add(
                PlanCode.COMPONENT_BINDING_MISSING,
                f"{at}/component_ids",
                f"{node} is assessed {item.status}; exactly one named component must be "
                f"of kind {expected!r}, the assessment names {named}",
            )
            return None
        component = selected[0]
        self._facts(at, node, item, component)
        return component.id

    def _mismatch(
        self,
        where: str,
        node: str,
        what: str,
        ours: JsonValue,
        *,
        c: SnapshotComponent,
        theirs: JsonValue,
    ) -> None:
        self.add(
            PlanCode.COMPONENT_FACT_MISMATCH,
            where,
            f"{node}: the report's {what} is {_text(ours)}; component {c.id!r} records "
            f"{_text(theirs)}",
        )

    def _facts(self, at: str, node: str, item: Assessment03, c: SnapshotComponent) -> None:
        kind, value = item.subject.kind, c.value
        resolved = as_json(item.resolved)
        r = resolved if isinstance(resolved, dict) else {}
        if kind == "dependency" and item.status == "supported":
            for name in ("identity", "version"):
                if not _same(r.get(name), value.get(name)):
                    self._mismatch(
                        f"{at}/resolved", node, name, r.get(name), c=c, theirs=value.get(name)
                    )
        elif kind in ("model", "context"):
            self._model(at, node, item, c)
        elif kind == "service" and item.status == "supported":
            for name in ("account", "audience", "endpoint"):
                if not _same(r.get(name), value.get(name)):
                    self._mismatch(
                        f"{at}/resolved", node, name, r.get(name), c=c, theirs=value.get(name)
                    )
            for name in ("scopes", "secret_handles"):
                extra: list[JsonValue] = [
                    *sorted(_strings(r.get(name)) - _strings(value.get(name)))
                ]
                held = value.get(name)
                if extra:
                    self._mismatch(
                        f"{at}/resolved/{name}",
                        node,
                        f"{name} beyond the snapshot's",
                        extra,
                        c=c,
                        theirs=held,
                    )
        elif kind == "workspace":
            self._workspace(at, node, item, c)
        elif (
            kind == "operation"
            and item.status == "supported"
            and self.plan.next_action == "reconcile_operation"
        ):
            for name in ("recovery_strategy", "external_identity"):
                if not _same(r.get(name), value.get(name)):
                    self._mismatch(
                        f"{at}/resolved", node, name, r.get(name), c=c, theirs=value.get(name)
                    )

    def _model(self, at: str, node: str, item: Assessment03, c: SnapshotComponent) -> None:
        model = self.report.model_assessment
        value = c.value
        target = as_json(model.target)
        if not _same(target, value.get("model")):
            self._mismatch(
                "/model_assessment/target",
                node,
                "target model",
                target,
                c=c,
                theirs=value.get("model"),
            )
        # CAPABILITIES.md: "when fit is measured, its tokenizer and input limit" — a fit
        # of `exceeds` is measured too (the reference compares only for `fits`).
        if model.fit != "unknown":
            if model.tokenizer != value.get("tokenizer"):
                self._mismatch(
                    "/model_assessment/tokenizer",
                    node,
                    "tokenizer",
                    model.tokenizer,
                    c=c,
                    theirs=value.get("tokenizer"),
                )
            if not _same(model.input_limit, value.get("input_limit")):
                self._mismatch(
                    "/model_assessment/input_limit",
                    node,
                    "input limit",
                    model.input_limit,
                    c=c,
                    theirs=value.get("input_limit"),
                )
        if item.subject.kind == "model" and item.status == "supported":
            for name, wanted in (
                ("capabilities", self.plan.capabilities),
                ("media_types", self.plan.media_types),
            ):
                held = value.get(name)
                have = {h for h in held if isinstance(h, str)} if isinstance(held, list) else set()
                lacking: list[JsonValue] = [*sorted(set(wanted or ()) - have)]
                if lacking:
                    self._mismatch(
                        f"{at}/status", node, f"requested {name}", lacking, c=c, theirs=held
                    )

    def _workspace(self, at: str, node: str, item: Assessment03, c: SnapshotComponent) -> None:
        value = c.value
        roots = self.plan.workspace_roots
        if roots is not None:
            root = roots.get(item.subject.id)
            if root is not None and root != value.get("root_id"):
                self._mismatch(
                    f"{at}/component_ids",
                    node,
                    "workspace root",
                    root,
                    c=c,
                    theirs=value.get("root_id"),
                )
        found = self.path_bindings.get(str(value.get("root_id")))
        if found is None:
            self.add(
                PlanCode.COMPONENT_FACT_MISMATCH,
                "/path_bindings",
                f"{node}: component {c.id!r} is of root {_text(value.get('root_id'))}; the "
                "report has no path binding for that root",
            )
            return
        k, binding = found
        for name in ("destination_path", "case_sensitive", "unicode_normalization"):
            ours = getattr(binding, name)
            if not _same(ours, value.get(name)):
                self._mismatch(
                    f"/path_bindings/{k}/{name}", node, name, ours, c=c, theirs=value.get(name)
                )


def check_bindings(
    report: DestinationReport03,
    components: dict[str, SnapshotComponent],
    snapshot: dict[str, JsonValue],
    plan: PlanView,
) -> tuple[tuple[ComponentBinding, ...], list[Finding]]:
    binder = _Binder(report, components, snapshot, plan)
    bindings = binder.run()
    return bindings, binder.findings
