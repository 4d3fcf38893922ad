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

import enum
import functools
import operator
import re
import sys
import types
import typing
from array import array
from bisect import bisect_right
from collections.abc import Callable
from contextvars import ContextVar
from itertools import accumulate, repeat
from typing import TYPE_CHECKING, Any, Final, Protocol

import typing_extensions
from pydantic_core import ValidationError

from zcf_inspector.core.core_schemas import compile_column_check, compile_validator
from zcf_inspector.core.headroom import ensure_headroom
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pydantic_findings import IssueKind, Loc, ValidationIssue, validation_issues

if TYPE_CHECKING:
    from pydantic import BaseModel

# At most this many JSON values go to one pydantic call. A value yields a few errors at
# most (a missing field, an unknown key, a wrong type), so a piece's errors stay in the
# tens of thousands: a few megabytes while they exist.
PIECE_NODES: Final = 16_384
# A large array is weighed a block of items at a time, so that the weights never take
# more memory than a block's (an array of millions of `{}` is a few bytes per item).
BLOCK_ITEMS: Final = 65_536

# Issues made between two checks of the monitor (each a few microseconds).
_ISSUES_PER_CHECK: Final = 1024

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


# --- pieces -----------------------------------------------------------------------------------


def _validate(
    tp: Any, value: object, base: Loc, sink: IssueSink, strict: bool, *, keep: bool = False
) -> tuple[bool, Any]:
    """``keep``: return what pydantic made of a large array or object that passed (a
    model's fields: the model is then validated over those, which pass through at once),
    not only that it passed."""
    if _size(value, PIECE_NODES, _widest(tp)) <= PIECE_NODES:
        return _piece(_adapter(tp, strict), value, base, 0, sink)
    core, constrained = _peel(tp, value)
    origin = typing.get_origin(core)
    if origin is list and type(value) is list:
        (item,) = typing.get_args(core) or (Any,)
        ok, made = _list(item, value, base, sink, strict, keep=keep)
        if ok and constrained:
            # Every item passed, so only the list's own rules (unique items, a length)
            # can fail now: a handful of errors, whatever the length.
            return _piece(_adapter(tp, strict), value if made is None else made, base, 0, sink)
        return ok, made
    if origin is dict and type(value) is dict:
        _, item = typing.get_args(core) or (str, Any)
        ok = _dict(core, item, value, base, sink, strict=strict)
        if ok and constrained:
            return _piece(_adapter(tp, strict), value, base, 0, sink)
        return ok, None
    if _is_typed_dict(core) and type(value) is dict:
        return _typed_dict(core, value, base, sink, strict), None
    if _is_model(core) and type(value) is dict:
        return _model(core, value, base, sink)
    # A scalar type (or a union) given a large value: one call, which fails once.
    return _piece(_adapter(tp, strict), value, base, 0, sink)


def _list(
    item: Any, value: list[Any], base: Loc, sink: IssueSink, strict: bool, *, keep: bool
) -> tuple[bool, list[Any] | None]:
    by_columns = not keep and strict and _columns(item) is not None
    adapter = _adapter(list[item], strict)
    weigh = _weigher(item)
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
        if by_columns and _clean_by_columns(item, block):
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


