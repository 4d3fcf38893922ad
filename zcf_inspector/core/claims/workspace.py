"""Claims vs workspace: what the packet says about files, checked against a folder the
reviewer names — its own chip, never part of the packet's validity.

- Each evidence source of kind ``local`` with a ``digest``: its locator is looked up under
  the folder and the file hashed (SHA-256 of its bytes): matches / differs / missing / not
  checkable (an external source, no digest, an absolute or escaping path, a link out of
  the folder, not a regular file, too large).
- Each ``capsule.changedFiles`` entry: present / missing / not checkable — and, where a
  local source with a digest names the same path, that source's matches or differs.
- Each belief: a roll-up of the sources its anchors cite ("all cited sources match",
  "cites a mismatch").
- `check_receipt_file`: a patch or verification receipt's digest against a file the
  reviewer picked (the patch or log they received).

A file is read at most once however many entries name it (`files.look_in`), and only
files the packet names are read: a 10,000-file workspace costs what its named files do.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from zcf_inspector.core.claims.files import (
    MAX_FILE_BYTES,
    FileLook,
    Look,
    ReadCounter,
    hash_file,
    look_in,
)
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join

CHIP: Final = "claims vs workspace"


class ClaimStatus(StrEnum):
    MATCHES = "matches"  # the file's digest equals the one the packet claims
    DIFFERS = "differs"  # the file is there, with other bytes
    PRESENT = "present"  # there, and nothing claims its content (changed files)
    MISSING = "missing"
    NOT_CHECKABLE = "not_checkable"  # ``reason`` says why


# How a status reads, and the trust level of its chip (the four levels of the window).
STATUS_WORDS: Final[Mapping[ClaimStatus, str]] = {
    ClaimStatus.MATCHES: "matches",
    ClaimStatus.DIFFERS: "differs",
    ClaimStatus.PRESENT: "present",
    ClaimStatus.MISSING: "missing",
    ClaimStatus.NOT_CHECKABLE: "not checkable",
}


# Which status a file named by several entries is counted with: a difference or an absence
# first (what a reviewer must see), then what was checked, then what was not.
_FILE_ORDER: Final[Mapping[ClaimStatus, int]] = {
    ClaimStatus.DIFFERS: 0,
    ClaimStatus.MISSING: 1,
    ClaimStatus.MATCHES: 2,
    ClaimStatus.PRESENT: 3,
    ClaimStatus.NOT_CHECKABLE: 4,
}


class WorkspaceError(InputError):
    """The folder the reviewer named cannot be used."""

    code = "workspace_unusable"


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """One claim and what the workspace says about it."""

    pointer: str  # the entry in the packet (a source, a changedFiles entry, a receipt)
    subject: str  # "evidence source src-spec", "changed file zcf/reading.py"
    locator: str  # the path as the packet (or the reviewer) wrote it
    status: ClaimStatus
    reason: str  # plain words, for a tooltip and the terminal
    claimed: str | None = None  # the digest the packet gives
    found: str | None = None  # the digest of the file, when it was hashed

    @property
    def words(self) -> str:
        return (
            f"{STATUS_WORDS[self.status]} — {self.reason}"
            if self.reason
            else STATUS_WORDS[self.status]
        )

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "pointer": self.pointer,
            "subject": self.subject,
            "locator": self.locator,
            "status": str(self.status),
            "reason": self.reason,
            "claimedDigest": self.claimed,
            "foundDigest": self.found,
        }


class RollUp(StrEnum):
    ALL_MATCH = "all_match"
    CITES_MISMATCH = "cites_mismatch"
    CITES_MISSING = "cites_missing"
    PARTLY_CHECKED = "partly_checked"
    NOT_CHECKED = "not_checked"
    NO_EVIDENCE = "no_evidence"


ROLL_UP_WORDS: Final[Mapping[RollUp, str]] = {
    RollUp.ALL_MATCH: "all cited sources match",
    RollUp.CITES_MISMATCH: "cites a mismatch",
    RollUp.CITES_MISSING: "cites a file missing from the workspace",
    RollUp.PARTLY_CHECKED: "the checkable cited sources match; others could not be checked",
    RollUp.NOT_CHECKED: "none of its cited sources could be checked",
    RollUp.NO_EVIDENCE: "no evidence cited",
}


@dataclass(frozen=True, slots=True)
class BeliefClaims:
    portable_ref: str
    pointer: str  # of the belief
    roll_up: RollUp
    sources: tuple[str, ...]  # ids of the cited sources, in anchor order, once each

    @property
    def words(self) -> str:
        return ROLL_UP_WORDS[self.roll_up]

    @property
    def flagged(self) -> bool:
        """Amber: a cited source differs or is missing."""
        return self.roll_up in (RollUp.CITES_MISMATCH, RollUp.CITES_MISSING)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "portableRef": self.portable_ref,
            "pointer": self.pointer,
            "rollUp": str(self.roll_up),
            "words": self.words,
            "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class WorkspaceCheck:
    folder: str
    sources: tuple[ClaimCheck, ...]  # one per evidence source, in packet order
    source_ids: tuple[str, ...]  # sources[i] is the source with this id
    changed_files: tuple[ClaimCheck, ...]
    beliefs: tuple[BeliefClaims, ...]  # one per belief that cites a source, in packet order
    belief_count: int  # beliefs in the packet, citing or not
    files_opened: int
    bytes_read: int

    def by_source_id(self) -> dict[str, ClaimCheck]:
        """Each source's check by its id (the first, should a broken packet repeat one)."""
        found: dict[str, ClaimCheck] = {}
        for sid, check in zip(self.source_ids, self.sources, strict=True):
            found.setdefault(sid, check)
        return found

    @property
    def beliefs_without_evidence(self) -> int:
        return self.belief_count - len(self.beliefs)

    def for_belief(self, portable_ref: str, pointer: str = "") -> BeliefClaims:
        """The roll-up of one belief; one that cites nothing has no entry: "no evidence
        cited". (A window indexes `beliefs` once rather than calling this per row.)"""
        for claims in self.beliefs:
            if claims.portable_ref == portable_ref:
                return claims
        return BeliefClaims(portable_ref, pointer, RollUp.NO_EVIDENCE, ())

    def source_status(self, source_id: str) -> ClaimCheck | None:
        return self.by_source_id().get(source_id)

    @property
    def counts(self) -> dict[ClaimStatus, int]:
        """How many files have each status: a file several entries name (a source and a
        changed file, most often) is one file, counted once with the most telling of its
        statuses (`_FILE_ORDER`); an entry that names no path counts on its own."""
        return self._files()[0]

    @property
    def named_in_both(self) -> int:
        """Files named both by an evidence source and by a changed file."""
        return self._files()[1]

    def _files(self) -> tuple[dict[ClaimStatus, int], int]:
        counts = dict.fromkeys(ClaimStatus, 0)
        by_path: dict[str, ClaimStatus] = {}
        for check in (*self.sources, *self.changed_files):
            if not check.locator:
                counts[check.status] += 1
                continue
            known = by_path.get(check.locator)
            if known is None or _FILE_ORDER[check.status] < _FILE_ORDER[known]:
                by_path[check.locator] = check.status
        for status in by_path.values():
            counts[status] += 1
        sources = {c.locator for c in self.sources if c.locator}
        both = len({c.locator for c in self.changed_files if c.locator in sources})
        return counts, both

    @property
    def mismatched(self) -> bool:
        return any(c.status is ClaimStatus.DIFFERS for c in (*self.sources, *self.changed_files))

    def summary(self) -> str:
        """One line for the chip, counting files, not entries: "claims vs workspace: 2 match,
        1 differs, 1 not checkable (1 file named both as a source and as a changed file,
        counted once)"."""
        plural = {ClaimStatus.MATCHES: "match", ClaimStatus.DIFFERS: "differ"}
        parts = [
            f"{n:,} {plural.get(status, STATUS_WORDS[status]) if n > 1 else STATUS_WORDS[status]}"
            for status, n in self.counts.items()
            if n
        ]
        both = self.named_in_both
        shared = (
            f" ({both:,} {'file' if both == 1 else 'files'} named both as a source and as a "
            "changed file, counted once)"
            if both
            else ""
        )
        return f"{CHIP}: " + (", ".join(parts) + shared if parts else "nothing to check")

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "folder": self.folder,
            "summary": self.summary(),
            "sources": [c.to_json() for c in self.sources],
            "changedFiles": [c.to_json() for c in self.changed_files],
            "beliefs": [b.to_json() for b in self.beliefs],
            "beliefCount": self.belief_count,
            "beliefsWithoutEvidence": self.beliefs_without_evidence,
            "filesOpened": self.files_opened,
            "bytesRead": self.bytes_read,
        }


