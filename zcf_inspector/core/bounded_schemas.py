"""What a schema says about the values it takes, for validation in bounded pieces
(`core.bounded_validation`): the validator of each type (cached), the fields of closed
object schemas and models, how many errors one object can make, and how much a value
weighs — an upper bound of the values pydantic will look at in it, counted without
walking past a piece.
"""

from __future__ import annotations

import enum
import functools
import sys
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

import typing_extensions

from zcf_inspector.core.core_schemas import compile_validator
from zcf_inspector.core.headroom import ensure_headroom

if TYPE_CHECKING:
    from pydantic import BaseModel

# At most this many JSON values go to one pydantic call. A value yields a few errors at
# most (a missing field, an unknown key, a wrong type), so a piece's errors stay in the
# tens of thousands: a few megabytes while they exist.
PIECE_NODES: Final = 16_384


class Validator(Protocol):
    """What validates a piece: pydantic-core's validator, or pydantic's ``TypeAdapter``."""

    def validate_python(self, value: Any, /) -> Any: ...


# --- sizes ------------------------------------------------------------------------------------


def size(value: object, limit: int, per_object: int = 0) -> int:
    """How many JSON values (object keys included) ``value`` holds, and ``per_object`` more
    for each object in it, counted up to just past ``limit``: the walk stops there, so
    weighing a huge value costs no more than a small.

    ``per_object`` (see `widest`) makes the weight a bound of the errors too: an object
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


def weigher(item: Any) -> Weigher:
    """How to weigh the items of an array of ``item``s: per item, an upper bound of the
    values pydantic will look at in it, and so of the errors it can make there.

    pydantic never looks inside a value given where its schema has a scalar (a string, a
    number, an enumeration): one error says it is not one. So an item of a scalar schema
    weighs 1 whatever it is, and an item of a closed object schema whose fields are all
    scalars weighs by its number of members, found by ``len`` in C without walking their
    values. Only the items of other schemas are walked (`size`), each up to just past a
    piece.
    """
    weigh = _WEIGHERS.get(item)
    if weigh is None:
        core, _ = peel(item, None)
        if not _holds_container(core):
            weigh = _ones
        elif (flat := flat_object(core)) is not None:
            weigh = functools.partial(_flat_weights, *flat)
        else:
            weigh = functools.partial(_walked_weights, widest(item))
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
    return [size(x, PIECE_NODES, per_object) for x in items], 1, 0


# --- schemas ----------------------------------------------------------------------------------

# Validators by (type, strict): schema types are few and hashable (typing objects compare
# by their parts), so this holds one validator per type ever validated in pieces.
_ADAPTERS: dict[tuple[Any, bool], Validator] = {}


def adapter(tp: Any, strict: bool) -> Validator:
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


def is_model(tp: Any) -> bool:
    base_model = _pydantic_class("pydantic.main", "BaseModel")
    return base_model is not None and isinstance(tp, type) and issubclass(tp, base_model)


def prepare(*types: Any, strict: bool = True) -> None:
    """Build the adapters of ``types`` now (at import, before a large document is read):
    a validator built later, with little memory left, is an allocation in Rust.

    (A schema whose config defers its build, as the packet's do for start-up time, is
    built on first use instead, after `_piece`'s headroom check.)"""
    for tp in types:
        adapter(tp, strict)


def built(tp: Any, strict: bool = True) -> bool:
    """Whether the validator of ``tp`` has been built in this process."""
    cached = _ADAPTERS.get((tp, strict))
    # A TypeAdapter may defer its build; a compiled validator is built when made.
    return cached is not None and bool(getattr(cached, "pydantic_complete", True))


_MODEL_FIELDS: dict[type[BaseModel], tuple[tuple[str, str | None, Any], ...]] = {}


def model_fields(model: type[BaseModel]) -> tuple[tuple[str, str | None, Any], ...]:
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
        is_model(tp) or hasattr(tp, "__pydantic_config__") or is_typed_dict(tp)
    )


_REQUIREDNESS: Final = frozenset(
    {typing.NotRequired, typing.Required, typing_extensions.NotRequired, typing_extensions.Required}
)


def peel(tp: Any, value: object) -> tuple[Any, bool]:
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


def is_typed_dict(tp: Any) -> bool:
    return typing_extensions.is_typeddict(tp)


_FIELDS: dict[Any, dict[str, tuple[Any, bool]]] = {}


def typed_dict_fields(td: Any) -> dict[str, tuple[Any, bool]]:
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


def flat_object(tp: Any) -> tuple[int, int] | None:
    """For a closed object schema whose fields are all scalars: (the most errors one of its
    members can make, the most errors the object itself can make). Otherwise None."""
    if not is_typed_dict(tp):
        return None
    fields = typed_dict_fields(tp)
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


def widest(tp: Any) -> int:
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
    if is_typed_dict(tp):
        field_types = [field_type for field_type, _ in typed_dict_fields(tp).values()]
    elif is_model(tp):
        field_types = [field_type for _, _, field_type in model_fields(tp)]
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
