"""Profile §3: the closed structure of a ZCF v1 packet, with every finding at once.

``check_structure`` takes the value the strict reader returned and never raises on any
value of that shape. The schemas live in ``structure_models``; this module dispatches to
them (its findings, pydantic's errors translated among them, are phrased by
``structure_report``), and adds the rules a schema cannot state: the constant envelope
fields, the shape of ``content`` against ``artifactKind``, sections accounted for by
``omissionManifest``, unique ids and resolvable references.

Decisions where the profile is silent (each is tested):

* **Content shape.** ``content`` has the archive shape when it has an ``archiveRefs`` key
  and no handoff section key, the handoff shape when it has a handoff section key and no
  ``archiveRefs``; with both or neither, it is taken to have the declared kind's shape
  (its stray keys are then ``unknown_field``). ``artifact_content_mismatch`` (pointer
  ``/artifactKind``, the field the profile's table charges with it) is reported only
  when the recognised shape differs from a valid declared kind, and ``content`` is then
  checked against the shape it has, so that its own faults stay visible without a
  cascade of ``unknown_field``/``section_missing_unaccounted`` from the wrong schema.
* **Section names in the manifests.** A handoff packet's manifests name one of the nine
  handoff sections; an archive packet's name ``archiveRefs`` (profile §4 calls it the
  archive's single section); with no known kind, any of the ten.
* **omissionManifest.** An entry for a section that ``content`` has is ``invalid_value``
  at the entry; a second entry for one section is ``duplicate_id`` at its ``section``.
  A missing ``omissionManifest`` accounts for nothing; one whose ``entries`` is not an
  array cannot be read, so missing sections are then not reported (its own fault is).
* **redactionManifest pointers** must be RFC 6901 pointers (``invalid_value``). One that
  does not resolve inside its (present) section is a ``dangling_reference`` *warning*:
  redaction may remove the very value the pointer named, so non-resolution is not proof
  of a fault, but a viewer cannot show where the redaction was.
  A section with errors of its own is not searched (its findings already explain it).
* **References** (``beliefRef``, ``sourceRef``, ``receiptRef``, ``checkpointBeliefIds``)
  are resolved against a target section that is present, is an array, and whose every
  item is an object with a string id; a target present but refused is not searched (its
  own findings explain it, and guessing would only add noise). A target that is absent
  and listed on ``omissionManifest`` has no items: every reference into it is
  ``dangling_reference`` (profile clarification of 2026-12-01). One absent and *not*
  listed is already ``section_missing_unaccounted``; references into it are not checked.
* **Duplicates** are reported at the second and every later occurrence, with the index
  of the first. ``archiveRefs[].ref`` is an archive ref's id, so it is unique too.
  Arrays of references (``scopeRefs``, ``checkpointBeliefIds``) may repeat a value. A
  repeated ``allowedTools`` name is ``duplicate_id``; an unknown one that repeats gets
  both findings.
* ``format``, ``formatVersion`` and ``canonicalizationProfile`` get their dedicated code
  for any other value, of any type (``true`` is not the integer 1); ``generation`` and
  ``byteLength`` refuse booleans and non-integral numbers. Expiry is not checked here:
  it needs a clock, and is the policy stage's.
* An optional field (``reviewState?``) may be absent but is never ``null``; a nullable
  one (``toSessionId``) must still be present.
* With ``kind`` missing or unknown (``recipientIntent``, ``authentication``), the kind is
  the one finding, plus ``unknown_field`` for keys that no kind's shape has.
* Every finding is an ``error`` except the redaction-pointer warning above. A value that
  is not an object gets one ``not_an_object`` finding (the reader refuses it first).
* Strings holding lone surrogates (which the reader refuses) are ``invalid_value``.
"""

from __future__ import annotations