def resolve_folder(folder: str | os.PathLike[str]) -> Path:
    path = Path(folder)
    if not path.is_dir():
        raise WorkspaceError(f"the workspace {os.fspath(folder)!r} is not a folder")
    return Path(os.path.realpath(path))


def _list(container: JsonValue, key: str) -> list[JsonValue]:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, list) else []


def _str(item: JsonValue, key: str) -> str | None:
    value = item.get(key) if isinstance(item, dict) else None
    return value if isinstance(value, str) else None


class _Looker:
    """Each path looked at once: a changed file and a source naming it share one look."""

    def __init__(self, root: Path, max_bytes: int, monitor: Monitor) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.monitor = monitor
        self.counter = ReadCounter()
        self._seen: dict[tuple[str, bool], FileLook] = {}

    def look(self, name: str, *, hash_it: bool) -> FileLook:
        key = (name, hash_it)
        found = self._seen.get(key)
        if found is None:
            found = look_in(
                self.root,
                name,
                hash_it=hash_it,
                counter=self.counter,
                max_bytes=self.max_bytes,
                monitor=self.monitor,
            )
            self._seen[key] = found
        return found


def _source_check(index: int, source: JsonValue, looker: _Looker) -> ClaimCheck:
    pointer = join("content", "evidenceSources", index)
    sid = _str(source, "id") or f"#{index}"
    locator = _str(source, "locator") or ""
    claimed = _str(source, "digest")
    subject = f"evidence source {sid}"

    def check(status: ClaimStatus, reason: str, found: str | None = None) -> ClaimCheck:
        return ClaimCheck(pointer, subject, locator, status, reason, claimed, found)

    if _str(source, "kind") != "local":
        return check(ClaimStatus.NOT_CHECKABLE, "an external source")
    if claimed is None:
        return check(ClaimStatus.NOT_CHECKABLE, "the packet gives no digest")
    seen = looker.look(locator, hash_it=True)
    if seen.look is Look.MISSING:
        return check(ClaimStatus.MISSING, seen.reason)
    if seen.look is not Look.HASHED:
        return check(ClaimStatus.NOT_CHECKABLE, seen.reason)
    if seen.digest == claimed:
        return check(ClaimStatus.MATCHES, "the file's SHA-256 is the packet's digest", seen.digest)
    return check(
        ClaimStatus.DIFFERS,
        "the file in the workspace has other bytes than the packet's digest says",
        seen.digest,
    )


