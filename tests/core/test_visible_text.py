"""The visible-text rule for what reaches a terminal or a window, and its JSON twin: JSON
that a terminal cannot be made to act on, and that parses back to the same strings."""

from __future__ import annotations

import itertools
import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zcf_inspector.core.continuation.export.to_dot import plan_dot
from zcf_inspector.core.continuation.results import Closure, PlanEdge, PlanNode, PlanResult
from zcf_inspector.core.visible_text import (
    escapes,
    json_visible,
    shown,
    unescape,
    visible,
    visible_lines,
)

EVERY_CHARACTER = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})


def hidden(text: str) -> set[str]:
    return {
        c
        for c in text
        if unicodedata.category(c) in HIDDEN or (unicodedata.category(c) == "Zs" and c != " ")
    }


def test_json_visible_hides_nothing_and_changes_no_value() -> None:
    value = {EVERY_CHARACTER[:5000]: [EVERY_CHARACTER, "\u2028\u2029\u202e\x9b\x1b]0;x\x07"]}
    text = json_visible(json.dumps(value, ensure_ascii=False, indent=2))
    assert hidden(text) <= {"\n"}  # the indentation's own line breaks only
    assert json.loads(text) == value
    assert "\\u2028" in text
    assert "\\u202e" in text
    assert "\\udb40\\udc01" in text  # U+E0001, a format character past the BMP: a pair
    assert "中文" in json_visible(json.dumps("中文", ensure_ascii=False))  # printable: as is


def test_visible_lines_keeps_line_breaks_and_escapes_the_rest() -> None:
    text = visible_lines("first \x1b[2J line\nsecond\u202e line\r\n")
    assert text == "first \\u001b[2J line\nsecond\\u202e line\\r\n"


def test_shown_cuts_and_says_how_long() -> None:
    assert shown("k" * 1_000_000, 20) == "k" * 20 + "… (1,000,000 characters)"
    assert visible("\x9b31m") == "\\u009b31m"


def _plan(*ids: str) -> PlanResult:
    nodes = tuple(PlanNode(i, "dependency", i, None, True, True, False, None, ()) for i in ids)
    edges = tuple(PlanEdge(a, b, "depends_on", "", False) for a, b in itertools.pairwise(ids))
    return PlanResult(
        "p\x1b]0;t\x07", "", "resume_native", (), nodes, edges, Closure((), ()), (), ()
    )


@pytest.mark.parametrize(
    "ids",
    [
        ("a\x1bb", "a\\u001bb"),  # an escape and its spelling: two nodes
        ("a\nb", "a\\nb"),
        ("x" * 300, "x" * 299 + "y"),  # long ids cut, yet two nodes
        ('q"uote', 'q\\"uote'),
    ],
)
def test_dot_ids_stay_distinct_and_carry_nothing_hidden(ids: tuple[str, str]) -> None:
    dot = plan_dot(_plan(*ids))
    assert hidden(dot) <= {"\n"}
    node_lines = [line for line in dot.splitlines() if "[label=" in line and "->" not in line]
    names = [line.strip().split(" [label=", 1)[0] for line in node_lines]
    assert names == ["n0", "n1"]  # synthetic DOT ids: one per node, whatever the ids hold
    labels = [line.split(" [label=", 1)[1].split('", ', 1)[0] for line in node_lines]
    if len(ids[0]) < 80:  # the labels tell two short ids apart (long ones are cut alike)
        assert labels[0] != labels[1]
    edges = [line.strip() for line in dot.splitlines() if "->" in line]
    assert [edge.split(" [", 1)[0] for edge in edges] == ["n0 -> n1"]


# Printable by `str.isprintable`, yet nothing on screen (issue 19): Default_Ignorable_Code_Point
# samples from every range of DerivedCoreProperties.txt, and the blanks outside it.
INVISIBLE_PRINTABLE = (
    "\u00ad",  # soft hyphen
    "\u034f",  # combining grapheme joiner
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u17b4",  # Khmer vowel inherent AQ
    "\u17b5",  # Khmer vowel inherent AA
    "\u180b",  # Mongolian free variation selector one
    "\u180d",
    "\u180f",  # Mongolian free variation selector four
    "\u3164",  # Hangul filler
    "\ufe00",  # variation selector-1
    "\ufe0f",  # variation selector-16
    "\uffa0",  # halfwidth Hangul filler
    "\u2800",  # braille pattern blank
    "\U0001d159",  # musical symbol null notehead
    "\U000e0100",  # variation selector-17
    "\U000e01ef",  # variation selector-256
)


@pytest.mark.parametrize("char", INVISIBLE_PRINTABLE)
def test_invisible_printable_characters_are_escaped(char: str) -> None:
    code = ord(char)
    spelled = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    assert visible(f"b{char}-payment") == f"b{spelled}-payment"
    assert shown(f"b{char}-payment", 50) == f"b{spelled}-payment"
    # The JSON twin: escaped (a surrogate pair past the BMP), the same value read back.
    text = json_visible(json.dumps({"id": f"b{char}"}, ensure_ascii=False))
    assert char not in text
    assert json.loads(text) == {"id": f"b{char}"}


def test_ids_differing_only_by_an_invisible_character_look_different() -> None:
    assert visible("b-payment") != visible("b\u034f-payment")
    assert visible("b\u034f-payment") == "b\\u034f-payment"


def test_visible_letters_and_marks_are_left_alone() -> None:
    # Ordinary text of many scripts, combining accents and emoji without selectors.
    text = "plain é ü 日本 한국어 ᠮᠣᠩᠭᠣᠯ ខ្មែរ e\u0301 ❤ ☺"
    assert visible(text) == text
    assert json_visible(json.dumps(text, ensure_ascii=False)) == json.dumps(
        text, ensure_ascii=False
    )


@given(st.text(alphabet=st.characters(codec=None)))
def test_escaping_is_one_to_one(text: str) -> None:
    """Every string comes back from its escaped form, and the escaped form holds nothing
    hidden: so two different strings never look the same."""
    assert unescape(visible(text)) == text
    assert unescape(visible_lines(text)) == text
    assert hidden(visible(text)) == set()


@given(st.text(alphabet="\\u202eUabcn0\u202e\n"))
def test_typed_escapes_and_real_characters_look_different(text: str) -> None:
    """The alphabet is an escape's own letters and the character it stands for: whatever
    mix of them, the real character and the typed spelling never print alike."""
    typed = text.replace("\u202e", "\\u202e")
    if typed != text:
        assert visible(typed) != visible(text)
    assert [char for _, _, char in escapes(visible(text))] == [c for c in text if c in "\\\u202e\n"]


def test_a_typed_backslash_is_doubled_and_a_real_override_is_not() -> None:
    assert visible("pay \u202egnp.exe") == "pay \\u202egnp.exe"
    assert visible("pay \\u202egnp.exe") == "pay \\\\u202egnp.exe"
    assert visible("C:\\Users\\bob") == "C:\\\\Users\\\\bob"
    assert shown("\\" * 30, 4) == "\\\\" * 4 + "… (30 characters)"
