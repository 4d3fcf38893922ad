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

import itertools
import typing
from array import array
from bisect import bisect_left
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field


def _indexes(values: Iterable[int] = ()) -> array[int]:
    """A compact list of indexes: 4 bytes each, where a list of ints costs about 36 (a
    section holds fewer than 2^31 elements: the packet limit is 64 MiB)."""
    return array("i", values)


class Repeated(Sequence[Hashable]):
    """One key ``length`` times, in the memory of one: the keys of a section none of whose
    elements has its identity (a findings bomb of ``{}``), which a list would hold at
    8 bytes per element. Its n-th element is the key's (n+1)-th occurrence."""

    __slots__ = ("key", "length")

    def __init__(self, key: Hashable, length: int) -> None:
        self.key = key
        self.length = length

    def __len__(self) -> int:
        return self.length

    @typing.overload
    def __getitem__(self, index: int) -> Hashable: ...

    @typing.overload
    def __getitem__(self, index: slice) -> Sequence[Hashable]: ...

    def __getitem__(self, index: int | slice) -> Hashable | Sequence[Hashable]:
        if isinstance(index, slice):
            return Repeated(self.key, len(range(self.length)[index]))
        range(self.length)[index]  # raises IndexError as a list would
        return self.key

    def __iter__(self) -> Iterator[Hashable]:
        return itertools.repeat(self.key, self.length)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Repeated):
            return self.length == other.length and (not self.length or self.key == other.key)
        if isinstance(other, Sequence):
            return len(other) == self.length and all(k == self.key for k in other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which are unhashable


class _Ascending:
    """Ascending indexes, appended one at a time: a ``range`` while they are consecutive
    (the elements of a section without identity, or all of a section added, are most
    often one stretch), an array of machine integers from the first gap on."""

    __slots__ = ("spread", "start", "stop")

    def __init__(self) -> None:
        self.start = self.stop = 0
        self.spread: array[int] | None = None

    def append(self, index: int) -> None:
        if self.spread is not None:
            self.spread.append(index)
        elif self.start == self.stop:
            self.start, self.stop = index, index + 1
        elif index == self.stop:
            self.stop += 1
        else:
            self.spread = _indexes(range(self.start, self.stop))
            self.spread.append(index)

    def __len__(self) -> int:
        return self.stop - self.start if self.spread is None else len(self.spread)

    def __getitem__(self, n: int) -> int:
        return self.start + n if self.spread is None else self.spread[n]

    def done(self) -> Sequence[int]:
        return range(self.start, self.stop) if self.spread is None else self.spread


def _unflagged(flags: bytearray) -> Sequence[int]:
    """The indexes whose flag is 0, ascending: a ``range`` when they are one stretch."""
    count = flags.count(0)
    if not count:
        return range(0)
    first = flags.find(0)
    if flags.rfind(0) - first + 1 == count:
        return range(first, first + count)
    return _indexes(i for i, flag in enumerate(flags) if not flag)


@dataclass(frozen=True, slots=True)
class Matching:
    """The pairs of two key sequences, held compactly (a section of twenty million
    elements is matched in arrays of machine integers, not in tuples and dicts)."""

    removed: Sequence[int]  # indexes in A with no partner, ascending
    added: Sequence[int]  # indexes in B with no partner, ascending
    moved: frozenset[int]  # indexes in B of pairs whose relative order changed
    repeated: frozenset[Hashable]  # keys (None included) that occur more than once on a side
    # The pairs, in B's order, as runs (start in A, start in B, length) of consecutive
    # indexes on both sides: a caller compares a run's elements in slices, and a large
    # section in the same order on both sides is one run, not 200,000 tuples.
    runs: tuple[tuple[int, int, int], ...]
    keys_a: Sequence[Hashable] = field(default=(), repr=False, compare=False)
    keys_b: Sequence[Hashable] = field(default=(), repr=False, compare=False)
    _occurrences: dict[str, array[int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """(index in A, index in B) of every pair, in B's order (a list: for small uses)."""
        return [
            (start_a + k, start_b + k)
            for start_a, start_b, length in self.runs
            for k in range(length)
        ]

    def occurrence_a(self, index: int) -> int | None:
        """The 1-based occurrence of A's key at ``index`` when that key repeats, else None."""
        return self._occurrence("a", self.keys_a, index)

    def occurrence_b(self, index: int) -> int | None:
        return self._occurrence("b", self.keys_b, index)

    def _occurrence(self, side: str, keys: Sequence[Hashable], index: int) -> int | None:
        if not self.repeated or keys[index] not in self.repeated:
            return None
        if isinstance(keys, Repeated):
            return index + 1  # every element has the one key: no numbers to keep
        numbers = self._occurrences.get(side)
        if numbers is None:  # made once, when a listed change first asks
            numbers = self._occurrences[side] = _occurrence_numbers(keys, self.repeated)
        return numbers[index]


def match(keys_a: Sequence[Hashable], keys_b: Sequence[Hashable]) -> Matching:
    """Pair ``keys_a`` with ``keys_b`` (see the module docstring); O(n log n) time, and
    memory of a few machine integers per element."""
    if keys_a == keys_b:
        # The same identities in the same order (a packet and its next generation, most
        # often, or a section of elements without identity compared with itself): every
        # element pairs with the one at its own index, repeats included.
        count = len(keys_a)
        repeated = frozenset() if len(set(keys_a)) == count else _repeats(keys_a)
        return Matching(
            _indexes(),
            _indexes(),
            frozenset(),
            repeated,
            ((0, 0, count),) if count else (),
            keys_a,
            keys_b,
        )
    # Each key's indexes in A: the first alone, further ones (repeats) compactly.
    first_a: dict[Hashable, int] = {}
    more_a: dict[Hashable, _Ascending] = {}
    for index, key in enumerate(keys_a):
        if key in first_a:
            many = more_a.get(key)
            if many is None:
                many = more_a[key] = _Ascending()
                many.append(first_a[key])
            many.append(index)
        else:
            first_a[key] = index
    # Pair the n-th occurrence in B with the n-th in A; partner[b] = index in A or -1.
    partner = _indexes(itertools.repeat(-1, len(keys_b)))
    seen_b: dict[Hashable, int] = {}
    repeated_b: set[Hashable] = set()
    added = _Ascending()
    for index_b, key in enumerate(keys_b):
        n = seen_b.get(key, 0)
        seen_b[key] = n + 1
        if n:
            repeated_b.add(key)
        many = more_a.get(key)
        if many is not None:
            index_a = many[n] if n < len(many) else -1
        else:
            index_a = first_a.get(key, -1) if n == 0 else -1
        if index_a < 0:
            added.append(index_b)
        else:
            partner[index_b] = index_a
    paired_a = bytearray(len(keys_a))
    for index_a in partner:
        if index_a >= 0:
            paired_a[index_a] = 1
    removed = _unflagged(paired_a)
    repeated = frozenset(more_a.keys() | repeated_b)
    del paired_a, first_a, more_a, seen_b  # before the search for moves: no longer needed
    return Matching(
        removed,
        added.done(),
        _moved(partner),
        repeated,
        _runs(partner),
        keys_a,
        keys_b,
    )


def _repeats(keys: Sequence[Hashable]) -> frozenset[Hashable]:
    seen: set[Hashable] = set()
    out: set[Hashable] = set()
    for key in keys:
        if key in seen:
            out.add(key)
        seen.add(key)
    return frozenset(out)


def _runs(partner: array[int]) -> tuple[tuple[int, int, int], ...]:
    runs: list[tuple[int, int, int]] = []
    start_a = start_b = length = 0
    for index_b, index_a in enumerate(partner):
        if index_a < 0:
            continue
        if length and index_a == start_a + length and index_b == start_b + length:
            length += 1
            continue
        if length:
            runs.append((start_a, start_b, length))
        start_a, start_b, length = index_a, index_b, 1
    if length:
        runs.append((start_a, start_b, length))
    return tuple(runs)


def _occurrence_numbers(keys: Sequence[Hashable], repeated: frozenset[Hashable]) -> array[int]:
    seen: dict[Hashable, int] = {}
    out = array("i", bytes(4 * len(keys)))
    for index, key in enumerate(keys):
        if key in repeated:
            seen[key] = seen.get(key, 0) + 1
            out[index] = seen[key]
    return out


def _moved(partner: array[int]) -> frozenset[int]:
    """B indexes of the pairs outside one longest run increasing in A (patience sort)."""
    previous = -1
    for index_a in partner:
        if index_a < 0:
            continue
        if index_a < previous:
            break
        previous = index_a
    else:
        return frozenset()  # the common case: nothing moved, no need for the search
    order = _indexes(a for a in partner if a >= 0)
    at_b = _indexes(b for b, a in enumerate(partner) if a >= 0)
    tails: list[int] = []  # tails[k]: the smallest A index ending a run of length k+1
    tail_at: list[int] = []  # position in ``order`` of that element
    before = _indexes(itertools.repeat(-1, len(order)))  # predecessor in its best run
    for position, index_a in enumerate(order):
        length = bisect_left(tails, index_a)
        if length == len(tails):
            tails.append(index_a)
            tail_at.append(position)
        else:
            tails[length] = index_a
            tail_at[length] = position
        before[position] = tail_at[length - 1] if length else -1
    kept = bytearray(len(order))
    position = tail_at[-1]
    while position >= 0:
        kept[position] = 1
        position = before[position]
    return frozenset(at_b[p] for p in range(len(order)) if not kept[p])
