"""Fuzz compare(a, b): hostile pairs of packets get a comparison, never an exception, and
every change it lists points at what it says, with the digests it claims."""

from __future__ import annotations

import io
import json

from hypothesis import strategies as st

from tests.fuzz.harness import fuzz
from tests.fuzz.strategies.corpus import golden_files, golden_packet
from tests.fuzz.strategies.packets import PacketCase, mutated_packets
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from zcf_inspector.cli.diff import write_text
from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.compare.fields import same
from zcf_inspector.core.compare.model import Absent, ChangeKind, Comparison, PartStatus
from zcf_inspector.core.compare.packets import compare
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_packet
from zcf_inspector.core.value_digest import value_digest


def _read(data: bytes) -> dict[str, JsonValue] | None:
    try:
        return read_packet(data)
    except ReadError:
        return None


def check_compare(a: bytes, b: bytes, budget: int | None = None) -> Comparison:
    result = compare(a, b, budget=budget)
    value_a, value_b = _read(a), _read(b)
    assert result.a.readable == (value_a is not None)
    assert result.b.readable == (value_b is not None)
    if value_a is None or value_b is None:
        assert not result.identical
        assert result.parts == ()
        assert result.changes == ()
        return result
    assert result.identical == (canonical(value_a) == canonical(value_b))
    counted = sum(p.change_count for p in result.parts)
    assert counted == len(result.changes) + result.omitted
    assert (counted == 0) == all(p.status is PartStatus.SAME for p in result.parts)
    for change in result.changes:
        if change.pointer_a is not None:
            element_a = jpointer.resolve(value_a, change.pointer_a)
            assert change.digest_a == value_digest(element_a)
        if change.pointer_b is not None:
            element_b = jpointer.resolve(value_b, change.pointer_b)
            assert change.digest_b == value_digest(element_b)
        assert (change.pointer_a is None) == (change.change is ChangeKind.ADDED)
        assert (change.pointer_b is None) == (change.change is ChangeKind.REMOVED)
        if change.change is ChangeKind.CHANGED:
            assert change.moved is not None or change.digest_a != change.digest_b
        for field in change.fields:
            if not isinstance(field.b, Absent):
                assert same(jpointer.resolve(element_b, field.path), field.b)
            if not isinstance(field.a, Absent) and field.moved is None:
                assert same(jpointer.resolve(element_a, field.path), field.a)
    out = io.StringIO()
    write_text(result, "a.json", "b.json", out)
    assert all(c == "\n" or c.isprintable() for c in out.getvalue())
    json.dumps(result.to_json("a.json", "b.json"), ensure_ascii=True)
    return result


@fuzz(mutated_packets(), mutated_packets(), weight=1, rounds=3)
def test_two_mutated_packets_compare_consistently(first: PacketCase, second: PacketCase) -> None:
    check_compare(first.data, second.data)


@fuzz(mutated_packets(), st.integers(1, 40), weight=1, rounds=3)
def test_a_golden_and_its_mutation_compare_consistently(case: PacketCase, budget: int) -> None:
    golden = canonical(golden_packet(case.base))  # what it was mutated from
    check_compare(golden, case.data, budget)
    check_compare(case.data, golden)


@fuzz(mutated_bytes(list(golden_files().values())), weight=1, rounds=2)
def test_mutated_bytes_compare_with_their_golden(data: bytes) -> None:
    for golden in list(golden_files().values())[:3]:
        check_compare(golden, data)