from collections.abc import Set
from functools import partial
from typing import Any

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Finding, FindingBudget, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.structure_models import (
    ARCHIVE_SECTION,
    ARRAY_SECTIONS,
    ARTIFACT_KINDS,
    AUTHENTICATION,
    CANONICALIZATION_PROFILE,
    CAPABILITIES,
    CONTENT_SECTIONS,
    CONTENT_SECTIONS_CORE,
    ENVELOPE_TYPES,
    FORMAT,
    FORMAT_VERSION,
    HIGH_RISK_TOOLS,
    POINTER_RE,
    RECIPIENT_INTENT,
    REVIEW_STATES,
    SECTION_OBJECT_TYPES,
    KindedObject,
)
from zcf_inspector.core.packet.structure_report import (
    ITEMS_PER_CHECK,
    Loc,
    Report,
    label,
    one_of,
    show,
    watched,
)
from zcf_inspector.core.pointer import exists

__all__ = [
    "CAPABILITIES",
    "CONTENT_SECTIONS",
    "CONTENT_SECTIONS_CORE",
    "HIGH_RISK_TOOLS",
    "REVIEW_STATES",
    "TOP_LEVEL_FIELDS",
    "check_structure",
    "show",
]

HANDOFF = "session-handoff"
ARCHIVE = "continuity-archive"

TOP_LEVEL_FIELDS: tuple[str, ...] = (
    "format",
    "formatVersion",
    "artifactKind",
    "canonicalizationProfile",
    "packet",
    "source",
    "recipientIntent",
    "content",
    "redactionManifest",
    "omissionManifest",
    "retention",
    "manifest",
    "authentication",
    "extensions",
    "scopeProof",
)
_OPTIONAL_TOP_LEVEL = frozenset({"scopeProof"})
_TOP_LEVEL = frozenset(TOP_LEVEL_FIELDS)
_HANDOFF_SECTIONS = frozenset(CONTENT_SECTIONS)
_CAPABILITIES = frozenset(CAPABILITIES)
_HANDOFF_ARRAYS = tuple(name for name in CONTENT_SECTIONS if name in ARRAY_SECTIONS)

# (section, referencing field, target section): each value must name an item of the target.
_REFERENCES = (
    ("evidenceAnchors", "beliefRef", "beliefs"),
    ("evidenceAnchors", "sourceRef", "evidenceSources"),
    ("reviewEvents", "beliefRef", "beliefs"),
    ("verification", "receiptRef", "receipts"),
)

# The ids of a section listed on omissionManifest: none (a distinct object, for messages).
_ABSENT: Set[str] = frozenset()


def check_structure(
    packet: dict[str, JsonValue],
    budget: FindingBudget | None = None,
    monitor: Monitor = NULL_MONITOR,
) -> tuple[Finding, ...]:
    """Every §3 finding about ``packet``, in envelope order; empty when it is well formed.

    Findings go to ``budget`` (the packet's, shared with the later stages) and the ones
    it keeps are returned; past its limit they are only counted (`FindingBudget.omitted`).
    Without a budget, a fresh one of the default limit is used. ``monitor`` is checked
    between the pieces of every validation (`Cancelled`: the budget then holds part of
    the findings, and the caller drops it).
    """
    budget = FindingBudget() if budget is None else budget
    if not isinstance(packet, dict):
        message = f"a packet must be a JSON object; found {show(packet)}"
        budget.add(Finding(ErrorCode.NOT_AN_OBJECT, Severity.ERROR, "", message))
        return tuple(budget.kept)
    report = Report(budget, monitor)
    _check_top_level_keys(report, packet)
    declared = _check_constants(report, packet)
    for name in ("packet", "source"):
        if name in packet:
            report.validate(ENVELOPE_TYPES[name], packet[name], (name,))
    if "recipientIntent" in packet:
        _check_kinded(report, ("recipientIntent",), packet["recipientIntent"], RECIPIENT_INTENT)
    shape = _check_content(report, packet, declared)
    _check_redactions(report, packet, shape)
    _check_omissions(report, packet, shape)
    for name in ("retention", "manifest"):
        if name in packet:
            report.validate(ENVELOPE_TYPES[name], packet[name], (name,))
    if "authentication" in packet:
        _check_kinded(report, ("authentication",), packet["authentication"], AUTHENTICATION)
    if "extensions" in packet and not isinstance(packet["extensions"], dict):
        report.invalid(("extensions",), "an object", packet["extensions"])
    if "scopeProof" in packet:
        report.validate(ENVELOPE_TYPES["scopeProof"], packet["scopeProof"], ("scopeProof",))
    return tuple(budget.kept)


