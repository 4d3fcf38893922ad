"""The registry of every finding code: for each member of the enums of `core/codes.py`, the
severity it is usually reported with and a one-line meaning, and the generated
``docs/codes.md``.

Kept apart from the enums so that the ~80 modules that raise a code import only the names,
and the meanings (read by the docs, tooltips, `api.describe` and `--json`) sit in one table.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, Final

from zcf_inspector.core.codes import (
    AdvisoryCode,
    BlockerCode,
    CodeFamily,
    CodeInfo,
    ErrorCode,
    FileCode,
    PackageCode,
    PlanCode,
    ReviewCode,
)
from zcf_inspector.core.findings import Severity

E, INFO, WARNING = Severity.ERROR, Severity.INFO, Severity.WARNING

_PACKET: Final[Mapping[ErrorCode, tuple[Severity, str]]] = {
    ErrorCode.PACKET_TOO_LARGE: (
        E,
        "more bytes than the reader's limit (64 MiB unless configured)",
    ),
    ErrorCode.INVALID_ENCODING: (E, "not UTF-8, a byte-order mark, or a lone surrogate escape"),
    ErrorCode.INVALID_JSON: (
        E,
        "not RFC 8259 JSON (trailing data, comments, NaN…), at the first byte no JSON text "
        "continues with",
    ),
    ErrorCode.DUPLICATE_KEY: (E, "the same key twice in one object, at any depth"),
    ErrorCode.NESTING_TOO_DEEP: (E, "arrays and objects nested deeper than 128"),
    ErrorCode.NUMBER_OUT_OF_RANGE: (E, "an integral number of magnitude 2^53 or more"),
    ErrorCode.NOT_AN_OBJECT: (
        E,
        "the top level is not a JSON object (at its first byte, before problems inside it)",
    ),
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
    PlanCode.DOCUMENT_REFUSED: (E, "the strict JSON reader refused the bytes"),
    PlanCode.UNRECOGNISED_DOCUMENT: (E, "not an ASIF session, continuation profile or report"),
    PlanCode.UNSUPPORTED_VERSION: (
        E,
        "an ASIF, profile or report version other than 0.4/0.2 or 0.5/0.3",
    ),
    PlanCode.PROFILE_ACTIVATION_MISMATCH: (
        E,
        "continuation data and its required feature do not come together",
    ),
    PlanCode.SCHEMA_VIOLATION: (E, "the document breaks the published JSON schema"),
    PlanCode.DUPLICATE_ID: (E, "an ID repeats within its own collection"),
    PlanCode.DANGLING_REFERENCE: (E, "a typed reference resolves nowhere"),
    PlanCode.DEPENDENCY_CYCLE: (E, "dependencies (or a plan's prerequisites) form a cycle"),
    PlanCode.REFERENCE_CYCLE: (E, "participant parents, causes or supersessions form a cycle"),
    PlanCode.CLOSURE_INCOMPLETE: (E, "a needed dependency is not selected by the plan"),
    PlanCode.UNDECLARED_SECRET: (E, "a secret handle the plan's configuration does not declare"),
    PlanCode.EVENT_ORDER_INVALID: (E, "event sequences, causes or branch order disagree"),
    PlanCode.HISTORY_STATE_INVALID: (
        E,
        "calls, results, decisions, tasks or executions contradict each other in history",
    ),
    PlanCode.BOUNDARY_INVALID: (E, "a context or checkpoint boundary does not fit its branch"),
    PlanCode.RESOURCE_INTEGRITY: (E, "an inline resource's bytes do not match its digest/length"),
    PlanCode.RESOURCE_NOT_CHECKED: (INFO, "a file-backed resource whose bytes were not read"),
    PlanCode.TOOL_SCHEMA_INVALID: (E, "a tool's input or output schema is not a JSON Schema"),
    PlanCode.STREAM_INVALID: (E, "a stream's segments do not assemble to what it claims"),
    PlanCode.COVERAGE_CONTRADICTION: (E, "a scope declared known_empty holds records"),
    PlanCode.UNGATED_EXTENSION: (E, "a required extension without its required feature"),
    PlanCode.CHECKPOINT_BINDING_MISMATCH: (
        E,
        "the plan's context/configuration differ from its checkpoint's",
    ),
    PlanCode.CHECKPOINT_NOT_HEAD: (
        E,
        "a branch without exactly one head checkpoint, or a plan's checkpoint off the head",
    ),
    PlanCode.CONTEXT_CONFIGURATION_MISMATCH: (
        E,
        "the plan's context does not carry the plan's configuration",
    ),
    PlanCode.STALE_CONTEXT: (E, "a context input uses an event after the context boundary"),
    PlanCode.CONTEXT_TOOL_CORRELATION: (
        E,
        "tool calls and results in a context do not correlate by call ID",
    ),
    PlanCode.UNREPORTED_TRANSFORMATION: (
        E,
        "a context tool input differs from its source event without a transformation",
    ),
    PlanCode.CONTEXT_ACCOUNTING_INCOMPLETE: (E, "branch events not accounted exactly once"),
    PlanCode.OPEN_CALL_STATE_MISMATCH: (
        E,
        "open calls at the checkpoint disagree with the context or the operations",
    ),
    PlanCode.NEXT_ACTION_UNBOUND: (E, "the next action's target is not bound by the plan"),
    PlanCode.WORKSPACE_BOUNDARY_MISMATCH: (E, "a selected workspace is not at the boundary"),
    PlanCode.WORKSPACE_ROOT_CONFLICT: (E, "two selected workspaces for one root"),
    PlanCode.WORKSPACE_STATE_INVALID: (E, "a workspace delta or snapshot is inconsistent"),
    PlanCode.GIT_STATE_INVALID: (E, "Git object IDs, index stages or blobs are inconsistent"),
    PlanCode.UNSAFE_PATH: (E, "a path that is not portable, relative and contained"),
    PlanCode.POINTER_UNRESOLVED: (E, "a path reference's JSON pointer names no string"),
    PlanCode.TOOL_DEPENDENCY_INCOMPLETE: (E, "a tool dependency without tool_id/behavior"),
    PlanCode.INSTRUCTION_BINDING_INCOMPLETE: (
        E,
        "instructions, effective order and rules are not the same set",
    ),
    PlanCode.INSTRUCTION_PRECEDENCE_MISMATCH: (
        E,
        "the effective order disagrees with ascending priority",
    ),
    PlanCode.INSTRUCTION_ROOT_UNSELECTED: (
        E,
        "an instruction rule scoped to a root no selected workspace has",
    ),
    PlanCode.POLICY_BINDING_INCOMPLETE: (E, "the binding's policies are not the captured ones"),
    PlanCode.UNSAFE_RESTART: (E, "a restart recovery without idempotency and evidence"),
    PlanCode.UNBOUND_OPEN_CALL: (E, "an open call without a selected operation"),
    PlanCode.NATIVE_IMPORT_INVALID: (E, "a native import contract breaks its own rules"),
    PlanCode.REPORT_BINDING_MISMATCH: (E, "the report binds other session bytes or IDs"),
    PlanCode.REPORT_EXPIRED: (E, "the clock is at or past the report's expiry"),
    PlanCode.REPORT_TIME_INVALID: (E, "report times unreadable, inverted or in the future"),
    PlanCode.ASSESSMENT_MISSING: (E, "an inventoried subject without an assessment"),
    PlanCode.ASSESSMENT_DUPLICATE: (E, "a subject assessed more than once"),
    PlanCode.ASSESSMENT_EXTRANEOUS: (E, "an assessment of a subject outside the inventory"),
    PlanCode.REQUIRED_FLAG_MISMATCH: (E, "a required flag that differs from the computed one"),
    PlanCode.OUTCOME_MISMATCH: (E, "the report's outcome is not the recomputed one"),
    PlanCode.BLOCKING_REASONS_MISMATCH: (
        E,
        "blocking reasons do not name exactly the blocking subjects",
    ),
    PlanCode.KNOWN_BLOCKER_CLAIMED: (
        E,
        "a subject the session shows to be a known blocker is claimed supported or adapted",
    ),
    PlanCode.ADAPTATION_WITHOUT_MAPPING: (E, "an adapted subject without a transformation"),
    PlanCode.OMISSION_WITHOUT_LOSS: (E, "a transformation of an omitted subject lists no loss"),
    PlanCode.EVIDENCE_UNRESOLVED: (E, "an evidence ID the report does not carry"),
    PlanCode.SYNTHETIC_EXECUTION_CLAIM: (E, "a synthetic report claims import or continuation"),
    PlanCode.SYNTHETIC_EVIDENCE_OBSERVED: (E, "synthetic evidence in an observed report"),
    PlanCode.RUNTIME_EVIDENCE_MISSING: (
        E,
        "an import or continuation claim without evidence of that kind",
    ),
    PlanCode.EXECUTION_CLAIM_EXCEEDS_ACTION: (
        E,
        "an import or continuation claim the assessed next action does not allow",
    ),
    PlanCode.DEPENDENCY_UNVERIFIED: (
        E,
        "a supported dependency without the declared identity and an accepted version",
    ),
    PlanCode.PLATFORM_UNSUPPORTED: (
        E,
        "a supported dependency whose platform excludes the destination's",
    ),
    PlanCode.SERVICE_IDENTITY_MISMATCH: (E, "a supported service with another account/audience"),
    PlanCode.SERVICE_ACCESS_UNRESOLVED: (
        E,
        "a supported service without its scopes, secret handles or endpoint",
    ),
    PlanCode.REQUIREMENT_UNVERIFIED: (
        E,
        "a supported core requirement without destination evidence",
    ),
    PlanCode.RECOVERY_UNVERIFIED: (
        E,
        "a supported reconciliation without matching strategy, identity and evidence",
    ),
    PlanCode.NATIVE_VERSION_UNSUPPORTED: (
        E,
        "a supported native import for a target agent version it does not accept",
    ),
    PlanCode.MODEL_SOURCE_MISMATCH: (E, "the assessed source model is not the plan's"),
    PlanCode.CONTEXT_FIT_UNMEASURED: (E, "a context fit claimed without tokenizer or counts"),
    PlanCode.CONTEXT_OVERFLOW: (E, "input tokens plus output reserve exceed the input limit"),
    PlanCode.MODEL_SUBSTITUTION: (E, "another target model assessed as supported"),
    PlanCode.PATH_BINDINGS_INCOMPLETE: (E, "path bindings do not cover exactly the roots"),
    PlanCode.DESTINATION_PATH_COLLISION: (
        E,
        "two workspace paths collide under the destination's case or normalisation",
    ),
    PlanCode.CORE_CHECK_SKIPPED: (INFO, "a bare profile: ASIF core references not checked"),
    PlanCode.PLANS_TOO_LARGE: (
        E,
        "the plans' graphs together pass what one check covers; the rest were not checked",
    ),
    PlanCode.PATTERN_TOO_COMPLEX: (
        E,
        "a regular expression too long or nested to compile, or past the budget: not checked",
    ),
    PlanCode.WORKSPACE_TOO_COMPLEX: (
        E,
        "glob excludes against deletions pass what one check covers: the rest not checked",
    ),
    PlanCode.VERSION_MIXED: (
        E,
        "declared versions of two ASIF contracts in one pair (0.4 with 0.3, 0.5 with 0.2)",
    ),
    PlanCode.SNAPSHOT_FORMAT_UNSUPPORTED: (
        E,
        "a snapshot format other than destination-capabilities/0.1",
    ),
    PlanCode.SNAPSHOT_UNAVAILABLE: (E, "no snapshot bytes supplied: the report cannot be verified"),
    PlanCode.SNAPSHOT_ENCODING_INVALID: (
        E,
        "snapshot data that is not strict canonical padded base64",
    ),
    PlanCode.SNAPSHOT_TOO_LARGE: (E, "a snapshot of no bytes or more than 1 MiB"),
    PlanCode.SNAPSHOT_BYTE_COUNT_MISMATCH: (E, "the declared byte count is not the decoded length"),
    PlanCode.SNAPSHOT_DIGEST_MISMATCH: (E, "capabilities_sha256 is not the SHA-256 of the bytes"),
    PlanCode.SNAPSHOT_JSON_INVALID: (E, "snapshot bytes that are not one strict UTF-8 JSON object"),
    PlanCode.SNAPSHOT_VERSION_INVALID: (E, "snapshot_version missing or not a string"),
    PlanCode.SNAPSHOT_VERSION_UNSUPPORTED: (E, "a snapshot_version other than 0.1"),
    PlanCode.SNAPSHOT_SCHEMA_VIOLATION: (E, "the snapshot breaks #/$defs/capability_snapshot"),
    PlanCode.SNAPSHOT_COMPONENT_DUPLICATE: (E, "a component ID repeats within the snapshot"),
    PlanCode.SNAPSHOT_TIME_INVALID: (
        E,
        "a timestamp without seconds, past milliseconds, offset or a real date",
    ),
    PlanCode.SNAPSHOT_INTERVAL_INVALID: (
        E,
        "not observed_at <= assessed_at < report expires_at <= snapshot expires_at",
    ),
    PlanCode.SNAPSHOT_EXPIRED: (
        E,
        "the clock is before the observation or at/past snapshot expiry",
    ),
    PlanCode.SNAPSHOT_EVIDENCE_MISSING: (E, "the snapshot's evidence_id names no report evidence"),
    PlanCode.SNAPSHOT_EVIDENCE_MISMATCH: (
        E,
        "the snapshot evidence's producer, instant or kind differ from the snapshot",
    ),
    PlanCode.SNAPSHOT_DESTINATION_MISMATCH: (E, "the snapshot is of another destination ID"),
    PlanCode.SNAPSHOT_RUNTIME_MISMATCH: (E, "the snapshot runtime is not the report's (as JSON)"),
    PlanCode.SNAPSHOT_MODE_MISMATCH: (E, "snapshot and report evaluation modes differ"),
    PlanCode.COMPONENT_REFERENCE_UNRESOLVED: (
        E,
        "an assessment names a component not in the snapshot",
    ),
    PlanCode.COMPONENT_BINDING_MISSING: (
        E,
        "a supported/adapted assessment without exactly one component of its kind",
    ),
    PlanCode.COMPONENT_NOT_AVAILABLE: (
        E,
        "support claimed on an unavailable or unknown component",
    ),
    PlanCode.COMPONENT_FACT_MISMATCH: (
        E,
        "a supported fact differs from its bound component (identity, access, limits, path)",
    ),
    PlanCode.SNAPSHOT_FEATURE_MISSING: (E, "a supported feature not in supported_features"),
    PlanCode.CURRENT_SNAPSHOT_DIFFERS: (
        E,
        "the caller's current snapshot bytes differ: the whole report is stale",
    ),
    PlanCode.CURRENT_SNAPSHOT_UNREADABLE: (
        E,
        "the caller's current snapshot is not a strict JSON object: currentness unverified",
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
    ReviewCode.PREVIOUS_RECEIPT_INVALID: (
        E,
        "the previous generation's receipt fails its shape, digest or signature check",
    ),
    ReviewCode.PREVIOUS_PACKET_REFUSED: (
        E,
        "the previous generation's packet does not ingest here at its receipt's importedAt",
    ),
    ReviewCode.PREVIOUS_RECEIPT_UNTRUSTED: (
        E,
        "repeating decisions of a receipt no trusted key signed, without accepting that first",
    ),
    ReviewCode.RECONCILE_RECEIPT_INVALID: (
        E,
        "a receipt to reconcile is not strict JSON or fails its shape, digest or signature check",
    ),
    ReviewCode.RECONCILE_RECEIPT_UNTRUSTED: (
        E,
        "reconciling a receipt no trusted key signed, without accepting that first",
    ),
}

_FILES: Final[Mapping[FileCode, tuple[Severity, str]]] = {
    FileCode.OUTPUT_UNWRITABLE: (
        E,
        "the output (stdout or a file) could not be written whole: no space, too large, I/O",
    ),
    FileCode.TRUST_FILE_UNSAFE: (
        E,
        "a trust or key file others may write or another user owns; a secret key file "
        "others may read",
    ),
}


_ADVISORY: Final[Mapping[AdvisoryCode, tuple[Severity, str]]] = {
    AdvisoryCode.SECRET_SUSPECTED: (
        WARNING,
        "a text looks like a credential (key, token, password); shown masked, never echoed",
    ),
    AdvisoryCode.HOSTILE_TEXT: (
        WARNING,
        "a text holds bidi, invisible or control characters, or a word mixing scripts; shown "
        "escaped",
    ),
    AdvisoryCode.CONFUSABLE_IDENTIFIER: (
        WARNING,
        "an identifier a destination acts on looks like another one (same UTS #39 skeleton)",
    ),
}


# The reference reader's reason (asif-0.5-package reference/package.py) is in brackets.
_PACKAGE: Final[Mapping[PackageCode, tuple[Severity, str]]] = {
    PackageCode.PACKAGE_TOO_LARGE: (E, "the archive is over 272 MiB (package byte limit)"),
    PackageCode.CONTAINER_INVALID: (
        E,
        "not a ZIP this reader accepts: bad headers, overlapping entries, a bad CRC",
    ),
    PackageCode.MEMBER_LIMIT: (E, "more than 1,024 members (package member limit)"),
    PackageCode.MEMBER_NAME_UNSAFE: (
        E,
        "a member or inventory name that is not a portable relative path (unsafe path)",
    ),
    PackageCode.MEMBER_COLLISION: (
        E,
        "two members one name case-folded, or a file that is also a folder (colliding member)",
    ),
    PackageCode.MEMBER_NOT_REGULAR: (
        E,
        "a directory entry, symbolic link or other non-regular member (nonregular member)",
    ),
    PackageCode.MEMBER_ENCODING_UNSUPPORTED: (
        E,
        "a compressed or encrypted member: only ZIP_STORED (unsupported package encoding)",
    ),
    PackageCode.MEMBER_TOO_LARGE: (
        E,
        "a member over 16 MiB (session, manifest) or 64 MiB (resource), or 256 MiB in all",
    ),
    PackageCode.MEMBER_SIZE_MISMATCH: (
        E,
        "a member's stored bytes are not its declared size (package member size mismatch)",
    ),
    PackageCode.METADATA_MISSING: (
        E,
        "no session.json or no asif-package.json member (missing package metadata)",
    ),
    PackageCode.MANIFEST_INVALID: (
        E,
        "asif-package.json is not a package 0.1 manifest with an inventory of records",
    ),
    PackageCode.INVENTORY_MEMBER_MISSING: (
        E,
        "the inventory lists a member the archive does not hold (missing inventoried member)",
    ),
    PackageCode.INVENTORY_MISMATCH: (
        E,
        "a member's bytes differ from its inventory record's byte count or SHA-256",
    ),
    PackageCode.MEMBER_UNLISTED: (
        E,
        "a member the inventory does not list (unlisted package member)",
    ),
    PackageCode.SESSION_INVALID: (
        E,
        "session.json is not an ASIF session the schema accepts",
    ),
    PackageCode.RESOURCE_PATH_RESERVED: (
        E,
        "an embedded resource names session.json or asif-package.json as its path",
    ),
    PackageCode.RESOURCE_MISSING: (
        E,
        "an embedded resource names a member the package lacks (missing packaged resource)",
    ),
    PackageCode.RESOURCE_MISMATCH: (
        E,
        "a member's bytes are not its resource's byte count or SHA-256 (resource integrity)",
    ),
    PackageCode.MEMBER_UNRELATED: (
        E,
        "a member no embedded resource of the session names (package has unrelated files)",
    ),
    PackageCode.SESSION_REFUSED: (
        E,
        "the packaged session breaks a core rule of ASIF (left unchecked by the reference reader)",
    ),
    PackageCode.SIGNATURE_UNSUPPORTED: (
        E,
        "the detached signature is not signature 0.1 over Ed25519 (unsupported signature)",
    ),
    PackageCode.SIGNED_MANIFEST_MISMATCH: (
        E,
        "the signature's manifest_sha256 is not the SHA-256 of these manifest bytes",
    ),
    PackageCode.SIGNING_KEY_UNTRUSTED: (
        E,
        "the signature's key_id is not the trusted key's (untrusted signing key)",
    ),
    PackageCode.PACKAGE_SIGNATURE_INVALID: (
        E,
        "the Ed25519 signature does not verify over the manifest digest under the trusted key",
    ),
}


BLOCKER_MEANINGS: Final[Mapping[BlockerCode, str]] = {
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


# Keyed by enum member within a family; Any because Mapping is invariant in its key.
_Table = Mapping[Any, tuple[Severity, str]]
_FAMILIES: Final[Mapping[type[StrEnum], tuple[CodeFamily, _Table]]] = {
    ErrorCode: (CodeFamily.PACKET, _PACKET),
    PlanCode: (CodeFamily.CONTINUATION, _CONTINUATION),
    ReviewCode: (CodeFamily.REVIEW, _REVIEW),
    AdvisoryCode: (CodeFamily.ADVISORY, _ADVISORY),
    FileCode: (CodeFamily.FILES, _FILES),
    PackageCode: (CodeFamily.PACKAGE, _PACKAGE),
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


def severity_of(code: StrEnum) -> Severity:
    return describe(code).severity


def meaning_of(code: StrEnum) -> str:
    return describe(code).meaning


def codes_markdown() -> str:
    """``docs/codes.md``: every code with its family, usual severity and meaning."""
    lines = [
        "# Finding codes",
        "",
        "Generated from `zcf_inspector/core/code_registry.py` by `scripts/codes_doc.py`;",
        "do not edit.",
        "Every finding the program reports carries one of these codes, a severity, a JSON",
        "pointer and a message. The severity shown is the usual one; the message says when a",
        "finding is reported with another (for instance a redaction pointer that names",
        "nothing is a warning; findings of a stage after a failed one are informational).",
        "",
    ]
    titles = {
        CodeFamily.PACKET: "Packets (profile §1-§6)",
        CodeFamily.CONTINUATION: "Continuation plans and reports (ASIF 0.4 and 0.5)",
        CodeFamily.REVIEW: "Review and its journal",
        CodeFamily.ADVISORY: "Advisories (beyond the profile: warnings, never a refusal)",
        CodeFamily.FILES: "Files the program trusts or writes",
        CodeFamily.PACKAGE: "ASIF packages (.asif.zip) and their detached signatures",
    }
    for family, title in titles.items():
        lines += [f"## {title}", "", "| code | severity | meaning |", "| --- | --- | --- |"]
        lines += [
            f"| `{info.code}` | {info.severity} | {info.meaning} |"
            for info in registry()
            if info.family is family
        ]
        lines.append("")
    lines += [
        "## Known blockers (`plan --json`: `nodes[].blockers[].code`)",
        "",
        "Why a plan's subject cannot be claimed supported or adapted, derived from the session",
        "alone; a report that claims it anyway is refused with `known_blocker_claimed`.",
        "",
        "| code | meaning |",
        "| --- | --- |",
    ]
    lines += [f"| `{code}` | {BLOCKER_MEANINGS[code]} |" for code in BlockerCode]
    lines.append("")
    return "\n".join(lines)
