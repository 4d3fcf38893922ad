"""Findings: what every check reports, one `{code, severity, pointer, message}` each."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from zcf_inspector.core.jsontypes import JsonValue


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a check found, pinned to a JSON pointer into the document it read."""

    code: StrEnum  # an ErrorCode for ZCF packets; the continuation checks have their own enum
    severity: Severity
    pointer: str
    message: str
    offset: int | None = None  # byte offset, for refusals made while reading bytes
    # The ASIF plan subject (node ID, `TYPE:ID`) the finding is about, named by the rule
    # that raised it, so a front end attaches it to its node by identity rather than by
    # guessing from the pointer (which may point at another subject's field). None: the
    # finding is about no one subject (and always for packets, receipts and reviews).
    subject: str | None = None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "code": str(self.code),
            "severity": str(self.severity),
            "pointer": self.pointer,
            "message": self.message,
        }
        # A byte-stage refusal says where in the bytes (profile §1: "every refusal carries
        # the byte offset"); other findings have a pointer only, and no such key.
        if self.offset is not None:
            out["offset"] = self.offset
        return out


def error(code: StrEnum, pointer: str, message: str, subject: str | None = None) -> Finding:
    return Finding(code, Severity.ERROR, pointer, message, subject=subject)


def has_error(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


# --- the findings budget of one document ------------------------------------------------------

# Findings kept in full per document. Past it only a count per code is kept (and the first
# pointer of each), so any input is answered in time and memory proportional to its size:
# a packet of four million empty beliefs has twelve million findings, and no one reads them.
FINDINGS_LIMIT: Final = 1000


@dataclass(frozen=True, slots=True)
class OmittedFindings:
    """Findings of one code (and severity) past the budget: how many, and where the first was."""

    code: StrEnum
    severity: Severity
    count: int
    first_pointer: str

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "code": str(self.code),
            "severity": str(self.severity),
            "count": self.count,
            "firstPointer": self.first_pointer,
        }


class FindingBudget(list[Finding]):
    """The findings of one document (or of one stage, with what the document has left):
    a list of the first ``limit`` in full, in order; past it they are only counted.

    It is a list, so checks written as ``findings.append(...)`` need not change. Checks
    that make many findings ask `full` first and, when it is, call `tally` with the code
    and a pointer they need not spell out, skipping the message altogether.
    """

    def __init__(self, limit: int = FINDINGS_LIMIT) -> None:
        super().__init__()
        self.limit = max(0, limit)
        # (code, severity) -> [count, first pointer], in the order first seen.
        self._omitted: dict[tuple[StrEnum, Severity], list[Any]] = {}

    @property
    def kept(self) -> list[Finding]:
        return self

    @property
    def full(self) -> bool:
        return len(self) >= self.limit

    def append(self, finding: Finding) -> None:
        if len(self) < self.limit:
            super().append(finding)
        else:
            self.tally(finding.code, finding.severity, finding.pointer)

    add = append

    def extend(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            self.append(finding)

    def __iadd__(self, findings: Iterable[Finding]) -> FindingBudget:  # type: ignore[override,misc]
        self.extend(findings)
        return self

    def tally(
        self,
        code: StrEnum,
        severity: Severity,
        pointer: str | Callable[[], str],
        how_many: int = 1,
    ) -> None:
        """Count ``how_many`` findings past the budget; ``pointer`` (of the first of them)
        is only spelled out when the code is new."""
        entry = self._omitted.get((code, severity))
        if entry is None:
            first = pointer if isinstance(pointer, str) else pointer()
            self._omitted[(code, severity)] = [how_many, first]
        else:
            entry[0] += how_many

    @property
    def total(self) -> int:
        """Findings kept and counted."""
        return len(self) + sum(int(entry[0]) for entry in self._omitted.values())

    def omitted(self) -> tuple[OmittedFindings, ...]:
        return tuple(
            OmittedFindings(code, severity, count, first)
            for (code, severity), (count, first) in self._omitted.items()
        )

    @property
    def has_error(self) -> bool:
        """Whether any finding, kept or counted, is an error."""
        return has_error(self) or any(s is Severity.ERROR for _, s in self._omitted)


def merge_omitted(*groups: Iterable[OmittedFindings]) -> tuple[OmittedFindings, ...]:
    """Several stages' (or plans') omitted counts as one list: summed per code and severity,
    each with the first pointer of the earliest group that had it."""
    merged: dict[tuple[StrEnum, Severity], OmittedFindings] = {}
    for group in groups:
        for item in group:
            key = (item.code, item.severity)
            known = merged.get(key)
            merged[key] = (
                item
                if known is None
                else OmittedFindings(
                    item.code, item.severity, known.count + item.count, known.first_pointer
                )
            )
    return tuple(merged.values())


def omitted_total(omitted: Iterable[OmittedFindings]) -> int:
    return sum(item.count for item in omitted)
