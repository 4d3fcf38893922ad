"""The pieces a comparison is shown with: matching, changed spans, previews, escaping."""

from __future__ import annotations

import random

import pytest

from zcf_inspector.core.compare.elements import _removed_in_order
from zcf_inspector.core.compare.matching import Matching, Repeated, match
from zcf_inspector.core.compare.model import ABSENT, FieldChange
from zcf_inspector.core.compare.render import field_line, preview
from zcf_inspector.core.compare.text_spans import (
    changed_spans,
    common_prefix,
    common_suffix,
)
from zcf_inspector.core.visible_text import visible

# --- matching -------------------------------------------------------------------------


def test_matching_pairs_by_key_and_lists_the_rest() -> None:
    found = match(["a", "b", "c", "d"], ["b", "x", "a", "d"])
    assert found.pairs == [(1, 0), (0, 2), (3, 3)]
    assert list(found.removed) == [2]
    assert list(found.added) == [1]
    assert found.moved == frozenset({0})  # b jumped ahead of a: one move, not two
    assert found.runs == ((1, 0, 1), (0, 2, 1), (3, 3, 1))


def test_matching_the_same_order_is_one_run_without_moves() -> None:
    keys = [f"k{n}" for n in range(100)]
    found = match(keys, keys)
    assert found.runs == ((0, 0, 100),)
    assert found.moved == frozenset()
    assert found.pairs[42] == (42, 42)


def test_matching_repeated_keys_pairs_occurrences_in_order() -> None:
    found = match(["a", "a", None, None], ["a", None, "a", "a"])
    assert found.pairs == [(0, 0), (2, 1), (1, 2)]
    assert list(found.added) == [3]
    assert list(found.removed) == [3]
    assert [found.occurrence_a(i) for i in range(4)] == [1, 2, 1, 2]
    assert [found.occurrence_b(i) for i in range(4)] == [1, 1, 2, 3]
    assert found.repeated == frozenset({"a", None})


def test_moves_are_the_fewest_a_longest_run_allows() -> None:
    rng = random.Random(7)
    for _ in range(200):
        keys = list(range(rng.randint(0, 30)))
        shuffled = keys[:]
        rng.shuffle(shuffled)
        found = match(keys, shuffled)
        kept = [a for a, b in found.pairs if b not in found.moved]
        assert kept == sorted(kept)  # what stays is in order on both sides
        assert len(kept) == _longest_increasing(shuffled)


def _longest_increasing(values: list[int]) -> int:
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


# --- changed spans --------------------------------------------------------------------


def test_prefix_and_suffix() -> None:
    assert common_prefix("abcdef", "abcxef") == 3
    assert common_suffix("abcdef", "abcxef", 3) == 2
    assert common_prefix("", "abc") == 0
    assert common_suffix("aaa", "aaaa", 3) == 0  # never overlaps the prefix


def test_changed_spans_mark_only_what_differs() -> None:
    assert changed_spans("same", "same") == ((), ())
    # "int." and "float." share their last two characters: only "in" became "floa".
    assert changed_spans("The reader returns int.", "The reader returns float.") == (
        ((19, 21),),
        ((19, 23),),
    )
    assert changed_spans("abc", "abXc") == ((), ((2, 3),))
    a_spans, b_spans = changed_spans("one two three", "one 2 three four")
    assert "".join("one two three"[s:e] for s, e in a_spans) == "two"
    assert "".join("one 2 three four"[s:e] for s, e in b_spans) == "2 four"


def test_long_middles_are_marked_whole_in_bounded_time() -> None:
    a = "x" * 1000 + "a" * 100_000 + "y" * 1000
    b = "x" * 1000 + "b" * 100_000 + "y" * 1000
    assert changed_spans(a, b) == (((1000, 101_000),), ((1000, 101_000),))


@pytest.mark.parametrize("seed", range(20))
def test_spans_cover_exactly_the_characters_not_kept(seed: int) -> None:
    rng = random.Random(seed)
    a = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 60)))
    b = "".join(rng.choice("abc ") for _ in range(rng.randint(0, 60)))
    a_spans, b_spans = changed_spans(a, b)
    kept_a = "".join(c for i, c in enumerate(a) if not any(s <= i < e for s, e in a_spans))
    kept_b = "".join(c for i, c in enumerate(b) if not any(s <= i < e for s, e in b_spans))
    assert kept_a == kept_b


# --- previews and escaping -----------------------------------------------------------


def test_preview_is_json_in_code_point_order_and_bounded() -> None:
    assert preview({"b": [1, True, None], "a": "x"}, 100) == '{"a":"x","b":[1,true,null]}'
    assert preview(ABSENT, 10) == "(absent)"
    huge = "z" * 10_000_000
    shown = preview(huge, 50)
    assert len(shown) < 60
    assert shown.startswith('"zzz')
    assert shown.endswith('…"')
    many = preview(list(range(1_000_000)), 40)
    assert len(many) < 50
    assert many.endswith("…]")


