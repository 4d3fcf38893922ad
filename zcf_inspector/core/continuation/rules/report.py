"""Destination report checks (§10a, §11): binding, expiry, inventory and outcome.

The outcome is recomputed from the assessments alone: a required subject that is
omitted, unresolved or unsupported blocks; otherwise an unaccepted transformation of a
required subject asks for adaptation; otherwise the report is ready.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import datetime

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.blockers import model_fit_blocker
from zcf_inspector.core.continuation.models.report import DestinationReport
from zcf_inspector.core.continuation.models.v0_5 import DestinationReport03
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.results import (
    BLOCKING_STATUSES,
    BlockingReason,
    ReportResult,
    ReportTimes,
    SubjectAssessment,
)
from zcf_inspector.core.continuation.rules.report_binding import DefinedPlan, SessionBinding
from zcf_inspector.core.continuation.rules.report_claims import ReportClaims
from zcf_inspector.core.continuation.rules.report_subjects import subject_key
from zcf_inspector.core.continuation.rules.snapshot_check import check_snapshot, plan_view
from zcf_inspector.core.continuation.subjects import SubjectKey
from zcf_inspector.core.continuation.timestamps import TimestampError, instant_of, parse_instant
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.gc_pause import paused_gc


def recompute_outcome(
    report: DestinationReport, required: dict[SubjectKey, bool] | None = None
) -> str:
    """§11 outcome rules over the assessments (``required`` overrides the reported flags)."""

    def is_required(key: SubjectKey, reported: bool) -> bool:
        return required.get(key, reported) if required is not None else reported

    flags: dict[SubjectKey, bool] = {}
    for item in report.assessments:
        tick()
        key = subject_key(item.subject)
        flags[key] = flags.get(key, False) or is_required(key, item.required)
        if flags[key] and item.status in BLOCKING_STATUSES:
            return "blocked"
    for transformation in report.transformations:
        tick()
        key = subject_key(transformation.subject)
        if not transformation.accepted and flags.get(key, False):
            return "adaptation_required"
    return "ready"


class _ReportChecker:
    def __init__(
        self,
        report: DestinationReport,
        binding: SessionBinding | None,
        now: datetime,
        current: bytes | None = None,
    ) -> None:
        self.report = report
        self.binding = binding
        self.now = now
        self.current = current
        self.findings: list[Finding] = []

    def add(self, code: PlanCode, where: str, message: str, subject: str | None = None) -> None:
        """A finding at ``where`` in the report, about ``subject`` (the node ID of the
        subject an assessment or transformation names) when it is about one."""
        self.findings.append(error(code, where, message, subject))

    def run(self) -> ReportResult:
        facts = self._binding()
        inventory = facts.inventory if facts is not None else None
        times = self._times()
        subjects = self._inventory(inventory)
        self._evidence()
        self._claims()
        claims = ReportClaims(self.report)
        self.findings.extend(claims.run_alone())
        if facts is not None and self.binding is not None:
            blockers = dict(facts.blockers)
            fit = model_fit_blocker(facts.plan.id, self.report.model_assessment.fit)
            if fit is not None:
                blockers[fit[0]] = [*blockers.get(fit[0], []), fit[1]]
            claims.findings = []
            claims.run_against(self.binding, facts, blockers)
            self.findings.extend(claims.findings)
        recomputed = recompute_outcome(self.report, inventory)
        if recomputed != self.report.outcome:
            self.add(
                PlanCode.OUTCOME_MISMATCH,
                "/outcome",
                f"the assessments give {recomputed!r}, the report says {self.report.outcome!r}",
            )
        snapshot = None
        if isinstance(self.report, DestinationReport03):
            roots = None
            if self.binding is not None:
                roots = {w.id: w.root_id for w in self.binding.profile.profile.workspaces}
            view = plan_view(None if facts is None else facts.plan, roots)
            snapshot, found = check_snapshot(self.report, view, self.now, self.current)
            self.findings.extend(found)
        return ReportResult(
            id=self.report.id,
            plan_id=self.report.source.plan_id,
            outcome=self.report.outcome,
            recomputed_outcome=recomputed,
            subjects=subjects,
            findings=tuple(self.findings),
            blocking_reasons=tuple(
                BlockingReason(subject_key(r.subject).node_id, r.reason, f"/blocking_reasons/{i}")
                for i, r in enumerate(self.report.blocking_reasons)
            ),
            times=times,
            model_fit=self.report.model_assessment.fit,
            snapshot=snapshot,
            report_version=self.report.report_version,
        )

    def _binding(self) -> DefinedPlan | None:
        binding, source = self.binding, self.report.source
        if binding is None:
            return None
        code = PlanCode.REPORT_BINDING_MISMATCH
        digest = hashlib.sha256(binding.raw).hexdigest()
        if source.document_sha256 != digest:
            self.add(
                code,
                "/source/document_sha256",
                f"the session's exact bytes hash to {digest}, the report binds "
                f"{source.document_sha256}",
            )
        if source.session_id != binding.session_id:
            self.add(
                code,
                "/source/session_id",
                f"the session is {binding.session_id!r}, the report binds {source.session_id!r}",
            )
        if source.capture_id != binding.capture_id:
            self.add(
                code,
                "/source/capture_id",
                f"the capture is {binding.capture_id!r}, the report binds {source.capture_id!r}",
            )
        facts = binding.plans.get(source.plan_id)
        if facts is None:
            self.add(code, "/source/plan_id", f"the session has no plan {source.plan_id!r}")
        return facts

    def _times(self) -> ReportTimes | None:
        try:
            # Exact instants: RFC 3339 fractions of any length, every digit compared.
            assessed = parse_instant(self.report.assessed_at)
        except TimestampError as exc:
            self.add(PlanCode.REPORT_TIME_INVALID, "/assessed_at", str(exc))
            return None
        try:
            expires = parse_instant(self.report.expires_at)
        except TimestampError as exc:
            self.add(PlanCode.REPORT_TIME_INVALID, "/expires_at", str(exc))
            return None
        if expires <= assessed:
            self.add(
                PlanCode.REPORT_TIME_INVALID,
                "/expires_at",
                "the report expires before it was assessed",
            )
        now = instant_of(self.now)
        if now >= expires:
            # §11: expiry is exclusive — at expires_at the assessment must be refreshed.
            self.add(
                PlanCode.REPORT_EXPIRED,
                "/expires_at",
                f"the report expired at {self.report.expires_at}",
            )
        elif now < assessed:
            self.add(
                PlanCode.REPORT_TIME_INVALID,
                "/assessed_at",
                f"the report is assessed at {self.report.assessed_at}, after the clock",
            )
        return ReportTimes(
            assessed_at=self.report.assessed_at,
            expires_at=self.report.expires_at,
            checked_at=self.now.isoformat().replace("+00:00", "Z"),
            expired=now >= expires,
            premature=now < assessed,
        )

    def _inventory(self, inventory: dict[SubjectKey, bool] | None) -> tuple[SubjectAssessment, ...]:
        first: dict[SubjectKey, int] = {}
        for i, item in enumerate(self.report.assessments):
            tick()
            key = subject_key(item.subject)
            if key in first:
                self.add(
                    PlanCode.ASSESSMENT_DUPLICATE,
                    f"/assessments/{i}/subject",
                    f"{key.node_id} is already assessed at /assessments/{first[key]}",
                    key.node_id,
                )
                continue
            first[key] = i
            if inventory is None:
                continue
            if key not in inventory:
                self.add(
                    PlanCode.ASSESSMENT_EXTRANEOUS,
                    f"/assessments/{i}/subject",
                    f"{key.node_id} is not in the plan's computed inventory",
                    key.node_id,
                )
            elif inventory[key] != item.required:
                state = "required" if inventory[key] else "optional"
                self.add(
                    PlanCode.REQUIRED_FLAG_MISMATCH,
                    f"/assessments/{i}/required",
                    f"{key.node_id} is {state} for this action; the report says "
                    f"required={str(item.required).lower()}",
                    key.node_id,
                )
        if inventory is not None:
            for key in inventory:
                tick()
                if key not in first:
                    self.add(
                        PlanCode.ASSESSMENT_MISSING,
                        "/assessments",
                        f"{key.node_id} has no assessment",
                        key.node_id,
                    )
        for i, transformation in enumerate(self.report.transformations):
            tick()
            key = subject_key(transformation.subject)
            if key not in first:
                self.add(
                    PlanCode.ASSESSMENT_EXTRANEOUS,
                    f"/transformations/{i}/subject",
                    f"transformation of {key.node_id}, which has no assessment",
                    key.node_id,
                )
        return self._subjects(inventory, first)

    def _subjects(
        self, inventory: dict[SubjectKey, bool] | None, first: dict[SubjectKey, int]
    ) -> tuple[SubjectAssessment, ...]:
        keys = list(inventory or {}) + [k for k in first if not inventory or k not in inventory]
        counts: Counter[SubjectKey] = Counter()
        for assessment in self.report.assessments:
            tick()
            counts[subject_key(assessment.subject)] += 1
        out = []
        for key in keys:
            tick()
            item = self.report.assessments[first[key]] if key in first else None
            out.append(
                SubjectAssessment(
                    node_id=key.node_id,
                    kind=key.kind,
                    subject_id=key.id,
                    owner=key.owner,
                    computed_required=None if inventory is None else inventory.get(key),
                    reported_required=None if item is None else item.required,
                    status=None if item is None else item.status,
                    assessments=counts[key],
                )
            )
        return tuple(out)

    def _evidence(self) -> None:
        known = {e.id for e in self.report.evidence}
        # (where, the evidence IDs, the subject whose assessment or transformation cites them)
        uses: list[tuple[str, list[str], str | None]] = []
        for i, assessment in enumerate(self.report.assessments):
            tick()
            node = subject_key(assessment.subject).node_id
            uses.append((f"/assessments/{i}/evidence_ids", assessment.evidence_ids, node))
        for i, transformation in enumerate(self.report.transformations):
            tick()
            node = subject_key(transformation.subject).node_id
            uses.append((f"/transformations/{i}/evidence_ids", transformation.evidence_ids, node))
        uses += [
            ("/import_result/evidence_ids", self.report.import_result.evidence_ids, None),
            (
                "/continuation_result/evidence_ids",
                self.report.continuation_result.evidence_ids,
                None,
            ),
        ]
        for where, ids, subject in uses:
            tick()
            for j, ident in enumerate(ids):
                if ident not in known:
                    self.add(
                        PlanCode.EVIDENCE_UNRESOLVED,
                        pointer.child(where, j),
                        f"evidence {ident!r} is not in the report's evidence",
                        subject,
                    )

    def _claims(self) -> None:
        report = self.report
        # §11: a synthetic report cannot report actual import or continuation.
        if report.evaluation_mode == "synthetic":
            if report.import_result.status != "not_attempted":
                self.add(
                    PlanCode.SYNTHETIC_EXECUTION_CLAIM,
                    "/import_result/status",
                    "a synthetic report cannot claim an import",
                )
            if report.continuation_result.status != "not_tested":
                self.add(
                    PlanCode.SYNTHETIC_EXECUTION_CLAIM,
                    "/continuation_result/status",
                    "a synthetic report cannot claim a continuation test",
                )
        mapped = {subject_key(t.subject) for t in report.transformations}
        for i, item in enumerate(report.assessments):
            tick()
            if item.status == "adapted" and subject_key(item.subject) not in mapped:
                # §10a: adaptations always need transformation mappings.
                self.add(
                    PlanCode.ADAPTATION_WITHOUT_MAPPING,
                    f"/assessments/{i}/status",
                    f"{subject_key(item.subject).node_id} is adapted without a transformation",
                    subject_key(item.subject).node_id,
                )


def check_report(
    report: DestinationReport,
    binding: SessionBinding | None,
    now: datetime,
    current: bytes | None = None,
) -> ReportResult:
    """Every finding about ``report`` (against ``binding`` when the session is known;
    ``current``: the caller's current snapshot bytes, for an ASIF 0.5 report)."""
    # The rules make many small acyclic objects over a large parsed report: the cyclic
    # collector's passes over that heap were the longest gaps between Cancel's check
    # points (hundreds of ms at 20,000 assessments), as in the plan walk (gc_pause.py).
    with paused_gc():
        return _ReportChecker(report, binding, now, current).run()
