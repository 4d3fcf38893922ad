"""JSON numbers kept exactly: what the reader's exact mode (ASIF documents) returns.

ASIF's data types are "integer: integral JSON number", "number: JSON number; consumers
MUST NOT silently round preserved values" and "JSON value: any JSON value" — with no
bound but the one a schema states. A double cannot hold that, so in exact mode a number
literal becomes:

- an ``int`` when its value is integral and its integer part has at most
  `INT_DIGITS` digits (``1``, ``1.0``, ``4.2e2``, ``-0`` → ``0``, ``9007199254740993``);
- else a ``decimal.Decimal`` built from the literal, which is exact whatever its length
  or exponent (``27.999999999999999999``, ``1e-400``, ``1e400000``; an integral one this
  large is still an integer to `is_integral`).

Python compares ``int`` and ``Decimal`` exactly (``Decimal("1.00000000000000001") != 1``)
and ``Decimal("1.0") == 1``, so equality of values is equality of JSON numbers. No
arithmetic beyond comparison is ever done on them: a ``Decimal`` with a huge exponent is
cheap to hold and compare, and converting it to ``int`` is never attempted.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

__all__ = [
    "INT_DIGITS",
    "exact_number",
    "exact_number_text",
    "is_integral",
    "number_text",
    "parse_exact_int",
]

# Python refuses to convert longer digit strings to int (sys.get_int_max_str_digits, whose
# default is 4300) because the conversion is quadratic; longer integers stay Decimal.
INT_DIGITS: Final = 4300


def parse_exact_int(literal: str) -> int | Decimal:
    """An integer literal (``-?[0-9]+``) as its exact value."""
    if len(literal) - literal.startswith("-") <= INT_DIGITS:
        return int(literal)
    return Decimal(literal)


def exact_number(literal: str) -> int | Decimal:
    """A JSON number literal with a fraction or an exponent, as its exact value."""
    value = Decimal(literal)
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)  # a literal is finite
    if exponent >= 0:
        # Integral; its integer part has len(digits) + exponent digits.
        if len(digits) + exponent <= INT_DIGITS:
            return int(value)
        return value
    # exponent < 0: integral when the last -exponent digits are all zero (or it is 0).
    kept = len(digits) + exponent  # digits before the point
    if not any(digits[max(kept, 0) :]):
        return int(value) if kept <= INT_DIGITS else value
    return value


def is_integral(value: object) -> bool:
    """Whether a parsed JSON number is integral (never true of a bool)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, Decimal):
        if not value.is_finite():
            return False
        _, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        return exponent >= 0 or not any(digits[max(len(digits) + exponent, 0) :])
    return False


def exact_number_text(value: Decimal) -> str:
    """The JSON spelling of an exact number: as ECMAScript lays out a number's digits, but
    with all of the value's exact digits instead of a double's shortest ones.

    For a number a double holds exactly with the same shortest digits this is the
    ZCF-JSON-v1 (and RFC 8785) spelling; ``27.999999999999999999`` stays as it is.
    """
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    text = "".join(map(str, digits)).lstrip("0")
    if not text:
        return "0"
    trailing = len(text) - len(text.rstrip("0"))
    text = text.rstrip("0")
    exponent += trailing
    point = len(text) + exponent  # value = 0.<text> * 10**point
    return ("-" if sign else "") + ecmascript_layout(text, point)


def ecmascript_layout(significant: str, point: int) -> str:
    """The digits ``significant`` (no leading or trailing zero) of the positive number
    0.<significant> x 10**point laid out as ECMAScript's Number::toString lays them out
    (plain between 1e-6 and 1e21, else ``d.ddde±N``): the one layout of the canonical
    bytes of a double and of an exact number."""
    count = len(significant)
    if count <= point <= 21:
        return significant + "0" * (point - count)
    if 0 < point <= 21:
        return significant[:point] + "." + significant[point:]
    if -6 < point <= 0:
        return "0." + "0" * -point + significant
    power = point - 1
    head = significant[0] + ("." + significant[1:] if count > 1 else "")
    return f"{head}e{'+' if power >= 0 else '-'}{abs(power)}"


def number_text(value: int | float | Decimal) -> str:
    """A parsed JSON number as JSON text, exactly (for messages and previews)."""
    if isinstance(value, Decimal):
        return exact_number_text(value)
    if isinstance(value, float):
        return repr(value)
    return str(value)  # the exact reader's ints have at most INT_DIGITS digits
