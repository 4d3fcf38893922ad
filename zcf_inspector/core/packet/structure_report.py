"""The findings of one structure check (`core.packet.structure`): the `Report` that puts
them in the packet's budget, phrased alike, and that is the `IssueSink` of its schema
checks (pydantic's issues, translated to the profile's codes and words).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Set
from operator import itemgetter
from typing import Any, Final

from zcf_inspector.core.bounded_validation import validate_bounded
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.findings import Finding, FindingBudget, Severity
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.packet.structure_models import (
    ARRAY_SECTIONS,
    FORMAT_ERROR,
    PATTERN_EXPECTATIONS,
    ArraySection,
)
from zcf_inspector.core.pointer import join
from zcf_inspector.core.pydantic_findings import IssueKind, ValidationIssue, packet_code_of_type

Loc = tuple[str | int, ...]
Message = str | Callable[[], str]  # a message is only phrased if the finding is kept

_SHOW_CHARS = 60

# Items a Python loop over a section takes between two checks of the monitor.
ITEMS_PER_CHECK: Final = 65_536


def watched(items: list[Any], monitor: Monitor) -> Iterator[tuple[int, Any]]:
    """``enumerate(items)``, checking ``monitor`` (`Cancelled`) every `ITEMS_PER_CHECK`."""
    for start in range(0, len(items), ITEMS_PER_CHECK):
        monitor.breathe()
        yield from enumerate(items[start : start + ITEMS_PER_CHECK], start)


class Report:
    """The findings of one run, into the packet's budget, and the helpers that phrase them
    alike. It is the `IssueSink` of the schema checks too: pydantic's issues arrive here."""

    def __init__(self, budget: FindingBudget, monitor: Monitor = NULL_MONITOR) -> None:
        self.budget = budget
        self.monitor = monitor
        # The content sections an error points into (kept or only counted).
        self.faulty: set[str] = set()

    def add(
        self, code: ErrorCode, loc: Loc, message: Message, severity: Severity = Severity.ERROR
    ) -> None:
        if severity is Severity.ERROR and len(loc) > 1 and loc[0] == "content":
            self.faulty.add(str(loc[1]))
        if self.budget.full:
            self.budget.tally(code, severity, lambda: join(*loc))
            return
        text = message if isinstance(message, str) else message()
        self.budget.add(Finding(code, severity, join(*loc), text))

    def invalid(self, loc: Loc, expected: str, found: object, detail: str = "") -> None:
        def message() -> str:
            return f"{label(loc)} must be {expected}; found {show(found)}{detail}"

        self.add(ErrorCode.INVALID_VALUE, loc, message)

    def unknown_field(self, loc: Loc) -> None:
        def message() -> str:
            owner = label(loc[:-1]) if len(loc) > 1 else "the packet"
            return f"{owner} has no field {show(loc[-1])}: its field set is closed"

        self.add(ErrorCode.UNKNOWN_FIELD, loc, message)

    def missing_field(self, loc: Loc) -> None:
        def message() -> str:
            owner = label(loc[:-1]) if len(loc) > 1 else "the packet"
            return f"{owner} lacks its required field {show(loc[-1])}"

        self.add(ErrorCode.MISSING_FIELD, loc, message)

    def duplicate(self, loc: Loc, value: str, first_index: int) -> None:
        def message() -> str:
            item = loc[:-1] if isinstance(loc[-1], str) else loc
            earlier = (*item[:-1], first_index)
            return f"{label(loc)} {show(value)} repeats the one of {label(earlier)}"

        self.add(ErrorCode.DUPLICATE_ID, loc, message)

    def dangling(self, loc: Loc, ref: str, target: str, *, omitted: bool = False) -> None:
        def message() -> str:
            if omitted:
                return (
                    f"{label(loc)} is {show(ref)}, but content.{target} is absent (listed on "
                    "omissionManifest), so no reference into it resolves"
                )
            id_field = ARRAY_SECTIONS[target].id_field
            return (
                f"{label(loc)} is {show(ref)}, but no item of content.{target} has that {id_field}"
            )

        self.add(ErrorCode.DANGLING_REFERENCE, loc, message)

    def validate(self, schema: Any, value: object, loc: Loc) -> bool:
        """Validate ``value`` against a schema; report its errors; say whether it passed."""
        ok, _ = validate_bounded(schema, value, self, loc, monitor=self.monitor)
        if not ok and len(loc) > 1 and loc[0] == "content":
            self.faulty.add(str(loc[1]))
        return ok

    def check_array(
        self, loc: Loc, value: object, section: ArraySection, min_items: int = 0
    ) -> Set[str] | None:
        """Validate an array section; return its item ids when every item has a string id."""
        if not isinstance(value, list):
            self.invalid(loc, "an array", value)
            return None
        if len(value) < min_items:
            self.invalid(loc, f"an array of at least {min_items} item(s)", value)
        # An empty array passes its item schema: its validator need not be built.
        clean = self.validate(section.list_type, value, loc) if value else True
        field = section.id_field
        if clean:
            # The schema passed, so every item is an object with a string id: a set built
            # in C finds whether any repeats, and the slow walk below only runs if one does.
            ids = set(map(itemgetter(field), value))  # C-level: no Python step per item
            if len(ids) == len(value):
                return ids
        first: dict[str, int] = {}
        complete = True
        for index, item in watched(value, self.monitor):
            ident = item.get(field) if isinstance(item, dict) else None
            if not isinstance(ident, str):
                complete = False
            elif first.setdefault(ident, index) != index:
                self.duplicate((*loc, index, field), ident, first[ident])
        return first.keys() if complete else None

    # -- IssueSink: what pydantic found -----------------------------------------------------

    def room(self) -> bool:
        return not self.budget.full

    def issue(self, issue: ValidationIssue) -> None:
        self._report_issue(issue)

    def tally(self, error_type: str, count: int, first: Callable[[], Loc]) -> None:
        self.budget.tally(
            packet_code_of_type(error_type), Severity.ERROR, lambda: join(*first()), count
        )

    def _report_issue(self, issue: ValidationIssue) -> None:
        if issue.kind is IssueKind.UNKNOWN_FIELD:
            self.unknown_field(issue.loc)
        elif issue.kind is IssueKind.MISSING_FIELD:
            self.missing_field(issue.loc)
        else:
            expected, detail = _expectation(issue)
            self.invalid(issue.loc, expected, issue.input, detail)


