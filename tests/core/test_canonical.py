"""ZCF-JSON-v1 canonical bytes (profile §2), on both encoder back ends."""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict
from decimal import Decimal

import pytest
import rfc8785

from zcf_inspector.core import canonical as canonical_module
from zcf_inspector.core.canonical import canonical, es6_number
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import read_json

MAX_SAFE = 2**53 - 1


@pytest.fixture(params=["orjson", "stdlib"], autouse=True)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs on both encoders: they must give the same bytes."""
    if request.param == "orjson":
        assert canonical_module._orjson is not None  # type: ignore[attr-defined]
    monkeypatch.setattr(canonical_module, "_orjson_enabled", request.param == "orjson")
    return str(request.param)


def spec_string(text: str) -> bytes:
    """A string's bytes written straight from the rules of §2, one code point at a time."""
    short = {0x22: b'\\"', 0x5C: b"\\\\", 0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n"}
    short |= {0x0C: b"\\f", 0x0D: b"\\r"}
    out = [b'"']
    for char in text:
        code = ord(char)
        if code in short:
            out.append(short[code])
        elif code < 0x20:
            out.append(b"\\u00" + f"{code:02x}".encode())
        else:
            out.append(char.encode("utf-8"))
    out.append(b'"')
    return b"".join(out)


ALL_SCALARS = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


# --- strings ---------------------------------------------------------------------------


def test_every_code_point_is_written_as_the_profile_says() -> None:
    expected = spec_string(ALL_SCALARS)
    assert canonical(ALL_SCALARS) == expected
    assert canonical([ALL_SCALARS]) == b"[" + expected + b"]"
    assert canonical({ALL_SCALARS: 0}) == b"{" + expected + b":0}"


def test_stdlib_ensure_ascii_false_matches_the_profile_for_every_code_point() -> None:
    # The claim the encoder relies on, checked over the whole code space.
    assert json.dumps(ALL_SCALARS, ensure_ascii=False).encode() == spec_string(ALL_SCALARS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\x7f", b'"\x7f"'),
        ("\u2028\u2029", b'"\xe2\x80\xa8\xe2\x80\xa9"'),
        ("/", b'"/"'),
        ("</script>", b'"</script>"'),
        ('"\\', b'"\\"\\\\"'),
        ("\b\t\n\f\r", b'"\\b\\t\\n\\f\\r"'),
        ("\x00\x01\x0b\x0e\x1f", b'"\\u0000\\u0001\\u000b\\u000e\\u001f"'),
        ("\x1a", b'"\\u001a"'),  # lowercase hex
        ("é€😀", '"é€😀"'.encode()),
        ("", b'""'),
    ],
)
def test_named_string_cases(text: str, expected: bytes) -> None:
    assert canonical(text) == expected
    assert spec_string(text) == expected


def test_all_controls_one_by_one() -> None:
    for code in range(0x20):
        assert canonical(chr(code)) == spec_string(chr(code))


@pytest.mark.parametrize(
    "value",
    ["\ud800", "a\udc00b", ["\udfff"], {"k": "\ud83d"}, {"\ud800": 1}, "\ude00\ud83d"],
)
def test_lone_surrogates_are_value_errors(value: object) -> None:
    with pytest.raises(ValueError, match="surrogate"):
        canonical(value)  # type: ignore[arg-type]


# --- objects and key order --------------------------------------------------------------


def test_keys_sort_by_code_point() -> None:
    value: JsonValue = {"b": 1, "a": 2, "": 3, "10": 4, "1": 5, "A": 6, "é": 7, "z": 8}
    assert canonical(value) == '{"":3,"1":5,"10":4,"A":6,"a":2,"b":1,"z":8,"é":7}'.encode()


def test_code_point_order_differs_from_rfc8785_for_astral_versus_private_use() -> None:
    value: JsonValue = {"\U0001f600": 1, "\ue000": 2}
    ours = canonical(value)
    assert ours == '{"\ue000":2,"\U0001f600":1}'.encode()
    # RFC 8785 compares UTF-16 code units: 0xD83D < 0xE000, so the emoji comes first.
    assert rfc8785.dumps(value) == '{"\U0001f600":1,"\ue000":2}'.encode()  # type: ignore[arg-type]
    assert sorted(ours) == sorted(rfc8785.dumps(value))  # type: ignore[arg-type]