# --- the envelope ----------------------------------------------------------------------------


def _check_top_level_keys(report: Report, packet: dict[str, JsonValue]) -> None:
    for key in packet:
        if key not in _TOP_LEVEL:
            report.unknown_field((key,))
    for key in TOP_LEVEL_FIELDS:
        if key not in packet and key not in _OPTIONAL_TOP_LEVEL:
            report.missing_field((key,))


def _check_constants(report: Report, packet: dict[str, JsonValue]) -> str | None:
    """Check the constant fields; return ``artifactKind`` when it is one of the two kinds."""
    constants = (
        ("format", FORMAT, ErrorCode.UNSUPPORTED_FORMAT, "the only format this reads"),
        ("formatVersion", FORMAT_VERSION, ErrorCode.UNSUPPORTED_FORMAT_VERSION, "ZCF v1"),
        (
            "canonicalizationProfile",
            CANONICALIZATION_PROFILE,
            ErrorCode.UNSUPPORTED_CANONICALIZATION_PROFILE,
            "the only profile ZCF v1 defines",
        ),
    )
    for key, expected, code, why in constants:
        if key in packet and not _same(packet[key], expected):
            found = show(packet[key])
            report.add(code, (key,), f"{key} must be {show(expected)} ({why}); found {found}")
    kind = packet.get("artifactKind")
    if "artifactKind" not in packet:
        return None
    if isinstance(kind, str) and kind in ARTIFACT_KINDS:
        return kind
    report.invalid(("artifactKind",), one_of(ARTIFACT_KINDS), kind)
    return None


def _same(value: object, expected: object) -> bool:
    # `type is` first: True == 1 and 1.0 == 1, but neither is the integer 1.
    return type(value) is type(expected) and value == expected


def _check_kinded(report: Report, loc: Loc, value: object, kinded: KindedObject) -> None:
    """Validate an object against the schema its ``kind`` selects."""
    if not isinstance(value, dict):
        report.invalid(loc, "an object", value)
        return
    kind = value.get("kind")
    shape = kinded.shapes.get(kind) if isinstance(kind, str) else None
    if shape is not None:
        report.validate(shape, value, loc)
        return
    if "kind" in value:
        report.invalid((*loc, "kind"), one_of(tuple(kinded.shapes)), kind)
    else:
        report.missing_field((*loc, "kind"))
    for key in value:
        if key not in kinded.fields:
            report.unknown_field((*loc, key))


# --- content ---------------------------------------------------------------------------------


def content_shape(content: dict[str, Any], declared: str | None) -> str | None:
    """The kind whose shape ``content`` has (see the module docstring), or ``None``."""
    has_archive = ARCHIVE_SECTION in content
    has_handoff = any(key in _HANDOFF_SECTIONS for key in content)
    if has_archive and not has_handoff:
        return ARCHIVE
    if has_handoff and not has_archive:
        return HANDOFF
    return declared


def _check_content(
    report: Report, packet: dict[str, JsonValue], declared: str | None
) -> str | None:
    """Check ``content``; return the kind it was checked as (``None``: not checked)."""
    if "content" not in packet:
        return declared
    content = packet["content"]
    if not isinstance(content, dict):
        report.invalid(("content",), "an object", content)
        return declared
    shape = content_shape(content, declared)
    if declared is not None and shape != declared:
        what = "an archiveRefs array" if shape == ARCHIVE else "session-handoff sections"
        report.add(
            ErrorCode.ARTIFACT_CONTENT_MISMATCH,
            ("artifactKind",),
            f"artifactKind is {declared!r}, but content holds {what} (the shape of a {shape})",
        )
    if shape == HANDOFF:
        _check_handoff_content(report, content, _omitted_sections(packet))
    elif shape == ARCHIVE:
        _check_archive_content(report, content)
    return shape


