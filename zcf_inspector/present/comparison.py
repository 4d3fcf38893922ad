"""The comparison presenter: each compared side in the packets' words, and the summary.

A side is said exactly as `validate` says that packet (``INTACT · MAC NOT CHECKED (no
destination keys)``, never "valid" for a MAC nobody checked); a side refused at the
byte stage has nothing to compare.
"""

from __future__ import annotations

from zcf_inspector.core.compare.model import Comparison, PartStatus, SideSummary
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.present import packet
from zcf_inspector.present.vocabulary import (
    SEPARATOR,
    CheckStatus,
    Chip,
    Trust,
    Verdict,
    weakest,
)

NOTHING_TO_COMPARE = "nothing to compare"


def side_verdict(side: SideSummary) -> Verdict:
    """The side's verdict, in `validate`'s words."""
    if side.trust is None:  # a summary made without its trust facts
        return Verdict(str(DocumentKind.PACKET), "REFUSED at bytes", Trust.REFUSED, ())
    return packet.trust_verdict(side.trust)


def side_words(side: SideSummary, shown: Verdict | None = None) -> str:
    """The side's verdict line after its label and path: the words (``shown``: the side's
    own view's verdict, the opener's, as `validate` says it), and for a refused side how
    far it was compared."""
    words = (shown or side_verdict(side)).words
    if not side.readable:
        return f"{words}{SEPARATOR}{NOTHING_TO_COMPARE}"
    if not side.valid:
        return f"{words} (compared as far as it reads)"
    return words


def verdict(comparison: Comparison) -> Verdict:
    """The comparison as a whole: its trust is the weaker side's; one chip per side."""
    a, b = side_verdict(comparison.a), side_verdict(comparison.b)
    trust = weakest(a.trust, b.trust)
    rows = tuple(
        Chip(label, _state(v.trust), v.words, v.words) for label, v in (("A", a), ("B", b))
    )
    words = summary_words(comparison)
    return Verdict(str(DocumentKind.COMPARISON), words, trust, rows)


def _state(trust: Trust) -> CheckStatus:
    return {
        Trust.VERIFIED: CheckStatus.PASS,
        Trust.UNSIGNED: CheckStatus.PASS,
        Trust.UNCHECKED: CheckStatus.NOT_CHECKABLE,
        Trust.REFUSED: CheckStatus.FAIL,
    }[trust]


def summary_words(comparison: Comparison) -> str:
    if not comparison.readable:
        return "NOT COMPARED: a side was refused at the byte stage"
    if comparison.identical:
        return "IDENTICAL"
    sections = sum(1 for p in comparison.sections if p.status is not PartStatus.SAME)
    return f"DIFFERENT: {sections} of {len(comparison.sections)} covered sections"


def side_json(side: SideSummary, path: str, shown: Verdict | None = None) -> dict[str, JsonValue]:
    """``diff --json``'s side object: the core's facts, and the words beside them (the
    side's view's, ``shown``, when it was opened by the opener)."""
    out = side.to_json(path)
    shown = shown or side_verdict(side)
    out["verdict"] = shown.words
    out["trust"] = str(shown.trust)
    out["notChecked"] = list(shown.not_checked)
    return out
