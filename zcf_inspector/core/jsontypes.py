"""The Python shapes a parsed JSON value takes in the core."""

from __future__ import annotations

from decimal import Decimal
from typing import Final, TypeAlias

# The strict reader returns integral numbers as ``int`` and only non-integral ones as
# ``float`` (profile §2), so an ``int`` is always the canonical spelling of its value.
# Its exact mode (ASIF documents, `core.exact_numbers`) returns ``Decimal`` for the
# numbers a double would round, and ``int`` of any size: never in a ZCF packet.
JsonValue: TypeAlias = (
    "dict[str, JsonValue] | list[JsonValue] | str | int | float | Decimal | bool | None"
)
JsonObject: TypeAlias = "dict[str, JsonValue]"

# The largest integer every JSON reader represents exactly (an IEEE double's 53 bits): the
# profile refuses integral values beyond it (§1), and ASIF counts stay within it.
MAX_SAFE_INTEGER: Final = 2**53 - 1


def json_type_name(value: JsonValue) -> str:
    """The JSON Schema name of a parsed value's type; ``true`` is a boolean, never an
    integer, and an integral number is an integer (the reader returns those as int)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float | Decimal):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
