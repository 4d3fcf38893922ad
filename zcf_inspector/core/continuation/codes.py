"""The closed set of continuation finding codes, as stable strings scripts match on.

Every :class:`PlanCode` has a one-line meaning and a default severity in
:data:`PLAN_CODE_INFO`, and every :class:`BlockerCode` (why a plan subject is a known
blocker, derived from the session alone) a one-line meaning in :data:`BLOCKER_MEANINGS`;
a test keeps the tables complete.
"""

from __future__ import annotations

from enum import StrEnum

from zcf_inspector.core.findings import Severity


class PlanCode(StrEnum):
    """Every code the continuation checks emit, and no other."""

    # reading and recognising the document
    DOCUMENT_REFUSED = "document_refused"
    UNRECOGNISED_DOCUMENT = "unrecognised_document"
    UNSUPPORTED_VERSION = "unsupported_version"
    PROFILE_ACTIVATION_MISMATCH = "profile_activation_mismatch"
    SCHEMA_VIOLATION = "schema_violation"
    # references and the prerequisite graph (§2, §10a)
    DUPLICATE_ID = "duplicate_id"
    DANGLING_REFERENCE = "dangling_reference"
    DEPENDENCY_CYCLE = "dependency_cycle"
    REFERENCE_CYCLE = "reference_cycle"
    CLOSURE_INCOMPLETE = "closure_incomplete"
    UNDECLARED_SECRET = "undeclared_secret"
    # the ASIF core record the plans stand on
    EVENT_ORDER_INVALID = "event_order_invalid"
    HISTORY_STATE_INVALID = "history_state_invalid"
    BOUNDARY_INVALID = "boundary_invalid"
    RESOURCE_INTEGRITY = "resource_integrity"
    RESOURCE_NOT_CHECKED = "resource_not_checked"
    TOOL_SCHEMA_INVALID = "tool_schema_invalid"
    STREAM_INVALID = "stream_invalid"
    COVERAGE_CONTRADICTION = "coverage_contradiction"
    UNGATED_EXTENSION = "ungated_extension"
    # checkpoint, context and next action (§3, §4)
    CHECKPOINT_BINDING_MISMATCH = "checkpoint_binding_mismatch"
    CHECKPOINT_NOT_HEAD = "checkpoint_not_head"
    CONTEXT_CONFIGURATION_MISMATCH = "context_configuration_mismatch"
    STALE_CONTEXT = "stale_context"
    CONTEXT_TOOL_CORRELATION = "context_tool_correlation"
    UNREPORTED_TRANSFORMATION = "unreported_transformation"
    CONTEXT_ACCOUNTING_INCOMPLETE = "context_accounting_incomplete"
    OPEN_CALL_STATE_MISMATCH = "open_call_state_mismatch"
    NEXT_ACTION_UNBOUND = "next_action_unbound"
    # workspaces and paths (§5)
    WORKSPACE_BOUNDARY_MISMATCH = "workspace_boundary_mismatch"
    WORKSPACE_ROOT_CONFLICT = "workspace_root_conflict"
    WORKSPACE_STATE_INVALID = "workspace_state_invalid"
    GIT_STATE_INVALID = "git_state_invalid"
    UNSAFE_PATH = "unsafe_path"
    POINTER_UNRESOLVED = "pointer_unresolved"
    # dependencies, instructions, operations and native import (§6, §7, §9, §10)
    TOOL_DEPENDENCY_INCOMPLETE = "tool_dependency_incomplete"
    INSTRUCTION_BINDING_INCOMPLETE = "instruction_binding_incomplete"
    INSTRUCTION_PRECEDENCE_MISMATCH = "instruction_precedence_mismatch"
    INSTRUCTION_ROOT_UNSELECTED = "instruction_root_unselected"
    POLICY_BINDING_INCOMPLETE = "policy_binding_incomplete"
    UNSAFE_RESTART = "unsafe_restart"
    UNBOUND_OPEN_CALL = "unbound_open_call"
    NATIVE_IMPORT_INVALID = "native_import_invalid"
    # destination reports (§10a, §11)
    REPORT_BINDING_MISMATCH = "report_binding_mismatch"
    REPORT_EXPIRED = "report_expired"
    REPORT_TIME_INVALID = "report_time_invalid"
    ASSESSMENT_MISSING = "assessment_missing"
    ASSESSMENT_DUPLICATE = "assessment_duplicate"
    ASSESSMENT_EXTRANEOUS = "assessment_extraneous"
    REQUIRED_FLAG_MISMATCH = "required_flag_mismatch"
    OUTCOME_MISMATCH = "outcome_mismatch"
    BLOCKING_REASONS_MISMATCH = "blocking_reasons_mismatch"
    KNOWN_BLOCKER_CLAIMED = "known_blocker_claimed"
    ADAPTATION_WITHOUT_MAPPING = "adaptation_without_mapping"
    OMISSION_WITHOUT_LOSS = "omission_without_loss"
    EVIDENCE_UNRESOLVED = "evidence_unresolved"
    SYNTHETIC_EXECUTION_CLAIM = "synthetic_execution_claim"
    SYNTHETIC_EVIDENCE_OBSERVED = "synthetic_evidence_observed"
    RUNTIME_EVIDENCE_MISSING = "runtime_evidence_missing"
    EXECUTION_CLAIM_EXCEEDS_ACTION = "execution_claim_exceeds_action"
    DEPENDENCY_UNVERIFIED = "dependency_unverified"
    PLATFORM_UNSUPPORTED = "platform_unsupported"
    SERVICE_IDENTITY_MISMATCH = "service_identity_mismatch"
    SERVICE_ACCESS_UNRESOLVED = "service_access_unresolved"
    REQUIREMENT_UNVERIFIED = "requirement_unverified"
    RECOVERY_UNVERIFIED = "recovery_unverified"
    NATIVE_VERSION_UNSUPPORTED = "native_version_unsupported"
    MODEL_SOURCE_MISMATCH = "model_source_mismatch"
    CONTEXT_FIT_UNMEASURED = "context_fit_unmeasured"
    CONTEXT_OVERFLOW = "context_overflow"
    MODEL_SUBSTITUTION = "model_substitution"
    PATH_BINDINGS_INCOMPLETE = "path_bindings_incomplete"
    DESTINATION_PATH_COLLISION = "destination_path_collision"
    CORE_CHECK_SKIPPED = "core_check_skipped"


