"""Pydantic validation in bounded pieces: never one call that could make millions of errors.

pydantic collects every error of a call before it returns (a few hundred bytes each, held
in Rust) and `ValidationError.errors()` turns each into a Python dict: a packet of four
million empty beliefs would make twelve million errors — gigabytes, and minutes of
garbage collection. So a value larger than `PIECE_NODES` JSON values is validated in
pieces that follow its schema — the items of an array in runs, a closed object field by
field, a model's large fields on their own — and each piece's errors go to an `IssueSink`:

* while the findings budget has room, as full `ValidationIssue`s (the piece's errors are
  bounded, so converting them is too);
* once it is spent, only counted by error type, read from pydantic's JSON dump of the
  errors (one string, not a dict per error), with the location of the first error of a
  type worked out only if the sink asks for it.

A value of at most `PIECE_NODES` values is validated in one call, exactly as before, so
ordinary documents see no difference. Piece-wise validation reports what one call would
report, in the same order (fields in schema order, then unknown keys in input order;
items in order), with differences only for a model (pydantic ``BaseModel``) too large
for one piece whose large fields fail: their errors come before those of its other
fields, and the model's own rules (``model_validator``) are not run — pydantic does not
run them either when a field fails — nor is the check that comes before its fields (a
``null`` optional), which pydantic would have reported instead of the fields.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import re
import typing
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from itertools import accumulate, repeat
from typing import TYPE_CHECKING, Any, Final, Protocol

from pydantic_core import ValidationError

from zcf_inspector.core import bounded_schemas as schemas
from zcf_inspector.core.bounded_schemas import PIECE_NODES, Validator, built, prepare
from zcf_inspector.core.core_schemas import compile_column_check, compile_validator
from zcf_inspector.core.headroom import ensure_headroom
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pydantic_findings import IssueKind, Loc, ValidationIssue, validation_issues

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "BLOCK_ITEMS",
    "PIECE_NODES",
    "IssueSink",
    "Validator",
    "built",
    "prepare",
    "validate_bounded",
]

# A large array is weighed a block of items at a time, so that the weights never take
# more memory than a block's (an array of millions of `{}` is a few bytes per item).
BLOCK_ITEMS: Final = 65_536

# Issues made between two checks of the monitor (each a few microseconds).
_ISSUES_PER_CHECK: Final = 1024
# Members of one object walked in Python between two checks of the monitor.
_MEMBERS_PER_CHECK: Final = 16_384

# `"type":"..."` in pydantic's compact JSON of its errors. A quote inside any string of
# that JSON (a key in a location, a message) is escaped, so this only matches the key.
_TYPE_RE: Final = re.compile(r'"type":"([^"\\]*)"')


class IssueSink(Protocol):
    """Where a validation's problems go: in full while there is room, else counted."""

    def room(self) -> bool: ...

    def issue(self, issue: ValidationIssue) -> None: ...

    def tally(self, error_type: str, count: int, first: Callable[[], Loc]) -> None: ...


def validate_bounded(
    tp: Any,
    value: object,
    sink: IssueSink,
    base: Loc = (),
    *,
    strict: bool = True,
    monitor: Monitor = NULL_MONITOR,
) -> tuple[bool, Any]:
    """Validate ``value`` (found at ``base``) against ``tp``; its problems go to ``sink``.

    Returns whether it is valid and, when it is and was validated as a whole (always for
    a value of one piece, and for a large model whose large fields passed), pydantic's
    result; otherwise ``None`` with the flag. ``monitor`` is checked before every piece
    (`Cancelled` once it is cancelled: what the sink was given stays, nothing is returned).
    """
    token = _MONITOR.set(monitor)
    try:
        return _validate(tp, value, base, sink, strict)
    finally:
        _MONITOR.reset(token)


# The monitor of the validation running in this context: every pydantic call of it goes
# through `_piece` (or a column check), which breathes first. A context variable rather
# than one more argument down every level of the recursion; set only by validate_bounded.
_MONITOR: ContextVar[Monitor] = ContextVar("bounded_validation_monitor", default=NULL_MONITOR)

# Who is handed the columns a clean block of like objects was checked by: (where the array
# is, the block's first index, each required field's column). The packet's inspection lends
# them to the secret scan (issue 29), which so takes no column of those texts again.
ColumnTap = Callable[[Loc, int, dict[str, list[Any]]], None]
_TAP: ContextVar[ColumnTap | None] = ContextVar("bounded_validation_tap", default=None)


