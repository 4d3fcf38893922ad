"""The closed ZCF v1 objects of profile §3 as strict pydantic schemas.

These schemas are the documented boundary of the structure stage: every object the
profile closes is a ``TypedDict`` validated in pydantic's strict mode with
``extra="forbid"``, so an unknown key, a missing key, a wrong type, a value outside an
enumeration and a format mismatch all come back as one ``ValidationError`` that
``structure.py`` translates into findings with JSON pointers. They are written in the
small vocabulary of ``core.core_schemas``, which compiles them for pydantic-core without
loading pydantic (start-up time); pydantic builds the very same validators from them.

Why ``TypedDict`` and not ``BaseModel``: the checker never keeps what it validated (the
caller already holds the parsed packet; the stage returns only frozen findings), and
pydantic validates a list of 200 000 beliefs as ``TypedDict`` about four times faster
than as frozen models (0.15 s against 0.67 s, measured on a 64 MB packet) while applying
exactly the same strict, closed schema. ``NotRequired`` also states the profile's
``field?`` precisely: the key may be absent, but ``null`` is not an accepted value.

Formats are checked in pydantic-core's Rust regex engine where a pattern can express
them (ids, digests, pointers: the hot path of a large packet), and by the shared helpers
of ``formats.py`` otherwise; the test module proves both spellings accept the same
strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict  # pydantic needs this one below Python 3.12

from zcf_inspector.core.core_schemas import After, AtLeast, Text, closed
from zcf_inspector.core.formats import (
    Base64UrlError,
    ReviewStateName,
    TimestampError,
    b64u_decode,
    is_portable_path,
    parse_timestamp,
)

# --- enumerations, exactly as the published text and the profile spell them ----------

ArtifactKind = Literal["session-handoff", "continuity-archive"]
ClientKind = Literal["claude-code", "cursor", "codex", "opencode", "console"]
CaptureQuality = Literal["complete", "partial", "degraded"]
LifecycleCoverage = Literal["native", "consented-manual", "derived", "unavailable"]
EvidenceSourceKind = Literal["local", "external"]
ReceiptKind = Literal["patch", "verification"]
VerificationStatus = Literal["passed", "failed", "skipped", "error"]
OmissionStatus = Literal["omitted", "not_captured", "redacted", "unsupported"]
Capability = Literal[
    "zephr_remember",
    "zephr_recall",
    "zephr_why",
    "zephr_verify",
    "zephr_session",
    "zephr_rules",
    "zephr_status",
    "zephr_admin",
]
HandoffSection = Literal[
    "capsule",
    "beliefs",
    "evidenceSources",
    "evidenceAnchors",
    "receipts",
    "reviewEvents",
    "verification",
    "sourceHandoff",
    "allowedTools",
]
# An archive's content has one section (profile §4 names it `archiveRefs`); manifests of
# an archive packet may name it, so the schema accepts it and structure.py checks that a
# manifest entry names a section of the packet's own kind.
SectionName = Literal[HandoffSection, "archiveRefs"]

ARTIFACT_KINDS: tuple[str, ...] = get_args(ArtifactKind)
CONTENT_SECTIONS: tuple[str, ...] = get_args(HandoffSection)
CONTENT_SECTIONS_CORE: tuple[str, ...] = CONTENT_SECTIONS[:-1]
ARCHIVE_SECTION = "archiveRefs"
CAPABILITIES: tuple[str, ...] = get_args(Capability)
HIGH_RISK_TOOLS: frozenset[str] = frozenset({"zephr_admin", "zephr_rules"})
REVIEW_STATES: tuple[str, ...] = get_args(ReviewStateName)

FORMAT = "zephr-continuity"
FORMAT_VERSION = 1
CANONICALIZATION_PROFILE = "ZCF-JSON-v1"
MANIFEST_ALGORITHM = "zcf-lp-sha256-v1"
MANIFEST_DOMAIN = "zephr-continuity-manifest-v1"

# --- small formats ---------------------------------------------------------------------

# One regex does both the length (1-256 code points) and the character rule of an id, so
# an id costs a single Rust match on the hot path. Rust's `$` is end-of-text only.
ID_PATTERN = r"^[^\x00-\x1f]{1,256}$"
DIGEST_PATTERN = r"^sha256:[0-9a-f]{64}$"
# RFC 6901: "" or a sequence of "/" + token, where "~" only ever starts "~0" or "~1".
_POINTER_BODY = r"(?:/(?:[^/~]|~[01])*)*"
POINTER_PATTERN = f"^{_POINTER_BODY}$"
POINTER_RE = re.compile(_POINTER_BODY)  # use with fullmatch: Python's `$` allows a final \n

# What each pattern means, for messages: a raw regex is no help to a human reader.
PATTERN_EXPECTATIONS: dict[str, str] = {
    ID_PATTERN: "an id (1-256 characters, none below U+0020)",
    DIGEST_PATTERN: "a digest ('sha256:' and 64 lowercase hex digits)",
    POINTER_PATTERN: "an RFC 6901 JSON pointer ('' or '/'-prefixed tokens, '~' only as ~0 or ~1)",
}

FORMAT_ERROR = "zcf_format"  # the pydantic error type of every check written below


def _format_error(expected: str, detail: str = "") -> PydanticCustomError:
    return PydanticCustomError(FORMAT_ERROR, "{expected}", {"expected": expected, "detail": detail})


def _check_timestamp(value: str) -> str:
    try:
        parse_timestamp(value)
    except TimestampError as exc:
        raise _format_error(
            "a timestamp YYYY-MM-DDTHH:MM:SS[.fraction]Z (UTC, 1-9 fraction digits)"
        ) from exc
    return value


def _check_portable_path(value: str) -> str:
    if not is_portable_path(value):
        raise _format_error(
            "a portable relative path ('/'-separated, not absolute, "
            "no '.', '..' or empty segment, no backslash, no NUL)"
        )
    return value


def _b64u_bytes(min_len: int, max_len: int | None) -> Callable[[str], str]:
    if max_len is None:
        expected = "base64url without padding"
    elif min_len == max_len:
        expected = f"base64url without padding of exactly {min_len} bytes"
    else:
        expected = f"base64url without padding of {min_len}-{max_len} bytes"

    def check(value: str) -> str:
        try:
            raw = b64u_decode(value)
        except Base64UrlError as exc:
            raise _format_error(expected, f" ({exc})") from exc
        if len(raw) < min_len or (max_len is not None and len(raw) > max_len):
            raise _format_error(expected, f" (it decodes to {len(raw)} bytes)")
        return value

    return check


def _check_exactly_one(value: int) -> int:
    # A Literal[1] would not do: pydantic accepts True and 1.0 for it even when strict.
    if value != 1:
        raise _format_error("the integer 1")
    return value


# The markers are core_schemas' (pydantic-core builds the validators without pydantic's
# start-up cost); each means exactly what pydantic's own spelling in its comment does.
Id = Annotated[str, Text(pattern=ID_PATTERN)]  # StringConstraints(pattern=...)
Digest = Annotated[str, Text(pattern=DIGEST_PATTERN)]
JsonPointer = Annotated[str, Text(pattern=POINTER_PATTERN)]
Timestamp = Annotated[str, After(_check_timestamp)]  # AfterValidator(...)
PortablePath = Annotated[str, After(_check_portable_path)]
Nonce = Annotated[str, After(_b64u_bytes(16, 64))]
Signature = Annotated[str, After(_b64u_bytes(64, 64))]
Mac = Annotated[str, After(_b64u_bytes(32, 32))]
B64u = Annotated[str, After(_b64u_bytes(0, None))]
# An int in a strict schema (StrictInt); the objects are all strict.
One = Annotated[int, After(_check_exactly_one)]
Intent = Annotated[str, Text(min_length=1, max_length=1024)]
ByteLength = Annotated[int, AtLeast(0)]  # Field(ge=0)

# Every object is closed and strict (`core_schemas.closed`: pydantic's
# ConfigDict(strict=True, extra="forbid", defer_build=True)). Validators are built on
# first use, not at import (start-up time; a small packet leaves most of them unused:
# empty arrays, the kinds it does not use). Under a memory limit that first use is
# preceded by a headroom check like every other allocation in Rust
# (core.bounded_validation), so a late build refuses in words.

# --- envelope ----------------------------------------------------------------------------


@closed
class PacketIdentity(TypedDict):
    id: Id
    nonce: Nonce
    intent: Intent
    createdAt: Timestamp
    generation: One


@closed
class ClientDescriptor(TypedDict):
    kind: ClientKind
    name: Id
    version: Id


@closed
class SourceDescriptor(TypedDict):
    installationKeyId: Id
    scopeRefs: list[Id]
    client: ClientDescriptor


@closed
class UnboundIntent(TypedDict):
    kind: Literal["unbound-local-import"]


@closed
class RecipientBoundIntent(TypedDict):
    kind: Literal["recipient-bound"]
    destinationInstallationKeyId: Id


@closed
class RedactionEntry(TypedDict):
    section: SectionName
    pointer: JsonPointer
    reason: str


@closed
class RedactionManifest(TypedDict):
    policyId: Id
    policyVersion: Id
    entries: list[RedactionEntry]


@closed
class OmissionEntry(TypedDict):
    section: SectionName
    status: OmissionStatus
    reason: str


@closed
class OmissionManifest(TypedDict):
    entries: list[OmissionEntry]


@closed
class Retention(TypedDict):
    exportedAt: Timestamp
    policyVersion: Id
    reviewBy: Timestamp
    expiresAt: NotRequired[Timestamp]


@closed
class Manifest(TypedDict):
    algorithm: Literal["zcf-lp-sha256-v1"]
    domain: Literal["zephr-continuity-manifest-v1"]
    sections: dict[str, Digest]
    rootHash: Digest


@closed
class UnsignedAuthentication(TypedDict):
    kind: Literal["unsigned"]


@closed
class SourceSignatureAuthentication(TypedDict):
    kind: Literal["source-signature"]
    algorithm: Literal["ed25519"]
    publicKeyFingerprint: Digest
    signature: Signature


@closed
class RecipientBoundMacAuthentication(TypedDict):
    kind: Literal["recipient-bound-mac"]
    algorithm: Literal["ed25519+hmac-sha256"]
    publicKeyFingerprint: Digest
    signature: Signature
    mac: Mac


@closed
class ScopeProof(TypedDict):
    scheme: Id
    proof: B64u
    scopeRefs: list[Id]


# --- session-handoff content sections ---------------------------------------------------


@closed
class Capsule(TypedDict):
    objective: str
    decisions: list[str]
    constraints: list[str]
    changedFiles: list[PortablePath]
    risks: list[str]
    questions: list[str]
    nextActions: list[str]
    captureQuality: CaptureQuality
    limitations: list[str]
    lifecycleCoverage: LifecycleCoverage


@closed
class Belief(TypedDict):
    portableRef: Id
    sourceId: Id
    content: str
    reviewState: NotRequired[ReviewStateName]


@closed
class EvidenceSource(TypedDict):
    id: Id
    kind: EvidenceSourceKind
    locator: str
    digest: NotRequired[Digest]


@closed
class EvidenceAnchor(TypedDict):
    id: Id
    beliefRef: Id
    sourceRef: Id
    locator: NotRequired[str]
    excerpt: NotRequired[str]


@closed
class WorkReceipt(TypedDict):
    """An entry of a packet's ``receipts`` section (profile §3): a patch or a verification
    the source's work produced, by digest; not a transfer receipt (§6)."""

    id: Id
    kind: ReceiptKind
    digest: Digest
    summary: str


