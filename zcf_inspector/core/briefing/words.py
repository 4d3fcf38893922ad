"""The briefing's plain words for the capsule's enums and the manifests (no document text)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

CAPTURE_WORDS: Final[Mapping[str, str]] = {
    "complete": "the source says it captured the whole session",
    "partial": "the source says part of the session was not captured (see the limitations)",
    "degraded": "the source says what it captured lost fidelity on the way",
}

LIFECYCLE_WORDS: Final[Mapping[str, str]] = {
    "native": "captured by the host's own session lifecycle",
    "consented-manual": "a person chose what to hand off, with consent",
    "derived": "reconstructed after the fact, not observed as it happened",
    "unavailable": "the source could not say how the session was captured",
}

# omissionManifest statuses, as "N sections <words>".
OMISSION_WORDS: Final[Mapping[str, str]] = {
    "omitted": "omitted by the source",
    "not_captured": "not captured (the source tried and failed)",
    "redacted": "redacted under a policy",
    "unsupported": "unsupported by the source",
}

TOOL_WORDS: Final[Mapping[str, str]] = {
    "native": "native here — the destination declares it and may run it",
    "narrated": "narrated — high-risk: kept as prose, its action never run",
    "unsupported": "unsupported here — the destination does not declare it",
    "refused": "refused — high-risk at a strict destination: the import is refused",
}
NO_DESTINATION_TOOL: Final = "not decided here: no destination given"
NO_DESTINATION_HIGH_RISK: Final = (
    "high-risk: narrated (never run) at any destination, or refused by a strict one"
)
REFUSED_PACKET_TOOL: Final = "not decided: the packet was refused"

VERIFICATION_NOTE: Final = "as the source reports it; nothing was re-run here"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def capture_line(quality: str | None) -> str:
    if quality is None:
        return "capture: not stated"
    return (
        f"capture: {quality} — {CAPTURE_WORDS.get(quality, 'a quality this version does not know')}"
    )


def lifecycle_line(coverage: str | None) -> str:
    if coverage is None:
        return "lifecycle coverage: not stated"
    words = LIFECYCLE_WORDS.get(coverage, "a coverage this version does not know")
    return f"lifecycle coverage: {coverage} — {words}"


def omission_summary(entries: list[tuple[str, str]]) -> str:
    """``entries``: (section, status). "2 sections omitted by the source: a, b; …"."""
    if not entries:
        return "no section left out by the source"
    by_status: dict[str, list[str]] = {}
    for section, status in entries:
        by_status.setdefault(status, []).append(section)
    parts = [
        f"{plural(len(names), 'section')} {OMISSION_WORDS.get(status, status)}: {', '.join(names)}"
        for status, names in by_status.items()
    ]
    return "; ".join(parts)


def redaction_summary(count: int, policy: str, version: str) -> str:
    if count == 0:
        return f"no redactions (policy {policy} {version})"
    return (
        f"{plural(count, 'redaction')} by the source under policy {policy} {version}: "
        "the text there was removed before the packet was made"
    )