@contextlib.contextmanager
def column_tap(tap: ColumnTap) -> Iterator[None]:
    """Hand ``tap`` the columns of every clean block validated in this context."""
    token = _TAP.set(tap)
    try:
        yield
    finally:
        _TAP.reset(token)


# --- pieces -----------------------------------------------------------------------------------


def _validate(
    tp: Any, value: object, base: Loc, sink: IssueSink, strict: bool, *, keep: bool = False
) -> tuple[bool, Any]:
    """``keep``: return what pydantic made of a large array or object that passed (a
    model's fields: the model is then validated over those, which pass through at once),
    not only that it passed."""
    if schemas.size(value, PIECE_NODES, schemas.widest(tp)) <= PIECE_NODES:
        return _piece(schemas.adapter(tp, strict), value, base, 0, sink)
    core, constrained = schemas.peel(tp, value)
    origin = typing.get_origin(core)
    if origin is list and type(value) is list:
        (item,) = typing.get_args(core) or (Any,)
        ok, made = _list(item, value, base, sink, strict, keep=keep)
        if ok and constrained:
            # Every item passed, so only the list's own rules (unique items, a length)
            # can fail now: a handful of errors, whatever the length.
            return _piece(
                schemas.adapter(tp, strict), value if made is None else made, base, 0, sink
            )
        return ok, made
    if origin is dict and type(value) is dict:
        _, item = typing.get_args(core) or (str, Any)
        ok = _dict(core, item, value, base, sink, strict=strict)
        if ok and constrained:
            return _piece(schemas.adapter(tp, strict), value, base, 0, sink)
        return ok, None
    if schemas.is_typed_dict(core) and type(value) is dict:
        return _typed_dict(core, value, base, sink, strict), None
    if schemas.is_model(core) and type(value) is dict:
        return _model(core, value, base, sink)
    # A scalar type (or a union) given a large value: one call, which fails once.
    return _piece(schemas.adapter(tp, strict), value, base, 0, sink)


