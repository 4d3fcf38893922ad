"""Which characters of two texts differ, in bounded time.

The common prefix and suffix are cut first (in C, by comparing slices); what is left
in the middle is compared character by character only while both middles are short,
since that comparison is quadratic. Longer middles are highlighted whole.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Final

Span = tuple[int, int]  # [start, end) in characters

FINE_LIMIT: Final = 400  # characters of each middle compared one by one


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (binary search over slice comparisons)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def common_suffix(a: str, b: str, stop: int) -> int:
    """Length of the longest common suffix that leaves ``stop`` characters of each."""
    low, high = 0, min(len(a), len(b)) - stop
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low


def changed_spans(
    a: str, b: str, fine_limit: int = FINE_LIMIT
) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The ranges of ``a`` and of ``b`` that are not common to both."""
    if a == b:
        return (), ()
    head = common_prefix(a, b)
    tail = common_suffix(a, b, head)
    middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
    if len(middle_a) > fine_limit or len(middle_b) > fine_limit:
        return _one(head, len(middle_a)), _one(head, len(middle_b))
    spans_a: list[Span] = []
    spans_b: list[Span] = []
    matcher = SequenceMatcher(None, middle_a, middle_b, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        _extend(spans_a, head + a1, head + a2)
        _extend(spans_b, head + b1, head + b2)
    return tuple(spans_a), tuple(spans_b)


def _one(start: int, length: int) -> tuple[Span, ...]:
    return ((start, start + length),) if length else ()


def _extend(spans: list[Span], start: int, end: int) -> None:
    if start == end:
        return
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))
