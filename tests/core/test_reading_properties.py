"""Property tests for the strict reader and the canonicalizer."""

from __future__ import annotations

import json

import rfc8785
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zcf_inspector.core import canonical as canonical_module
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import MAX_DEPTH, ReadError, read_json

MAX_SAFE = 2**53 - 1

QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=QUIET)
MANY = settings(max_examples=250, deadline=None, suppress_health_check=QUIET)

# Text the way JSON can carry it: any scalar value, with the characters that matter to a
# reader (quotes, backslashes, brackets, controls, lookalike escapes) well represented.
tricky = st.sampled_from(
    ['"', "\\", "[", "]", "{", "}", "\\u", "\\ud800", "\x00", "\x1f", "\u2028"]
)
texts = st.lists(st.one_of(st.text(max_size=6), tricky), max_size=5).map("".join)
numbers = st.one_of(
    st.integers(-MAX_SAFE, MAX_SAFE),
    st.floats(min_value=-MAX_SAFE, max_value=MAX_SAFE),  # every double §1 accepts
    st.floats(min_value=-1e-3, max_value=1e-3),  # where ECMAScript and repr differ
    st.sampled_from([0.0, -0.0, 1.0, 1e-7, 1.5e-7, 5e-324, 0.1, float(MAX_SAFE), 1e-5]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values: st.SearchStrategy[JsonValue] = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(texts, children, max_size=5),
    ),
    max_leaves=30,
)


def normalized(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def same_value(left: JsonValue, right: JsonValue, *, ordered: bool = True) -> bool:
    """Equality that tells ints from floats (``1 == 1.0`` must not pass), and key order."""
    if isinstance(left, dict) and isinstance(right, dict):
        keys = list(left) == list(right) if ordered else sorted(left) == sorted(right)
        return keys and all(same_value(left[k], right[k], ordered=ordered) for k in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(
            same_value(a, b, ordered=ordered) for a, b in zip(left, right, strict=True)
        )
    return type(left) is type(right) and left == right


def utf16_order_agrees(value: JsonValue) -> bool:
    if isinstance(value, dict):
        keys = list(value)
        if sorted(keys) != sorted(keys, key=lambda k: k.encode("utf-16-be")):
            return False
        return all(utf16_order_agrees(v) for v in value.values())
    if isinstance(value, list):
        return all(utf16_order_agrees(v) for v in value)
    return True


@SETTINGS
@given(values)
def test_canonical_is_a_fixed_point_of_reading(value: JsonValue) -> None:
    once = canonical(value)
    back = read_json(once)
    assert same_value(back, normalized(value), ordered=False)
    assert isinstance(back, dict | list) or back == normalized(value)
    assert canonical(back) == once


@SETTINGS
@given(values)
def test_both_encoders_and_the_reference_agree(value: JsonValue) -> None:
    fast = canonical(value)
    reference = canonical_module._encode_exact(value).encode()
    enabled = canonical_module._orjson_enabled
    try:
        canonical_module._orjson_enabled = not enabled
        other = canonical(value)
    finally:
        canonical_module._orjson_enabled = enabled
    assert fast == reference == other


@SETTINGS
@given(values)
def test_canonical_equals_rfc8785_where_key_orders_agree(value: JsonValue) -> None:
    if utf16_order_agrees(value):
        assert canonical(value) == rfc8785.dumps(value)  # type: ignore[arg-type]


@SETTINGS
@given(values, st.booleans(), st.sampled_from([None, 0, 2, "\t"]))
def test_reading_what_json_dumps_writes(value: JsonValue, ascii_only: bool, indent: object) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)  # type: ignore[arg-type]
    assert same_value(read_json(text.encode()), normalized(value))


def outcome(data: bytes) -> JsonValue | ReadError:
    """The value read, or the refusal; any other exception fails the test."""
    try:
        return read_json(data)
    except ReadError as err:
        return err


def check_refusal(err: ReadError, data: bytes) -> None:
    assert isinstance(err.code, ErrorCode)
    assert err.offset is None or 0 <= err.offset <= len(data)
    assert err.message


@MANY
@given(st.binary(max_size=200))
def test_random_bytes_only_ever_raise_read_error(data: bytes) -> None:
    result = outcome(data)
    if isinstance(result, ReadError):
        check_refusal(result, data)
    else:
        assert canonical(read_json(canonical(result))) == canonical(result)


interesting_bytes = st.sampled_from(
    [b'"', b"\\", b"[", b"]", b"{", b"}", b",", b":", b"0", b"-", b"e", b".", b"\xff", b"\xed",
     b"\x00", b"\n", b"u", b"d8", b"N", b"I", b"1e400", b"9" * 20, b"\xef\xbb\xbf"]
)  # fmt: skip


@st.composite
def mutated_documents(draw: st.DrawFn) -> bytes:
    value = draw(values)
    data = bytearray(json.dumps(value, ensure_ascii=draw(st.booleans())).encode())
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "cut"]))
        piece = draw(interesting_bytes)
        if action == "insert":
            data[where:where] = piece
        elif action == "delete":
            del data[where : where + draw(st.integers(1, 3))]
        elif action == "replace":
            data[where : where + 1] = piece
        elif action == "duplicate":
            data[where:where] = data[where : where + draw(st.integers(1, 8))]
        else:
            del data[where:]
    return bytes(data)


@MANY
@given(mutated_documents())
def test_mutated_documents_only_ever_raise_read_error(data: bytes) -> None:
    result = outcome(data)
    if isinstance(result, ReadError):
        check_refusal(result, data)
    else:
        # Whatever the reader accepts, the canonicalizer can write and read back.
        once = canonical(result)
        assert canonical(read_json(once)) == once
        assert same_value(read_json(data), result)


@SETTINGS
@given(
    st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3),
    st.lists(st.sampled_from(["[", "{"]), min_size=MAX_DEPTH + 3, max_size=MAX_DEPTH + 3),
    st.lists(texts, min_size=1, max_size=4),
)
def test_nesting_limit_is_exact(depth: int, kinds: list[str], fillers: list[str]) -> None:
    opening = []
    closing = []
    for level, kind in enumerate(kinds[:depth]):
        filler = json.dumps(fillers[level % len(fillers)])
        if kind == "[":
            opening.append(f"[{filler},")
            closing.append("]")
        else:
            opening.append(f'{{"x":{filler},"k":')
            closing.append("}")
    data = ("".join(opening) + "0" + "".join(reversed(closing))).encode()
    result = outcome(data)
    if depth <= MAX_DEPTH:
        assert not isinstance(result, ReadError), result
    else:
        assert isinstance(result, ReadError), "nesting deeper than 128 was accepted"
        assert result.code is ErrorCode.NESTING_TOO_DEEP
        assert result.offset == len("".join(opening[:MAX_DEPTH]).encode())