def _clean_by_columns(item: Any, value: list[Any]) -> bool:
    """Whether every object of ``value`` passes ``item``, a flat closed object schema (all
    its fields scalars), decided a field at a time; False on any doubt.

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
        return False
    found = 0
    for name, required, check in columns:
        if required:
            try:
                column = list(map(operator.itemgetter(name), value))
            except KeyError:
                return False
        else:
            present = map(dict.get, value, repeat(name), repeat(_ABSENT))
            column = [v for v in present if v is not _ABSENT]
        found += len(column)
        ensure_headroom()  # the check runs in Rust
        try:
            check.validate_python(column)  # measured faster than isinstance_python
        except ValidationError:  # one error at most: the check stops at the first
            return False
    return sum(map(len, value)) == found


def _columns(item: Any) -> Columns | None:
    if item in _COLUMNS:
        return _COLUMNS[item]
    columns: Columns | None = None
    if _is_typed_dict(item) and _flat_object(item) is not None and compile_validator(item):
        checks = [
            (name, required, compile_column_check(field_type))
            for name, (field_type, required) in _typed_dict_fields(item).items()
        ]
        if all(check is not None for _, _, check in checks):
            columns = tuple(checks)
    _COLUMNS[item] = columns
    return columns


def _dict(
    core: Any, item: Any, value: dict[str, Any], base: Loc, sink: IssueSink, *, strict: bool
) -> bool:
    adapter = _adapter(core, strict)
    per_object = _widest(item)
    ok = True
    part: dict[str, Any] = {}
    weight = 0
    for key, element in value.items():
        size = _size(element, PIECE_NODES, per_object) + 1
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
    fields = _typed_dict_fields(td)
    ok = True
    for name, (field_type, required) in fields.items():
        if name in value:
            ok &= _validate(field_type, value[name], (*base, name), sink, strict)[0]
        elif required:
            ok = False
            _made(sink, _MISSING, (*base, name), "Field required", value)
    config = getattr(td, "__pydantic_config__", None) or {}
    if config.get("extra") == "forbid":
        for key, element in value.items():
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
    for name, alias, field_type in _model_fields(model):
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
        return _piece(_adapter(model, True), value | made, base, 0, sink)
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


class Validator(Protocol):
    """What validates a piece: pydantic-core's validator, or pydantic's ``TypeAdapter``."""

    def validate_python(self, value: Any, /) -> Any: ...


def _piece(
    adapter: Validator, value: object, base: Loc, offset: int, sink: IssueSink
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


# --- sizes ------------------------------------------------------------------------------------


def _size(value: object, limit: int, per_object: int = 0) -> int:
    """How many JSON values (object keys included) ``value`` holds, and ``per_object`` more
    for each object in it, counted up to just past ``limit``: the walk stops there, so
    weighing a huge value costs no more than a small.

    ``per_object`` (see `_widest`) makes the weight a bound of the errors too: an object
    can lack every field its schema requires, one error each, whatever its size."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        count += 1
        kind = type(item)
        if kind is dict:
            assert isinstance(item, dict)
            if count + 2 * len(item) + per_object > limit:
                return limit + 1
            count += len(item) + per_object
            stack.extend(item.values())
        elif kind is list:
            assert isinstance(item, list)
            if count + len(item) > limit:
                return limit + 1
            stack.extend(item)
        if count > limit:
            return limit + 1
    return count


# A block's weights as (counts, scale, plus): the weight of item i is counts[i] * scale +
# plus, so that a flat object's can stay its member count (len, in C) until a per-item
# list is needed at all.
Weights = tuple[list[int], int, int]
Weigher = Callable[[list[Any]], Weights]

_SIZED: Final = frozenset({dict, list, str})


def _weigher(item: Any) -> Weigher:
    """How to weigh the items of an array of ``item``s: per item, an upper bound of the
    values pydantic will look at in it, and so of the errors it can make there.

    pydantic never looks inside a value given where its schema has a scalar (a string, a
    number, an enumeration): one error says it is not one. So an item of a scalar schema
    weighs 1 whatever it is, and an item of a closed object schema whose fields are all
    scalars weighs by its number of members, found by ``len`` in C without walking their
    values. Only the items of other schemas are walked (`_size`), each up to just past a
    piece.
    """
    weigh = _WEIGHERS.get(item)
    if weigh is None:
        core, _ = _peel(item, None)
        if not _holds_container(core):
            weigh = _ones
        elif (flat := _flat_object(core)) is not None:
            weigh = functools.partial(_flat_weights, *flat)
        else:
            weigh = functools.partial(_walked_weights, _widest(item))
        _WEIGHERS[item] = weigh
    return weigh


_WEIGHERS: dict[Any, Weigher] = {}


def _ones(items: list[Any]) -> Weights:
    return [1] * len(items), 1, 0


def _flat_weights(per_member: int, own: int, items: list[Any]) -> Weights:
    """``per_member``: the most errors one member can make (an unknown key, or its value:
    one error, or one per member of a union); ``own``: the object's (not an object, or
    lacking fields). A list or a string given for the object is refused in one error:
    its length only overstates it."""
    try:
        lengths = list(map(len, items))  # all objects, in any array worth validating
    except TypeError:  # a number, a boolean or null among them: weighs its own
        lengths = [len(x) if type(x) in _SIZED else 0 for x in items]
    return lengths, per_member, own


def _walked_weights(per_object: int, items: list[Any]) -> Weights:
    return [_size(x, PIECE_NODES, per_object) for x in items], 1, 0


# --- schemas ----------------------------------------------------------------------------------

# Validators by (type, strict): schema types are few and hashable (typing objects compare
# by their parts), so this holds one validator per type ever validated in pieces.
_ADAPTERS: dict[tuple[Any, bool], Validator] = {}