def test_nesting_arrays_and_literals() -> None:
    value: JsonValue = {
        "b": [1, True, False, None, [], {}],
        "a": {"y": [{"d": 1, "c": 2}], "x": ""},
    }
    expected = b'{"a":{"x":"","y":[{"c":2,"d":1}]},"b":[1,true,false,null,[],{}]}'
    assert canonical(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, b"null"), (True, b"true"), (False, b"false"), (0, b"0"), ("x", b'"x"')],
)
def test_top_level_scalars(value: object, expected: bytes) -> None:
    assert canonical(value) == expected  # type: ignore[arg-type]


def test_depth_128_is_fine_and_129_is_not() -> None:
    value: object = []
    for _ in range(127):
        value = [value]
    assert canonical(value) == b"[" * 128 + b"]" * 128  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nesting"):
        canonical([value])  # type: ignore[list-item]
    obj: object = {}
    for _ in range(128):
        obj = {"k": obj}
    with pytest.raises(ValueError, match="nesting"):
        canonical(obj)  # type: ignore[arg-type]


def test_cycles_are_value_errors() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="cycle"):
        canonical(loop)  # type: ignore[arg-type]
    node: dict[str, object] = {}
    node["self"] = node
    with pytest.raises(ValueError, match="cycle"):
        canonical(node)  # type: ignore[arg-type]


# --- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, "1"),
        (-1, "-1"),
        (MAX_SAFE, "9007199254740991"),
        (-MAX_SAFE, "-9007199254740991"),
        (1.0, "1"),
        (-0.0, "0"),
        (0.0, "0"),
        (100.0, "100"),
        (1e15, "1000000000000000"),
        (float(MAX_SAFE), "9007199254740991"),
        (0.5, "0.5"),
        (-2.5, "-2.5"),
        (0.1, "0.1"),
        (0.001, "0.001"),
        (0.0001, "0.0001"),
        (0.00001, "0.00001"),
        (0.000001, "0.000001"),
        (0.0000015, "0.0000015"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (-1.5e-7, "-1.5e-7"),
        (9.999999999999997e-7, "9.999999999999997e-7"),
        (5e-324, "5e-324"),
        (333333333.3333333, "333333333.3333333"),
        (4503599627370495.5, "4503599627370495.5"),
        (1424953923781206.2, "1424953923781206.2"),
        (1e-27, "1e-27"),
    ],
)
def test_numbers(value: float, expected: str) -> None:
    assert canonical(value) == expected.encode()
    assert canonical([value]) == f"[{expected}]".encode()
    nested = f'{{"m":[{expected},"s"],"n":{expected}}}'
    assert canonical({"n": value, "m": [value, "s"]}) == nested.encode()


def test_many_tiny_floats_in_one_value() -> None:
    floats = [i * 1e-9 for i in range(1, 2000)] + [i / 7 for i in range(2000)]
    expected = "[" + ",".join(es6_number(v) for v in floats) + "]"
    assert canonical(list[JsonValue](floats)) == expected.encode()


@pytest.mark.parametrize(
    "value",
    [
        2**53,
        -(2**53),
        10**30,
        float(2**53),
        1e21,
        -1e300,
        [2**53],
        {"n": 1e16},
        [[1e100]],
    ],
)
def test_integral_numbers_beyond_2_53_are_value_errors(value: object) -> None:
    with pytest.raises(ValueError, match="2\\^53"):
        canonical(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, [math.nan], {"a": math.inf}])
def test_non_finite_numbers_are_value_errors(value: object) -> None:
    with pytest.raises(ValueError, match="not a JSON number"):
        canonical(value)  # type: ignore[arg-type]


