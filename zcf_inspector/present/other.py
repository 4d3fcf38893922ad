"""The presenter of documents with no checks of their own: an unknown JSON document, and
an ASIF 0.5 capability snapshot opened on its own.

    UNRECOGNISED DOCUMENT                                       refused
    CAPABILITY SNAPSHOT · NOT CHECKED ALONE (no report)         unchecked

A snapshot is checked only through the report that binds it (its bytes, their digest,
its components against the report's assessments), so alone it is never more than
unchecked; a document of no known kind is refused, in one chip.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.present.vocabulary import (
    SEPARATOR,
    CheckStatus,
    Chip,
    Trust,
    Verdict,
)

KIND_CHECK = "document kind"
UNRECOGNISED_WORDS = "UNRECOGNISED DOCUMENT"
KNOWN_KINDS = (
    "a ZCF v1 packet, a transfer receipt, an ASIF session, continuation profile or "
    "destination report, or an ASIF capability snapshot"
)
UNRECOGNISED_MESSAGE = f"not a document this inspector knows: it is none of {KNOWN_KINDS}"
SNAPSHOT_NOT_CHECKED = (
    "the snapshot itself: it is checked through the destination report that binds it "
    "(open the report with its session, or give this file as the current snapshot)"
)


@dataclass(frozen=True, slots=True)
class PlainResult:
    """What an open found of a document with no checks of its own: its kind, and for an
    unknown one the one finding saying so."""

    kind: DocumentKind
    findings: tuple[Finding, ...] = ()


def plain_result(kind: DocumentKind) -> PlainResult:
    """The result of opening a document of ``kind`` (unknown, or a snapshot alone)."""
    if kind is DocumentKind.UNKNOWN:
        return PlainResult(kind, (error(PlanCode.UNRECOGNISED_DOCUMENT, "", UNRECOGNISED_MESSAGE),))
    return PlainResult(kind)


def verdict(result: PlainResult) -> Verdict:
    """The verdict of a document with no checks of its own (unknown, or a snapshot)."""
    kind = result.kind
    if kind is DocumentKind.CAPABILITY_SNAPSHOT:
        row = Chip(
            "snapshot",
            CheckStatus.NOT_CHECKABLE,
            "checked through its report",
            SNAPSHOT_NOT_CHECKED,
        )
        words = SEPARATOR.join(("CAPABILITY SNAPSHOT", "NOT CHECKED ALONE (no report)"))
        return Verdict(
            str(kind), words, Trust.UNCHECKED, (row,), not_checked=(SNAPSHOT_NOT_CHECKED,)
        )
    row = Chip(KIND_CHECK, CheckStatus.FAIL, "not a known document", UNRECOGNISED_MESSAGE)
    return Verdict(str(DocumentKind.UNKNOWN), UNRECOGNISED_WORDS, Trust.REFUSED, (row,))
