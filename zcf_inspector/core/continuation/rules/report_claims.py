"""What a destination report claims, held against what the session says (§5, §6, §8 to §11).

Every finding names both sides: what the report claims and what the session (or the
report's own evidence) says.

With the session:
- a known blocker (blockers.py) is assessed only unresolved, unsupported or omitted;
- a supported dependency resolves to its declared identity and an accepted version, on a
  platform the dependency accepts; a supported service resolves to its declared account
  and audience with its scopes, secret handles and an endpoint; a supported core
  requirement has destination evidence, `available` and its secret handle; a supported
  reconciliation target has evidence and the declared strategy and external identity; a
  supported native import accepts the destination agent's version;
- path bindings cover exactly the roots of required or claimed workspaces, within the
  selected roots, and no two workspace paths collide under a binding's case and Unicode
  normalisation;
- the model assessment is of the plan's source model; a claimed fit is measured and within
  the limit; another target model is never `supported`;
- import and continuation claims stay within what the plan's next action allows.

With or without it: blocking reasons name exactly the blocking subjects; an observed
report carries no synthetic evidence and backs its import/continuation claims with
evidence of that kind; an omission transformation records its losses; evidence IDs are
unique.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.blockers import Blockers
from zcf_inspector.core.continuation.models.report import Assessment, DestinationReport
from zcf_inspector.core.continuation.models.session import Requirement
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.results import BLOCKING_STATUSES
from zcf_inspector.core.continuation.rules.report_binding import DefinedPlan, SessionBinding
from zcf_inspector.core.continuation.rules.report_subjects import (
    as_json,
    assessment_subject,
    same,
    subject_key,
)
from zcf_inspector.core.continuation.subjects import AGENT_ACTIONS, SubjectKey
from zcf_inspector.core.findings import Finding, error

CLAIMS = frozenset({"supported", "adapted"})


def _listed(items: Iterable[str]) -> str:
    return ", ".join(repr(i) for i in sorted(items)) or "none"


class ReportClaims:
    def __init__(self, report: DestinationReport) -> None:
        self.report = report
        self.findings: list[Finding] = []
        self.first: dict[SubjectKey, int] = {}
        for i, item in enumerate(report.assessments):
            tick()
            self.first.setdefault(subject_key(item.subject), i)

    def add(self, code: PlanCode, where: str, message: str, subject: str | None = None) -> None:
        """A finding at ``where`` in the report. Its subject (a node ID) is ``subject``,
        or for a finding at an assessment (``/assessments/N…``) the subject assessment N
        names — the report's own record N, looked up, never a guess at a prefix."""
        if subject is None:
            subject = assessment_subject(self.report, where)
        self.findings.append(error(code, where, message, subject))

    def assessed(self, key: SubjectKey) -> tuple[int, Assessment] | None:
        index = self.first.get(key)
        return None if index is None else (index, self.report.assessments[index])

    # -- the report on its own -----------------------------------------------------------
    def run_alone(self) -> list[Finding]:
        self._evidence_ids()
        self._omissions()
        self._observed()
        self._blocking_reasons()
        self._measured_fit()
        return self.findings

    def _evidence_ids(self) -> None:
        seen: set[str] = set()
        for i, item in enumerate(self.report.evidence):
            tick()
            if item.id in seen:
                self.add(
                    PlanCode.DUPLICATE_ID, f"/evidence/{i}/id", f"evidence {item.id!r} repeats"
                )
            seen.add(item.id)

    def _omissions(self) -> None:
        for i, transformation in enumerate(self.report.transformations):
            tick()
            found = self.assessed(subject_key(transformation.subject))
            if found is not None and found[1].status == "omitted" and not transformation.losses:
                self.add(
                    PlanCode.OMISSION_WITHOUT_LOSS,
                    f"/transformations/{i}/losses",
                    f"{subject_key(transformation.subject).node_id} is omitted; its "
                    f"transformation {transformation.id!r} records no loss",
                )

    def _observed(self) -> None:
        report = self.report
        if report.evaluation_mode != "observed":
            return
        kinds = {e.id: e.kind for e in report.evidence}
        for i, item in enumerate(report.evidence):
            tick()
            if item.kind == "synthetic":
                self.add(
                    PlanCode.SYNTHETIC_EVIDENCE_OBSERVED,
                    f"/evidence/{i}/kind",
                    f"an observed report carries synthetic evidence {item.id!r}",
                )
        for name, status, claim, kind in (
            ("import_result", report.import_result.status, "imported", "import"),
            (
                "continuation_result",
                report.continuation_result.status,
                "continued",
                "continuation",
            ),
        ):
            result = report.import_result if name == "import_result" else report.continuation_result
            if status == claim and not any(kinds.get(e) == kind for e in result.evidence_ids):
                self.add(
                    PlanCode.RUNTIME_EVIDENCE_MISSING,
                    f"/{name}/evidence_ids",
                    f"{name} says {claim}; none of its evidence "
                    f"({_listed(result.evidence_ids)}) is of kind {kind!r}",
                )

    def _blocking_reasons(self) -> None:
        blocking = {
            subject_key(a.subject)
            for a in self.report.assessments
            if a.required and a.status in BLOCKING_STATUSES
        }
        reasons = {subject_key(r.subject) for r in self.report.blocking_reasons}
        if blocking != reasons:
            missing = blocking - reasons
            extra = reasons - blocking
            parts = []
            if missing:
                parts.append("no reason names " + _listed(k.node_id for k in missing))
            if extra:
                parts.append("reasons name non-blocking " + _listed(k.node_id for k in extra))
            self.add(
                PlanCode.BLOCKING_REASONS_MISMATCH,
                "/blocking_reasons",
                f"the blocking subjects are {_listed(k.node_id for k in blocking)}; "
                + "; ".join(parts),
            )

    def _measured_fit(self) -> None:
        model = self.report.model_assessment
        if model.fit != "fits":
            return
        unmeasured = [
            name
            for name, value in (
                ("tokenizer", model.tokenizer),
                ("input_tokens", model.input_tokens),
                ("input_limit", model.input_limit),
            )
            if value is None
        ]
        if unmeasured:
            self.add(
                PlanCode.CONTEXT_FIT_UNMEASURED,
                f"/model_assessment/{unmeasured[0]}",
                f"the fit is claimed 'fits' without {', '.join(unmeasured)}",
            )
            return
        tokens, limit = cast(int, model.input_tokens), cast(int, model.input_limit)
        if tokens + model.output_reserve > limit:
            self.add(
                PlanCode.CONTEXT_OVERFLOW,
                "/model_assessment/input_tokens",
                f"{tokens} input tokens + {model.output_reserve} reserved for output exceed "
                f"the input limit {limit}, yet the fit is claimed 'fits'",
            )

    # -- against the session -------------------------------------------------------------
    def run_against(self, binding: SessionBinding, facts: DefinedPlan, blockers: Blockers) -> None:
        self._blockers(blockers)
        self._dependencies(binding, facts)
        self._services(binding, facts)
        self._requirements(binding, facts)
        self._recovery(binding, facts)
        self._native(binding, facts)
        self._paths(binding, facts)
        self._model(facts)
        self._action_claims(facts)

    def _blockers(self, blockers: Blockers) -> None:
        for key, found in blockers.items():
            tick()
            hit = self.assessed(key)
            if hit is None or hit[1].status not in CLAIMS:
                continue
            index, item = hit
            reasons = "; ".join(f"{b.code}: {b.reason}" for b in found)
            self.add(
                PlanCode.KNOWN_BLOCKER_CLAIMED,
                f"/assessments/{index}/status",
                f"{key.node_id} is assessed {item.status}, but the session shows a known "
                f"blocker ({reasons})",
            )

    def _supported(self, key: SubjectKey) -> tuple[int, Assessment] | None:
        hit = self.assessed(key)
        return hit if hit is not None and hit[1].status == "supported" else None

    def _dependencies(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        runtime = self.report.destination.runtime
        for dep_id in facts.plan.dependency_ids:
            tick()
            dep = binding.profile.dependencies.get(dep_id)
            hit = self._supported(SubjectKey("dependency", None, dep_id))
            if dep is None or hit is None:
                continue
            index, item = hit
            at = f"/assessments/{index}"
            resolved = item.resolved
            identity = resolved.identity if resolved else None
            version = resolved.version if resolved else None
            if identity != dep.identity:
                self.add(
                    PlanCode.DEPENDENCY_UNVERIFIED,
                    at + "/resolved/identity",
                    f"dependency {dep_id!r} is declared as {dep.identity!r}; the report resolves "
                    f"{identity!r}",
                )
            elif version not in dep.accepted_versions:
                self.add(
                    PlanCode.DEPENDENCY_UNVERIFIED,
                    at + "/resolved/version",
                    f"dependency {dep_id!r} accepts versions {_listed(dep.accepted_versions)}; "
                    f"the report resolves {version!r}",
                )
            if (
                runtime.os not in dep.platform.os
                or runtime.architecture not in dep.platform.architectures
            ):
                self.add(
                    PlanCode.PLATFORM_UNSUPPORTED,
                    at + "/status",
                    f"dependency {dep_id!r} accepts {_listed(dep.platform.os)} on "
                    f"{_listed(dep.platform.architectures)}; the destination is "
                    f"{runtime.os!r} on {runtime.architecture!r}",
                )

    def _services(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        for svc_id in facts.plan.service_binding_ids:
            tick()
            service = binding.profile.services.get(svc_id)
            hit = self._supported(SubjectKey("service", None, svc_id))
            if service is None or hit is None:
                continue
            index, item = hit
            at = f"/assessments/{index}/resolved"
            resolved = item.resolved
            account = resolved.account if resolved else None
            audience = resolved.audience if resolved else None
            if not same(account, service.account) or audience != service.audience:
                self.add(
                    PlanCode.SERVICE_IDENTITY_MISMATCH,
                    at + ("/account" if not same(account, service.account) else "/audience"),
                    f"service {svc_id!r} is for account {as_json(service.account)} and audience "
                    f"{service.audience!r}; the report resolves {as_json(account)} and "
                    f"{audience!r}",
                )
            scopes = set(resolved.scopes or []) if resolved else set()
            handles = set(resolved.secret_handles or []) if resolved else set()
            missing = []
            if not set(service.scopes) <= scopes:
                missing.append(f"scopes {_listed(set(service.scopes) - scopes)}")
            if not set(service.secret_handles) <= handles:
                missing.append(f"secret handles {_listed(set(service.secret_handles) - handles)}")
            if not (resolved and resolved.endpoint):
                missing.append("an endpoint")
            if missing:
                self.add(
                    PlanCode.SERVICE_ACCESS_UNRESOLVED,
                    at,
                    f"service {svc_id!r} is supported without " + " and ".join(missing),
                )

    def _requirements(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        core = binding.core
        owners: list[tuple[str, str, list[Requirement]]] = []
        checkpoint = core.checkpoints.get(facts.plan.checkpoint_id)
        if checkpoint is not None:
            owners.append(("checkpoint_requirement", checkpoint.id, list(checkpoint.requirements)))
        for env in core.session.environments:
            owners.append(("environment_requirement", env.id, list(env.requirements)))
        for kind, owner, requirements in owners:
            for requirement in requirements:
                tick()
                ident = requirement.id
                key = SubjectKey(kind, owner, ident)
                if key not in facts.inventory:
                    continue
                hit = self._supported(key)
                if hit is None:
                    continue
                index, item = hit
                at = f"/assessments/{index}"
                status = item.resolved.status if item.resolved else None
                if not item.evidence_ids or status != "available":
                    self.add(
                        PlanCode.REQUIREMENT_UNVERIFIED,
                        at + ("/evidence_ids" if not item.evidence_ids else "/resolved/status"),
                        f"{key.node_id} is supported with "
                        f"{len(item.evidence_ids)} evidence item(s) and resolved status "
                        f"{status!r}; it needs destination evidence and 'available'",
                    )
                handle = requirement.secret_handle
                handles = (item.resolved.secret_handles or []) if item.resolved else []
                if handle is not None and handle not in handles:
                    self.add(
                        PlanCode.REQUIREMENT_UNVERIFIED,
                        at + "/resolved/secret_handles",
                        f"{key.node_id} needs secret handle {handle!r}; the report resolves "
                        f"{_listed(handles)}",
                    )

    def _recovery(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        action = facts.plan.next_action
        if action.kind != "reconcile_operation" or action.operation_id is None:
            return
        operation = binding.profile.operations.get(action.operation_id)
        hit = self._supported(SubjectKey("operation", None, action.operation_id))
        if operation is None or hit is None:
            return
        index, item = hit
        resolved = item.resolved
        strategy = resolved.recovery_strategy if resolved else None
        identity = resolved.external_identity if resolved else None
        problems = []
        if not item.evidence_ids:
            problems.append("no destination evidence")
        if strategy != operation.recovery.strategy:
            problems.append(
                f"recovery strategy {strategy!r} where the session declares "
                f"{operation.recovery.strategy!r}"
            )
        if operation.external_identity is None:
            problems.append("the session records no external identity to reconcile")
        elif not same(identity, operation.external_identity):
            problems.append(
                f"external identity {as_json(identity)} where the session records "
                f"{as_json(operation.external_identity)}"
            )
        if problems:
            where = "/resolved/external_identity" if identity is not None else "/status"
            if not item.evidence_ids:
                where = "/evidence_ids"
            elif strategy != operation.recovery.strategy:
                where = "/resolved/recovery_strategy"
            self.add(
                PlanCode.RECOVERY_UNVERIFIED,
                f"/assessments/{index}{where}",
                f"reconciliation of {action.operation_id!r} is supported with "
                + "; ".join(problems),
            )

    def _native(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        native_id = facts.plan.native_import_id
        if native_id is None:
            return
        native = binding.profile.natives.get(native_id)
        hit = self._supported(SubjectKey("native_import", None, native_id))
        if native is None or hit is None:
            return
        version = self.report.destination.runtime.agent.version
        if version not in native.accepted_target_agent_versions:
            self.add(
                PlanCode.NATIVE_VERSION_UNSUPPORTED,
                f"/assessments/{hit[0]}/status",
                f"native import {native_id!r} accepts target agent versions "
                f"{_listed(native.accepted_target_agent_versions)}; the destination agent is "
                f"{version!r}",
            )

    def _paths(self, binding: SessionBinding, facts: DefinedPlan) -> None:
        selected: dict[str, str] = {}  # root → workspace
        needed: set[str] = set()
        for ws_id in facts.plan.workspace_ids:
            workspace = binding.profile.workspaces.get(ws_id)
            if workspace is None:
                continue
            selected.setdefault(workspace.root_id, ws_id)
            hit = self.assessed(SubjectKey("workspace", None, ws_id))
            if hit is not None and (hit[1].required or hit[1].status in CLAIMS):
                needed.add(workspace.root_id)
        mappings: dict[str, int] = {}
        for i, item in enumerate(self.report.path_bindings):
            tick()
            if item.root_id in mappings:
                self.add(
                    PlanCode.PATH_BINDINGS_INCOMPLETE,
                    f"/path_bindings/{i}/root_id",
                    f"root {item.root_id!r} is bound twice",
                )
                continue
            mappings[item.root_id] = i
            if item.root_id not in selected:
                self.add(
                    PlanCode.PATH_BINDINGS_INCOMPLETE,
                    f"/path_bindings/{i}/root_id",
                    f"root {item.root_id!r} is not the root of a workspace the plan selects "
                    f"({_listed(selected)})",
                )
        unbound = needed - set(mappings)
        if unbound:
            self.add(
                PlanCode.PATH_BINDINGS_INCOMPLETE,
                "/path_bindings",
                f"roots {_listed(unbound)} of required or claimed workspaces have no path "
                f"binding; the report binds {_listed(mappings)}",
            )
        for ws_id in facts.plan.workspace_ids:
            workspace = binding.profile.workspaces.get(ws_id)
            tree = binding.trees.get(ws_id)
            if workspace is None or tree is None or workspace.root_id not in mappings:
                continue
            index = mappings[workspace.root_id]
            mapping = self.report.path_bindings[index]
            seen: dict[str, str] = {}
            for path in tree.entries:
                tick()
                folded = path
                if mapping.unicode_normalization != "none":
                    folded = unicodedata.normalize(mapping.unicode_normalization, folded)
                if not mapping.case_sensitive:
                    folded = folded.casefold()
                if folded in seen:
                    self.add(
                        PlanCode.DESTINATION_PATH_COLLISION,
                        f"/path_bindings/{index}",
                        f"workspace {ws_id!r} has {seen[folded]!r} and {path!r}, one path at a "
                        f"destination that is case-"
                        f"{'sensitive' if mapping.case_sensitive else 'insensitive'} with "
                        f"{mapping.unicode_normalization} normalisation",
                    )
                    break
                seen[folded] = path

    def _model(self, facts: DefinedPlan) -> None:
        model = self.report.model_assessment
        source = facts.plan.model_requirements.source_model
        if not same(model.source, source):
            self.add(
                PlanCode.MODEL_SOURCE_MISMATCH,
                "/model_assessment/source",
                f"the plan's source model is {as_json(source)}; the report assesses "
                f"{as_json(model.source)}",
            )
        if not same(model.source, model.target):
            hit = self.assessed(SubjectKey("model", None, facts.plan.id))
            if hit is not None and hit[1].status == "supported":
                self.add(
                    PlanCode.MODEL_SUBSTITUTION,
                    f"/assessments/{hit[0]}/status",
                    f"target model {as_json(model.target)} replaces {as_json(model.source)}, "
                    "yet the model is assessed supported rather than adapted or unsupported",
                )

    def _action_claims(self, facts: DefinedPlan) -> None:
        action = facts.plan.next_action.kind
        agent = action in AGENT_ACTIONS
        if self.report.import_result.status == "imported" and not agent:
            self.add(
                PlanCode.EXECUTION_CLAIM_EXCEEDS_ACTION,
                "/import_result/status",
                f"the report claims an import; the plan's next action {action!r} is not an "
                "agent action",
            )
        if self.report.continuation_result.status == "continued" and not (
            agent or action == "reconcile_operation"
        ):
            self.add(
                PlanCode.EXECUTION_CLAIM_EXCEEDS_ACTION,
                "/continuation_result/status",
                f"the report claims a continuation; the plan's next action {action!r} is not an "
                "active action",
            )
