"""The Briefing: a packet's capsule and handoff as headed, plain-worded items, each with
its JSON pointer and an honest integrity status — a frozen structure any front end shows.

Every text in it is document text, unescaped: a front end passes it through the one
escaping rule (`core.visible_text`) before showing it. A text holding a suspected
credential is kept masked here (``text``); the value is only ever read from the packet,
by pointer, when the reviewer asks to reveal it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from zcf_inspector.core.claims.workspace import ClaimCheck, WorkspaceCheck
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.scan import SecretHit, SecretScan


class Integrity(StrEnum):
    """What the integrity manifest says about one item's text — never whether it is true."""

    COVERED = "covered"  # under the root, and its section's digest and the root match
    CHANGED = "changed"  # under the root, but its section's digest or the root differs
    NOT_COVERED = "not_covered"  # outside the root (the manifests, the envelope's words)


INTEGRITY_WORDS: Final = {
    Integrity.COVERED: (
        "covered by the manifest — this says the text arrived unchanged, not that it is true"
    ),
    Integrity.CHANGED: (
        "covered by a manifest that does not match — the text may have changed since it was sealed"
    ),
    Integrity.NOT_COVERED: (
        "not covered by the manifest — nothing says this text arrived as it was written"
    ),
}


@dataclass(frozen=True, slots=True)
class BriefItem:
    """One thing the briefing says, and where in the packet it comes from."""

    pointer: str
    text: str  # document text with any suspected credential masked
    integrity: Integrity
    label: str = ""  # what it is, when the heading does not say ("from session")
    note: str = ""  # the program's word on it ("native here", "names belief 2")
    secrets: tuple[SecretHit, ...] = ()
    claim: ClaimCheck | None = None  # the workspace's word on it (changed files)

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "pointer": self.pointer,
            "text": self.text,
            "integrity": str(self.integrity),
        }
        if self.label:
            out["label"] = self.label
        if self.note:
            out["note"] = self.note
        if self.secrets:
            out["secrets"] = [hit.to_json() for hit in self.secrets]
        if self.claim is not None:
            out["workspace"] = self.claim.to_json()
        return out


@dataclass(frozen=True, slots=True)
class BriefSection:
    key: str  # stable: "objective", "decisions", …
    heading: str  # "Decisions"
    pointer: str  # of the array (or value) the items come from
    items: tuple[BriefItem, ...]
    summary: str = ""  # a sentence said before the items ("capture: partial — …")
    empty: str = "none listed"  # said when there are no items

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "key": self.key,
            "heading": self.heading,
            "pointer": self.pointer,
            "summary": self.summary,
            "empty": self.empty,
            "items": [item.to_json() for item in self.items],
        }


@dataclass(frozen=True, slots=True)
class Briefing:
    packet_id: str  # "" when the packet names none
    verdict: str  # the packet's headline (core/packet/trust): validity and authenticity
    refused: bool
    sections: tuple[BriefSection, ...]  # in reading order; see `build.SECTION_ORDER`
    secrets: SecretScan | None  # None when the scan was not run
    workspace: WorkspaceCheck | None  # None without a workspace
    notes: tuple[str, ...] = ()  # what the briefing could not say, and why

    def section(self, key: str) -> BriefSection:
        return next(s for s in self.sections if s.key == key)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "packetId": self.packet_id,
            "verdict": self.verdict,
            "refused": self.refused,
            "integrityWords": {str(k): v for k, v in INTEGRITY_WORDS.items()},
            "notes": list(self.notes),
            "sections": [s.to_json() for s in self.sections],
            "secrets": None if self.secrets is None else self.secrets.to_json(),
            "workspace": None if self.workspace is None else self.workspace.to_json(),
        }
