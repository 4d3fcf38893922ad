"""Pairing the elements of two sequences by identity, and finding the ones that moved.

Each element has a key (its identity, or None when it has none). The n-th element with
a key in A is paired with the n-th element with that key in B, so repeated identities
(which the structure stage refuses, but a compared packet may have) and elements
without one are paired deterministically, never dropped and never an error.

An element *moved* when its position relative to the other paired elements changed:
the pairs are kept along a longest run that is in the same order on both sides, and
every other pair is reported as moved (so one element moved to the front is one move,
not a shift of all the others). Elements only inserted or removed move nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final


class _Repeat:
    """Marks the key of a second or later occurrence; never equal to a plain key."""

    __slots__ = ()


_REPEAT: Final = _Repeat()


@dataclass(frozen=True, slots=True)
class Matching:
    removed: tuple[int, ...]  # indexes in A with no partner, ascending
    added: tuple[int, ...]  # indexes in B with no partner, ascending
    moved: frozenset[int]  # indexes in B of pairs whose relative order changed
    occurrence_a: dict[int, int]  # index in A -> 1-based occurrence, for repeated keys only
    occurrence_b: dict[int, int]
    repeated: frozenset[Hashable]  # keys (None included) that occur more than once on a side
    # The pairs, in B's order, as runs (start in A, start in B, length) of consecutive
    # indexes on both sides: a caller compares a run's elements in slices, and a large
    # section in the same order on both sides is one run, not 200,000 tuples.
    runs: tuple[tuple[int, int, int], ...]

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """(index in A, index in B) of every pair, in B's order."""
        return [
            (start_a + k, start_b + k)
            for start_a, start_b, length in self.runs
            for k in range(length)
        ]


def _occurrences(keys: Sequence[Hashable]) -> tuple[Sequence[Hashable], dict[Hashable, int]]:
    """``keys`` with every repeat made unique as (marker, key, n), and the repeats' counts."""
    if len(set(keys)) == len(keys):
        return keys, {}  # the common case, decided in C
    counts: dict[Hashable, int] = {}
    out: list[Hashable] = []
    for key in keys:
        seen = counts.get(key, 0)
        counts[key] = seen + 1
        out.append(key if seen == 0 else (_REPEAT, key, seen))
    return out, counts


def match(keys_a: Sequence[Hashable], keys_b: Sequence[Hashable]) -> Matching:
    """Pair ``keys_a`` with ``keys_b`` (see the module docstring); O(n log n)."""
    if keys_a == keys_b and len(set(keys_a)) == len(keys_a):
        # The same identities in the same order (a packet and its next generation, most
        # often): every element pairs with the one at its own index.
        count = len(keys_a)
        return Matching(
            (),
            (),
            frozenset(),
            {},
            {},
            frozenset(),
            ((0, 0, count),) if count else (),
        )
    unique_a, counts_a = _occurrences(keys_a)
    unique_b, counts_b = _occurrences(keys_b)
    where_a = {key: index for index, key in enumerate(unique_a)}
    pairs: list[tuple[int, int]] = []
    added: list[int] = []
    for index_b, key in enumerate(unique_b):
        index_a = where_a.pop(key, None)
        if index_a is None:
            added.append(index_b)
        else:
            pairs.append((index_a, index_b))
    removed = sorted(where_a.values())
    repeated = frozenset(k for counts in (counts_a, counts_b) for k, n in counts.items() if n > 1)
    return Matching(
        tuple(removed),
        tuple(added),
        _moved(pairs),
        _occurrence_numbers(keys_a, repeated),
        _occurrence_numbers(keys_b, repeated),
        repeated,
        _runs(pairs),
    )


def _runs(pairs: list[tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    runs: list[tuple[int, int, int]] = []
    start_a = start_b = length = 0
    for index_a, index_b in pairs:
        if length and index_a == start_a + length and index_b == start_b + length:
            length += 1
            continue
        if length:
            runs.append((start_a, start_b, length))
        start_a, start_b, length = index_a, index_b, 1
    if length:
        runs.append((start_a, start_b, length))
    return tuple(runs)


def _occurrence_numbers(keys: Sequence[Hashable], repeated: frozenset[Hashable]) -> dict[int, int]:
    if not repeated:
        return {}
    seen: dict[Hashable, int] = {}
    out: dict[int, int] = {}
    for index, key in enumerate(keys):
        if key in repeated:
            seen[key] = seen.get(key, 0) + 1
            out[index] = seen[key]
    return out


def _moved(pairs: list[tuple[int, int]]) -> frozenset[int]:
    """B indexes of the pairs outside one longest run increasing in A (patience sort)."""
    order = [index_a for index_a, _ in pairs]
    if all(x < y for x, y in pairwise(order)):
        return frozenset()  # the common case: nothing moved, no need for the search
    tails: list[int] = []  # tails[k]: the smallest A index ending a run of length k+1
    tail_at: list[int] = []  # position in ``pairs`` of that element
    before: list[int] = [-1] * len(pairs)  # predecessor of each element in its best run
    for position, index_a in enumerate(order):
        length = bisect_left(tails, index_a)
        if length == len(tails):
            tails.append(index_a)
            tail_at.append(position)
        else:
            tails[length] = index_a
            tail_at[length] = position
        before[position] = tail_at[length - 1] if length else -1
    kept: set[int] = set()
    position = tail_at[-1]
    while position >= 0:
        kept.add(position)
        position = before[position]
    return frozenset(pairs[p][1] for p in range(len(pairs)) if p not in kept)