_E, _I = Severity.ERROR, Severity.INFO

PLAN_CODE_INFO: dict[PlanCode, tuple[Severity, str]] = {
    PlanCode.DOCUMENT_REFUSED: (_E, "the strict JSON reader refused the bytes"),
    PlanCode.UNRECOGNISED_DOCUMENT: (_E, "not an ASIF session, continuation profile or report"),
    PlanCode.UNSUPPORTED_VERSION: (_E, "an ASIF, profile or report version other than 0.4/0.2"),
    PlanCode.PROFILE_ACTIVATION_MISMATCH: (
        _E,
        "continuation data and its required feature do not come together",
    ),
    PlanCode.SCHEMA_VIOLATION: (_E, "the document breaks the published JSON schema"),
    PlanCode.DUPLICATE_ID: (_E, "an ID repeats within its own collection"),
    PlanCode.DANGLING_REFERENCE: (_E, "a typed reference resolves nowhere"),
    PlanCode.DEPENDENCY_CYCLE: (_E, "dependencies (or a plan's prerequisites) form a cycle"),
    PlanCode.REFERENCE_CYCLE: (_E, "participant parents, causes or supersessions form a cycle"),
    PlanCode.CLOSURE_INCOMPLETE: (_E, "a needed dependency is not selected by the plan"),
    PlanCode.UNDECLARED_SECRET: (_E, "a secret handle the plan's configuration does not declare"),
    PlanCode.EVENT_ORDER_INVALID: (_E, "event sequences, causes or branch order disagree"),
    PlanCode.HISTORY_STATE_INVALID: (
        _E,
        "calls, results, decisions, tasks or executions contradict each other in history",
    ),
    PlanCode.BOUNDARY_INVALID: (_E, "a context or checkpoint boundary does not fit its branch"),
    PlanCode.RESOURCE_INTEGRITY: (_E, "an inline resource's bytes do not match its digest/length"),
    PlanCode.RESOURCE_NOT_CHECKED: (_I, "a file-backed resource whose bytes were not read"),
    PlanCode.TOOL_SCHEMA_INVALID: (_E, "a tool's input or output schema is not a JSON Schema"),
    PlanCode.STREAM_INVALID: (_E, "a stream's segments do not assemble to what it claims"),
    PlanCode.COVERAGE_CONTRADICTION: (_E, "a scope declared known_empty holds records"),
    PlanCode.UNGATED_EXTENSION: (_E, "a required extension without its required feature"),
    PlanCode.CHECKPOINT_BINDING_MISMATCH: (
        _E,
        "the plan's context/configuration differ from its checkpoint's",
    ),
    PlanCode.CHECKPOINT_NOT_HEAD: (
        _E,
        "a branch without exactly one head checkpoint, or a plan's checkpoint off the head",
    ),
    PlanCode.CONTEXT_CONFIGURATION_MISMATCH: (
        _E,
        "the plan's context does not carry the plan's configuration",
    ),
    PlanCode.STALE_CONTEXT: (_E, "a context input uses an event after the context boundary"),
    PlanCode.CONTEXT_TOOL_CORRELATION: (
        _E,
        "tool calls and results in a context do not correlate by call ID",
    ),
    PlanCode.UNREPORTED_TRANSFORMATION: (
        _E,
        "a context tool input differs from its source event without a transformation",
    ),
    PlanCode.CONTEXT_ACCOUNTING_INCOMPLETE: (_E, "branch events not accounted exactly once"),
    PlanCode.OPEN_CALL_STATE_MISMATCH: (
        _E,
        "open calls at the checkpoint disagree with the context or the operations",
    ),
    PlanCode.NEXT_ACTION_UNBOUND: (_E, "the next action's target is not bound by the plan"),
    PlanCode.WORKSPACE_BOUNDARY_MISMATCH: (_E, "a selected workspace is not at the boundary"),
    PlanCode.WORKSPACE_ROOT_CONFLICT: (_E, "two selected workspaces for one root"),
    PlanCode.WORKSPACE_STATE_INVALID: (_E, "a workspace delta or snapshot is inconsistent"),
    PlanCode.GIT_STATE_INVALID: (_E, "Git object IDs, index stages or blobs are inconsistent"),
    PlanCode.UNSAFE_PATH: (_E, "a path that is not portable, relative and contained"),
    PlanCode.POINTER_UNRESOLVED: (_E, "a path reference's JSON pointer names no string"),
    PlanCode.TOOL_DEPENDENCY_INCOMPLETE: (_E, "a tool dependency without tool_id/behavior"),
    PlanCode.INSTRUCTION_BINDING_INCOMPLETE: (
        _E,
        "instructions, effective order and rules are not the same set",
    ),
    PlanCode.INSTRUCTION_PRECEDENCE_MISMATCH: (
        _E,
        "the effective order disagrees with ascending priority",
    ),
    PlanCode.INSTRUCTION_ROOT_UNSELECTED: (
        _E,
        "an instruction rule scoped to a root no selected workspace has",
    ),
    PlanCode.POLICY_BINDING_INCOMPLETE: (_E, "the binding's policies are not the captured ones"),
    PlanCode.UNSAFE_RESTART: (_E, "a restart recovery without idempotency and evidence"),
    PlanCode.UNBOUND_OPEN_CALL: (_E, "an open call without a selected operation"),
    PlanCode.NATIVE_IMPORT_INVALID: (_E, "a native import contract breaks its own rules"),
    PlanCode.REPORT_BINDING_MISMATCH: (_E, "the report binds other session bytes or IDs"),
    PlanCode.REPORT_EXPIRED: (_E, "the clock is at or past the report's expiry"),
    PlanCode.REPORT_TIME_INVALID: (_E, "report times unreadable, inverted or in the future"),
    PlanCode.ASSESSMENT_MISSING: (_E, "an inventoried subject without an assessment"),
    PlanCode.ASSESSMENT_DUPLICATE: (_E, "a subject assessed more than once"),
    PlanCode.ASSESSMENT_EXTRANEOUS: (_E, "an assessment of a subject outside the inventory"),
    PlanCode.REQUIRED_FLAG_MISMATCH: (_E, "a required flag that differs from the computed one"),
    PlanCode.OUTCOME_MISMATCH: (_E, "the report's outcome is not the recomputed one"),
    PlanCode.BLOCKING_REASONS_MISMATCH: (
        _E,
        "blocking reasons do not name exactly the blocking subjects",
    ),
    PlanCode.KNOWN_BLOCKER_CLAIMED: (
        _E,
        "a subject the session shows to be a known blocker is claimed supported or adapted",
    ),
    PlanCode.ADAPTATION_WITHOUT_MAPPING: (_E, "an adapted subject without a transformation"),
    PlanCode.OMISSION_WITHOUT_LOSS: (_E, "a transformation of an omitted subject lists no loss"),
    PlanCode.EVIDENCE_UNRESOLVED: (_E, "an evidence ID the report does not carry"),
    PlanCode.SYNTHETIC_EXECUTION_CLAIM: (_E, "a synthetic report claims import or continuation"),
    PlanCode.SYNTHETIC_EVIDENCE_OBSERVED: (_E, "synthetic evidence in an observed report"),
    PlanCode.RUNTIME_EVIDENCE_MISSING: (
        _E,
        "an import or continuation claim without evidence of that kind",
    ),
    PlanCode.EXECUTION_CLAIM_EXCEEDS_ACTION: (
        _E,
        "an import or continuation claim the assessed next action does not allow",
    ),
    PlanCode.DEPENDENCY_UNVERIFIED: (
        _E,
        "a supported dependency without the declared identity and an accepted version",
    ),
    PlanCode.PLATFORM_UNSUPPORTED: (
        _E,
        "a supported dependency whose platform excludes the destination's",
    ),
    PlanCode.SERVICE_IDENTITY_MISMATCH: (_E, "a supported service with another account/audience"),
    PlanCode.SERVICE_ACCESS_UNRESOLVED: (
        _E,
        "a supported service without its scopes, secret handles or endpoint",
    ),
    PlanCode.REQUIREMENT_UNVERIFIED: (
        _E,
        "a supported core requirement without destination evidence",
    ),
    PlanCode.RECOVERY_UNVERIFIED: (
        _E,
        "a supported reconciliation without matching strategy, identity and evidence",
    ),
    PlanCode.NATIVE_VERSION_UNSUPPORTED: (
        _E,
        "a supported native import for a target agent version it does not accept",
    ),
    PlanCode.MODEL_SOURCE_MISMATCH: (_E, "the assessed source model is not the plan's"),
    PlanCode.CONTEXT_FIT_UNMEASURED: (_E, "a context fit claimed without tokenizer or counts"),
    PlanCode.CONTEXT_OVERFLOW: (_E, "input tokens plus output reserve exceed the input limit"),
    PlanCode.MODEL_SUBSTITUTION: (_E, "another target model assessed as supported"),
    PlanCode.PATH_BINDINGS_INCOMPLETE: (_E, "path bindings do not cover exactly the roots"),
    PlanCode.DESTINATION_PATH_COLLISION: (
        _E,
        "two workspace paths collide under the destination's case or normalisation",
    ),
    PlanCode.CORE_CHECK_SKIPPED: (_I, "a bare profile: ASIF core references not checked"),
}


