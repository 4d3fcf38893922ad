"""The closed set of continuation finding codes, as stable strings scripts match on."""

from __future__ import annotations

from enum import StrEnum


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
    CLOSURE_INCOMPLETE = "closure_incomplete"
    UNDECLARED_SECRET = "undeclared_secret"
    # checkpoint, context and next action (§3)
    CHECKPOINT_BINDING_MISMATCH = "checkpoint_binding_mismatch"
    CONTEXT_ACCOUNTING_INCOMPLETE = "context_accounting_incomplete"
    NEXT_ACTION_UNBOUND = "next_action_unbound"
    # workspaces and paths (§5)
    WORKSPACE_BOUNDARY_MISMATCH = "workspace_boundary_mismatch"
    WORKSPACE_ROOT_CONFLICT = "workspace_root_conflict"
    WORKSPACE_STATE_INVALID = "workspace_state_invalid"
    UNSAFE_PATH = "unsafe_path"
    POINTER_UNRESOLVED = "pointer_unresolved"
    # dependencies, operations and native import (§6, §9, §10)
    TOOL_DEPENDENCY_INCOMPLETE = "tool_dependency_incomplete"
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
    ADAPTATION_WITHOUT_MAPPING = "adaptation_without_mapping"
    EVIDENCE_UNRESOLVED = "evidence_unresolved"
    SYNTHETIC_EXECUTION_CLAIM = "synthetic_execution_claim"
    CORE_CHECK_SKIPPED = "core_check_skipped"
