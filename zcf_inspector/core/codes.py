"""Every finding code the program reports, in one registry: packets, continuation plans, review.

Closed enums of stable strings (scripts match on them), one per family. For every member,
the severity it is usually reported with and a one-line meaning are in
`core/code_registry.py` (a test holds every member to an entry there), from which
``docs/codes.md`` is generated (``scripts/codes_doc.py``; a test keeps it in step).

`BlockerCode` names why a plan's subject is a known blocker (not a finding: a node's
annotation in ``plan --json``), each with its meaning.

The families share a few spellings (``duplicate_id``, ``dangling_reference``): a StrEnum
member compares equal to its string, so lookups go by family first, never by string alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core.findings import Severity


class ErrorCode(StrEnum):
    """Every refusal code profile §1-§6 names, and no other (a test holds it to the profile)."""

    # §1 reading bytes
    PACKET_TOO_LARGE = "packet_too_large"
    INVALID_ENCODING = "invalid_encoding"
    INVALID_JSON = "invalid_json"
    DUPLICATE_KEY = "duplicate_key"
    NESTING_TOO_DEEP = "nesting_too_deep"
    NUMBER_OUT_OF_RANGE = "number_out_of_range"
    NOT_AN_OBJECT = "not_an_object"
    # §3 structure
    UNKNOWN_FIELD = "unknown_field"
    MISSING_FIELD = "missing_field"
    INVALID_VALUE = "invalid_value"
    UNSUPPORTED_FORMAT = "unsupported_format"
    UNSUPPORTED_FORMAT_VERSION = "unsupported_format_version"
    UNSUPPORTED_CANONICALIZATION_PROFILE = "unsupported_canonicalization_profile"
    ARTIFACT_CONTENT_MISMATCH = "artifact_content_mismatch"
    SECTION_MISSING_UNACCOUNTED = "section_missing_unaccounted"
    DUPLICATE_ID = "duplicate_id"
    DANGLING_REFERENCE = "dangling_reference"
    UNKNOWN_CAPABILITY = "unknown_capability"
    PACKET_EXPIRED = "packet_expired"
    # §4 manifest
    MANIFEST_SECTION_MISSING = "manifest_section_missing"
    MANIFEST_SECTION_UNEXPECTED = "manifest_section_unexpected"
    SECTION_DIGEST_MISMATCH = "section_digest_mismatch"
    MANIFEST_ROOT_MISMATCH = "manifest_root_mismatch"
    # §5 authentication
    UNSIGNED_REFUSED = "unsigned_refused"
    SOURCE_SIGNATURE_UNVERIFIABLE = "source_signature_unverifiable"
    RECIPIENT_INTENT_CONFLICT = "recipient_intent_conflict"
    RECIPIENT_MISMATCH = "recipient_mismatch"
    SOURCE_KEY_UNKNOWN = "source_key_unknown"
    INSTALLATION_KEY_UNAVAILABLE = "installation_key_unavailable"
    SIGNATURE_INVALID = "signature_invalid"
    MAC_INVALID = "mac_invalid"
    # §6 ingest
    HIGH_RISK_TOOL_REFUSED = "high_risk_tool_refused"


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
    # what one check covers (issue 15: no input costs more than its size)
    PLANS_TOO_LARGE = "plans_too_large"
    PATTERN_TOO_COMPLEX = "pattern_too_complex"
    WORKSPACE_TOO_COMPLEX = "workspace_too_complex"
    # ASIF 0.5: versions and destination capability snapshots (CAPABILITIES.md, issue 21)
    VERSION_MIXED = "version_mixed"
    SNAPSHOT_FORMAT_UNSUPPORTED = "snapshot_format_unsupported"
    SNAPSHOT_UNAVAILABLE = "snapshot_unavailable"
    SNAPSHOT_ENCODING_INVALID = "snapshot_encoding_invalid"
    SNAPSHOT_TOO_LARGE = "snapshot_too_large"
    SNAPSHOT_BYTE_COUNT_MISMATCH = "snapshot_byte_count_mismatch"
    SNAPSHOT_DIGEST_MISMATCH = "snapshot_digest_mismatch"
    SNAPSHOT_JSON_INVALID = "snapshot_json_invalid"
    SNAPSHOT_VERSION_INVALID = "snapshot_version_invalid"
    SNAPSHOT_VERSION_UNSUPPORTED = "snapshot_version_unsupported"
    SNAPSHOT_SCHEMA_VIOLATION = "snapshot_schema_violation"
    SNAPSHOT_COMPONENT_DUPLICATE = "snapshot_component_duplicate"
    SNAPSHOT_TIME_INVALID = "snapshot_time_invalid"
    SNAPSHOT_INTERVAL_INVALID = "snapshot_interval_invalid"
    SNAPSHOT_EXPIRED = "snapshot_expired"
    SNAPSHOT_EVIDENCE_MISSING = "snapshot_evidence_missing"
    SNAPSHOT_EVIDENCE_MISMATCH = "snapshot_evidence_mismatch"
    SNAPSHOT_DESTINATION_MISMATCH = "snapshot_destination_mismatch"
    SNAPSHOT_RUNTIME_MISMATCH = "snapshot_runtime_mismatch"
    SNAPSHOT_MODE_MISMATCH = "snapshot_mode_mismatch"
    COMPONENT_REFERENCE_UNRESOLVED = "component_reference_unresolved"
    COMPONENT_BINDING_MISSING = "component_binding_missing"
    COMPONENT_NOT_AVAILABLE = "component_not_available"
    COMPONENT_FACT_MISMATCH = "component_fact_mismatch"
    SNAPSHOT_FEATURE_MISSING = "snapshot_feature_missing"
    CURRENT_SNAPSHOT_DIFFERS = "current_snapshot_differs"
    CURRENT_SNAPSHOT_UNREADABLE = "current_snapshot_unreadable"


class ReviewCode(StrEnum):
    """Every refusal the review work makes."""

    UNKNOWN_PORTABLE_REF = "unknown_portable_ref"
    ILLEGAL_STATE = "illegal_state"
    NOTE_REQUIRED = "note_required"
    SUPERSEDED_BY_INVALID = "superseded_by_invalid"
    INVALID_DECISION = "invalid_decision"
    INVALID_REVIEWER = "invalid_reviewer"
    PACKET_REFUSED = "packet_refused"
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOTHING_TO_REDO = "nothing_to_redo"
    JOURNAL_CORRUPT = "journal_corrupt"
    JOURNAL_MISMATCH = "journal_mismatch"
    JOURNAL_UNSUPPORTED_VERSION = "journal_unsupported_version"
    JOURNAL_CONFLICT = "journal_conflict"
    JOURNAL_UNAVAILABLE = "journal_unavailable"
    RECEIPT_MISMATCH = "receipt_mismatch"
    PREVIOUS_RECEIPT_INVALID = "previous_receipt_invalid"
    PREVIOUS_PACKET_REFUSED = "previous_packet_refused"
    # issue 19: carrying decisions over from a receipt nobody trusted is asked for
    PREVIOUS_RECEIPT_UNTRUSTED = "previous_receipt_untrusted"
    # issue 32: two reviewers' receipts reconciled
    RECONCILE_RECEIPT_INVALID = "reconcile_receipt_invalid"
    RECONCILE_RECEIPT_UNTRUSTED = "reconcile_receipt_untrusted"


class FileCode(StrEnum):
    """What the program refuses about the files it trusts or writes (issue 19)."""

    OUTPUT_UNWRITABLE = "output_unwritable"
    TRUST_FILE_UNSAFE = "trust_file_unsafe"


class AdvisoryCode(StrEnum):
    """What a reviewer should know before admitting a packet, beyond the profile: warnings,
    never a refusal (issue 20)."""

    SECRET_SUSPECTED = "secret_suspected"
    HOSTILE_TEXT = "hostile_text"
    CONFUSABLE_IDENTIFIER = "confusable_identifier"


class PackageCode(StrEnum):
    """Why an ASIF `.asif.zip` package (TRANSPORT.md, package transport 0.1) or its
    detached signature is refused (issue 33): the reference reader's reasons, one code each."""

    PACKAGE_TOO_LARGE = "package_too_large"
    CONTAINER_INVALID = "container_invalid"
    MEMBER_LIMIT = "member_limit"
    MEMBER_NAME_UNSAFE = "member_name_unsafe"
    MEMBER_COLLISION = "member_collision"
    MEMBER_NOT_REGULAR = "member_not_regular"
    MEMBER_ENCODING_UNSUPPORTED = "member_encoding_unsupported"
    MEMBER_TOO_LARGE = "member_too_large"
    MEMBER_SIZE_MISMATCH = "member_size_mismatch"
    METADATA_MISSING = "metadata_missing"
    MANIFEST_INVALID = "manifest_invalid"
    INVENTORY_MEMBER_MISSING = "inventory_member_missing"
    INVENTORY_MISMATCH = "inventory_mismatch"
    MEMBER_UNLISTED = "member_unlisted"
    SESSION_INVALID = "session_invalid"
    RESOURCE_PATH_RESERVED = "resource_path_reserved"
    RESOURCE_MISSING = "resource_missing"
    RESOURCE_MISMATCH = "resource_mismatch"
    MEMBER_UNRELATED = "member_unrelated"
    SESSION_REFUSED = "session_refused"
    SIGNATURE_UNSUPPORTED = "signature_unsupported"
    SIGNED_MANIFEST_MISMATCH = "signed_manifest_mismatch"
    SIGNING_KEY_UNTRUSTED = "signing_key_untrusted"
    PACKAGE_SIGNATURE_INVALID = "package_signature_invalid"


class CodeFamily(StrEnum):
    PACKET = "packet"
    CONTINUATION = "continuation"
    REVIEW = "review"
    ADVISORY = "advisory"
    FILES = "files"
    PACKAGE = "package"


@dataclass(frozen=True, slots=True)
class CodeInfo:
    family: CodeFamily
    code: StrEnum
    severity: Severity  # the severity it is usually reported with
    meaning: str  # one line, for docs/codes.md and tooltips


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
