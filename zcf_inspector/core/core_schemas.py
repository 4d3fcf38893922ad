"""Closed schemas compiled straight to pydantic-core validators, without pydantic itself.

The packet's schemas (``packet.structure_models``) are ``TypedDict``s of a small
vocabulary: ``str``, ``int``, ``Literal``, ``list``, ``dict[str, ...]``, ``X | None``,
``NotRequired``, and ``Annotated`` with the markers below (string constraints, a lower
bound, an after-validator). This module writes the core schema pydantic would generate
for such a type — the same dicts, field for field — and hands it to pydantic-core's
``SchemaValidator``: the same validator, the same errors. What it saves is start-up time:
importing pydantic and generating its schemas cost a ``validate`` process more than its
own work on a small packet (issue 14); pydantic-core alone loads in a fraction of that.

Anything outside the vocabulary (a pydantic model, a type with pydantic metadata) gets
``None`` from `compile_validator`, and the caller uses pydantic's ``TypeAdapter``.

The markers also speak pydantic's protocol (``__get_pydantic_core_schema__``), so pydantic
builds the very same schema from these types (the tests compare the two validators).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import typing_extensions
from pydantic_core import SchemaValidator

from zcf_inspector.core.errors import ZcfError

__all__ = [
    "CLOSED_CONFIG",
    "After",
    "AtLeast",
    "Text",
    "closed",
    "compile_column_check",
    "compile_validator",
]

# A closed object's config, as pydantic reads it from ``__pydantic_config__`` (a plain
# ``ConfigDict``): strict, unknown keys refused; pydantic builds it on first use.
CLOSED_CONFIG: Final[dict[str, Any]] = {"strict": True, "extra": "forbid", "defer_build": True}

_T = typing.TypeVar("_T")


def closed(cls: _T) -> _T:
    """Mark a ``TypedDict`` closed and strict (what pydantic's ``with_config`` does)."""
    cls.__pydantic_config__ = CLOSED_CONFIG  # type: ignore[attr-defined]
    return cls


@dataclass(frozen=True, slots=True)
class Text:
    """String constraints (pydantic's ``StringConstraints``): a regex, a length range."""

    pattern: str | None = None
    min_length: int | None = None
    max_length: int | None = None

    def constraints(self) -> dict[str, Any]:
        found = {
            "pattern": self.pattern,
            "min_length": self.min_length,
            "max_length": self.max_length,
        }
        return {key: value for key, value in found.items() if value is not None}

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return {**handler(source), **self.constraints()}


@dataclass(frozen=True, slots=True)
class AtLeast:
    """A lower bound of an integer (pydantic's ``Field(ge=...)``)."""

    ge: int

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return {**handler(source), "ge": self.ge}


@dataclass(frozen=True, slots=True)
class After:
    """A check run on the value once its type passed (pydantic's ``AfterValidator``)."""

    func: Callable[[Any], Any]

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return _after(self.func, handler(source))


def _after(func: Callable[[Any], Any], schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function-after",
        "function": {"type": "no-info", "function": func},
        "schema": schema,
    }


class _Unsupported(ZcfError):  # noqa: N818 - internal signal, never escapes this module
    """The type is outside the vocabulary: pydantic must build its validator."""


_REQUIREDNESS: Final = (
    typing.NotRequired,
    typing.Required,
    typing_extensions.NotRequired,
    typing_extensions.Required,
)
_NOT_REQUIRED: Final = (typing.NotRequired, typing_extensions.NotRequired)
# The config pydantic puts on a TypedDict's schema (from its ``__pydantic_config__``).
_CORE_CONFIG_KEYS: Final = {"strict": "strict", "extra": "extra_fields_behavior"}


def compile_validator(tp: Any, *, strict: bool = True) -> SchemaValidator | None:
    """pydantic-core's validator for ``tp`` (strict), or ``None`` if ``tp`` is outside the
    vocabulary of this module and needs pydantic."""
    if not strict:
        return None
    try:
        schema = _schema(tp)
    except _Unsupported:
        return None
    return SchemaValidator(schema, {"strict": True})


def compile_column_check(tp: Any) -> SchemaValidator | None:
    """A strict validator of a list of ``tp`` values that stops at the first one failing
    (its cost and its errors are bounded whatever the list's length); ``None`` if ``tp``
    is outside the vocabulary. For a yes-or-no answer: its one error says little."""
    try:
        schema = _schema(tp)
    except _Unsupported:
        return None
    return SchemaValidator(
        {"type": "list", "items_schema": schema, "fail_fast": True}, {"strict": True}
    )


def _schema(tp: Any, within: tuple[Any, ...] = ()) -> dict[str, Any]:
    """``tp``'s core schema; ``within``: the TypedDicts it is a part of."""
    origin = typing.get_origin(tp)
    if origin in _REQUIREDNESS:
        return _schema(typing.get_args(tp)[0], within)
    if origin is typing_extensions.Annotated:
        return _annotated(tp.__origin__, tp.__metadata__, within)
    if origin in (typing.Literal, typing_extensions.Literal):
        return {"type": "literal", "expected": list(_literal_values(tp))}
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(tp)
        if len(members) == 2 and type(None) in members:
            (inner,) = (m for m in members if m is not type(None))
            return {"type": "nullable", "schema": _schema(inner, within)}
        raise _Unsupported(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        return {"type": "list", "items_schema": _schema(item, within)}
    if origin is dict:
        key, value = typing.get_args(tp)
        if key is not str:
            raise _Unsupported(tp)
        return {
            "type": "dict",
            "keys_schema": {"type": "str"},
            "values_schema": _schema(value, within),
        }
    if origin is not None:
        raise _Unsupported(tp)
    if tp is str:
        return {"type": "str"}
    if tp is int:
        return {"type": "int"}
    if typing_extensions.is_typeddict(tp):
        return _typed_dict(tp, within)
    raise _Unsupported(tp)


def _literal_values(tp: Any) -> list[Any]:
    values: list[Any] = []
    for arg in typing.get_args(tp):
        if typing.get_origin(arg) in (typing.Literal, typing_extensions.Literal):
            values.extend(_literal_values(arg))  # Literal[Literal[...], ...] flattens
        elif isinstance(arg, str):
            values.append(arg)
        else:
            raise _Unsupported(tp)  # pydantic treats other literals its own ways
    return values


def _annotated(inner: Any, metadata: tuple[Any, ...], within: tuple[Any, ...]) -> dict[str, Any]:
    schema = _schema(inner, within)
    for mark in metadata:
        if isinstance(mark, Text) and schema["type"] == "str":
            schema = {**schema, **mark.constraints()}
        elif isinstance(mark, AtLeast) and schema["type"] == "int":
            schema = {**schema, "ge": mark.ge}
        elif isinstance(mark, After):
            schema = _after(mark.func, schema)
        else:
            raise _Unsupported(mark)
    return schema


def _typed_dict(td: Any, within: tuple[Any, ...]) -> dict[str, Any]:
    config = getattr(td, "__pydantic_config__", None)
    if config is not CLOSED_CONFIG or td in within:
        # A schema that holds itself would need pydantic's definitions: left to pydantic.
        raise _Unsupported(td)
    within = (*within, td)
    hints = typing_extensions.get_type_hints(td, include_extras=True)
    total = getattr(td, "__total__", True)
    fields = {
        name: {
            "type": "typed-dict-field",
            "schema": _schema(hint, within),
            "required": _required(hint, total),
        }
        for name, hint in hints.items()
    }
    core_config = {_CORE_CONFIG_KEYS[key]: CLOSED_CONFIG[key] for key in _CORE_CONFIG_KEYS}
    return {
        "type": "typed-dict",
        "fields": fields,
        "extra_behavior": "forbid",
        "config": {**core_config, "title": td.__name__},
    }


def _required(hint: Any, total: bool) -> bool:
    # From the resolved hints: with postponed annotations the class's own
    # __required_keys__ cannot see a NotRequired written in a string.
    origin = typing.get_origin(hint)
    if origin in _NOT_REQUIRED:
        return False
    if origin in _REQUIREDNESS:
        return True
    return bool(total)
