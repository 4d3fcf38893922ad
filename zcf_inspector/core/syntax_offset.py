"""Where a malformed token sits (profile clarification of 2026-12-07): at the first byte at
which the bytes stop being the beginning of some JSON text — in ``{"s": "\\x41"}`` at the
``x``, in ``{"v": -}`` at the ``}``, in ``1.`` and ``1e`` at the end of the input; an
unterminated string, object or array, or an empty input, at the end of the input.

The standard library's decoder, which the reader runs, stops at the start of the token it
could not read (the backslash of an escape, the ``-`` of a number, a string's opening
quote). Everything before that position is the beginning of a JSON text (the decoder read
it), so the byte the profile means lies in the one token there: this module reads that
token on from the decoder's position, a few characters at most (a number's literal, a
literal name, four hex digits) — never the rest of the input.
"""

from __future__ import annotations

import json
from typing import Final

__all__ = ["constant_offset", "syntax_offset", "syntax_words"]

_LITERALS: Final = {"t": "true", "f": "false", "n": "null"}
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_DIGITS: Final = frozenset("0123456789")


def syntax_offset(text: str, position: int, message: str) -> int:
    """The index in ``text`` of the first character that cannot continue a JSON text, for
    the decoder's error ``message`` at ``position`` (``len(text)``: the input ended)."""
    return _located(text, position, message)[0]


def syntax_words(text: str, error: json.JSONDecodeError) -> str:
    """What is wrong at `syntax_offset`, in words (the decoder's own where they fit)."""
    return _located(text, error.pos, error.msg)[1]


def _located(text: str, position: int, message: str) -> tuple[int, str]:
    end = len(text)
    said = message.removesuffix(" at")
    if message.startswith("Unterminated string"):
        # The decoder stops only when the input ends inside the string.
        opened = len(text[:position].encode("utf-8", errors="surrogatepass"))
        return end, f"an unterminated string (opened at byte {opened})"
    if message.startswith("Invalid \\escape"):
        return min(position + 1, end), said  # the character after the backslash
    if message.startswith("Invalid \\uXXXX escape"):
        # ``position`` is the ``u``: the first of its four characters that is not hex.
        at = position + 1
        while at < min(position + 5, end) and text[at] in _HEX:
            at += 1
        return at, said
    if position >= end:
        return end, f"the input ends early ({said})"
    if message.startswith("Expecting value"):
        at = _value_start(text, position)
    else:
        # "Expecting ',' delimiter", "Extra data", "Expecting ':' delimiter": the
        # character at ``position`` follows a value — unless it continues that number.
        at = _after_number(text, position)
    if at == position:
        return at, said
    if at >= end:
        return end, "the input ends inside a value"
    return at, "an unfinished value"


def constant_offset(text: str, position: int) -> int:
    """Where ``NaN``, ``Infinity`` or ``-Infinity`` at ``position`` stops being JSON: its
    first letter (a ``-`` may begin a number; no JSON value begins with ``N`` or ``I``)."""
    return position + 1 if text.startswith("-", position) else position


def _value_start(text: str, position: int) -> int:
    """A value was expected at ``position`` and none could be read there."""
    char = text[position]
    word = _LITERALS.get(char)
    if word is not None:
        # ``tru}``: the literal's letters as far as they go.
        at = position
        for letter in word:
            if at >= len(text) or text[at] != letter:
                break
            at += 1
        return at
    if char == "-":
        return position + 1  # a minus with no digit after it
    return position


def _after_number(text: str, position: int) -> int:
    """``position``, or past it when the number that ends there could still go on (``1.``,
    ``1e``, ``1e+``: each needs a digit next, which the decoder saw was not there)."""
    if position == 0 or text[position - 1] not in _DIGITS:
        return position  # a string, a literal name or a container ended there
    # The number's literal (read back once, on a refusal only): whether it already has a
    # fraction or an exponent.
    start = position - 1
    while start > 0 and text[start - 1] in "-+.eE0123456789":
        start -= 1
    literal = text[start:position]
    char = text[position]
    has_exponent = "e" in literal or "E" in literal
    if char == "." and "." not in literal and not has_exponent:
        return position + 1  # after "." a digit must come; the decoder found none
    if char in "eE" and not has_exponent:
        after = position + 1
        if after < len(text) and text[after] in "+-":
            return after + 1
        return after
    return position
