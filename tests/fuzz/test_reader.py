"""Fuzz the §1 reader against a plain reference: same verdict, same value, exact refusals."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.core.test_reading_paths import assert_paths_agree
from tests.fuzz import oracle
from tests.fuzz.harness import fuzz, is_pointer
from tests.fuzz.strategies.corpus import example_corpus, golden_files, hostile_corpus
from tests.fuzz.strategies.leaves import NUMBER_LITERALS, STRING_BODIES
from tests.fuzz.strategies.mutation import nest
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from tests.fuzz.strategies.trees import LAYOUTS, DupObject, Layout, RawNumber, RawString, render
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, ReadError, read_json, read_packet

_READ_CODES = {
    ErrorCode.PACKET_TOO_LARGE,
    ErrorCode.INVALID_ENCODING,
    ErrorCode.INVALID_JSON,
    ErrorCode.DUPLICATE_KEY,
    ErrorCode.NESTING_TOO_DEEP,
    ErrorCode.NUMBER_OUT_OF_RANGE,
    ErrorCode.NOT_AN_OBJECT,
}


def check_read_error(err: ReadError, data: bytes, max_bytes: int) -> None:
    """What every refusal carries: a §1 code, a message, an offset inside the input."""
    assert err.code in _READ_CODES, err.code
    assert isinstance(err.message, str)
    assert err.message
    assert err.offset is None or 0 <= err.offset <= len(data), (err.offset, len(data))
    assert err.pointer is None or is_pointer(err.pointer), err.pointer
    finding = err.to_finding()
    assert finding.code == err.code
    assert is_pointer(finding.pointer)
    at = data[err.offset : err.offset + 1] if err.offset is not None else None
    if err.code is ErrorCode.PACKET_TOO_LARGE:
        assert err.offset == max_bytes
    elif err.code is ErrorCode.NESTING_TOO_DEEP:
        assert at in (b"[", b"{"), (err.offset, at)
    elif err.code is ErrorCode.DUPLICATE_KEY:
        assert at == b'"', (err.offset, at)
    elif err.code is ErrorCode.NUMBER_OUT_OF_RANGE:
        assert at is not None, err
        assert at in b"-0123456789", (err.offset, at)
    elif err.code is ErrorCode.INVALID_ENCODING and data.startswith(b"\xef\xbb\xbf"):
        assert err.offset == 0


def check_against_reference(data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    want = oracle.expected(data, max_bytes)
    refusal: ReadError | None = None
    try:
        value = read_json(data, max_bytes=max_bytes)
    except ReadError as err:
        refusal = err
    if refusal is not None:
        check_read_error(refusal, data, max_bytes)
        assert want.codes, f"read_json refused ({refusal}) what the reference accepts"
        assert refusal.code in want.codes, f"read_json: {refusal}; reference: {set(want.codes)}"
        located = refusal.code in (ErrorCode.DUPLICATE_KEY, ErrorCode.NUMBER_OUT_OF_RANGE)
        if located and want.tree is not None:
            assert refusal.pointer in want.pointers, (refusal.pointer, want.pointers)
        return
    assert not want.codes, f"read_json accepted what the reference refuses ({set(want.codes)})"
    assert oracle.same(value, want.value)
    # Whatever the reader returns, canonical() writes, and the reader reads back alike.
    written = canonical(value)
    again = read_json(written)
    assert canonical(again) == written
    not_object: ReadError | None = None
    try:
        packet = read_packet(data, max_bytes=max_bytes)
    except ReadError as err:
        not_object = err
    if not_object is not None:
        assert not isinstance(value, dict)
        assert not_object.code is ErrorCode.NOT_AN_OBJECT
        check_read_error(not_object, data, max_bytes)
    else:
        assert isinstance(value, dict)
        assert oracle.same(packet, value)


def _all_files() -> list[bytes]:
    # example_corpus() holds the hostile sessions and reports; the rest of the hostile
    # corpus (packets, receipts, decisions, floats) is added here.
    others = hostile_corpus("packet", "receipt", "decisions", "array")
    return [*golden_files().values(), *example_corpus(), *others]


_LIMITS = st.sampled_from([DEFAULT_MAX_BYTES, DEFAULT_MAX_BYTES, 0, 1024, 4096])


@fuzz(mutated_bytes(_all_files()), _LIMITS, weight=3, rounds=4)
def test_reader_agrees_with_the_reference_on_mutated_files(data: bytes, max_bytes: int) -> None:
    check_against_reference(data, max_bytes)


def _json_trees() -> st.SearchStrategy[Any]:
    keys = st.one_of(
        st.sampled_from(["a", "b", "", "~", "/", "a/b~c", "é", "\ud800"]), st.text(max_size=4)
    )
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**60), 2**60),
        st.sampled_from([2**53 - 1, 2**53, -(2**53), 2**53 + 1]),
        st.floats(),
        st.text(max_size=6),
        st.sampled_from(NUMBER_LITERALS).map(RawNumber),
        st.sampled_from(STRING_BODIES).map(RawString),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(keys, inner, max_size=4),
            st.lists(st.tuples(keys, inner), max_size=4).map(lambda p: DupObject(tuple(p))),
            st.tuples(st.integers(100, 132), inner, st.integers(0, 2**30)).map(
                lambda t: nest(t[0], t[1], t[2])
            ),
        ),
        max_leaves=12,
    )


@fuzz(_json_trees(), LAYOUTS, weight=2, rounds=4)
def test_reader_agrees_with_the_reference_on_generated_json(tree: Any, layout: Layout) -> None:
    check_against_reference(render(tree, layout))


@fuzz(_json_trees(), LAYOUTS, weight=1, rounds=2)
def test_fast_path_agrees_with_the_exact_reader_on_generated_json(
    tree: Any, layout: Layout
) -> None:
    """The fast path says "clean" only where the exact reader accepts the same value."""
    assert_paths_agree(render(tree, layout))


@fuzz(mutated_bytes(_all_files()), weight=1, rounds=2)
def test_fast_path_agrees_with_the_exact_reader_on_mutated_files(data: bytes) -> None:
    assert_paths_agree(data)


_CHUNK = 1 << 20  # the reader's depth-check chunk: escapes must not straddle it


@fuzz(
    st.integers(0, 8),
    st.integers(0, 6),
    st.booleans(),
    st.integers(0, 3),
    st.integers(125, 131),
    weight=1,
    rounds=2,
)
def test_nesting_check_is_exact_across_its_chunk_boundary(
    shift: int, pairs: int, escaped_quote: bool, decoys: int, deep: int
) -> None:
    """Backslash runs and quotes right at the 1 MiB chunk edge, then nesting near the limit."""
    head = b'{"s":"'
    run = b"\\\\" * pairs + (b'\\"' if escaped_quote else b"")
    pad = _CHUNK - len(head) - shift
    body = b"a" * pad + run + b"[{" * decoys
    data = head + body + b'","n":' + b"[" * deep + b"]" * deep + b"}"
    check_against_reference(data)
