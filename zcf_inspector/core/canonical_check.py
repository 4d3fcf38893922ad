"""The check that canonical bytes (`core.canonical`) run first: is a value one §1 could
produce, and how many floats does it hold — in all, in each container (``holders``), and
how many of them the fast encoders cannot be trusted with.
"""

from __future__ import annotations

import math
from typing import Final

from zcf_inspector.core.errors import FormatError
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER

MAX_DEPTH: Final = 128

# The checks return two counts in one int, so that a container only adds up its
# children's: floats << 32, plus the floats whose repr is not their ECMAScript spelling.
_ONE_FLOAT: Final = 1 << 32
_NEEDS_CARE: Final = 1
CARE_MASK: Final = _ONE_FLOAT - 1


def check(value: object, depth: int, holders: dict[int, int]) -> int:
    """Raise ``ValueError`` unless §1 could produce ``value``; else how many floats it
    holds (shifted left by 32) plus how many of them need care.

    The leaf tests are inlined in the container loops: this pass runs over every value
    of a 50 MB packet, and a call per leaf would double its cost. ``holders`` maps the id
    of every container with a float somewhere inside to how many: only those are copied,
    and the large ones in pieces.
    """
    kind = type(value)
    if kind is dict:
        return _check_dict(value, depth + 1, holders)  # type: ignore[arg-type]
    if kind is list:
        return _check_list(value, depth + 1, holders)  # type: ignore[arg-type]
    return _check_other(value, depth, holders)


# _check_dict and _check_list repeat one loop body on purpose: this pass visits every value
# of a 50 MB packet, and a shared per-item helper would add a Python call per value.
def _check_dict(obj: dict[object, object], depth: int, holders: dict[int, int]) -> int:
    if depth > MAX_DEPTH:
        raise FormatError(f"nesting deeper than {MAX_DEPTH} arrays/objects (or a cycle)")
    flags = 0
    for key, item in obj.items():
        if type(key) is not str and not isinstance(key, str):
            raise FormatError(f"object key {key!r} is not a string")
        kind = type(item)
        if kind is str or item is None or kind is bool:
            continue
        if kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:  # type: ignore[operator]
                raise FormatError(_too_large(item))
        elif kind is dict:
            flags += _check_dict(item, depth + 1, holders)  # type: ignore[arg-type]
        elif kind is list:
            flags += _check_list(item, depth + 1, holders)  # type: ignore[arg-type]
        else:
            flags += _check_other(item, depth, holders)
    if flags:
        holders[id(obj)] = flags >> 32
    return flags


def _check_list(items: list[object], depth: int, holders: dict[int, int]) -> int:
    if depth > MAX_DEPTH:
        raise FormatError(f"nesting deeper than {MAX_DEPTH} arrays/objects (or a cycle)")
    flags = 0
    for item in items:
        kind = type(item)
        if kind is str or item is None or kind is bool:
            continue
        if kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:  # type: ignore[operator]
                raise FormatError(_too_large(item))
        elif kind is dict:
            flags += _check_dict(item, depth + 1, holders)  # type: ignore[arg-type]
        elif kind is list:
            flags += _check_list(item, depth + 1, holders)  # type: ignore[arg-type]
        else:
            flags += _check_other(item, depth, holders)
    if flags:
        holders[id(items)] = flags >> 32
    return flags


def _check_other(value: object, depth: int, holders: dict[int, int]) -> int:
    """Scalars and subclasses; ``depth`` is that of the enclosing container."""
    if value is None or isinstance(value, str | bool):
        return 0
    if isinstance(value, float):
        return _ONE_FLOAT + _NEEDS_CARE if float_needs_care(value) else _ONE_FLOAT
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise FormatError(_too_large(value))
        return 0
    if isinstance(value, dict):
        return _check_dict(value, depth + 1, holders)
    if isinstance(value, list):
        return _check_list(value, depth + 1, holders)
    raise FormatError(f"{type(value).__name__} is not a JSON value")


def float_needs_care(value: float) -> bool:
    if not math.isfinite(value):
        raise FormatError(f"{value!r} is not a JSON number")
    if value.is_integer():
        if abs(value) > MAX_SAFE_INTEGER:
            raise FormatError(_too_large(value))
        return True
    # Non-integral doubles are below 2^52, so repr never uses a positive exponent; it uses
    # a negative one (1e-05) below 1e-4, where ECMAScript still writes 0.00001.
    return -1e-4 < value < 1e-4


def _too_large(value: object) -> str:
    return f"{value!r} is integral with magnitude above 2^53 - 1; §1 refuses it"
