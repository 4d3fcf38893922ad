"""The ASIF package presenter: an `.asif.zip`, its inventory, its session and its detached
signature, in the words and trust levels every front end shows:

    VALID PACKAGE · SIGNED by sha256:56475aa7… (trusted)       verified (green)
    VALID PACKAGE · UNSIGNED                                   unsigned (neutral, never green)
    INTACT PACKAGE · SIGNATURE NOT CHECKED (no key)            unchecked (amber)
    REFUSED PACKAGE at assets/notes.md: inventory_mismatch     refused (red)

Validity (the container, the inventory, the closure and the session's core rules hold) and
authenticity (the manifest's bytes are signed under a key the caller trusts) are separate
words: VALID alone never says who made it. A package's verdict makes no continuation claim;
its session's plan, if it has one, is the ASIF presenter's (the session chip says it).
"""

from __future__ import annotations

from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.package.results import (
    ClosureEntry,
    ClosureState,
    InventoryEntry,
    MemberStatus,
    PackageResult,
    SignatureStatus,
)
from zcf_inspector.present import asif
from zcf_inspector.present.vocabulary import (
    SEPARATOR,
    CheckStatus,
    Chip,
    Trust,
    Verdict,
)

KEY_SHOWN = 16  # hex digits of a key id in the narrow headline
NO_KEY = "the detached signature (no trusted key was given to check it with)"


def where(finding: Finding) -> str:
    """``member`` or ``member#/pointer``: where in the package a finding is."""
    member = finding.subject or "(package)"
    return f"{member}#{finding.pointer}" if finding.pointer else member


def refusal_words(finding: Finding) -> str:
    return f"REFUSED PACKAGE at {where(finding)}: {finding.code}"


def _short(key_id: str) -> str:
    prefix, _, digest = key_id.partition(":")
    return f"{prefix}:{digest[:KEY_SHOWN]}…" if len(digest) > KEY_SHOWN else key_id


def headline(result: PackageResult) -> tuple[str, str, Trust]:
    """(narrow headline, full headline, trust)."""
    first = result.first_problem()
    if first is None and not result.session_ok:
        words = "REFUSED PACKAGE at session.json: session not checked"
        return words, words, Trust.REFUSED
    if first is not None:
        words = refusal_words(first)
        return words, words, Trust.REFUSED
    signed = result.signature
    if signed is None:
        words = f"VALID PACKAGE{SEPARATOR}UNSIGNED"
        return words, words, Trust.UNSIGNED
    if signed.status is SignatureStatus.NOT_CHECKED:
        words = f"INTACT PACKAGE{SEPARATOR}SIGNATURE NOT CHECKED (no key)"
        return words, words, Trust.UNCHECKED
    key = signed.key_id or "?"
    full = f"VALID PACKAGE{SEPARATOR}SIGNED by {key} (trusted)"
    return f"VALID PACKAGE{SEPARATOR}SIGNED by {_short(key)} (trusted)", full, Trust.VERIFIED


def _first_of(result: PackageResult, codes_of: str) -> Finding | None:
    return next((f for f in result.findings if f.code in _STAGES[codes_of]), None)


_STAGES: dict[str, frozenset[PackageCode]] = {
    "container": frozenset(
        {
            PackageCode.PACKAGE_TOO_LARGE,
            PackageCode.CONTAINER_INVALID,
            PackageCode.MEMBER_LIMIT,
            PackageCode.MEMBER_NAME_UNSAFE,
            PackageCode.MEMBER_COLLISION,
            PackageCode.MEMBER_NOT_REGULAR,
            PackageCode.MEMBER_ENCODING_UNSUPPORTED,
            PackageCode.MEMBER_TOO_LARGE,
            PackageCode.MEMBER_SIZE_MISMATCH,
            PackageCode.METADATA_MISSING,
        }
    ),
    "inventory": frozenset(
        {
            PackageCode.MANIFEST_INVALID,
            PackageCode.INVENTORY_MEMBER_MISSING,
            PackageCode.INVENTORY_MISMATCH,
            PackageCode.MEMBER_UNLISTED,
        }
    ),
    "closure": frozenset(
        {
            PackageCode.RESOURCE_PATH_RESERVED,
            PackageCode.RESOURCE_MISSING,
            PackageCode.RESOURCE_MISMATCH,
            PackageCode.MEMBER_UNRELATED,
            PackageCode.SESSION_INVALID,
        }
    ),
}


def _fail(check: str, finding: Finding) -> Chip:
    return Chip(
        check,
        CheckStatus.FAIL,
        str(finding.code),
        f"{where(finding)}: {finding.message}",
        where(finding),
    )


def _container_chip(result: PackageResult) -> Chip:
    found = _first_of(result, "container")
    if found is not None:
        return _fail("container", found)
    return Chip(
        "container",
        CheckStatus.PASS,
        f"{result.members} stored members",
        f"{result.members} regular ZIP_STORED members with portable names, none extracted",
    )


def _inventory_chip(result: PackageResult) -> Chip | None:
    if result.members == 0:
        return None
    found = _first_of(result, "inventory")
    if found is not None:
        return _fail("inventory", found)
    matching = sum(1 for e in result.inventory if e.status is not MemberStatus.DIFFERS)
    return Chip(
        "inventory",
        CheckStatus.PASS,
        f"{matching} match",
        f"every member's bytes and SHA-256 are its record's in asif-package.json "
        f"(manifest SHA-256 {result.manifest_sha256})",
    )


