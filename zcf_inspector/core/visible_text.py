"""Strings from documents made safe to show: nothing hidden, nothing reordered, bounded.

One rule for every place text from a packet, session or file name is shown — the window
and the terminal alike: each character that would hide, move or reorder text (controls,
DEL and C1 controls, bidi overrides and isolates, zero-width and other format characters,
line and paragraph separators, private-use, surrogate and unassigned code points — a
terminal's newer Unicode may give those a meaning — and every space other than U+0020)
is written as an escape: what ``str.isprintable`` refuses, and the printable characters
that show nothing — Unicode's ``Default_Ignorable_Code_Point`` (the combining grapheme
joiner U+034F, variation selectors U+FE00-FE0F and U+E0100-E01EF, Mongolian free
variation selectors, the Khmer inherent vowels U+17B4/U+17B5, the Hangul fillers U+115F,
U+1160, U+3164, U+FFA0, tags …) and the blanks outside it (braille blank U+2800, musical
null notehead U+1D159). So two ids that differ only by such a character never look alike
("b-payment" and "b\u034f-payment"). Very long text is cut with its length said.

The escaping is one-to-one: the escape character itself is escaped (a typed backslash is
written as two), so the six characters of an escape like U+202E's in the output can only
mean that code point, never the same six characters typed, and `unescape` gives the text
back. The public names: `visible` (escape), `shown` (cut, then escape), `visible_lines`
(escape, line breaks kept) and `json_visible` (JSON text, its hidden characters as JSON
escapes).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final

# Cc: C0, DEL, C1 controls; Cf: bidi marks, overrides and isolates, zero-width characters;
# Zl/Zp: line and paragraph separators; Co: private use; Cs: lone surrogates;
# Cn: unassigned in this Python's Unicode database.
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_SHORT_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}
_SHORT_UNESCAPES: Final = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}
# Printable by `str.isprintable` yet invisible: DerivedCoreProperties.txt's
# Default_Ignorable_Code_Point (Unicode 15.1; the format characters among them are caught
# by category already, listed for completeness), then blanks it leaves out. Python's
# `unicodedata` has no such property, hence the table.
IGNORABLE_RANGES: Final = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer vowel inherent AQ, AA
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, marks
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (BOM)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, reserved
    # Not Default_Ignorable, but blank wherever they are drawn:
    (0x2800, 0x2800),  # braille pattern blank
    (0x1D159, 0x1D159),  # musical symbol null notehead
    (0x16FE4, 0x16FE4),  # Khitan small script filler
)
_INVISIBLE: Final = re.compile(
    "["
    + "".join(
        re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
        for low, high in IGNORABLE_RANGES
    )
    + "]"
)


def _invisible(char: str) -> bool:
    return _INVISIBLE.match(char) is not None


def _clean(text: str) -> bool:
    """Nothing in ``text`` needs an escape (passes in C for the common case)."""
    return (
        text.isprintable()
        and "\\" not in text
        and (text.isascii() or _INVISIBLE.search(text) is None)
    )


def _escape(char: str) -> str:
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    category = unicodedata.category(char)
    if category in _HIDDEN_CATEGORIES or (category == "Zs" and char != " ") or _invisible(char):
        code = ord(char)
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return char


def visible(text: str) -> str:
    """``text`` with every invisible or reordering character written as an escape."""
    if _clean(text):  # the common case: no character needs a second look
        return text
    return "".join(_escape(char) for char in text)


# What `visible` writes: a backslash and what follows it, nothing else starts with one.
_ESCAPE: Final = re.compile(r"\\(?:u[0-9a-f]{4}|U[0-9a-f]{8}|[nrt\\])")


def _unescape(match: re.Match[str]) -> str:
    escape = match.group()
    return _SHORT_UNESCAPES[escape[1]] if len(escape) == 2 else chr(int(escape[2:], 16))


def unescape(text: str) -> str:
    """The text `visible` (or `visible_lines`) was given back from what it wrote:
    ``unescape(visible(text)) == text`` for every string."""
    return _ESCAPE.sub(_unescape, text) if "\\" in text else text


def escapes(text: str) -> Iterator[tuple[int, int, str]]:
    """Each escape in a text `visible` wrote: where it starts and ends, and the character
    it stands for (a typed backslash, ``\\\\``, stands for ``\\``) — for a view that
    draws each escaped character as a token typed text cannot produce."""
    if "\\" in text:
        for match in _ESCAPE.finditer(text):
            yield match.start(), match.end(), _unescape(match)


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
    if char.isprintable() and not _invisible(char):
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    # JSON spells a character past the BMP as its UTF-16 surrogate pair.
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _json_run(match: re.Match[str]) -> str:
    run = match.group()
    return run if _clean(run) else "".join(_json_escape(char) for char in run)


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
