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

import re
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


# Runs of characters outside printable ASCII: each run is looked at once, and only a run
# holding something `str.isprintable` refuses is taken apart character by character.
# Every code point from U+007F up, spelled as a negated class: the same set, compiled in
# a twentieth of the time (a range up to U+10FFFF took 3 ms of every start-up).
_NON_ASCII_RUN: Final = re.compile("[^\x00-\x7e]+")


def _json_escape(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    # JSON spells a character past the BMP as its UTF-16 surrogate pair.
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _json_run(match: re.Match[str]) -> str:
    run = match.group()
    return run if run.isprintable() else "".join(_json_escape(char) for char in run)


def json_visible(text: str) -> str:
    """JSON text (as `json.dumps` wrote it, with ``ensure_ascii=False``) with every
    character that a terminal could act on or that reorders or hides text — DEL and C1
    controls, bidi and other format characters, U+2028/U+2029, private-use, unassigned
    and unusual space characters — written as a ``\\u`` escape.

    The JSON value is unchanged (a parser reads the same strings back): such characters
    only ever occur inside strings, where an escape means the same character; C0
    controls are escaped by `json.dumps` already, and its structural newlines are kept.
    """
    return _NON_ASCII_RUN.sub(_json_run, text)


def visible_lines(text: str, limit: int = 20_000) -> str:
    """A message of several lines (a dialog, a status text): each line made `visible`, the
    line breaks kept, the whole cut at ``limit`` characters."""
    return "\n".join(visible(line) for line in clip(text, limit).split("\n"))