def _closure_chip(result: PackageResult) -> Chip | None:
    if result.members == 0:
        return None
    found = _first_of(result, "closure")
    if found is not None:
        return _fail("resource closure", found)
    present = sum(1 for e in result.closure if e.state is ClosureState.PRESENT)
    return Chip(
        "resource closure",
        CheckStatus.PASS,
        f"{present} file resource{'s' if present != 1 else ''}",
        "every other member is exactly an embedded resource of the session, with its bytes",
    )


def _session_chip(result: PackageResult) -> Chip | None:
    if result.session is None:
        return None
    shown = asif.verdict(result.session)
    state = CheckStatus.FAIL if shown.trust is Trust.REFUSED else CheckStatus.PASS
    return Chip("session", state, shown.words, f"session.json: {shown.words}", "session.json")


def _signature_chip(result: PackageResult) -> Chip:
    signed = result.signature
    if signed is None:
        return Chip("signature", CheckStatus.NOT_RUN, "unsigned", "no detached signature was given")
    if signed.status is SignatureStatus.REFUSED:
        return _fail("signature", signed.findings[0])
    if signed.status is SignatureStatus.NOT_CHECKED:
        return Chip("signature", CheckStatus.NOT_CHECKABLE, "no key", NO_KEY)
    return Chip(
        "signature",
        CheckStatus.PASS,
        f"signed by {signed.key_id}",
        f"Ed25519 over the manifest's SHA-256 {signed.manifest_sha256}, under the key "
        f"{signed.key_id} the caller trusts",
    )


def verdict(result: PackageResult) -> Verdict:
    short, full, level = headline(result)
    rows = [
        _container_chip(result),
        _inventory_chip(result),
        _closure_chip(result),
        _session_chip(result),
        _signature_chip(result),
    ]
    not_checked = (NO_KEY,) if level is Trust.UNCHECKED else ()
    return Verdict(
        str(DocumentKind.ASIF_PACKAGE),
        short,
        level,
        tuple(r for r in rows if r is not None),
        full if full != short else "",
        not_checked,
    )


# The inventory pane's words: a member's status and its level (only a member that matches
# its record is not refused; matching is integrity, never authenticity, so it is neutral).
INVENTORY_HEADERS = ("Member", "Status", "Bytes", "SHA-256", "Listed bytes", "Listed SHA-256")
CLOSURE_HEADERS = ("Resource", "Member", "Closure")

_MEMBER_WORDS = {
    MemberStatus.MATCHES: "matches",
    MemberStatus.DIFFERS: "DIFFERS",
    MemberStatus.MISSING: "MISSING",
    MemberStatus.UNLISTED: "UNLISTED",
    MemberStatus.UNRELATED: "UNRELATED",
}

_CLOSURE_WORDS = {
    ClosureState.PRESENT: "present",
    ClosureState.MISSING: "MISSING",
    ClosureState.MISMATCH: "MISMATCH",
    ClosureState.RESERVED: "RESERVED NAME",
    ClosureState.UNSAFE: "UNSAFE PATH",
}


def member_trust(entry: InventoryEntry) -> Trust:
    return Trust.UNSIGNED if entry.status is MemberStatus.MATCHES else Trust.REFUSED


def closure_trust(entry: ClosureEntry) -> Trust:
    return Trust.UNSIGNED if entry.state is ClosureState.PRESENT else Trust.REFUSED


def _n(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def member_cells(entry: InventoryEntry) -> tuple[str, ...]:
    return (
        entry.path,
        _MEMBER_WORDS[entry.status],
        _n(entry.bytes),
        entry.sha256 or "",
        _n(entry.listed_bytes),
        entry.listed_sha256 or "",
    )


def member_detail(entry: InventoryEntry) -> str:
    why = {
        MemberStatus.MATCHES: "its bytes are the count and SHA-256 its record lists",
        MemberStatus.DIFFERS: "its bytes are NOT what its record lists (changed after packing)",
        MemberStatus.MISSING: "the inventory lists it, but the archive does not hold it",
        MemberStatus.UNLISTED: "the archive holds it, but the inventory does not list it",
        MemberStatus.UNRELATED: "listed and held, but no embedded resource of the session names it",
    }[entry.status]
    return (
        f"member {entry.path}: {_MEMBER_WORDS[entry.status]} — {why}\n"
        f"holds:  {_n(entry.bytes) or '(nothing)'} bytes, SHA-256 {entry.sha256 or '—'}\n"
        f"listed: {_n(entry.listed_bytes) or '(not listed)'} bytes, "
        f"SHA-256 {entry.listed_sha256 or '—'}"
        + (f"\nrecord: asif-package.json#{entry.pointer}" if entry.pointer else "")
    )


def closure_cells(entry: ClosureEntry) -> tuple[str, ...]:
    return (entry.resource_id, entry.path, _CLOSURE_WORDS[entry.state])


def inventory_summary(result: PackageResult) -> str:
    bad = sum(1 for e in result.inventory if e.status is not MemberStatus.MATCHES)
    words = f"{result.members} members · {len(result.inventory)} inventory rows"
    words += f" · {bad} REFUSED" if bad else " · every member matches its record"
    return words


def package_digests(result: PackageResult) -> str:
    """The archive's and the manifest's SHA-256 (what a signature or a log names)."""
    words = f"archive SHA-256:  {result.archive_sha256}"
    if result.manifest_sha256:
        words += f"\nmanifest SHA-256: {result.manifest_sha256}"
    return words