# --- types -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        {1: "a"},
        {None: "a"},
        {True: "a"},
        {1.5: "a"},
        {("a",): 1},
        {"a": {2: 1}},
    ],
)
def test_non_string_keys_are_value_errors(value: object) -> None:
    with pytest.raises(ValueError, match="not a string"):
        canonical(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "value",
    [(1, 2), {1, 2}, b"x", Decimal("1.5"), object(), 1j, [("a",)], {"a": b"x"}, bytearray()],
)
def test_unsupported_types_are_value_errors(value: object) -> None:
    with pytest.raises(ValueError, match="not a JSON value"):
        canonical(value)  # type: ignore[arg-type]


class Colour(enum.StrEnum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class MyDict(dict[str, object]):
    pass


class MyList(list[object]):
    pass


class MyFloat(float):
    pass


def test_subclasses_of_json_types_encode_as_their_base() -> None:
    value = {
        Colour.RED: Colour.RED,
        "n": Level.HIGH,
        "d": MyDict(b=1, a=2),
        "o": OrderedDict([("y", 1), ("x", 2)]),
        "l": MyList([1, "x"]),
        "f": MyFloat(0.5),
        "g": MyFloat(2.0),
        "t": MyFloat(1e-7),
    }
    expected = (
        b'{"d":{"a":2,"b":1},"f":0.5,"g":2,"l":[1,"x"],"n":3,'
        b'"o":{"x":2,"y":1},"red":"red","t":1e-7}'
    )
    assert canonical(value) == expected  # type: ignore[arg-type]


# --- the placeholder trick stays exact ------------------------------------------------


@pytest.mark.parametrize(
    "lookalike",
    [
        "~zcf-es6-number#0#~",
        "~zcf-es6-number#1#~",
        "~zcf-es6-number#99#~",
        '"~zcf-es6-number#0#~',
        'x"~zcf-es6-number#0#~',
        "~zcf-es6-number#",
        "~zcf-es6-number#x#~",
        "~zcf-es6-number#0",
    ],
)
def test_strings_that_look_like_placeholders(lookalike: str) -> None:
    value = {"a": 1e-7, "b": lookalike, lookalike: [2.5, 1.0, lookalike]}
    expected = canonical_module._encode_exact(value).encode()  # type: ignore[arg-type]
    assert canonical(value) == expected  # type: ignore[arg-type]
    assert read_json(expected) == {"a": 1e-7, "b": lookalike, lookalike: [2.5, 1, lookalike]}
    assert b"1e-7" in expected
    assert expected.count(b"~zcf-es6-number#") == 3 * lookalike.count("~zcf-es6-number#")


def test_floats_without_care_and_shared_subvalues() -> None:
    shared = {"x": [0.25, 1e-8]}
    value = {"a": shared, "b": shared, "c": [shared, 3]}
    one = '{"x":[0.25,1e-8]}'
    assert canonical(value) == f'{{"a":{one},"b":{one},"c":[{one},3]}}'.encode()  # type: ignore[arg-type]
    assert shared == {"x": [0.25, 1e-8]}  # the input is never modified


def test_exact_encoder_agrees_on_a_mixed_value() -> None:
    value = {
        "s": 'a"\\\n\u2028😀',
        "n": [0, -1, 2.5, 1e-7, 3.0, -0.0, MAX_SAFE],
        "o": {"\ue000": None, "\U0001f600": True, "": False},
    }
    assert canonical(value) == canonical_module._encode_exact(value).encode()  # type: ignore[arg-type]


# --- es6_number on its own -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123e20, "1.23e+22"),
        (-1.7976931348623157e308, "-1.7976931348623157e+308"),
        (2.0**68, "295147905179352830000"),
        (0.1 + 0.2, "0.30000000000000004"),
    ],
)
def test_es6_number_beyond_the_profile_range(value: float, expected: str) -> None:
    assert es6_number(value) == expected


def test_es6_number_refuses_non_finite() -> None:
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="not a JSON number"):
            es6_number(value)


