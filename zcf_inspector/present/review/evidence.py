"""A belief's evidence as the review's detail shows it (issue 20, point 2): each anchor →
its source, with kind, full locator, excerpt and digest; the receipts and verification
entries the same bytes are cited by; and each local source's status against the
workspace the reviewer named (`core.claims.workspace`), when one is named.

Pure Python, so the detail only sets the lines it is given. Every document string passes
through the one escaping rule (`core.visible_text`) and a text the secret scan flags is
masked (`secrets`); each line carries the pointer of its node, which Enter selects
in the tree.

ZCF v1 has no link from a belief to a receipt: receipts are the capsule's. A receipt is
listed under a belief when a source the belief cites has the receipt's digest — the same
bytes (a patch, a test log) — and a verification entry when it names such a receipt
(``receiptRef``). Nothing else is guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from zcf_inspector.core.claims.workspace import (
    ROLL_UP_WORDS,
    STATUS_WORDS,
    BeliefClaims,
    ClaimCheck,
    ClaimStatus,
    RollUp,
    WorkspaceCheck,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.core.secrets.masking import masked_clip
from zcf_inspector.core.visible_text import clip, visible
from zcf_inspector.present.review.secrets import NO_SECRETS, ReviewSecrets, masked, scan_review

TEXT_CHARS: Final = 20_000  # of one locator or excerpt (wrapped, never elided; the tree has all)
INDENT: Final = "      "
NO_EVIDENCE: Final = "no evidence cited"
NO_WORKSPACE: Final = (
    "Claims vs workspace: no folder named — name one with “Check Against a Workspace…” in "
    "the Briefing pane to check this belief's local sources against your files."
)


class LineStyle(StrEnum):
    """How a line is painted (the Briefing's styles, by the same names)."""

    PLAIN = "plain"
    HEADING = "heading"
    ITEM = "item"  # an entry's first line
    DETAIL = "detail"
    GOOD = "good"  # a claim that matches
    CAUTION = "caution"  # differs, missing, not checkable, a suspected credential


@dataclass(frozen=True, slots=True)
class EvidenceLine:
    text: str  # as shown: escaped
    style: LineStyle = LineStyle.PLAIN
    pointer: str | None = None  # the node Enter selects in the tree
    entry: int = -1  # lines of one entry (an anchor, a source, a receipt) share a number


@dataclass(frozen=True, slots=True)
class Located:
    """An entry of a content array and where it is."""

    pointer: str
    item: Mapping[str, JsonValue]


@dataclass(frozen=True, slots=True)
class DetailIndex:
    """A packet's evidence and review events by the belief they name, its sources by id,
    receipts by digest and verification entries by receipt: the detail of one belief is
    a lookup, not a scan of every anchor (a 200,000-belief packet may have tens of
    thousands). Made once per packet, on the runner, with the secret scan."""

    sources: Mapping[str, Located] = field(default_factory=dict)
    anchors: Mapping[str, Sequence[Located]] = field(default_factory=dict)
    events: Mapping[str, Sequence[Located]] = field(default_factory=dict)  # reviewEvents
    receipts: Mapping[str, Sequence[Located]] = field(default_factory=dict)  # by digest
    verification: Mapping[str, Sequence[Located]] = field(default_factory=dict)  # by receipt
    secrets: ReviewSecrets = NO_SECRETS


def _located(packet: Mapping[str, JsonValue], section: str) -> list[Located]:
    content = packet.get("content")
    items = content.get(section) if isinstance(content, dict) else None
    if not isinstance(items, list):
        return []
    return [
        Located(join("content", section, i), item)
        for i, item in enumerate(items)
        if isinstance(item, dict)
    ]


def _by(entries: list[Located], key: str) -> dict[str, list[Located]]:
    found: dict[str, list[Located]] = {}
    for entry in entries:
        value = entry.item.get(key)
        if isinstance(value, str):
            found.setdefault(value, []).append(entry)
    return found


def detail_index(
    packet: Mapping[str, JsonValue],
    beliefs: Sequence[AdmittedBelief] | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> DetailIndex:
    """``beliefs``: the admitted beliefs, whose content (and the evidence texts) the
    secret scan reads; None: no scan."""
    sources: dict[str, Located] = {}
    for entry in _located(packet, "evidenceSources"):
        sid = entry.item.get("id")
        if isinstance(sid, str):
            sources[sid] = entry  # the last of a repeated id (the packet is refused then)
    return DetailIndex(
        sources,
        _by(_located(packet, "evidenceAnchors"), "beliefRef"),
        _by(_located(packet, "reviewEvents"), "beliefRef"),
        _by(_located(packet, "receipts"), "digest"),
        _by(_located(packet, "verification"), "receiptRef"),
        scan_review(packet, beliefs, monitor) if beliefs is not None else NO_SECRETS,
    )


# --- claims vs workspace ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WorkspaceFacts:
    """A workspace check (the Briefing pane's) as the detail reads it: each source's check
    by id and each citing belief's roll-up by portableRef. A check made for other bytes
    (a packet reloaded since) is kept only where it still describes the source: same
    locator, same claimed digest."""

    folder: str
    sources: Mapping[str, ClaimCheck]
    beliefs: Mapping[str, BeliefClaims]


def workspace_facts(check: WorkspaceCheck, index: DetailIndex) -> WorkspaceFacts:
    sources: dict[str, ClaimCheck] = {}
    for sid, claim in check.by_source_id().items():
        entry = index.sources.get(sid)
        if entry is None:
            continue
        if entry.item.get("locator") == claim.locator and entry.item.get("digest") == claim.claimed:
            sources[sid] = claim
    beliefs = {b.portable_ref: b for b in check.beliefs if all(s in sources for s in b.sources)}
    return WorkspaceFacts(check.folder, sources, beliefs)


_STATUS_STYLE: Final = {
    ClaimStatus.MATCHES: LineStyle.GOOD,
    ClaimStatus.PRESENT: LineStyle.GOOD,
    ClaimStatus.DIFFERS: LineStyle.CAUTION,
    ClaimStatus.MISSING: LineStyle.CAUTION,
    ClaimStatus.NOT_CHECKABLE: LineStyle.DETAIL,
}
_ROLL_UP_STYLE: Final = {
    RollUp.ALL_MATCH: LineStyle.GOOD,
    RollUp.CITES_MISMATCH: LineStyle.CAUTION,
    RollUp.CITES_MISSING: LineStyle.CAUTION,
}


def evidence_count_words(count: int) -> str:
    """The table's Evidence cell."""
    if count == 0:
        return NO_EVIDENCE
    return f"{count:,} anchor{'' if count == 1 else 's'}"


# --- the lines -------------------------------------------------------------------------


class _Lines:
    def __init__(self, secrets: ReviewSecrets) -> None:
        self.lines: list[EvidenceLine] = []
        self.secrets = secrets
        self.entry = -1

    def start(self, text: str, pointer: str | None, style: LineStyle = LineStyle.ITEM) -> None:
        self.entry += 1
        self.lines.append(EvidenceLine(text, style, pointer, self.entry))

    def add(self, text: str, pointer: str | None, style: LineStyle = LineStyle.PLAIN) -> None:
        self.lines.append(EvidenceLine(INDENT + text, style, pointer, self.entry))

    def field(self, label: str, item: Located, name: str) -> None:
        """``label: value`` of a string field, masked where the scan flags it."""
        value = item.item.get(name)
        if not isinstance(value, str):
            return
        pointer = join_field(item.pointer, name)
        hits = self.secrets.of(pointer)
        shown = visible(clip(masked(value, hits), TEXT_CHARS))
        style = LineStyle.CAUTION if hits else LineStyle.PLAIN
        mark = " (suspected credential, masked)" if hits else ""
        self.add(f"{label}: {shown}{mark}", pointer, style)


def event_note(index: DetailIndex, event: Located) -> str:
    """A review event's note for the history, masked where the scan flags it."""
    note = event.item.get("note")
    if not isinstance(note, str):
        return ""
    return visible(clip(masked(note, index.secrets.of(join_field(event.pointer, "note"))), 400))


def join_field(pointer: str, name: str) -> str:
    return f"{pointer}/{name}"  # a field name of the format: nothing to escape


def _s(item: Located, name: str) -> str:
    value = item.item.get(name)
    # Ids and names: the scan does not read them, so they are masked where shown.
    return visible(masked_clip(value, TEXT_CHARS)) if isinstance(value, str) else ""


def evidence_lines(
    index: DetailIndex, ref: str, workspace: WorkspaceFacts | None = None
) -> tuple[EvidenceLine, ...]:
    """What the detail's Evidence tab shows for the belief ``ref``."""
    out = _Lines(index.secrets)
    anchors = index.anchors.get(ref, ())
    if not anchors:
        out.start("No evidence cited: no anchor names this belief.", None, LineStyle.CAUTION)
        return tuple(out.lines)
    _workspace_line(out, ref, workspace)
    digests: list[tuple[str, str]] = []  # (digest, source id) of the cited sources, once
    for anchor in anchors:
        sref = _s(anchor, "sourceRef")
        out.start(f"Anchor {_s(anchor, 'id')} → source {sref}", anchor.pointer)
        out.field("where in the source", anchor, "locator")
        out.field("excerpt", anchor, "excerpt")
        raw_ref = anchor.item.get("sourceRef")
        source = index.sources.get(raw_ref) if isinstance(raw_ref, str) else None
        if source is None:
            out.add(
                "the packet has no evidence source of that id", anchor.pointer, LineStyle.CAUTION
            )
            continue
        _source_lines(out, source, workspace)
        digest = source.item.get("digest")
        cited = isinstance(digest, str) and all(d != digest for d, _ in digests)
        if cited and isinstance(digest, str) and isinstance(raw_ref, str):
            digests.append((digest, raw_ref))
    for digest, sid in digests:
        for receipt in index.receipts.get(digest, ()):
            _receipt_lines(out, receipt, sid, index)
    return tuple(out.lines)


def _workspace_line(out: _Lines, ref: str, workspace: WorkspaceFacts | None) -> None:
    if workspace is None:
        out.start(NO_WORKSPACE, None, LineStyle.DETAIL)
        return
    claims = workspace.beliefs.get(ref)
    roll_up = claims.roll_up if claims is not None else RollUp.NOT_CHECKED
    style = _ROLL_UP_STYLE.get(roll_up, LineStyle.DETAIL)
    out.start(
        f"Claims vs workspace ({visible(workspace.folder)}): {ROLL_UP_WORDS[roll_up]}", None, style
    )


def _source_lines(out: _Lines, source: Located, workspace: WorkspaceFacts | None) -> None:
    kind = _s(source, "kind") or "?"
    out.start(f"Source {_s(source, 'id')} — {kind}", source.pointer)
    out.field("locator", source, "locator")
    digest = _s(source, "digest")
    if digest:
        out.add(f"digest: {digest}", source.pointer)
    else:
        out.add("no digest given", source.pointer, LineStyle.DETAIL)
    if workspace is None:
        return
    sid = source.item.get("id")
    claim = workspace.sources.get(sid) if isinstance(sid, str) else None
    if claim is None:
        out.add("claims vs workspace: not checked", source.pointer, LineStyle.DETAIL)
        return
    words = STATUS_WORDS[claim.status] + (f" — {visible(claim.reason)}" if claim.reason else "")
    out.add(f"claims vs workspace: {words}", source.pointer, _STATUS_STYLE[claim.status])
    if claim.status is ClaimStatus.DIFFERS and claim.found is not None:
        out.add(f"the workspace file's digest: {visible(claim.found)}", source.pointer)


def _receipt_lines(out: _Lines, receipt: Located, sid: str, index: DetailIndex) -> None:
    kind = _s(receipt, "kind") or "?"
    out.start(
        f"Receipt {_s(receipt, 'id')} — {kind}, the bytes of source {visible(sid)} (same digest)",
        receipt.pointer,
    )
    out.field("summary", receipt, "summary")
    rid = receipt.item.get("id")
    for entry in index.verification.get(rid, ()) if isinstance(rid, str) else ():
        status = _s(entry, "status") or "?"
        out.start(
            f"Verification {_s(entry, 'id')} — {_s(entry, 'kind') or '?'} {status} "
            f"(its receipt: {_s(receipt, 'id')})",
            entry.pointer,
            LineStyle.ITEM,
        )
        out.field("summary", entry, "summary")