@closed
class ReviewEvent(TypedDict):
    id: Id
    beliefRef: Id
    reviewer: Id
    fromState: ReviewStateName
    toState: ReviewStateName
    at: Timestamp
    note: NotRequired[str]


@closed
class Verification(TypedDict):
    id: Id
    kind: Id
    status: VerificationStatus
    summary: NotRequired[str]
    receiptRef: NotRequired[Id]


@closed
class SourceHandoff(TypedDict):
    fromSessionId: Id
    toSessionId: Id | None
    worktreeId: Id | None
    checkpointBeliefIds: list[Id]


# --- continuity-archive content ---------------------------------------------------------


@closed
class ArchiveRef(TypedDict):
    ref: Id
    digest: Digest
    mediaType: str
    byteLength: ByteLength


# --- the schemas structure.py validates against --------------------------------------------
# (through `core.bounded_validation`, which builds and keeps one adapter per schema)

# Envelope objects: small in any real packet, validated in pieces when one is not.
ENVELOPE_TYPES: dict[str, Any] = {
    "packet": PacketIdentity,
    "source": SourceDescriptor,
    "redactionManifest": RedactionManifest,
    "omissionManifest": OmissionManifest,
    "retention": Retention,
    "manifest": Manifest,
    "scopeProof": ScopeProof,
}


