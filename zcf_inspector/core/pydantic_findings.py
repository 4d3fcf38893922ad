"""The one translation of pydantic `ValidationError`s: issues with locations, then findings.

A raw pydantic error is never shown. Each error becomes a `ValidationIssue`: one of three
kinds (an unknown field, a missing field, an invalid value), the location of the member it
is about, and pydantic's own facts (error type, message, input, context) for the caller
to phrase. One pointer rule holds for every document the program reads: an issue points
at the member itself — for a missing field, where that field would be (``/packet/id``),
just as an unknown field points at its key.

Packets (profile §3) phrase their own messages from these issues (`packet.structure`);
receipts and continuation documents take `findings_from_validation_error`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic_core import ValidationError  # pydantic's own, without loading pydantic

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.pointer import join

Loc = tuple[str | int, ...]


class IssueKind(StrEnum):
    UNKNOWN_FIELD = "unknown_field"
    MISSING_FIELD = "missing_field"
    INVALID_VALUE = "invalid_value"


_KINDS = {"extra_forbidden": IssueKind.UNKNOWN_FIELD, "missing": IssueKind.MISSING_FIELD}
_PACKET_CODES: Mapping[IssueKind, ErrorCode] = {
    IssueKind.UNKNOWN_FIELD: ErrorCode.UNKNOWN_FIELD,
    IssueKind.MISSING_FIELD: ErrorCode.MISSING_FIELD,
    IssueKind.INVALID_VALUE: ErrorCode.INVALID_VALUE,
}


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    kind: IssueKind
    loc: Loc  # keys and indices from the document's root (the base included)
    error_type: str  # pydantic's error type, e.g. "string_type", "literal_error"
    message: str  # pydantic's message, without its "Value error, " prefix
    input: object  # the offending value (the parent object for a missing field)
    context: Mapping[str, Any]

    @property
    def pointer(self) -> str:
        return join(*self.loc)

    @property
    def name(self) -> str:
        """The member the issue is about, for messages: its key, or its index."""
        return str(self.loc[-1]) if self.loc else "(value)"


def _clean(loc: tuple[str | int, ...]) -> Loc:
    # Union members, tagged unions and validator wrappers add their names to `loc`
    # ("list[...]", "function-after[...]"): keep only the keys and indices of the document.
    return tuple(
        part
        for part in loc
        if not (isinstance(part, str) and ("[" in part or part.startswith("function-")))
    )


def validation_issues(
    exc: ValidationError, *, base: Loc = (), offset: int = 0
) -> Iterator[ValidationIssue]:
    """Every error of ``exc`` as an issue located from the root: ``base`` is where the
    validated value sits; ``offset`` shifts the first index (a chunk of a long array)."""
    for item in exc.errors(include_url=False):
        loc = _clean(item["loc"])
        if offset and loc and isinstance(loc[0], int):
            loc = (loc[0] + offset, *loc[1:])
        yield ValidationIssue(
            kind=_KINDS.get(item["type"], IssueKind.INVALID_VALUE),
            loc=(*base, *loc),
            error_type=item["type"],
            message=item["msg"].removeprefix("Value error, "),
            input=item.get("input"),
            context=item.get("ctx") or {},
        )


def issue_message(issue: ValidationIssue) -> str:
    """A plain message for an issue: which member, and what pydantic found wrong."""
    if issue.kind is IssueKind.UNKNOWN_FIELD:
        return f"unknown field {issue.name!r}"
    if issue.kind is IssueKind.MISSING_FIELD:
        return f"missing field {issue.name!r}"
    message = f"{issue.name}: {issue.message}"
    if issue.error_type in ("literal_error", "enum"):
        message += f", got {issue.input!r}"[:200]
    return message


def packet_code(issue: ValidationIssue) -> StrEnum:
    """The profile's code for an issue: unknown_field, missing_field or invalid_value."""
    return _PACKET_CODES[issue.kind]


def findings_from_validation_error(
    exc: ValidationError,
    *,
    base: Loc = (),
    prefix: str = "",
    code_of: Callable[[ValidationIssue], StrEnum] = packet_code,
) -> list[Finding]:
    """One finding per distinct issue, coded by ``code_of`` and pinned to its member
    (``prefix``: the pointer of the validated value, when it is not the document)."""
    findings: list[Finding] = []
    seen: set[tuple[str, str, str]] = set()
    for issue in validation_issues(exc, base=base):
        finding = error(code_of(issue), prefix + issue.pointer, issue_message(issue))
        key = (str(finding.code), finding.pointer, finding.message)
        if key not in seen:  # union members can repeat one problem
            seen.add(key)
            findings.append(finding)
    return findings


def packet_code_of_type(error_type: str) -> StrEnum:
    """The profile's code for a pydantic error type (what `packet_code` gives its issue)."""
    return _PACKET_CODES[_KINDS.get(error_type, IssueKind.INVALID_VALUE)]


class FindingSink:
    """Validation issues as findings in a document's budget: phrased as
    `findings_from_validation_error` phrases them while the budget has room, counted by
    code once it is spent (see `core.bounded_validation`)."""

    def __init__(
        self,
        budget: FindingBudget,
        *,
        prefix: str = "",
        code_of: Callable[[str], StrEnum] = packet_code_of_type,
    ) -> None:
        self.budget = budget
        self.prefix = prefix
        self.code_of = code_of
        self._seen: set[tuple[str, str, str]] = set()

    def room(self) -> bool:
        return not self.budget.full

    def issue(self, issue: ValidationIssue) -> None:
        finding = error(
            self.code_of(issue.error_type), self.prefix + issue.pointer, issue_message(issue)
        )
        key = (str(finding.code), finding.pointer, finding.message)
        if key not in self._seen:  # union members can repeat one problem
            self._seen.add(key)
            self.budget.add(finding)

    def tally(self, error_type: str, count: int, first: Callable[[], Loc]) -> None:
        code = self.code_of(error_type)
        self.budget.tally(code, Severity.ERROR, lambda: self.prefix + join(*first()), count)