class BlockerCode(StrEnum):
    """Why a plan subject is a known blocker: it cannot be claimed supported or adapted."""

    BOUNDARY_NOT_CONSISTENT = "boundary_not_consistent"
    PENDING_DECISION = "pending_decision"
    CONFIGURATION_NOT_EFFECTIVE = "configuration_not_effective"
    UNKNOWN_AUTHORITY = "unknown_authority"
    UNKNOWN_MERGE_BEHAVIOR = "unknown_merge_behavior"
    CONTEXT_NOT_FAITHFUL = "context_not_faithful"
    CONTEXT_INPUT_UNAVAILABLE = "context_input_unavailable"
    RESOURCE_UNAVAILABLE = "resource_unavailable"
    RECOVERY_REFUSED = "recovery_refused"
    OPERATION_UNRESOLVED = "operation_unresolved"
    FEATURE_UNSUPPORTED = "feature_unsupported"
    MODEL_FIT_UNKNOWN = "model_fit_unknown"


BLOCKER_MEANINGS: dict[BlockerCode, str] = {
    BlockerCode.BOUNDARY_NOT_CONSISTENT: "the boundary is partial, unknown or best-effort",
    BlockerCode.PENDING_DECISION: "an agent action while a decision is still pending",
    BlockerCode.CONFIGURATION_NOT_EFFECTIVE: "the configuration is not the effective one",
    BlockerCode.UNKNOWN_AUTHORITY: "an instruction of unknown authority",
    BlockerCode.UNKNOWN_MERGE_BEHAVIOR: "an instruction of unknown merge behaviour",
    BlockerCode.CONTEXT_NOT_FAITHFUL: "the context's fidelity is partial or unknown",
    BlockerCode.CONTEXT_INPUT_UNAVAILABLE: "an event of the branch is unavailable as input",
    BlockerCode.RESOURCE_UNAVAILABLE: "the resource is unavailable, excluded, redacted or unknown",
    BlockerCode.RECOVERY_REFUSED: "the reconciliation target's recovery is not reconcile/reconnect",
    BlockerCode.OPERATION_UNRESOLVED: "a selected operation is still pending, running or unknown",
    BlockerCode.FEATURE_UNSUPPORTED: "a required feature this checker does not interpret",
    BlockerCode.MODEL_FIT_UNKNOWN: "the report's model fit is not 'fits'",
}


def severity_of(code: PlanCode) -> Severity:
    return PLAN_CODE_INFO[code][0]


def meaning_of(code: PlanCode) -> str:
    return PLAN_CODE_INFO[code][1]
