"""Every finding code the program reports, in one registry: packets, continuation plans, review.

Three closed enums of stable strings (scripts match on them) and, for every member, the
severity it is usually reported with and a one-line meaning. ``docs/codes.md`` is
generated from this table (``scripts/codes_doc.py``; a test keeps it in step).

The families share a few spellings (``duplicate_id``, ``dangling_reference``): a StrEnum
member compares equal to its string, so lookups go by family first, never by string alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

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
    # what one check covers (issue 15: no input costs more than its size)
    PLANS_TOO_LARGE = "plans_too_large"


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


class CodeFamily(StrEnum):
    PACKET = "packet"
    CONTINUATION = "continuation"
    REVIEW = "review"


@dataclass(frozen=True, slots=True)
class CodeInfo:
    family: CodeFamily
    code: StrEnum
    severity: Severity  # the severity it is usually reported with
    meaning: str  # one line, for docs/codes.md and tooltips


E, INFO = Severity.ERROR, Severity.INFO

_PACKET: Final[Mapping[ErrorCode, tuple[Severity, str]]] = {
    ErrorCode.PACKET_TOO_LARGE: (
        E,
        "more bytes than the reader's limit (64 MiB unless configured)",
    ),
    ErrorCode.INVALID_ENCODING: (E, "not UTF-8, a byte-order mark, or a lone surrogate escape"),
    ErrorCode.INVALID_JSON: (E, "not RFC 8259 JSON (trailing data, comments, NaN, leading zeros…)"),
    ErrorCode.DUPLICATE_KEY: (E, "the same key twice in one object, at any depth"),
    ErrorCode.NESTING_TOO_DEEP: (E, "arrays and objects nested deeper than 128"),
    ErrorCode.NUMBER_OUT_OF_RANGE: (E, "an integral number of magnitude 2^53 or more"),
    ErrorCode.NOT_AN_OBJECT: (E, "the top level is not a JSON object"),
    ErrorCode.UNKNOWN_FIELD: (E, "a key that the closed object does not list"),
    ErrorCode.MISSING_FIELD: (E, "a listed key that is absent and not optional"),
    ErrorCode.INVALID_VALUE: (E, "a value of the wrong type, outside its enum or format"),
    ErrorCode.UNSUPPORTED_FORMAT: (E, 'format is not "zephr-continuity"'),
    ErrorCode.UNSUPPORTED_FORMAT_VERSION: (E, "formatVersion is not the integer 1"),
    ErrorCode.UNSUPPORTED_CANONICALIZATION_PROFILE: (
        E,
        'canonicalizationProfile is not "ZCF-JSON-v1"',
    ),
    ErrorCode.ARTIFACT_CONTENT_MISMATCH: (E, "artifactKind contradicts the shape of content"),
    ErrorCode.SECTION_MISSING_UNACCOUNTED: (
        E,
        "a core content section absent with no omissionManifest entry",
    ),
    ErrorCode.DUPLICATE_ID: (E, "an id (or portableRef) repeated within its array"),
    ErrorCode.DANGLING_REFERENCE: (
        E,
        "a reference that names nothing (a warning for redaction pointers)",
    ),
    ErrorCode.UNKNOWN_CAPABILITY: (E, "an allowedTools name outside the published capability set"),
    ErrorCode.PACKET_EXPIRED: (E, "retention.expiresAt is before the destination's clock"),
    ErrorCode.MANIFEST_SECTION_MISSING: (E, "a covered section the manifest does not list"),
    ErrorCode.MANIFEST_SECTION_UNEXPECTED: (
        E,
        "a manifest entry for a section that is not covered",
    ),
    ErrorCode.SECTION_DIGEST_MISMATCH: (
        E,
        "a section's listed digest differs from its recomputed one",
    ),
    ErrorCode.MANIFEST_ROOT_MISMATCH: (E, "manifest.rootHash differs from the recomputed root"),
    ErrorCode.UNSIGNED_REFUSED: (E, "an unsigned packet at a destination that refuses them"),
    ErrorCode.SOURCE_SIGNATURE_UNVERIFIABLE: (
        E,
        "a source-signature packet: always refused, never downgraded",
    ),
    ErrorCode.RECIPIENT_INTENT_CONFLICT: (
        E,
        "a recipient-bound MAC on a packet not addressed to a recipient",
    ),
    ErrorCode.RECIPIENT_MISMATCH: (E, "addressed to another destination installation key"),
    ErrorCode.SOURCE_KEY_UNKNOWN: (E, "no trusted public key with the signing key's fingerprint"),
    ErrorCode.INSTALLATION_KEY_UNAVAILABLE: (
        INFO,
        "the MAC could not be checked: an installation key is missing",
    ),
    ErrorCode.SIGNATURE_INVALID: (E, "the Ed25519 signature does not verify (strict RFC 8032)"),
    ErrorCode.MAC_INVALID: (E, "the recipient MAC does not verify"),
    ErrorCode.HIGH_RISK_TOOL_REFUSED: (
        E,
        "a high-risk tool in allowedTools at a strict destination",
    ),
}

_CONTINUATION: Final[Mapping[PlanCode, tuple[Severity, str]]] = {
    PlanCode.DOCUMENT_REFUSED: (E, "the file is not strict JSON (profile §1 reader refusal)"),
    PlanCode.UNRECOGNISED_DOCUMENT: (
        E,
        "neither an ASIF session, a continuation profile nor a report",
    ),
    PlanCode.UNSUPPORTED_VERSION: (E, "an ASIF, profile or report version other than 0.4 / 0.2"),
    PlanCode.PROFILE_ACTIVATION_MISMATCH: (
        E,
        "the session's profile activation disagrees with its block",
    ),
    PlanCode.SCHEMA_VIOLATION: (E, "a value the ASIF 0.4 schemas do not allow"),
    PlanCode.DUPLICATE_ID: (E, "an id repeated where ids must be unique"),
    PlanCode.DANGLING_REFERENCE: (E, "a reference to an object the document does not hold"),
    PlanCode.DEPENDENCY_CYCLE: (E, "depends_on edges that form a cycle"),
    PlanCode.CLOSURE_INCOMPLETE: (E, "a plan that does not select a dependency its closure needs"),
    PlanCode.UNDECLARED_SECRET: (
        E,
        "a secret needed by the plan that no secret requirement declares",
    ),
    PlanCode.CHECKPOINT_BINDING_MISMATCH: (
        E,
        "a plan's checkpoint, context or event boundary disagree",
    ),
    PlanCode.CONTEXT_ACCOUNTING_INCOMPLETE: (
        E,
        "context items not accounted for by a transformation",
    ),
    PlanCode.NEXT_ACTION_UNBOUND: (E, "the next action names what the plan does not bind"),
    PlanCode.WORKSPACE_BOUNDARY_MISMATCH: (
        E,
        "a workspace state not at the plan's checkpoint boundary",
    ),
    PlanCode.WORKSPACE_ROOT_CONFLICT: (E, "two workspaces claim overlapping roots"),
    PlanCode.WORKSPACE_STATE_INVALID: (E, "a workspace snapshot or delta that cannot be applied"),
    PlanCode.UNSAFE_PATH: (E, "a path that is absolute, escapes its root or is not portable"),
    PlanCode.POINTER_UNRESOLVED: (E, "a JSON pointer that names nothing in its document"),
    PlanCode.TOOL_DEPENDENCY_INCOMPLETE: (E, "a tool dependency without what its tool needs"),
    PlanCode.UNSAFE_RESTART: (E, "an operation restarted although it is not safe to repeat"),
    PlanCode.UNBOUND_OPEN_CALL: (E, "an open tool call the plan neither awaits nor reconciles"),
    PlanCode.NATIVE_IMPORT_INVALID: (
        E,
        "a native import the destination cannot honour as declared",
    ),
    PlanCode.REPORT_BINDING_MISMATCH: (E, "a report bound to other bytes, session or plan"),
    PlanCode.REPORT_EXPIRED: (E, "the report's expires_at is before the assessment clock"),
    PlanCode.REPORT_TIME_INVALID: (
        E,
        "a report time that is not a valid RFC 3339 instant or is out of order",
    ),
    PlanCode.ASSESSMENT_MISSING: (
        E,
        "a subject of the plan's inventory the report does not assess",
    ),
    PlanCode.ASSESSMENT_DUPLICATE: (E, "a subject assessed more than once"),
    PlanCode.ASSESSMENT_EXTRANEOUS: (E, "an assessment of a subject outside the plan's inventory"),
    PlanCode.REQUIRED_FLAG_MISMATCH: (E, "a report's required flag differs from the computed one"),
    PlanCode.OUTCOME_MISMATCH: (
        E,
        "the report's outcome differs from the one its assessments imply",
    ),
    PlanCode.ADAPTATION_WITHOUT_MAPPING: (
        E,
        "an adapted subject without the mapping that adapts it",
    ),
    PlanCode.EVIDENCE_UNRESOLVED: (E, "evidence that names nothing in the report"),
    PlanCode.SYNTHETIC_EXECUTION_CLAIM: (E, "synthetic evidence claimed as an observed execution"),
    PlanCode.CORE_CHECK_SKIPPED: (
        INFO,
        "a bare profile: references into a session were not checked",
    ),
    PlanCode.PLANS_TOO_LARGE: (
        E,
        "the plans' graphs together pass what one check covers; the rest were not checked",
    ),
}

_REVIEW: Final[Mapping[ReviewCode, tuple[Severity, str]]] = {
    ReviewCode.UNKNOWN_PORTABLE_REF: (E, "a decision names no admitted belief"),
    ReviewCode.ILLEGAL_STATE: (E, "not one of the four review states"),
    ReviewCode.NOTE_REQUIRED: (E, "reject and supersede need a non-blank note"),
    ReviewCode.SUPERSEDED_BY_INVALID: (
        E,
        "supersededBy missing, extra, the belief itself or not admitted",
    ),
    ReviewCode.INVALID_DECISION: (
        E,
        "a decision that is not an object of the known keys and types",
    ),
    ReviewCode.INVALID_REVIEWER: (E, "the reviewer's name is not an id"),
    ReviewCode.PACKET_REFUSED: (E, "the packet did not ingest: there is nothing to review"),
    ReviewCode.NOTHING_TO_UNDO: (E, "no step to undo, or only steps sealed by an export"),
    ReviewCode.NOTHING_TO_REDO: (E, "no undone step to redo"),
    ReviewCode.JOURNAL_CORRUPT: (
        E,
        "the journal is damaged, was changed, cut short or removed, or fails its keyed checksums",
    ),
    ReviewCode.JOURNAL_MISMATCH: (E, "journal rows of another packet or another admission"),
    ReviewCode.JOURNAL_UNSUPPORTED_VERSION: (
        E,
        "a journal this version does not read: a newer one, or an older one without keyed sums",
    ),
    ReviewCode.JOURNAL_CONFLICT: (E, "the journal changed elsewhere since it was read"),
    ReviewCode.JOURNAL_UNAVAILABLE: (E, "the journal cannot be created, read or written"),
    ReviewCode.RECEIPT_MISMATCH: (E, "a receipt that belongs to another packet"),
}

# Keyed by enum member within a family; Any because Mapping is invariant in its key.
_Table = Mapping[Any, tuple[Severity, str]]
_FAMILIES: Final[Mapping[type[StrEnum], tuple[CodeFamily, _Table]]] = {
    ErrorCode: (CodeFamily.PACKET, _PACKET),
    PlanCode: (CodeFamily.CONTINUATION, _CONTINUATION),
    ReviewCode: (CodeFamily.REVIEW, _REVIEW),
}


def describe(code: StrEnum) -> CodeInfo:
    """The registry entry of ``code``; a KeyError for a code of no registered family."""
    family, table = _FAMILIES[type(code)]
    severity, meaning = table[code]
    return CodeInfo(family, code, severity, meaning)


def registry() -> Iterator[CodeInfo]:
    """Every registered code, family by family, in enum order."""
    for enum in _FAMILIES:
        for code in enum:
            yield describe(code)


def codes_markdown() -> str:
    """``docs/codes.md``: every code with its family, usual severity and meaning."""
    lines = [
        "# Finding codes",
        "",
        "Generated from `zcf_inspector/core/codes.py` by `scripts/codes_doc.py`; do not edit.",
        "Every finding the program reports carries one of these codes, a severity, a JSON",
        "pointer and a message. The severity shown is the usual one; the message says when a",
        "finding is reported with another (for instance a redaction pointer that names",
        "nothing is a warning; findings of a stage after a failed one are informational).",
        "",
    ]
    titles = {
        CodeFamily.PACKET: "Packets (profile §1-§6)",
        CodeFamily.CONTINUATION: "Continuation plans and reports (ASIF 0.4)",
        CodeFamily.REVIEW: "Review and its journal",
    }
    for family, title in titles.items():
        lines += [f"## {title}", "", "| code | severity | meaning |", "| --- | --- | --- |"]
        lines += [
            f"| `{info.code}` | {info.severity} | {info.meaning} |"
            for info in registry()
            if info.family is family
        ]
        lines.append("")
    return "\n".join(lines)
