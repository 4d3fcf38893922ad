"""Strings from documents made safe to show: nothing hidden, nothing reordered, bounded.

One rule for every place text from a packet, session or file name is shown — the window
and the terminal alike: each character that would hide, move or reorder text (controls,
DEL and C1 controls, bidi overrides and isolates, zero-width and other format characters,
line and paragraph separators, private-use, surrogate and unassigned code points — a
terminal's newer Unicode may give those a meaning — and every space other than U+0020)
is written as an escape: exactly what ``str.isprintable`` refuses. Very long text is cut
with its length said.
"""

from __future__ import annotations

import unicodedata
from typing import Final

# Cc: C0, DEL, C1 controls; Cf: bidi marks, overrides and isolates, zero-width characters;
# Zl/Zp: line and paragraph separators; Co: private use; Cs: lone surrogates;
# Cn: unassigned in this Python's Unicode database.
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_SHORT_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    category = unicodedata.category(char)
    if category in _HIDDEN_CATEGORIES or (category == "Zs" and char != " "):
        code = ord(char)
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return char


def visible(text: str) -> str:
    """``text`` with every invisible or reordering character written as an escape."""
    if text.isprintable():  # the common case: no character needs a second look
        return text
    return "".join(_escape(char) for char in text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def shown(text: str, limit: int) -> str:
    """Cut, then escaped: what a one-line display of a found string should print."""
    return visible(clip(text, limit))