# Objects whose shape depends on their `kind`: structure.py dispatches on the kind itself,
# so that a missing or unknown kind is one precise finding, not a union's error cascade.
class KindedObject:
    """An object whose closed field set depends on its ``kind``: one schema per kind."""

    __slots__ = ("fields", "shapes")

    def __init__(self, shapes: dict[str, Any]) -> None:
        self.shapes: dict[str, Any] = dict(shapes)
        # Every field some shape has: with no usable kind, a key outside this set is
        # unknown whatever the kind was meant to be.
        self.fields: frozenset[str] = frozenset(
            key
            for shape in shapes.values()
            for key in shape.__required_keys__ | shape.__optional_keys__
        )


RECIPIENT_INTENT = KindedObject(
    {"unbound-local-import": UnboundIntent, "recipient-bound": RecipientBoundIntent}
)
AUTHENTICATION = KindedObject(
    {
        "unsigned": UnsignedAuthentication,
        "source-signature": SourceSignatureAuthentication,
        "recipient-bound-mac": RecipientBoundMacAuthentication,
    }
)

# Object-valued content sections.
SECTION_OBJECT_TYPES: dict[str, Any] = {"capsule": Capsule, "sourceHandoff": SourceHandoff}


class ArraySection:
    """An array-valued content section: its item schema and the field naming each item."""

    __slots__ = ("id_field", "list_type")

    def __init__(self, item: type[object], id_field: str) -> None:
        # Validated in runs of items (core.bounded_validation), so memory stays flat
        # however long the array and however many of its items fail.
        self.list_type: Any = list[item]  # type: ignore[valid-type]
        self.id_field = id_field


ARRAY_SECTIONS: dict[str, ArraySection] = {
    "beliefs": ArraySection(Belief, "portableRef"),
    "evidenceSources": ArraySection(EvidenceSource, "id"),
    "evidenceAnchors": ArraySection(EvidenceAnchor, "id"),
    "receipts": ArraySection(WorkReceipt, "id"),
    "reviewEvents": ArraySection(ReviewEvent, "id"),
    "verification": ArraySection(Verification, "id"),
    ARCHIVE_SECTION: ArraySection(ArchiveRef, "ref"),
}
