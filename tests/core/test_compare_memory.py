"""Issue 19: `diff` needed 150-210 times its input — the matching of a section held every
element's pairing as tuples, dictionaries of occurrences and a sorted list of every
change, though only a budget of them is listed. The comparison itself now costs a few
machine integers per element: measured here in bytes per element (tracemalloc's peak),
whatever the size."""

from __future__ import annotations

import tracemalloc

import pytest

from tests.hostile.corpus import by_name, path_of
from zcf_inspector.core.compare.packets import budget_for, compare_inspections
from zcf_inspector.core.packet.inspection import PacketInspection, inspect_bytes

ELEMENTS = 200_000
# Per element of the larger section: the pairing (4 bytes), a key list where the elements
# have identities (8) and slack. Indexes removed or added in one stretch are a range, the
# anchors of removed elements are not kept, repeated keys' indexes are a range while
# consecutive, and a section none of whose elements has an identity has its keys as one
# `Repeated` (issue 19, round 2: these took 36-41 bytes per element, and `diff` more than
# 30 times its inputs; now 6-12).
BYTES_PER_ELEMENT = 16


def packet(name: str) -> tuple[bytes, PacketInspection]:
    """The corpus packet grown to ELEMENTS units (three bytes each), and its inspection."""
    data = by_name(name).build(3 * ELEMENTS + 4000)
    return data, inspect_bytes(data)


def comparison_peak(a: tuple[bytes, PacketInspection], b: tuple[bytes, PacketInspection]) -> int:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = compare_inspections(a[1], b[1], budget=budget_for(len(a[0]), len(b[0])))
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert not result.identical or a[0] == b[0]
    return peak


@pytest.fixture(scope="module")
def bomb() -> tuple[bytes, PacketInspection]:
    return packet("empty-beliefs")


def test_a_findings_bomb_against_a_small_packet(bomb: tuple[bytes, PacketInspection]) -> None:
    small = path_of(by_name("terminal-ids")).read_bytes()
    peak = comparison_peak((small, inspect_bytes(small)), bomb)
    assert peak < BYTES_PER_ELEMENT * ELEMENTS, peak / ELEMENTS


def test_a_small_packet_against_a_findings_bomb(bomb: tuple[bytes, PacketInspection]) -> None:
    """Every element of the bomb removed: the removed indexes are one stretch."""
    small = path_of(by_name("terminal-ids")).read_bytes()
    peak = comparison_peak(bomb, (small, inspect_bytes(small)))
    assert peak < BYTES_PER_ELEMENT * ELEMENTS, peak / ELEMENTS


def test_a_findings_bomb_against_itself(bomb: tuple[bytes, PacketInspection]) -> None:
    """Elements without identity, compared with themselves: one run, nothing listed."""
    peak = comparison_peak(bomb, bomb)
    assert peak < BYTES_PER_ELEMENT * ELEMENTS, peak / ELEMENTS


def test_two_bombs_that_differ_everywhere(bomb: tuple[bytes, PacketInspection]) -> None:
    """Every element changed: the changes past the budget are counted, never kept."""
    other = packet("duplicate-ids")  # beliefs that all share one portableRef
    peak = comparison_peak(bomb, other)
    assert peak < BYTES_PER_ELEMENT * ELEMENTS, peak / ELEMENTS