def _omitted_sections(packet: dict[str, JsonValue]) -> Set[str] | None:
    """The section names ``omissionManifest`` accounts for; ``None`` when unreadable."""
    manifest = packet.get("omissionManifest")
    if manifest is None and "omissionManifest" not in packet:
        return frozenset()
    entries = manifest.get("entries") if isinstance(manifest, dict) else None
    if not isinstance(entries, list):
        return None
    # An entry with other faults (say, a bad status) still accounts for its section: its
    # own finding says what is wrong, and a second one here would be noise.
    sections = (entry.get("section") for entry in entries if isinstance(entry, dict))
    return {section for section in sections if isinstance(section, str)}


def _check_handoff_content(
    report: Report, content: dict[str, Any], omitted: Set[str] | None
) -> None:
    for key in content:
        if key not in _HANDOFF_SECTIONS:
            report.unknown_field(("content", key))
    if omitted is not None:
        for name in CONTENT_SECTIONS_CORE:
            if name not in content and name not in omitted:
                report.add(
                    ErrorCode.SECTION_MISSING_UNACCOUNTED,
                    ("content", name),
                    f"core section {name!r} is absent from content and omissionManifest "
                    "has no entry for it (a section that cannot be captured must be listed)",
                )
    if "capsule" in content:
        report.validate(SECTION_OBJECT_TYPES["capsule"], content["capsule"], ("content", "capsule"))
    ids: dict[str, Set[str] | None] = {}
    for name in _HANDOFF_ARRAYS:
        ids[name] = None
        if name in content:
            ids[name] = report.check_array(("content", name), content[name], ARRAY_SECTIONS[name])
        elif omitted is not None and name in omitted:
            # Profile clarification 2026-12-01: a section declared absent has no items, so
            # no reference into it resolves (no cascade: it is not a section that failed).
            ids[name] = _ABSENT
    if "sourceHandoff" in content:
        loc: Loc = ("content", "sourceHandoff")
        report.validate(SECTION_OBJECT_TYPES["sourceHandoff"], content["sourceHandoff"], loc)
    if "allowedTools" in content:
        _check_allowed_tools(report, content["allowedTools"])
    _check_references(report, content, ids)


def _check_allowed_tools(report: Report, tools: object) -> None:
    loc: Loc = ("content", "allowedTools")
    if not isinstance(tools, list):
        report.invalid(loc, "an array of capability names", tools)
        return
    first: dict[str, int] = {}
    for index, name in watched(tools, report.monitor):
        if not isinstance(name, str):
            report.invalid((*loc, index), "a capability name (a string)", name)
            continue
        if name not in _CAPABILITIES:
            at: Loc = (*loc, index)
            report.add(ErrorCode.UNKNOWN_CAPABILITY, at, partial(_unknown_capability, at, name))
        if first.setdefault(name, index) != index:
            report.duplicate((*loc, index), name, first[name])


def _unknown_capability(at: Loc, name: str) -> str:
    return (
        f"{label(at)} is {show(name)}, not one of the published capabilities "
        f"({', '.join(CAPABILITIES)})"
    )


def _check_references(
    report: Report, content: dict[str, Any], ids: dict[str, Set[str] | None]
) -> None:
    for section, field, target in _REFERENCES:
        known = ids[target]
        items = content.get(section)
        if known is None or not isinstance(items, list):
            continue
        for index, item in watched(items, report.monitor):
            ref = item.get(field) if isinstance(item, dict) else None
            if isinstance(ref, str) and ref not in known:
                at: Loc = ("content", section, index, field)
                report.dangling(at, ref, target, omitted=known is _ABSENT)
    handoff = content.get("sourceHandoff")
    known = ids["beliefs"]
    refs = handoff.get("checkpointBeliefIds") if isinstance(handoff, dict) else None
    if known is not None and isinstance(refs, list):
        for index, ref in watched(refs, report.monitor):
            if isinstance(ref, str) and ref not in known:
                loc: Loc = ("content", "sourceHandoff", "checkpointBeliefIds", index)
                report.dangling(loc, ref, "beliefs", omitted=known is _ABSENT)


