"""What a comparison of two packets holds: frozen results, and their JSON form.

A *part* is a covered section (profile §4: its digest is under the manifest root) or a
field outside the root (not integrity-protected). A *change* is one element of a part
that was added, removed or changed, found by its identity (see `packets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TypeAlias

from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.trust import PacketTrust


class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


class PartStatus(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    ADDED = "added"  # only B has it
    REMOVED = "removed"  # only A has it


class Absent(Enum):
    """A side on which a field or element does not exist (``null`` is a value)."""

    ABSENT = "absent"


ABSENT = Absent.ABSENT
Side: TypeAlias = "JsonValue | Absent"


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One difference inside a changed element.

    ``path`` is a JSON pointer relative to the element ("" is the element as a whole);
    an array item's index is its index in B (in A when only A has it). ``moved`` is
    (index in A, index in B) of an array item found on both sides in another order.
    """

    path: str
    a: Side
    b: Side
    moved: tuple[int, int] | None = None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"path": self.path}
        if not isinstance(self.a, Absent):
            out["a"] = self.a
        if not isinstance(self.b, Absent):
            out["b"] = self.b
        if self.moved is not None:
            out["moved"] = {"a": self.moved[0], "b": self.moved[1]}
        return out


@dataclass(frozen=True, slots=True)
class Change:
    """One element of a part that was added, removed or changed.

    ``id`` is the element's identity (a belief's ``portableRef``, an ``id``, an archive
    ``ref``, a tool name, an object member's key) or None for an element without one.
    ``occurrence`` is set (1-based) when the identity repeats on either side: the n-th
    element with it in A is compared with the n-th in B. ``moved`` is (index in A,
    index in B) when the element's position among the matched elements changed.
    ``review_state`` is (A's, B's) ``reviewState`` of a belief whose state changed,
    None standing for an absent one (which means unreviewed).
    """

    change: ChangeKind
    section: str | None  # the covered section; None for a field outside the root
    part: str  # the section name, or the uncovered field's name
    id: str | None
    pointer_a: str | None
    pointer_b: str | None
    digest_a: str | None
    digest_b: str | None
    fields: tuple[FieldChange, ...] = ()
    fields_omitted: int = 0  # differences past the per-element limit, counted only
    moved: tuple[int, int] | None = None
    occurrence: int | None = None
    review_state: tuple[str | None, str | None] | None = None

    @property
    def pointer(self) -> str:
        """Where the element is: in B, or in A when it was removed."""
        pointer = self.pointer_a if self.change is ChangeKind.REMOVED else self.pointer_b
        assert pointer is not None
        return pointer

    @property
    def integrity_protected(self) -> bool:
        return self.section is not None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "pointer": self.pointer,
            "change": str(self.change),
            "section": self.section,
            "id": self.id,
            "integrityProtected": self.integrity_protected,
            "digests": {"a": self.digest_a, "b": self.digest_b},
        }
        if self.change is ChangeKind.CHANGED:
            out["pointerA"] = self.pointer_a
            out["fields"] = [f.to_json() for f in self.fields]
            if self.fields_omitted:
                out["fieldsOmitted"] = self.fields_omitted
        if self.moved is not None:
            out["moved"] = {"a": self.moved[0], "b": self.moved[1]}
        if self.occurrence is not None:
            out["occurrence"] = self.occurrence
        if self.review_state is not None:
            out["reviewState"] = {"a": self.review_state[0], "b": self.review_state[1]}
        return out


@dataclass(frozen=True, slots=True)
class PartComparison:
    """A covered section or a field outside the root, on both sides."""

    name: str
    covered: bool
    pointer: str  # in B, or in A when only A has it
    digest_a: str | None  # canonical digest; None when that side has no such part
    digest_b: str | None
    status: PartStatus
    added: int = 0  # element changes in this part, listed or past the budget
    removed: int = 0
    changed: int = 0

    @property
    def change_count(self) -> int:
        return self.added + self.removed + self.changed

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "name": self.name,
            "a": self.digest_a,
            "b": self.digest_b,
            "status": str(self.status),
        }


@dataclass(frozen=True, slots=True)
class SideSummary:
    """What the stages said about one packet, in one line's worth of facts."""

    readable: bool  # False: refused at the byte stage, nothing to compare
    valid: bool
    failed_stages: tuple[str, ...]
    root: str | None  # the computed manifest root
    auth: str  # the authentication verdict's reason ("" when not checked)
    refusal: Finding | None = None  # the byte-stage refusal of an unreadable packet
    trust: PacketTrust | None = None  # validity and authenticity (the presenter's words)

    def to_json(self, path: str) -> dict[str, JsonValue]:
        return {
            "path": path,
            "rootHash": self.root,
            "valid": self.valid,
            "refusedAt": list(self.failed_stages),
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two packets compared: each side's verdict, every part, and the element changes.

    ``changes`` lists at most ``budget`` units (a change costs one plus its fields);
    ``omitted`` counts the changes past it, which the parts' counts still include.
    """

    a: SideSummary
    b: SideSummary
    sections: tuple[PartComparison, ...]  # covered sections, by name
    uncovered: tuple[PartComparison, ...]  # fields outside the root, by pointer
    changes: tuple[Change, ...]
    omitted: int
    budget: int

    @property
    def readable(self) -> bool:
        return self.a.readable and self.b.readable

    @property
    def identical(self) -> bool:
        """Canonically identical: every part on both sides with the same bytes."""
        return self.readable and all(
            p.status is PartStatus.SAME for p in (*self.sections, *self.uncovered)
        )

    @property
    def parts(self) -> tuple[PartComparison, ...]:
        return (*self.sections, *self.uncovered)

    def changed_first(self) -> tuple[PartComparison, ...]:
        """Every part, those that differ first (covered before uncovered in each group)."""
        parts = self.parts
        return (
            *(p for p in parts if p.status is not PartStatus.SAME),
            *(p for p in parts if p.status is PartStatus.SAME),
        )

    def to_json(self, path_a: str, path_b: str) -> dict[str, JsonValue]:
        return {
            "a": self.a.to_json(path_a),
            "b": self.b.to_json(path_b),
            "sections": [s.to_json() for s in self.sections],
            "changes": [c.to_json() for c in self.changes],
        }
