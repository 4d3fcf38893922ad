"""JSON values as the continuation checks compare and quote them: equality as JSON has it
(`json_key`: `true` is not `1`, `1` is `1.0`), the schema's plain types (`is_type`) and a
short exact preview of any value (`short_json`: numbers never rounded, a large value only
written as far as it is shown)."""

from __future__ import annotations

import json
from decimal import Decimal

from zcf_inspector.core.exact_numbers import is_integral, number_text
from zcf_inspector.core.jsontypes import JsonValue, json_type_name

# A single plain type as (isinstance types, excluded types): bool is not an integer.
SIMPLE_TYPES: dict[str, tuple[type | tuple[type, ...], type | tuple[type, ...]]] = {
    "string": (str, ()),
    "object": (dict, ()),
    "array": (list, ()),
    "boolean": (bool, ()),
    "null": (type(None), ()),
    "integer": (int, bool),
}


def is_type(value: JsonValue, name: str) -> bool:
    kind = json_type_name(value)
    if name == "number":
        return kind in ("integer", "number")
    if name == "integer":
        # Exactly integral: 1.0 is an integer, 27.999999999999999999 is not.
        return kind == "integer" or (kind == "number" and is_integral(value))
    return kind == name


def json_key(value: JsonValue) -> object:
    """A hashable key equal exactly when two JSON values are equal (true is not 1)."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, int | float | Decimal):
        return ("n", value)  # int and Decimal compare (and hash) exactly: 1.0 is 1
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("a", tuple(json_key(v) for v in value))
    return ("o", frozenset((k, json_key(v)) for k, v in value.items()))


SHORT_CHARS = 60


def short_json(value: JsonValue) -> str:
    """``value`` as JSON, exactly (numbers never rounded), cut at `SHORT_CHARS`: only as
    much of it is written as is shown (a failing value may be the whole document, and the
    shape fails at every level)."""
    parts: list[str] = []
    _preview(value, parts, SHORT_CHARS + 1)
    text = "".join(parts)
    return text if len(text) <= SHORT_CHARS else text[: SHORT_CHARS - 3] + "…"


def _preview(value: JsonValue, parts: list[str], room: int) -> int:
    """Append the start of ``value``'s JSON to ``parts``, stopping once ``room`` characters
    are written; the room left."""
    if isinstance(value, dict):
        parts.append("{")
        room -= 1
        for index, (key, member) in enumerate(value.items()):
            if room <= 0:
                break
            text = (", " if index else "") + json.dumps(key[:room], ensure_ascii=False) + ": "
            parts.append(text)
            room = _preview(member, parts, room - len(text))
        parts.append("}")
        return room - 1
    if isinstance(value, list):
        parts.append("[")
        room -= 1
        for index, item in enumerate(value):
            if room <= 0:
                break
            if index:
                parts.append(", ")
                room -= 2
            room = _preview(item, parts, room)
        parts.append("]")
        return room - 1
    if isinstance(value, str):
        value = value[:room]  # a long string's start is all that can be shown
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        text = number_text(value)[: room + 1]
    else:
        text = json.dumps(value, ensure_ascii=False)
    parts.append(text)
    return room - len(text)