def _list(
    item: Any, value: list[Any], base: Loc, sink: IssueSink, strict: bool, *, keep: bool
) -> tuple[bool, list[Any] | None]:
    by_columns = not keep and strict and _columns(item) is not None
    adapter = schemas.adapter(list[item], strict)
    weigh = schemas.weigher(item)
    made: list[Any] | None = [] if keep else None
    ok = True

    def piece(start: int, part: list[Any]) -> None:
        nonlocal ok, made
        passed, result = _piece(adapter, part, base, start, sink)
        ok &= passed
        if made is not None and passed:
            made.extend(result)

    for block_start in range(0, len(value), BLOCK_ITEMS):
        _MONITOR.get().breathe()  # a clean block is checked by columns, with no piece
        block = value[block_start : block_start + BLOCK_ITEMS]
        # A block at a time, so that no call (in C or in Rust) holds the GIL for long
        # whatever the array's length; a clean block has nothing to report, and any other
        # is validated as usual, so what is reported comes in the same order.
        if by_columns and (taken := _clean_by_columns(item, block)) is not None:
            if (tap := _TAP.get()) is not None:
                tap(base, block_start, taken)
            continue
        counts, scale, plus = weigh(block)
        heaviest = max(counts) * scale + plus
        if heaviest * len(block) <= 2 * (sum(counts) * scale + plus * len(block)):
            # Items of like weights (an array of like objects): runs of as many items as
            # the heaviest allows, which bound a run's weight just as well. Unlike weights
            # (one large item among small ones) would make runs too short: those are cut
            # exactly, below.
            step = max(1, PIECE_NODES // heaviest)
            if step > 1:
                for offset in range(0, len(block), step):
                    piece(block_start + offset, block[offset : offset + step])
                continue
        weights = counts if (scale, plus) == (1, 0) else [c * scale + plus for c in counts]
        # The block cut into runs of at most PIECE_NODES by weight: the end of each run
        # is found by bisecting the running sums (in C), not by a Python step per item.
        sums = array("q", accumulate(weights, initial=0))
        offset = 0
        while offset < len(block):
            if weights[offset] > PIECE_NODES:
                # An item larger than a piece: on its own, in pieces of its own.
                at = (*base, block_start + offset)
                passed, result = _validate(item, block[offset], at, sink, strict, keep=keep)
                ok &= passed
                if made is not None:
                    if passed and result is not None:
                        made.append(result)
                    else:
                        made = None  # no whole result to hand back: only the verdict
                offset += 1
                continue
            end = bisect_right(sums, sums[offset] + PIECE_NODES, offset + 1) - 1
            piece(block_start + offset, block[offset:end])
            offset = end
    return ok, made if ok else None


# A column check per field of a flat closed object schema: (name, required, check).
Columns = tuple[tuple[str, bool, Any], ...]
_COLUMNS: dict[Any, Columns | None] = {}
_ABSENT: Final = object()


def _clean_by_columns(item: Any, value: list[Any]) -> dict[str, list[Any]] | None:
    """Whether every object of ``value`` passes ``item``, a flat closed object schema (all
    its fields scalars), decided a field at a time: the required fields' columns when it
    does (one value per object, in order), None on any doubt.

    Validating an array of like objects one object at a time makes pydantic build a new
    dict for each, which is most of its time; a column holds only the values of one field
    (taken in C), checked in one call that stops at the first failing value. Every object
    is a dict that has each required field (taking the column raised no KeyError), every
    value present passes its field's schema, and the members add up to exactly the fields
    found: so no object has a key its schema lacks. That is what the object-wise check
    decides. Any failure answers False, and the caller validates (and reports) as usual.
    """
    columns = _columns(item)
    if columns is None or set(map(type, value)) != {dict}:
        return None
    found = 0
    taken: dict[str, list[Any]] = {}
    for name, required, check in columns:
        if required:
            try:
                column = taken[name] = list(map(operator.itemgetter(name), value))
            except KeyError:
                return None
        else:
            present = map(dict.get, value, repeat(name), repeat(_ABSENT))
            column = [v for v in present if v is not _ABSENT]
        found += len(column)
        ensure_headroom()  # the check runs in Rust
        try:
            check.validate_python(column)  # measured faster than isinstance_python
        except ValidationError:  # one error at most: the check stops at the first
            return None
    return taken if sum(map(len, value)) == found else None


def _columns(item: Any) -> Columns | None:
    if item in _COLUMNS:
        return _COLUMNS[item]
    columns: Columns | None = None
    if (
        schemas.is_typed_dict(item)
        and schemas.flat_object(item) is not None
        and compile_validator(item)
    ):
        checks = [
            (name, required, compile_column_check(field_type))
            for name, (field_type, required) in schemas.typed_dict_fields(item).items()
        ]
        if all(check is not None for _, _, check in checks):
            columns = tuple(checks)
    _COLUMNS[item] = columns
    return columns


def _dict(
    core: Any, item: Any, value: dict[str, Any], base: Loc, sink: IssueSink, *, strict: bool
) -> bool:
    adapter = schemas.adapter(core, strict)
    per_object = schemas.widest(item)
    ok = True
    part: dict[str, Any] = {}
    weight = 0
    breathe = _MONITOR.get().breathe
    for n, (key, element) in enumerate(value.items()):
        if not n % _MEMBERS_PER_CHECK:
            breathe()  # an object of millions of members is walked here, a member a step
        size = schemas.size(element, PIECE_NODES, per_object) + 1
        if size > PIECE_NODES:
            if part:
                ok &= _piece(adapter, part, base, 0, sink)[0]
                part, weight = {}, 0
            ok &= _validate(item, element, (*base, key), sink, strict)[0]
            continue
        if weight + size > PIECE_NODES:
            ok &= _piece(adapter, part, base, 0, sink)[0]
            part, weight = {}, 0
        part[key] = element
        weight += size
    if part:
        ok &= _piece(adapter, part, base, 0, sink)[0]
    return ok


def _typed_dict(td: Any, value: dict[str, Any], base: Loc, sink: IssueSink, strict: bool) -> bool:
    """Field by field, as pydantic does it: fields in schema order, then unknown keys."""
    fields = schemas.typed_dict_fields(td)
    ok = True
    for name, (field_type, required) in fields.items():
        if name in value:
            ok &= _validate(field_type, value[name], (*base, name), sink, strict)[0]
        elif required:
            ok = False
            _made(sink, _MISSING, (*base, name), "Field required", value)
    config = getattr(td, "__pydantic_config__", None) or {}
    if config.get("extra") == "forbid":
        breathe = _MONITOR.get().breathe
        for n, (key, element) in enumerate(value.items()):
            if not n % _MEMBERS_PER_CHECK:
                breathe()  # millions of unknown keys are made an error each here
            if key not in fields:
                ok = False
                _made(sink, _EXTRA, (*base, key), "Extra inputs are not permitted", element)
    return ok


def _model(
    model: type[BaseModel], value: dict[str, Any], base: Loc, sink: IssueSink
) -> tuple[bool, Any]:
    """A large model: its container fields on their own first; then the model as a whole
    (bounded now: those fields are valid), or, if one failed, the rest of it."""
    failed: set[str] = set()
    made: dict[str, Any] = {}
    for name, alias, field_type in schemas.model_fields(model):
        key = alias if alias is not None and alias in value else name
        element = value.get(key)
        if key in value and type(element) in (list, dict):
            passed, result = _validate(field_type, element, (*base, key), sink, True, keep=True)
            if not passed:
                failed.add(key)
            elif result is not None:
                made[key] = result
    if not failed:
        # The fields validated above are handed over as pydantic made them: its models
        # pass through at once, so the whole is not validated twice.
        return _piece(schemas.adapter(model, True), value | made, base, 0, sink)
    rest = {key: element for key, element in value.items() if key not in failed}
    _MONITOR.get().breathe()
    ensure_headroom()
    try:
        model.model_validate(rest)
    except ValidationError as exc:
        for issue in validation_issues(exc, base=base):
            if len(issue.loc) == len(base):
                continue  # the model's own rules: not run when a field fails
            if issue.kind is IssueKind.MISSING_FIELD and issue.loc[len(base)] in failed:
                continue  # taken out above; its own errors are reported
            _give(sink, issue)
    return False, None


def _piece(
    adapter: schemas.Validator, value: object, base: Loc, offset: int, sink: IssueSink
) -> tuple[bool, Any]:
    _MONITOR.get().breathe()  # a piece is bounded, so this bounds the time between checks
    ensure_headroom()  # pydantic-core allocates in Rust, which cannot fail cleanly
    try:
        return True, adapter.validate_python(value)
    except ValidationError as exc:
        _report(exc, base, offset, sink)
        return False, None


def _report(exc: ValidationError, base: Loc, offset: int, sink: IssueSink) -> None:
    ensure_headroom()  # the errors' dicts or JSON are made in Rust too
    if sink.room():
        breathe = _MONITOR.get().breathe
        for n, issue in enumerate(validation_issues(exc, base=base, offset=offset)):
            if not n % _ISSUES_PER_CHECK:
                breathe()  # a piece's issues are thousands of Python objects to make
            _give(sink, issue)
        return
    dump = exc.json(include_url=False, include_context=False, include_input=False)
    located: dict[str, Loc] = {}

    def first_of(error_type: str) -> Loc:
        if not located:
            for issue in validation_issues(exc, base=base, offset=offset):
                located.setdefault(issue.error_type, issue.loc)
        return located[error_type]

    for error_type, count in _count_types(dump):
        sink.tally(error_type, count, functools.partial(first_of, error_type))


def _count_types(dump: str) -> list[tuple[str, int]]:
    """(error type, how many) in pydantic's JSON of its errors, in order of appearance.

    A piece has a few distinct types and up to tens of thousands of errors, so each type
    is found by one regex scan (in C) that skips the types already counted, and counted
    by ``str.count``: no Python string, let alone a dict, per error.
    """
    counts: list[tuple[str, int]] = []
    pattern = _TYPE_RE
    while (found := pattern.search(dump)) is not None:
        error_type = found.group(1)
        counts.append((error_type, dump.count(f'"type":"{error_type}"')))
        known = "|".join(re.escape(name) for name, _ in counts)
        pattern = re.compile(rf'"type":"(?!(?:{known})")([^"\\]*)"')
    return counts


def _give(sink: IssueSink, issue: ValidationIssue) -> None:
    if sink.room():
        sink.issue(issue)
    else:
        sink.tally(issue.error_type, 1, lambda: issue.loc)


_MISSING: Final = (IssueKind.MISSING_FIELD, "missing")
_EXTRA: Final = (IssueKind.UNKNOWN_FIELD, "extra_forbidden")


def _made(
    sink: IssueSink, what: tuple[IssueKind, str], loc: Loc, message: str, found: object
) -> None:
    """An error pydantic would have made, made here for a field validated on its own."""
    kind, error_type = what
    if sink.room():
        sink.issue(ValidationIssue(kind, loc, error_type, message, found, {}))
    else:
        sink.tally(error_type, 1, lambda: loc)
