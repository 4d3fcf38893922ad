"""A packet and its inspection → its `Briefing` (pure: reads, checks nothing new).

What each item is checked for is what was already checked: the integrity manifest's
digests (`PacketInspection.manifest`), the secret scan and the workspace check the caller
ran (`core.secrets`, `core.claims`), and, given a destination, the tool dispositions ingest
would record (`core.packet.ingest.dispositions`). A packet refused at its bytes has no
briefing beyond its verdict; one refused later is briefed from what it holds, its verdict
saying it was refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from zcf_inspector.core.briefing import words as w
from zcf_inspector.core.briefing.model import Briefing, BriefItem, BriefSection, Integrity
from zcf_inspector.core.claims.workspace import ClaimCheck, WorkspaceCheck
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageStatus
from zcf_inspector.core.packet.manifest import ManifestReport
from zcf_inspector.core.packet.structure import HIGH_RISK_TOOLS
from zcf_inspector.core.packet.trust import Authenticity, packet_trust
from zcf_inspector.core.pointer import join
from zcf_inspector.core.secrets.scan import SecretHit, SecretScan, masked_text

if TYPE_CHECKING:
    from zcf_inspector.core.packet.destination import Destination

# The capsule's lists, in the order a reviewer reads them (the headings).
CAPSULE_LISTS: Final = (
    ("decisions", "Decisions"),
    ("constraints", "Constraints"),
    ("changedFiles", "Changed files"),
    ("risks", "Risks"),
    ("questions", "Open questions"),
    ("nextActions", "Next actions"),
)


class _Integrity:
    """Which manifest section holds a pointer, and whether that section arrived intact."""

    def __init__(self, report: ManifestReport | None) -> None:
        self._sections: list[tuple[str, Integrity]] = []
        if report is None:
            return
        for section in report.sections:
            if section.pointer is None:
                continue
            intact = section.match and report.root_match
            self._sections.append(
                (section.pointer, Integrity.COVERED if intact else Integrity.CHANGED)
            )

    def of(self, pointer: str) -> Integrity:
        for prefix, integrity in self._sections:
            if pointer == prefix or pointer.startswith(prefix + "/"):
                return integrity
        return Integrity.NOT_COVERED


class _Builder:
    def __init__(
        self,
        integrity: _Integrity,
        secrets: SecretScan | None,
        claims: Mapping[str, ClaimCheck],
    ) -> None:
        self.integrity = integrity
        self.hits: dict[str, list[SecretHit]] = {}
        for hit in secrets.hits if secrets is not None else ():
            self.hits.setdefault(hit.pointer, []).append(hit)
        self.claims = claims

    def item(self, pointer: str, text: str, *, label: str = "", note: str = "") -> BriefItem:
        hits = tuple(self.hits.get(pointer, ()))
        return BriefItem(
            pointer,
            _masked(text, hits),
            self.integrity.of(pointer),
            label,
            note,
            hits,
            self.claims.get(pointer),
        )


def masked_workspace(
    workspace: WorkspaceCheck, hits: Mapping[str, Sequence[SecretHit]]
) -> WorkspaceCheck:
    """``workspace`` with every locator that holds a suspected credential masked, as the
    briefing shows it (a source's locator can carry a password): the one masking that
    `brief`, `validate --workspace` and `review --workspace` print."""

    def masked(check: ClaimCheck, pointer: str) -> ClaimCheck:
        found = hits.get(pointer)
        return replace(check, locator=_masked(check.locator, found)) if found else check

    return replace(
        workspace,
        sources=tuple(masked(c, c.pointer + "/locator") for c in workspace.sources),
        changed_files=tuple(masked(c, c.pointer) for c in workspace.changed_files),
    )


_masked = masked_text  # the one masking rule (`core.secrets.scan`)


def _obj(value: JsonValue) -> dict[str, JsonValue]:
    return value if isinstance(value, dict) else {}


def _arr(value: JsonValue) -> list[JsonValue]:
    return value if isinstance(value, list) else []


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def build_briefing(
    inspection: PacketInspection,
    *,
    secrets: SecretScan | None = None,
    workspace: WorkspaceCheck | None = None,
    destination: Destination | None = None,
) -> Briefing:
    trust = packet_trust(inspection)
    verdict = trust.headline()
    packet = inspection.value
    if packet is None:
        return Briefing(
            "", verdict, True, (), secrets, workspace,
            ("no briefing: the packet was refused at its bytes, so nothing in it can be read",),
        )  # fmt: skip
    b = _Builder(_Integrity(inspection.manifest), secrets, {})
    if workspace is not None:
        # The workspace check repeats locators and paths from the packet: masked the same.
        workspace = masked_workspace(workspace, b.hits)
        b.claims = {c.pointer: c for c in workspace.changed_files}
    identity = _obj(packet.get("packet"))
    content = _obj(packet.get("content"))
    notes: list[str] = []
    if trust.authenticity is not Authenticity.SIGNED:
        notes.append(
            "no verified signature: whoever changes the text can recompute the manifest, so "
            "'covered' says the text is as it was sealed, not who sealed it"
        )
    sections: list[BriefSection] = []
    intent = _text(identity.get("intent"))
    if intent is not None:
        sections.append(
            BriefSection("intent", "Intent", "/packet/intent", (b.item("/packet/intent", intent),))
        )
    if packet.get("artifactKind") == "continuity-archive":
        notes.append("a continuity archive: it carries archived objects, not a capsule")
        sections.append(_archive(b, content))
    else:
        capsule = content.get("capsule")
        if isinstance(capsule, dict):
            sections += _capsule(b, capsule)
        else:
            notes.append("no capsule in this packet (see the omissions)")
        sections.append(_handoff(b, content))
        sections.append(_tools(b, inspection, content, destination))
        sections.append(_verification(b, content))
        sections.append(_receipts(b, content))
    sections.append(_redactions(b, packet))
    sections.append(_omissions(b, packet))
    return Briefing(
        _text(identity.get("id")) or "",
        verdict,
        not inspection.valid,
        tuple(sections),
        secrets,
        workspace,
        tuple(notes),
    )


def _capsule(b: _Builder, capsule: dict[str, JsonValue]) -> list[BriefSection]:
    base = ("content", "capsule")
    out: list[BriefSection] = []
    objective = _text(capsule.get("objective"))
    pointer = join(*base, "objective")
    out.append(
        BriefSection(
            "objective",
            "Objective",
            pointer,
            () if objective is None else (b.item(pointer, objective),),
            empty="not stated",
        )
    )
    for key, heading in CAPSULE_LISTS:
        out.append(_list_section(b, capsule, key, heading, base))
    quality = _text(capsule.get("captureQuality"))
    coverage = _text(capsule.get("lifecycleCoverage"))
    capture_items = []
    if quality is not None:
        capture_items.append(
            b.item(join(*base, "captureQuality"), quality, label="capture quality")
        )  # fmt: skip
    if coverage is not None:
        capture_items.append(
            b.item(join(*base, "lifecycleCoverage"), coverage, label="lifecycle coverage")
        )  # fmt: skip
    out.append(
        BriefSection(
            "capture",
            "Capture",
            join(*base),
            tuple(capture_items),
            summary=f"{w.capture_line(quality)}; {w.lifecycle_line(coverage)}",
            empty="not stated",
        )
    )
    out.append(_list_section(b, capsule, "limitations", "Limitations", base))
    return out


def _list_section(
    b: _Builder, parent: dict[str, JsonValue], key: str, heading: str, base: tuple[str, ...]
) -> BriefSection:
    pointer = join(*base, key)
    items = tuple(
        b.item(join(*base, key, i), text)
        for i, value in enumerate(_arr(parent.get(key)))
        if (text := _text(value)) is not None
    )
    return BriefSection(key, heading, pointer, items)


def _handoff(b: _Builder, content: dict[str, JsonValue]) -> BriefSection:
    pointer = "/content/sourceHandoff"
    handoff = content.get("sourceHandoff")
    if not isinstance(handoff, dict):
        return BriefSection(
            "handoff", "Source handoff", pointer, (), empty=_empty(content, "sourceHandoff")
        )
    items: list[BriefItem] = []
    for key, label in (
        ("fromSessionId", "from session"),
        ("toSessionId", "to session"),
        ("worktreeId", "worktree"),
    ):
        value = handoff.get(key)
        text = _text(value)
        items.append(
            b.item(join("content", "sourceHandoff", key), text or "", label=label,
                   note="" if text is not None else "not named by the source")
        )  # fmt: skip
    refs = [_text(r) or "" for r in _arr(handoff.get("checkpointBeliefIds"))]
    where = _belief_indices(_arr(content.get("beliefs")), set(refs))
    for i, text in enumerate(refs):
        index = where.get(text)
        note = (
            f"belief {join('content', 'beliefs', index)}" if index is not None else "no such belief"
        )
        items.append(
            b.item(join("content", "sourceHandoff", "checkpointBeliefIds", i), text,
                   label="checkpoint belief", note=note)
        )  # fmt: skip
    return BriefSection("handoff", "Source handoff", pointer, tuple(items))


def _belief_indices(beliefs: list[JsonValue], wanted: set[str]) -> dict[str, int]:
    """Where each of a few ``wanted`` portableRefs is, stopping once all are found: a
    packet of 200,000 beliefs is not indexed whole for two checkpoint ids."""
    found: dict[str, int] = {}
    if not wanted:
        return found
    for index, belief in enumerate(beliefs):
        ref = belief.get("portableRef") if type(belief) is dict else None
        if ref in wanted and ref not in found and isinstance(ref, str):
            found[ref] = index
            if len(found) == len(wanted):
                break
    return found


def _tools(
    b: _Builder,
    inspection: PacketInspection,
    content: dict[str, JsonValue],
    destination: Destination | None,
) -> BriefSection:
    pointer = "/content/allowedTools"
    names = [t for t in _arr(content.get("allowedTools")) if isinstance(t, str)]
    statuses = _tool_statuses(inspection, names, destination)
    items = tuple(
        b.item(join("content", "allowedTools", i), name, note=statuses[name])
        for i, name in enumerate(names)
    )
    summary = "statuses need a destination" if destination is None and names else ""
    empty = (
        "none listed: the packet does not constrain the destination's tools"
        if "allowedTools" not in content
        else "none allowed"
    )
    return BriefSection("tools", "Allowed tools", pointer, items, summary=summary, empty=empty)


def _tool_statuses(
    inspection: PacketInspection, names: Sequence[str], destination: Destination | None
) -> dict[str, str]:
    if destination is None:
        return {
            n: w.NO_DESTINATION_HIGH_RISK if n in HIGH_RISK_TOOLS else w.NO_DESTINATION_TOOL
            for n in names
        }
    policy = inspection.stage(Stage.POLICY)
    refused = {f.pointer for f in policy.findings if f.code is ErrorCode.HIGH_RISK_TOOL_REFUSED}
    if refused:
        return {
            n: w.TOOL_WORDS["refused"] if n in HIGH_RISK_TOOLS else w.REFUSED_PACKET_TOOL
            for n in names
        }
    if inspection.value is None or not inspection.valid or policy.status is not StageStatus.PASSED:
        return dict.fromkeys(names, w.REFUSED_PACKET_TOOL)
    # The dispositions ingest records: one rule for the receipt and for these words.
    from zcf_inspector.core.packet.ingest import dispositions  # noqa: PLC0415 - needs pydantic

    tools = _obj(dispositions(inspection.value, destination).get("tools"))
    return {n: w.TOOL_WORDS.get(_text(tools.get(n)) or "", "not decided") for n in names}


def _verification(b: _Builder, content: dict[str, JsonValue]) -> BriefSection:
    items = []
    for i, entry in enumerate(_arr(content.get("verification"))):
        e = _obj(entry)
        kind, status = _text(e.get("kind")) or "?", _text(e.get("status")) or "?"
        ref = _text(e.get("receiptRef"))
        note = w.VERIFICATION_NOTE + (f"; its receipt: {ref}" if ref else "")
        pointer = join("content", "verification", i)
        summary = _text(e.get("summary"))
        if summary is not None:
            pointer = join("content", "verification", i, "summary")
        items.append(b.item(pointer, summary or "", label=f"{kind}: {status}", note=note))
    return BriefSection(
        "verification",
        "Verification",
        "/content/verification",
        tuple(items),
        summary=w.VERIFICATION_NOTE if items else "",
        empty=_empty(content, "verification"),
    )


def _receipts(b: _Builder, content: dict[str, JsonValue]) -> BriefSection:
    items = []
    for i, entry in enumerate(_arr(content.get("receipts"))):
        e = _obj(entry)
        label = f"{_text(e.get('kind')) or '?'} receipt {_text(e.get('id')) or '?'}"
        note = f"digest {_text(e.get('digest')) or '?'} (not checked against any file)"
        items.append(
            b.item(join("content", "receipts", i, "summary"), _text(e.get("summary")) or "",
                   label=label, note=note)
        )  # fmt: skip
    return BriefSection(
        "receipts", "Receipts", "/content/receipts", tuple(items), empty=_empty(content, "receipts")
    )


def _empty(content: dict[str, JsonValue], name: str) -> str:
    return "none listed" if name in content else "not in the packet (see the omissions)"


def _redactions(b: _Builder, packet: dict[str, JsonValue]) -> BriefSection:
    manifest = _obj(packet.get("redactionManifest"))
    entries = _arr(manifest.get("entries"))
    items = []
    for i, entry in enumerate(entries):
        e = _obj(entry)
        where = f"{_text(e.get('section')) or '?'} {_text(e.get('pointer')) or ''}".rstrip()
        items.append(
            b.item(join("redactionManifest", "entries", i, "reason"),
                   _text(e.get("reason")) or "", label=f"redacted at {where}")
        )  # fmt: skip
    summary = w.redaction_summary(
        len(entries),
        _text(manifest.get("policyId")) or "?",
        _text(manifest.get("policyVersion")) or "?",
    )
    return BriefSection(
        "redactions", "Redactions", "/redactionManifest", tuple(items), summary=summary,
        empty="none",
    )  # fmt: skip


def _omissions(b: _Builder, packet: dict[str, JsonValue]) -> BriefSection:
    entries = _arr(_obj(packet.get("omissionManifest")).get("entries"))
    pairs: list[tuple[str, str]] = []
    items = []
    for i, entry in enumerate(entries):
        e = _obj(entry)
        section, status = _text(e.get("section")) or "?", _text(e.get("status")) or "?"
        pairs.append((section, status))
        items.append(
            b.item(join("omissionManifest", "entries", i, "reason"), _text(e.get("reason")) or "",
                   label=f"{section}: {w.OMISSION_WORDS.get(status, status)}")
        )  # fmt: skip
    return BriefSection(
        "omissions", "Omissions", "/omissionManifest", tuple(items),
        summary=w.omission_summary(pairs), empty="none",
    )  # fmt: skip


def _archive(b: _Builder, content: dict[str, JsonValue]) -> BriefSection:
    items = []
    for i, entry in enumerate(_arr(content.get("archiveRefs"))):
        e = _obj(entry)
        size = e.get("byteLength")
        note = f"{_text(e.get('mediaType')) or '?'}, " + (
            f"{size:,} bytes" if isinstance(size, int) else "size not stated"
        )
        items.append(
            b.item(join("content", "archiveRefs", i, "ref"), _text(e.get("ref")) or "",
                   label="archived object", note=f"{note}, digest {_text(e.get('digest')) or '?'}")
        )  # fmt: skip
    return BriefSection("archive", "Archived objects", "/content/archiveRefs", tuple(items))
