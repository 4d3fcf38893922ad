"""Which script a character is written in, and whether a mix of scripts is one a word of
a real language makes: UTS #39's "moderately restrictive" level (section 5.2).

Allowed in one word: one script (Common and Inherited — digits, punctuation, combining
marks — go with any); Latin with Han, Hiragana and Katakana (Japanese), with Han and
Bopomofo (Chinese), with Han and Hangul (Korean); Latin with any one other Recommended
script but Cyrillic and Greek, the two whose letters copy Latin's. Anything else is
beyond what a word is made of: "paypal" with a Cyrillic a (U+0430).
"""

from __future__ import annotations

import bisect
from functools import cache
from typing import Final

from zcf_inspector.core.hostile import tables

COMMON: Final = "COMMON"
INHERITED: Final = "INHERITED"
UNKNOWN: Final = "UNKNOWN"
_NEUTRAL: Final = frozenset({COMMON, INHERITED, UNKNOWN})
LATIN: Final = "LATIN"
_HIGHLY_RESTRICTIVE: Final = (
    frozenset({LATIN, "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({LATIN, "HAN", "BOPOMOFO"}),
    frozenset({LATIN, "HAN", "HANGUL"}),
)
# UAX #31 Table 4 (Recommended scripts), less Latin, and less Cyrillic and Greek, which
# the moderately restrictive level keeps apart from Latin.
_MODERATE_PARTNERS: Final = frozenset(
    {
        "ARABIC",
        "ARMENIAN",
        "BENGALI",
        "BOPOMOFO",
        "DEVANAGARI",
        "ETHIOPIC",
        "GEORGIAN",
        "GUJARATI",
        "GURMUKHI",
        "HAN",
        "HANGUL",
        "HEBREW",
        "HIRAGANA",
        "KANNADA",
        "KATAKANA",
        "KHMER",
        "LAO",
        "MALAYALAM",
        "MYANMAR",
        "ORIYA",
        "SINHALA",
        "TAMIL",
        "TELUGU",
        "THAANA",
        "THAI",
        "TIBETAN",
    }
)


@cache
def script_of(char: str) -> str:
    """The Unicode script of ``char`` (Scripts.txt), ``UNKNOWN`` past the tables' data."""
    code = ord(char)
    if code < 0x80:
        return LATIN if char.isalpha() else COMMON
    at = bisect.bisect_right(tables.RANGE_STARTS, code) - 1
    if at < 0 or code > tables.RANGE_ENDS[at]:
        return UNKNOWN
    return tables.SCRIPT_NAMES[tables.RANGE_SCRIPTS[at]]


def scripts_of(text: str) -> frozenset[str]:
    """The scripts of ``text``'s letters (Common and Inherited left out): a look-up per
    distinct character."""
    return frozenset(map(script_of, set(text))) - _NEUTRAL


def allowed(scripts: frozenset[str]) -> bool:
    """Whether one word may be written in ``scripts`` (moderately restrictive)."""
    if len(scripts) <= 1:
        return True
    if any(scripts <= allowed_set for allowed_set in _HIGHLY_RESTRICTIVE):
        return True
    return len(scripts) == 2 and LATIN in scripts and bool(scripts & _MODERATE_PARTNERS)


def script_words(scripts: frozenset[str]) -> str:
    """``{"LATIN", "CYRILLIC"}`` as "Cyrillic and Latin"."""
    names = sorted(name.replace("_", " ").title() for name in scripts)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
