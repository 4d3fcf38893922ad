"""The integrity manifest of profile §4: covered sections, their digests and the root."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from zcf_inspector.core import headroom
from zcf_inspector.core.canonical import canonical_chunked, canonical_pieces
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.digest import lp, sha256_digest
from zcf_inspector.core.findings import (
    Finding,
    FindingBudget,
    OmittedFindings,
    Severity,
    error,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.structure import show
from zcf_inspector.core.pointer import child, join

if TYPE_CHECKING:
    from hashlib import _Hash

ALGORITHM = "zcf-lp-sha256-v1"
DOMAIN = "zephr-continuity-manifest-v1"

# Envelope section name -> the top-level field whose value it covers.
ENVELOPE_SECTIONS: dict[str, str] = {
    "packetIdentity": "packet",
    "sourceDescriptor": "source",
    "recipientIntent": "recipientIntent",
    "retention": "retention",
    "scopeProof": "scopeProof",
}
ARCHIVE_SECTION = "archiveRefs"
# Rows the report keeps for sections the manifest lists and the packet does not cover: a
# manifest may list millions of names; each is still a finding (counted past the budget).
MAX_LISTED_DIGESTS = 1000
# Top-level fields the root never covers; a viewer must say so (profile §4).
UNCOVERED_FIELDS: tuple[str, ...] = (
    "format",
    "formatVersion",
    "artifactKind",
    "canonicalizationProfile",
    "redactionManifest",
    "omissionManifest",
    "authentication",
    "extensions",
)


@dataclass(frozen=True, slots=True)
class CoveredSection:
    name: str
    pointer: str  # where the section's value sits in the packet
    canonical: bytes


@dataclass(frozen=True, slots=True)
class SectionDigest:
    name: str
    pointer: str | None  # None for a listed section that covers nothing in the packet
    computed: str | None
    listed: str | None

    @property
    def match(self) -> bool:
        return self.computed is not None and self.computed == self.listed


@dataclass(frozen=True, slots=True)
class ManifestReport:
    sections: tuple[SectionDigest, ...]  # sorted by name, covered and listed alike
    root_computed: str
    root_listed: str | None
    uncovered: tuple[str, ...]  # top-level fields present in the packet and not under the root
    findings: tuple[Finding, ...]  # those the packet's findings budget kept in full
    omitted: tuple[OmittedFindings, ...] = ()  # counted past it

    @property
    def root_match(self) -> bool:
        return self.root_computed == self.root_listed

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "sections": {
                s.name: {"computed": s.computed, "listed": s.listed, "match": s.match}
                for s in self.sections
            },
            "root": {
                "computed": self.root_computed,
                "listed": self.root_listed,
                "match": self.root_match,
            },
            "uncovered": list(self.uncovered),
        }


def covered_sections(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR, *, reader_plain: bool = False
) -> list[CoveredSection]:
    """The sections under the root, in root order (name, by code point), canonicalized once.

    ``reader_plain``: see `canonical_chunked` (the packet came from the strict reader and
    holds no non-integral number).
    """
    return [
        CoveredSection(
            name,
            pointer,
            canonical_chunked(value, between=monitor.breathe, reader_plain=reader_plain),
        )
        for name, pointer, value in _covered_values(packet)
    ]


def _covered_values(packet: dict[str, JsonValue]) -> list[tuple[str, str, JsonValue]]:
    """(name, pointer, value) of each section under the root, in root order."""
    found: list[tuple[str, str, JsonValue]] = []
    for name, field in ENVELOPE_SECTIONS.items():
        if field in packet:
            found.append((name, join(field), packet[field]))
    content = packet.get("content")
    if isinstance(content, dict):
        if packet.get("artifactKind") == "continuity-archive":
            if ARCHIVE_SECTION in content:
                pointer = join("content", ARCHIVE_SECTION)
                found.append((ARCHIVE_SECTION, pointer, content[ARCHIVE_SECTION]))
        else:
            for key, value in content.items():
                found.append((key, join("content", key), value))
    found.sort(key=lambda section: section[0])  # stable: equal names keep their order
    return found


def root_hash(sections: list[CoveredSection]) -> str:
    """SHA-256 over LP(domain) then LP(name) ‖ LP(canonical bytes) per section, by name."""
    h = hashlib.sha256(lp(DOMAIN))
    for section in sorted(sections, key=lambda s: s.name):
        h.update(lp(section.name))
        # LP written in two updates: concatenating would copy the whole section.
        h.update(len(section.canonical).to_bytes(8, "big"))
        h.update(section.canonical)
    return "sha256:" + h.hexdigest()


def _section_and_root_digests(
    packet: dict[str, JsonValue], monitor: Monitor, reader_plain: bool
) -> tuple[list[tuple[str, str, str]], str]:
    """(name, pointer, digest) of each covered section, and the root: what `covered_sections`
    and `root_hash` give, without ever holding a section's bytes in one piece.

    Each section is encoded once, in pieces, and every piece goes to both hashes: joining
    the pieces and hashing the whole twice was most of the manifest's time on a 50 MB
    packet. A large section's two hashes run side by side (`_hash_both`).
    """
    root = hashlib.sha256(lp(DOMAIN))
    digests: list[tuple[str, str, str]] = []
    for name, pointer, value in _covered_values(packet):
        pieces = canonical_pieces(value, between=monitor.breathe, reader_plain=reader_plain)
        section = hashlib.sha256()
        size = sum(map(len, pieces))
        root.update(lp(name))
        root.update(size.to_bytes(8, "big"))
        if size >= SIDE_BY_SIDE_BYTES:
            _hash_both(section, root, pieces)
        else:
            for piece in pieces:
                section.update(piece)
                root.update(piece)
        digests.append((name, pointer, "sha256:" + section.hexdigest()))
    return digests, "sha256:" + root.hexdigest()


# A section this large has its two hashes made side by side; below it, a thread's start
# costs more than it could save.
SIDE_BY_SIDE_BYTES = 4 << 20


def _hash_both(section: _Hash, root: _Hash, pieces: list[bytes | memoryview]) -> None:
    """Feed ``pieces`` to both hashes: the root's on a thread of its own, the section's
    here. hashlib releases the GIL while it hashes a large buffer, so with a second core
    free the two take the time of one; the work (CPU time) is the same. Under a memory
    limit (a thread's stack is address space too), or with no thread to be had, both are
    fed here, in turn."""
    helper = None
    if not headroom.limited():
        helper = threading.Thread(target=_feed, args=(root, pieces), name="zcf-root-hash")
        try:
            helper.start()
        except RuntimeError:
            helper = None
    if helper is None:
        _feed(root, pieces)
    _feed(section, pieces)
    if helper is not None:
        helper.join()


def _feed(digest: _Hash, pieces: list[bytes | memoryview]) -> None:
    for piece in pieces:
        digest.update(piece)


def uncovered_fields(packet: dict[str, JsonValue]) -> tuple[str, ...]:
    """Top-level fields present in ``packet`` that no section covers, unknown ones included."""
    covered = {*ENVELOPE_SECTIONS.values(), "content"}
    return tuple(key for key in packet if key not in covered)


def check_manifest(
    packet: dict[str, JsonValue],
    monitor: Monitor = NULL_MONITOR,
    *,
    reader_plain: bool = False,
    budget: FindingBudget | None = None,
) -> ManifestReport:
    """Recompute every covered digest and the root, and compare them with the listed ones.

    Every difference is reported together, so a reader sees which section changed (into
    ``budget``: a manifest may list millions of sections no packet has).
    """
    budget = FindingBudget() if budget is None else budget
    covered, root = _section_and_root_digests(packet, monitor, reader_plain)
    manifest = packet.get("manifest")
    manifest_obj = manifest if isinstance(manifest, dict) else {}
    listed_sections = manifest_obj.get("sections")
    listed: dict[str, JsonValue] = listed_sections if isinstance(listed_sections, dict) else {}
    listed_root = manifest_obj.get("rootHash")
    findings = budget
    digests: list[SectionDigest] = []
    sections_pointer = join("manifest", "sections")
    computed_names = set()
    for name, pointer, computed in covered:
        computed_names.add(name)
        value = listed.get(name)
        listed_digest = value if isinstance(value, str) else None
        digests.append(SectionDigest(name, pointer, computed, listed_digest))
        if name not in listed:
            findings.add(
                error(
                    ErrorCode.MANIFEST_SECTION_MISSING,
                    child(sections_pointer, name),
                    f"section {show(name)} is in the packet but not listed in the manifest",
                )
            )
        elif listed_digest != computed:
            findings.add(
                error(
                    ErrorCode.SECTION_DIGEST_MISMATCH,
                    child(sections_pointer, name),
                    f"section {show(name)}: listed {_short(value)}, computed {computed}",
                )
            )
    for name, value in listed.items():
        if name not in computed_names:
            if len(digests) < MAX_LISTED_DIGESTS:
                digests.append(
                    SectionDigest(name, None, None, value if isinstance(value, str) else None)
                )
            if findings.full:
                where = partial(child, sections_pointer, name)
                findings.tally(ErrorCode.MANIFEST_SECTION_UNEXPECTED, Severity.ERROR, where)
                continue
            findings.add(
                error(
                    ErrorCode.MANIFEST_SECTION_UNEXPECTED,
                    child(sections_pointer, name),
                    f"the manifest lists section {show(name)}, which the packet does not cover",
                )
            )
    root_listed = listed_root if isinstance(listed_root, str) else None
    if root_listed != root:
        findings.add(
            error(
                ErrorCode.MANIFEST_ROOT_MISMATCH,
                join("manifest", "rootHash"),
                f"rootHash: listed {_short(listed_root)}, computed {root}",
            )
        )
    digests.sort(key=lambda d: d.name)
    return ManifestReport(
        tuple(digests),
        root,
        root_listed,
        uncovered_fields(packet),
        tuple(findings.kept),
        findings.omitted(),
    )


def seal_manifest(packet: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """The producer side: the manifest object that makes ``packet`` check clean."""
    covered = covered_sections(packet)
    return {
        "algorithm": ALGORITHM,
        "domain": DOMAIN,
        "sections": {s.name: sha256_digest(s.canonical) for s in covered},
        "rootHash": root_hash(covered),
    }


def _short(value: object) -> str:
    # A digest (71 characters) is shown whole; anything else as show() spells it (a
    # container summarised, a long string cut): repr of a hostile value could be huge.
    if isinstance(value, str) and len(value) <= 80:
        return repr(value)
    return show(value)