def check_workspace(
    packet: dict[str, JsonValue],
    folder: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_FILE_BYTES,
    monitor: Monitor = NULL_MONITOR,
) -> WorkspaceCheck:
    """Every file claim of ``packet`` against ``folder``; raises `WorkspaceError` when the
    folder is not one, `Cancelled` when the monitor is cancelled."""
    root = resolve_folder(folder)
    looker = _Looker(root, max_bytes, monitor)
    found = packet.get("content")
    content: dict[str, JsonValue] = found if isinstance(found, dict) else {}
    raw_sources = _list(content, "evidenceSources")
    capsule = content.get("capsule")
    changed = _list(capsule if isinstance(capsule, dict) else {}, "changedFiles")
    total = max(1, len(raw_sources) + len(changed))
    sources: list[ClaimCheck] = []
    ids: list[str] = []
    for index, source in enumerate(raw_sources):
        monitor.step("checking claims against the workspace", index / total)
        sources.append(_source_check(index, source, looker))
        ids.append(_str(source, "id") or f"#{index}")
    by_path: dict[str, ClaimCheck] = {}
    for check in sources:
        if check.status in (ClaimStatus.MATCHES, ClaimStatus.DIFFERS):
            by_path.setdefault(check.locator, check)
    files: list[ClaimCheck] = []
    for index, entry in enumerate(changed):
        monitor.step("checking claims against the workspace", (len(sources) + index) / total)
        files.append(_changed_file_check(index, entry, looker, by_path))
    first: dict[str, ClaimCheck] = {}
    for sid, check in zip(ids, sources, strict=True):
        first.setdefault(sid, check)
    beliefs, belief_count = _roll_up(content, first, monitor)
    monitor.step("checking claims against the workspace", 1.0)
    return WorkspaceCheck(
        str(root),
        tuple(sources),
        tuple(ids),
        tuple(files),
        beliefs,
        belief_count,
        looker.counter.files_opened,
        looker.counter.bytes_read,
    )