def test_the_slow_encoder_runs_only_for_lookalikes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    exact = canonical_module._encode_exact

    def spy(value: object) -> str:
        calls.append(value)
        return exact(value)  # type: ignore[arg-type]

    monkeypatch.setattr(canonical_module, "_encode_exact", spy)
    unlike = {"a": 1e-7, "b": "zcf-es6-number#0#~"}
    assert canonical(unlike) == b'{"a":1e-7,"b":"zcf-es6-number#0#~"}'  # type: ignore[arg-type]
    assert calls == []
    lookalike = {"a": 1e-7, "b": "~zcf-es6-number#0#~"}
    assert canonical(lookalike) == b'{"a":1e-7,"b":"~zcf-es6-number#0#~"}'  # type: ignore[arg-type]
    assert calls == [lookalike]


@pytest.mark.parametrize("length", [0, 1, 5, 6, 7, 12, 13, 100])
@pytest.mark.parametrize("chunk", [1, 3, 6])
def test_chunked_encoding_equals_whole(length: int, chunk: int) -> None:
    from zcf_inspector.core.canonical import canonical_chunked

    items: list[JsonValue] = [
        {"b": i, "a": [i / 8, "x" * (i % 3)], "é": None} for i in range(length)
    ]
    value: JsonValue = items
    assert canonical_chunked(value, chunk) == canonical(value)
    assert canonical_chunked({"k": value}, chunk) == canonical({"k": value})
    wide: JsonValue = {
        f"k{i}\u00e9{(i * 7) % 5}": [i, {"z": items[:2], "\U0001f600": i}] for i in range(length)
    }
    assert canonical_chunked(wide, chunk) == canonical(wide)
    nested: JsonValue = {"b": {"a": value, "": {}}, "a": [], "\ue000": wide}
    assert canonical_chunked(nested, chunk) == canonical(nested)


def test_chunked_refuses_what_canonical_refuses() -> None:
    from zcf_inspector.core.canonical import canonical_chunked

    for bad in ({1: "x", "a": 1}, {"a": float("nan")}, [float("inf")] * 10):
        with pytest.raises(ValueError, match=r"key|not a JSON number|NaN|inf"):
            canonical_chunked(bad, 3)  # type: ignore[arg-type]


# --- many floats: made in bounded pieces (issue 15) ------------------------------------------


def _bushy(depth: int, leaf: JsonValue) -> JsonValue:
    """A binary tree of arrays and objects: every level small, the whole large."""
    if depth == 0:
        return leaf
    below = _bushy(depth - 1, leaf)
    return [below, {"b": below, "a": [below, 1e-7]}] if depth % 2 else {"x": [below], "y": below}


@pytest.mark.parametrize(
    "value",
    [
        [0.5] * (3 * canonical_module.FLOATS_PER_PIECE + 7),
        {f"k{i:06d}": 0.25 * i for i in range(2 * canonical_module.FLOATS_PER_PIECE + 3)},
        [[0.1] * canonical_module.FLOATS_PER_PIECE, "x", [1.5] * 10, {"z": [2.5] * 20_000}],
        _bushy(14, 0.3),
        [["~zcf-es6-number#0#~", 0.5] * (canonical_module.FLOATS_PER_PIECE + 5)],  # look-alikes
    ],
    ids=["flat", "wide-object", "mixed", "bushy", "look-alikes"],
)
def test_values_with_many_floats_are_made_in_pieces_with_the_same_bytes(
    value: JsonValue, backend: str
) -> None:
    expected = canonical_module._encode_exact(value).encode("utf-8")
    pieces = list(canonical_module.iter_canonical(value))
    if backend == "orjson":  # every float is a placeholder there: it was split...
        assert len(pieces) > 1
    assert b"".join(pieces) == expected  # ...and the pieces are the bytes
    assert canonical(value) == expected


def test_no_piece_holds_more_than_its_share_of_floats() -> None:
    # Floats below 1e-4 need a placeholder on both back ends.
    value: JsonValue = [1e-7] * (10 * canonical_module.FLOATS_PER_PIECE)
    pieces = list(canonical_module.iter_canonical(value))
    assert len(pieces) > 10
    for piece in pieces:
        assert piece.count(b"1e-7") <= canonical_module.FLOATS_PER_PIECE