def _adapter(tp: Any, strict: bool) -> Validator:
    """A (cached) validator for ``tp``; strict unless ``tp`` carries its own config.

    The packet's closed schemas are compiled straight to pydantic-core validators
    (`core_schemas`: pydantic is not even imported for them); any other type, such as a
    continuation document's models, gets pydantic's ``TypeAdapter``.
    """
    key = (tp, strict)
    cached = _ADAPTERS.get(key)
    if cached is None:
        ensure_headroom()  # a validator is built in Rust
        cached = compile_validator(tp, strict=strict)
        if cached is None:
            cached = _type_adapter(tp, strict)
        _ADAPTERS[key] = cached
    return cached


def _type_adapter(tp: Any, strict: bool) -> Validator:
    from pydantic import ConfigDict, TypeAdapter  # noqa: PLC0415 - only for pydantic's types

    if _has_own_config(tp) or not strict:
        return TypeAdapter(tp)
    return TypeAdapter(tp, config=ConfigDict(strict=True))


def _pydantic_class(module: str, name: str) -> type | None:
    """A class of pydantic's if pydantic is loaded: if it is not, no value or type in this
    process can be an instance or a subclass of it (so `validate` never imports it)."""
    loaded = sys.modules.get(module)
    found = getattr(loaded, name, None)
    return found if isinstance(found, type) else None


def _is_model(tp: Any) -> bool:
    base_model = _pydantic_class("pydantic.main", "BaseModel")
    return base_model is not None and isinstance(tp, type) and issubclass(tp, base_model)


def prepare(*types: Any, strict: bool = True) -> None:
    """Build the adapters of ``types`` now (at import, before a large document is read):
    a validator built later, with little memory left, is an allocation in Rust.

    (A schema whose config defers its build, as the packet's do for start-up time, is
    built on first use instead, after `_piece`'s headroom check.)"""
    for tp in types:
        _adapter(tp, strict)


def built(tp: Any, strict: bool = True) -> bool:
    """Whether the validator of ``tp`` has been built in this process."""
    cached = _ADAPTERS.get((tp, strict))
    # A TypeAdapter may defer its build; a compiled validator is built when made.
    return cached is not None and bool(getattr(cached, "pydantic_complete", True))


_MODEL_FIELDS: dict[type[BaseModel], tuple[tuple[str, str | None, Any], ...]] = {}


def _model_fields(model: type[BaseModel]) -> tuple[tuple[str, str | None, Any], ...]:
    """(name, alias, type with its constraints) of each field, made once per model."""
    fields = _MODEL_FIELDS.get(model)
    if fields is None:
        fields = tuple(
            (
                name,
                info.alias,
                typing_extensions.Annotated[(info.annotation, *info.metadata)]
                if info.metadata
                else info.annotation,
            )
            for name, info in model.model_fields.items()
        )
        _MODEL_FIELDS[model] = fields
    return fields


def _has_own_config(tp: Any) -> bool:
    return isinstance(tp, type) and (
        _is_model(tp) or hasattr(tp, "__pydantic_config__") or _is_typed_dict(tp)
    )


_REQUIREDNESS: Final = frozenset(
    {typing.NotRequired, typing.Required, typing_extensions.NotRequired, typing_extensions.Required}
)


def _peel(tp: Any, value: object) -> tuple[Any, bool]:
    """The type under ``NotRequired``/``Annotated``/``Optional``, and whether ``Annotated``
    added constraints or validators on the way."""
    constrained = False
    while True:
        origin = typing.get_origin(tp)
        if origin in _REQUIREDNESS:
            (tp,) = typing.get_args(tp)
        elif origin is typing_extensions.Annotated:
            tp = tp.__origin__
            constrained = True
        elif origin in (typing.Union, types.UnionType):
            members = [m for m in typing.get_args(tp) if m is not type(None)]
            if len(members) != 1 or value is None:
                return tp, constrained
            tp = members[0]  # `X | None` given a value: pydantic validates it as X
        else:
            return tp, constrained


def _is_typed_dict(tp: Any) -> bool:
    return typing_extensions.is_typeddict(tp)


_FIELDS: dict[Any, dict[str, tuple[Any, bool]]] = {}