def _changed_file_check(
    index: int, entry: JsonValue, looker: _Looker, by_path: Mapping[str, ClaimCheck]
) -> ClaimCheck:
    pointer = join("content", "capsule", "changedFiles", index)
    name = entry if isinstance(entry, str) else ""
    subject = "changed file"
    source = by_path.get(name)
    if source is not None:
        reason = f"its content {source.status.value} per {source.subject}"
        return ClaimCheck(
            pointer, subject, name, source.status, reason, source.claimed, source.found
        )
    seen = looker.look(name, hash_it=False)
    if seen.look is Look.MISSING:
        return ClaimCheck(
            pointer, subject, name, ClaimStatus.MISSING,
            f"{seen.reason} (expected, if the change deleted it)",
        )  # fmt: skip
    if seen.look is Look.NOT_CHECKABLE:
        return ClaimCheck(pointer, subject, name, ClaimStatus.NOT_CHECKABLE, seen.reason)
    return ClaimCheck(pointer, subject, name, ClaimStatus.PRESENT, seen.reason)


def _roll_up(
    content: dict[str, JsonValue], sources: Mapping[str, ClaimCheck], monitor: Monitor
) -> tuple[tuple[BeliefClaims, ...], int]:
    # A belief's sources in anchor order, once each: a dict is an ordered set, so 100,000
    # anchors on one belief cost one pass (a list's membership test made them quadratic).
    cited: dict[str, dict[str, None]] = {}
    for index, anchor in enumerate(_list(content, "evidenceAnchors")):
        if index % 4096 == 0:
            monitor.breathe()
        cites, source = _str(anchor, "beliefRef"), _str(anchor, "sourceRef")
        if cites is not None and source is not None:
            cited.setdefault(cites, {})[source] = None
    result: list[BeliefClaims] = []
    beliefs = _list(content, "beliefs")
    for index, belief in enumerate(beliefs):
        if index % 4096 == 0:
            monitor.breathe()
        # Only beliefs that cite something get an entry: 200,000 "no evidence cited"
        # would cost more than the whole check (`WorkspaceCheck.for_belief` says it).
        ref = belief.get("portableRef") if type(belief) is dict else None
        if type(ref) is not str or ref not in cited:
            continue
        ids = tuple(cited[ref])
        statuses = [sources[s].status for s in ids if s in sources]
        result.append(
            BeliefClaims(ref, join("content", "beliefs", index), _judge(ids, statuses), ids)
        )
    return tuple(result), len(beliefs)


def _judge(ids: Sequence[str], statuses: Sequence[ClaimStatus]) -> RollUp:
    if not ids:
        return RollUp.NO_EVIDENCE
    present = set(statuses)  # one pass, then constant-time questions
    if ClaimStatus.DIFFERS in present:
        return RollUp.CITES_MISMATCH
    if ClaimStatus.MISSING in present:
        return RollUp.CITES_MISSING
    matched = statuses.count(ClaimStatus.MATCHES)
    if matched == len(ids):
        return RollUp.ALL_MATCH
    return RollUp.PARTLY_CHECKED if matched else RollUp.NOT_CHECKED


def check_receipt_file(
    packet: dict[str, JsonValue],
    receipt_id: str,
    file: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_FILE_BYTES,
    monitor: Monitor = NULL_MONITOR,
) -> ClaimCheck:
    """A patch or verification receipt's digest against a file the reviewer picked (any
    path: the reviewer chose it, the packet did not)."""
    content = packet.get("content")
    receipts = _list(content if isinstance(content, dict) else {}, "receipts")
    for index, receipt in enumerate(receipts):
        if _str(receipt, "id") != receipt_id:
            continue
        pointer = join("content", "receipts", index)
        kind = _str(receipt, "kind") or "receipt"
        subject = f"{kind} receipt {receipt_id}"
        claimed = _str(receipt, "digest")
        shown = os.fspath(file)
        seen = hash_file(
            Path(os.path.realpath(file)), counter=ReadCounter(), max_bytes=max_bytes,
            monitor=monitor,
        )  # fmt: skip
        if seen.look is Look.MISSING:
            return ClaimCheck(pointer, subject, shown, ClaimStatus.MISSING, "no such file")
        if seen.look is not Look.HASHED:
            return ClaimCheck(pointer, subject, shown, ClaimStatus.NOT_CHECKABLE, seen.reason)
        if seen.digest == claimed:
            return ClaimCheck(
                pointer, subject, shown, ClaimStatus.MATCHES,
                "the file's SHA-256 is the receipt's digest", claimed, seen.digest,
            )  # fmt: skip
        return ClaimCheck(
            pointer, subject, shown, ClaimStatus.DIFFERS,
            "the file has other bytes than the receipt's digest says", claimed, seen.digest,
        )  # fmt: skip
    raise WorkspaceError(f"the packet has no receipt with id {receipt_id!r}")
