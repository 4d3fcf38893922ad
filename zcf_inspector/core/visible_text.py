"""Document strings as visible text: nothing hidden, nothing reordered, nothing obeyed.

Characters that would hide or reorder text, or that a terminal would obey — controls
(ESC starts terminal escape sequences), bidi overrides and other format characters,
zero-width characters, line and paragraph separators, private-use, surrogate and
unassigned code points (a terminal's newer Unicode may give them a meaning), spaces other
than U+0020 — are written as ``\\uXXXX`` (``\\n``, ``\\r``, ``\\t`` for the usual three):
exactly the characters ``str.isprintable`` refuses. The window's `gui.plain_text.visible`
follows the same rule, unassigned code points aside.
"""

from __future__ import annotations

import unicodedata
from typing import Final

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_SHORT_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def visible(text: str) -> str:
    """``text`` with every invisible, reordering or control character escaped."""
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        if char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
            continue
        category = unicodedata.category(char)
        if category in _HIDDEN_CATEGORIES or (category == "Zs" and char != " "):
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        else:
            out.append(char)
    return "".join(out)


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters of ``text``, saying how long it was when cut."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"