def _typed_dict_fields(td: Any) -> dict[str, tuple[Any, bool]]:
    """name -> (its type, required), in schema order."""
    fields = _FIELDS.get(td)
    if fields is None:
        hints = typing_extensions.get_type_hints(td, include_extras=True)
        # Requiredness from the resolved hints: with postponed annotations the class's
        # own __required_keys__ cannot see a NotRequired written in a string.
        total = getattr(td, "__total__", True)
        fields = {name: (hint, _required(hint, total)) for name, hint in hints.items()}
        _FIELDS[td] = fields
    return fields


def _required(hint: Any, total: bool) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.NotRequired, typing_extensions.NotRequired):
        return False
    if origin in (typing.Required, typing_extensions.Required):
        return True
    return total


def _flat_object(tp: Any) -> tuple[int, int] | None:
    """For a closed object schema whose fields are all scalars: (the most errors one of its
    members can make, the most errors the object itself can make). Otherwise None."""
    if not _is_typed_dict(tp):
        return None
    fields = _typed_dict_fields(tp)
    if any(_holds_container(field_type) for field_type, _ in fields.values()):
        return None
    # A value of the wrong type for a union is one error per member of the union; an
    # unknown key, one. Values count as two (a key and its value) at the least, so that a
    # weight also bounds the values of the object.
    per_member = max([2, *(_alternatives(field_type) for field_type, _ in fields.values())])
    return per_member, len(fields) + 1


def _alternatives(tp: Any) -> int:
    """How many members the union ``tp`` is (1 for any other type)."""
    origin = typing.get_origin(tp)
    if origin in _REQUIREDNESS:
        return _alternatives(typing.get_args(tp)[0])
    if origin is typing_extensions.Annotated:
        return _alternatives(tp.__origin__)
    if origin in (typing.Union, types.UnionType):
        return sum(_alternatives(member) for member in typing.get_args(tp))
    return 1


# pydantic's validators that are given the raw value (see `_holds_container`).
_RAW_VALIDATORS: Final = ("BeforeValidator", "WrapValidator", "PlainValidator")


def _raw_validators() -> tuple[type, ...]:
    found = (_pydantic_class("pydantic.functional_validators", n) for n in _RAW_VALIDATORS)
    return tuple(cls for cls in found if cls is not None)


_WIDEST: dict[Any, int] = {}


def _widest(tp: Any) -> int:
    """The most fields of any object schema a value of ``tp`` may hold (0: none): the most
    missing-field errors one object in it can make."""
    widest = _WIDEST.get(tp)
    if widest is None:
        widest = _WIDEST[tp] = _fields_in(tp, set())
    return widest


def _fields_in(tp: Any, seen: set[Any]) -> int:
    origin = typing.get_origin(tp)
    if origin is typing_extensions.Annotated:
        return _fields_in(tp.__origin__, seen)
    if origin is not None:  # Required, a union, list[...], dict[...]: what they hold
        return max([0, *(_fields_in(arg, seen) for arg in typing.get_args(tp))])
    if tp in seen or not isinstance(tp, type):
        return 0  # a recursive schema counts its objects once; a literal value holds none
    if _is_typed_dict(tp):
        field_types = [field_type for field_type, _ in _typed_dict_fields(tp).values()]
    elif _is_model(tp):
        field_types = [field_type for _, _, field_type in _model_fields(tp)]
    else:
        return 0
    seen.add(tp)
    return max([len(field_types), *(_fields_in(field_type, seen) for field_type in field_types)])


def _holds_container(tp: Any) -> bool:
    """Whether a value of ``tp`` may be (or hold) an array or an object, or be looked into
    by a validator: True unless ``tp`` is known to be a scalar schema."""
    origin = typing.get_origin(tp)
    if origin in _REQUIREDNESS:
        return _holds_container(typing.get_args(tp)[0])
    if origin is typing_extensions.Annotated:
        # A validator that runs before (or instead of) the type's own check is given the
        # raw value, and may look inside it whatever the type is.
        raw = _raw_validators()
        if any(isinstance(m, raw) for m in tp.__metadata__):
            return True
        return _holds_container(tp.__origin__)
    if origin in (typing.Union, types.UnionType):
        return any(_holds_container(member) for member in typing.get_args(tp))
    if origin in (typing.Literal, typing_extensions.Literal):
        return False
    if origin is not None:
        return True  # list[...], dict[...], tuple[...], ...
    return not (tp in _SCALARS or (isinstance(tp, type) and issubclass(tp, enum.Enum)))


# Types whose schema checks a value without looking inside it.
_SCALARS: Final = frozenset({str, int, float, bool, type(None), None})