def test_preview_escapes_controls_and_bidi() -> None:
    text = preview("a\u202eb\x1b[31mc\nd\u200b", 100)
    assert "\u202e" not in text
    assert "\x1b" not in text
    assert "\u200b" not in text
    assert text == '"a\\u202eb\\u001b[31mc\\nd\\u200b"'
    assert visible("ok") == "ok"
    assert visible("\U000e0001") == "\\U000e0001"


def test_field_line_highlights_changed_characters() -> None:
    line = field_line(FieldChange("/content", "keep old keep", "keep new keep"), 100)
    assert (line.a, line.b) == ('"keep old keep"', '"keep new keep"')
    assert [line.a[s:e] for s, e in line.a_spans] == ["old"]
    assert [line.b[s:e] for s, e in line.b_spans] == ["new"]
    added = field_line(FieldChange("/0", ABSENT, "new"), 100)
    assert (added.a, added.a_spans, added.b_spans) == ("(absent)", (), ((0, 5),))
    moved = field_line(FieldChange("/1", "x", "x", (3, 1)), 100)
    assert moved.note == "moved from 3 to 1"


# Printable, yet shown as nothing (issue 19): Default_Ignorable_Code_Point below U+3000
# (DerivedCoreProperties.txt, Unicode 15.1) that `str.isprintable` accepts, and U+2800.
INVISIBLE_PRINTABLE = frozenset(
    [0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800]
)


def test_visible_escapes_what_isprintable_refuses_and_the_invisible() -> None:
    for code in [*range(0x3000), *range(0xE000, 0xE100), 0x18CD6, 0xE0001, 0x10FFFD]:
        char = chr(code)
        shown = visible(char)
        if char == "\\":  # the escape character itself: doubled, so no escape is typed
            assert shown == "\\\\"
        elif char.isprintable() and code not in INVISIBLE_PRINTABLE:
            assert shown == char
        else:
            assert shown.isprintable()
            assert shown.startswith("\\")


def test_removed_elements_are_anchored_as_the_array_walk_anchors_them() -> None:
    """The streamed anchors of removed elements equal the ones a walk over a partner array
    gives (the former way, which held an array the size of the section)."""

    def walked(found: Matching) -> list[tuple[int, int]]:
        size = max(found.removed[-1], *(a + n - 1 for a, _, n in found.runs), -1) + 1
        partner_b = [-1] * size
        for start_a, start_b, length in found.runs:
            partner_b[start_a : start_a + length] = range(start_b, start_b + length)
        removed = set(found.removed)
        anchors: list[tuple[int, int]] = []
        previous_b = -1
        for index_a in range(size):
            if index_a in removed:
                anchors.append((previous_b, index_a))
            elif partner_b[index_a] >= 0:
                previous_b = partner_b[index_a]
        return sorted(anchors) if anchors != sorted(anchors) else anchors

    rng = random.Random(19)
    for _ in range(500):
        keys_a = [rng.choice("abcdefgh") if rng.random() < 0.8 else None for _ in range(20)]
        keys_b = [rng.choice("abcdefghij") if rng.random() < 0.8 else None for _ in range(20)]
        found = match(keys_a, keys_b)
        if not found.removed:
            continue
        streamed = [(key[0], key[2]) for key, *_ in _removed_in_order(found)]
        assert streamed == walked(found), (keys_a, keys_b)
    # A section removed whole: its removed indexes are a range, not an array.
    assert match([None] * 5, []).removed == range(5)
    assert match([], ["x"] * 4).added == range(4)


def test_repeated_keys_behave_as_the_list_they_stand_for() -> None:
    keys = Repeated(None, 4)
    assert keys == [None] * 4
    assert keys == Repeated(None, 4)
    assert list(keys) == [None] * 4
    assert keys != [None] * 3
    assert keys != [None, None, None, "x"]
    assert keys != Repeated("x", 4)
    assert len(keys) == 4
    assert keys[3] is None
    assert list(keys[1:3]) == [None, None]
    assert None in keys
    assert "x" not in keys
    with pytest.raises(IndexError):
        keys[4]
    # Matched like the list: every element paired in order, the n-th occurrence n.
    found, listed = match(keys, Repeated(None, 6)), match([None] * 4, [None] * 6)
    assert (list(found.added), found.runs) == (list(listed.added), listed.runs)
    assert [found.occurrence_a(i) for i in range(4)] == [1, 2, 3, 4]
    assert [found.occurrence_b(i) for i in range(6)] == [listed.occurrence_b(i) for i in range(6)]