def _check_archive_content(report: Report, content: dict[str, Any]) -> None:
    for key in content:
        if key != ARCHIVE_SECTION:
            report.unknown_field(("content", key))
    if ARCHIVE_SECTION not in content:
        report.missing_field(("content", ARCHIVE_SECTION))
        return
    section = ARRAY_SECTIONS[ARCHIVE_SECTION]
    report.check_array(("content", ARCHIVE_SECTION), content[ARCHIVE_SECTION], section, 1)


# --- the manifests of what content lacks -----------------------------------------------------


def _section_names(shape: str | None) -> tuple[str, ...]:
    if shape == HANDOFF:
        return CONTENT_SECTIONS
    if shape == ARCHIVE:
        return (ARCHIVE_SECTION,)
    return (*CONTENT_SECTIONS, ARCHIVE_SECTION)


def _manifest_entries(
    report: Report, packet: dict[str, JsonValue], name: str, shape: str | None
) -> list[tuple[Loc, dict[str, Any], str]]:
    """Validate a manifest; return its entries that name a section of the packet's kind."""
    if name not in packet:
        return []
    manifest = packet[name]
    report.validate(ENVELOPE_TYPES[name], manifest, (name,))
    entries = manifest.get("entries") if isinstance(manifest, dict) else None
    if not isinstance(entries, list):
        return []
    names = _section_names(shape)
    every_name = _section_names(None)
    usable: list[tuple[Loc, dict[str, Any], str]] = []
    for index, entry in watched(entries, report.monitor):
        if not isinstance(entry, dict):
            continue  # the schema has reported it
        section = entry.get("section")
        if not isinstance(section, str) or section not in every_name:
            continue  # the schema has reported it
        loc: Loc = (name, "entries", index)
        if section not in names:
            report.invalid((*loc, "section"), f"a section of a {shape} ({one_of(names)})", section)
            continue
        usable.append((loc, entry, section))
    return usable


def _check_omissions(report: Report, packet: dict[str, JsonValue], shape: str | None) -> None:
    content = packet.get("content")
    first: dict[str, int] = {}
    for n, (loc, _entry, section) in enumerate(
        _manifest_entries(report, packet, "omissionManifest", shape)
    ):
        if not n % ITEMS_PER_CHECK:
            report.monitor.breathe()
        index = loc[-1]
        assert isinstance(index, int)
        if first.setdefault(section, index) != index:
            report.duplicate((*loc, "section"), section, first[section])
        if isinstance(content, dict) and section in content:
            report.add(ErrorCode.INVALID_VALUE, loc, partial(_omitted_but_present, loc, section))


def _omitted_but_present(loc: Loc, section: str) -> str:
    return (
        f"{label(loc)} lists section {section!r} as not transferred, but content has that section"
    )


def _check_redactions(report: Report, packet: dict[str, JsonValue], shape: str | None) -> None:
    content = packet.get("content")
    # A section with errors of its own may have lost the member a pointer names: saying so
    # again would only repeat its findings.
    faulty = report.faulty
    for n, (loc, entry, section) in enumerate(
        _manifest_entries(report, packet, "redactionManifest", shape)
    ):
        if not n % ITEMS_PER_CHECK:
            report.monitor.breathe()
        pointer = entry.get("pointer")
        if not (isinstance(content, dict) and section in content and isinstance(pointer, str)):
            continue
        if section in faulty:
            continue
        if POINTER_RE.fullmatch(pointer) and not exists(content[section], pointer):
            at: Loc = (*loc, "pointer")
            message = partial(_unresolved_redaction, at, pointer, section)
            report.add(ErrorCode.DANGLING_REFERENCE, at, message, Severity.WARNING)


def _unresolved_redaction(at: Loc, pointer: str, section: str) -> str:
    return (
        f"{label(at)} {show(pointer)} names nothing inside content.{section} "
        "(the redaction may have removed it)"
    )