# What each pydantic error type expected, phrased for a reader of the packet.
_EXPECTATIONS = {
    "string_type": "a string",
    "int_type": "an integer",
    "dict_type": "an object",
    "list_type": "an array",
    "string_unicode": "text without lone surrogates",
}


def _expectation(issue: ValidationIssue) -> tuple[str, str]:
    kind = issue.error_type
    ctx = issue.context
    if kind == FORMAT_ERROR:
        return str(ctx["expected"]), str(ctx.get("detail", ""))
    if kind in _EXPECTATIONS:
        return _EXPECTATIONS[kind], ""
    if kind == "literal_error":
        return f"one of {ctx['expected']}", ""
    if kind == "string_pattern_mismatch":
        pattern = str(ctx["pattern"])
        return PATTERN_EXPECTATIONS.get(pattern, f"a string matching {pattern}"), ""
    if kind == "string_too_short":
        return f"a string of at least {ctx['min_length']} character(s)", ""
    if kind == "string_too_long":
        return f"a string of at most {ctx['max_length']} characters", ""
    if kind == "greater_than_equal":
        return f"an integer ≥ {ctx['ge']}", ""
    return "valid", f" ({issue.message})"


def label(loc: Loc) -> str:
    """``("content", "beliefs", 3, "sourceId")`` as ``content.beliefs[3].sourceId``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part.isidentifier() and len(part) <= _SHOW_CHARS:
            text += f".{part}" if text else part
        else:
            # A key from the packet (say, in manifest.sections) may be long or hold any
            # character: shown quoted and cut, like any other found value.
            text += f"[{show(part)}]"
    return text or "the packet"


def one_of(values: tuple[str, ...]) -> str:
    return "one of " + ", ".join(repr(v) for v in values)


def show(value: object) -> str:
    """A short, safe spelling of a found value: long strings cut, containers summarised."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if len(value) <= _SHOW_CHARS:
            return repr(value)
        return f"{value[:_SHOW_CHARS]!r}… ({len(value)} characters)"
    if isinstance(value, int):
        # repr of a huge int is slow and may raise (sys.set_int_max_str_digits).
        return (
            repr(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
        )
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return f"an object with {len(value)} member(s)"
    if isinstance(value, list):
        return f"an array of {len(value)} item(s)"
    return f"a {type(value).__name__}"
