"""The strict reader of profile §1: one test per refusal code, offsets, order, values."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from zcf_inspector.core import reading_scan
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.reading import (
    DEFAULT_MAX_BYTES,
    MAX_DEPTH,
    ReadError,
    read_json,
    read_packet,
)

MAX_SAFE = 2**53 - 1


def refusal(data: bytes, **kwargs: Any) -> ReadError:
    with pytest.raises(ReadError) as caught:
        read_json(data, **kwargs)
    return caught.value


def nest(depth: int, opener: bytes = b"[", closer: bytes = b"]") -> bytes:
    return opener * depth + closer * depth


# --- one hostile input per refusal code, with its byte offset ----------------------------


def test_packet_too_large_is_checked_before_anything_else() -> None:
    # Invalid UTF-8 and invalid JSON too: the size is still what is reported.
    err = refusal(b"\xff" * 11, max_bytes=10)
    assert err.code is ErrorCode.PACKET_TOO_LARGE
    assert err.offset == 10
    assert "11 bytes" in err.message
    assert read_json(b"[" + b"0," * 4 + b"0]", max_bytes=11) == [0] * 5  # exactly the limit


def test_default_limit_is_64_mib() -> None:
    assert DEFAULT_MAX_BYTES == 64 * 1024 * 1024
    err = refusal(b" " * (DEFAULT_MAX_BYTES + 1))
    assert err.code is ErrorCode.PACKET_TOO_LARGE
    assert err.offset == DEFAULT_MAX_BYTES


def test_bom_is_invalid_encoding_at_0() -> None:
    err = refusal(b"\xef\xbb\xbf{}")
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, 0)
    assert "byte-order mark" in err.message


def test_invalid_utf8_is_invalid_encoding_at_its_byte() -> None:
    err = refusal(b'{"a":"x\xffy"}')
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, 7)
    assert "0xff" in err.message


def test_utf8_encoded_surrogate_is_invalid_encoding() -> None:
    err = refusal(b'["\xed\xa0\x80"]')  # U+D800 written as raw UTF-8 bytes
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, 2)
    assert "surrogate" in err.message


def test_overlong_utf8_is_invalid_encoding() -> None:
    err = refusal(b'["\xc0\xaf"]')
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, 2)


def test_utf16_input_is_invalid_encoding() -> None:
    err = refusal('{"a":1}'.encode("utf-16"))
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, 0)
    assert "UTF-16" in err.message


@pytest.mark.parametrize(
    ("data", "offset", "kind"),
    [
        (b'["\\ud800"]', 2, "high"),
        (b'["ab\\ud800x"]', 4, "high"),
        (b'["\\udc00"]', 2, "low"),
        (b'{"\\uDFAA":0}', 2, "low"),
        (b'["\\ud800\\u0041"]', 2, "high"),
        (b'["\\ud800\\ud800\\udc00"]', 2, "high"),  # the second one pairs, the first cannot
        (b'["\\udc00\\ud800"]', 2, "low"),
        (b'["\\ud83d\\ude00", "\\ude00"]', 18, "low"),
        (b'["\\\\\\ud800"]', 4, "high"),  # an escaped backslash, then a real escape
        ('["é\\ud800"]'.encode(), 4, "high"),  # offsets count bytes, not characters
    ],
)
def test_lone_surrogate_escape_is_invalid_encoding(data: bytes, offset: int, kind: str) -> None:
    err = refusal(data)
    assert (err.code, err.offset) == (ErrorCode.INVALID_ENCODING, offset)
    assert kind in err.message


@pytest.mark.parametrize(
    "data",
    [
        b'["\\ud83d\\ude00"]',
        b'["\\uD83D\\uDE00"]',
        b'["\\\\ud800"]',  # backslash then the letters "ud800": no escape at all
        b'["\\\\\\\\ud800"]',
        b'{"\\\\udc00": "\\\\ud800"}',
    ],
)
def test_paired_or_escaped_surrogate_lookalikes_are_accepted(data: bytes) -> None:
    read_json(data)


def test_paired_surrogates_become_one_character() -> None:
    assert read_json(b'["\\ud83d\\ude00"]') == ["\U0001f600"]


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b'{"a":1} x', 8),  # trailing data
        (b'{"a":1}{}', 7),
        (b'{"a":1 /* c */}', 7),  # comment
        (b'{"a":1} // c', 8),
        (b"{'a':1}", 1),  # single quotes
        (b'{"a":NaN}', 5),
        (b'{"a":Infinity}', 5),
        (b'{"a":-Infinity}', 6),  # the minus may begin a number; the I cannot follow it
        (b'["NaN", NaN]', 8),  # the spelling inside a string does not count
        (b'{"a":01}', 6),  # leading zero: 0 then an unexpected 1
        (b'{"a":-01}', 7),
        (b'["a\nb"]', 3),  # unescaped control character
        (b'["a\x00b"]', 3),
        (b'["\\x41"]', 3),  # invalid escape: at the x, which cannot follow the backslash
        (b"[1,]", 3),
        (b'{"a":1,}', 7),
        (b"", 0),
        (b"   ", 3),
        (b"[1 2]", 3),
        (b'{"a" 1}', 5),
        (b"[.5]", 1),
        (b"[1.]", 3),  # after "1." a digit must come: the ] cannot
        (b"[1e]", 3),
        (b"[1e+]", 4),
        (b'{"v": -}', 7),  # clarification of 2026-12-07: at the }, not the -
        (b"[tru]", 4),
        (b"1.", 2),  # the input ends where a digit must come
        (b"1e", 2),
        (b'"\\u12G4"', 5),
        (b"[+1]", 1),
        (b"[True]", 1),
        (b"\x0c[]", 0),  # form feed is not JSON whitespace
        ('["é", x]'.encode(), 7),  # byte offset after a two-byte character
    ],
)
def test_not_rfc8259_is_invalid_json(data: bytes, offset: int) -> None:
    err = refusal(data)
    assert (err.code, err.offset) == (ErrorCode.INVALID_JSON, offset)
    assert f"byte {offset}" in err.message


def test_unterminated_string_message_reads_well() -> None:
    err = refusal(b'["abc')
    assert err.code is ErrorCode.INVALID_JSON
    assert err.offset == 5  # at the end of the input (clarification of 2026-12-07)
    assert "unterminated string (opened at byte 1)" in err.message
    assert " at at " not in err.message


def test_duplicate_key_offset_and_pointer() -> None:
    err = refusal(b'{"a":1,"a":2}')
    assert (err.code, err.offset, err.pointer) == (ErrorCode.DUPLICATE_KEY, 7, "/a")
    assert "'a'" in err.message


def test_duplicate_key_at_depth() -> None:
    data = b'{"x": [1, {"b": {"c": 1, "d": 2, "c": 3}}], "y": 2}'
    err = refusal(data)
    assert err.code is ErrorCode.DUPLICATE_KEY
    assert err.offset == data.index(b'"c": 3')
    assert err.pointer == "/x/1/b/c"


def test_duplicate_key_pointer_escapes_and_unicode_offset() -> None:
    data = '{"é": {"a/b~": 1, "a/b~": 2}}'.encode()
    err = refusal(data)
    assert err.offset == data.index(b'"a/b~": 2')
    assert err.pointer == "/é/a~1b~0"


def test_duplicate_key_reports_the_repeated_key_at_the_lowest_offset() -> None:
    # Profile clarification 2026-12-01 (first problem wins): the outer object opens
    # first, but the inner one repeats its key at a lower offset.
    data = b'{"a": {"x": 1, "x": 2}, "a": 3}'
    err = refusal(data)
    assert (err.offset, err.pointer) == (data.index(b'"x": 2'), "/a/x")
    # Within one object, the first key seen again.
    data = b'{"p": 1, "q": 1, "q": 2, "p": 2}'
    assert refusal(data).offset == data.index(b'"q": 2')


def test_duplicate_key_with_escaped_spelling() -> None:
    # "\u0061" and "a" are the same key once decoded.
    data = b'{"a": 1, "\\u0061": 2}'
    err = refusal(data)
    assert (err.code, err.offset, err.pointer) == (ErrorCode.DUPLICATE_KEY, 9, "/a")


def test_nesting_depth_128_is_accepted() -> None:
    value = read_json(nest(MAX_DEPTH))
    for _ in range(MAX_DEPTH - 1):
        assert isinstance(value, list)
        value = value[0]
    assert value == []
    read_json(b'{"k":' * (MAX_DEPTH - 1) + b"{}" + b"}" * (MAX_DEPTH - 1))


def test_nesting_depth_129_is_refused_at_the_129th_bracket() -> None:
    err = refusal(nest(MAX_DEPTH + 1))
    assert (err.code, err.offset) == (ErrorCode.NESTING_TOO_DEEP, MAX_DEPTH)


def test_mixed_object_nesting_counts_both_kinds() -> None:
    ok = b'{"a":' * 64 + b"[" * 64 + b"]" * 64 + b"}" * 64
    read_json(ok)
    deep = b'{"a":' * 64 + b"[" * 65 + b"]" * 65 + b"}" * 64
    err = refusal(deep)
    assert (err.code, err.offset) == (ErrorCode.NESTING_TOO_DEEP, 5 * 64 + 64)


def test_hostile_nesting_is_refused_without_recursion_error() -> None:
    # How fast: tests/perf/bench_limits.py.
    cases = [
        (b"[" * 100_000, MAX_DEPTH),
        (nest(100_000), MAX_DEPTH),
        (b'{"a":' * 100_000, 5 * MAX_DEPTH),
        (b'[{"a":' * 50_000, 6 * 64),
        (b"[" * 60_000_000, MAX_DEPTH),
    ]
    for data, offset in cases:
        err = refusal(data)
        assert (err.code, err.offset) == (ErrorCode.NESTING_TOO_DEEP, offset)


def test_brackets_inside_strings_do_not_count() -> None:
    inner = '"[[[{{{\\"]]]\\\\"'  # brackets, an escaped quote, an escaped backslash
    data = ("[" * MAX_DEPTH + inner + "]" * MAX_DEPTH).encode()
    read_json(data)
    closers = ('"]]]]]]]]]]]]]]]"' + ",") * 3
    read_json(("[" + closers + "[" * (MAX_DEPTH - 1) + "]" * MAX_DEPTH).encode())


@pytest.mark.parametrize(
    "string",
    [
        r"\"",  # escaped quote
        r"\\",  # escaped backslash before the closing quote
        r"\\\"",
        r"\n",  # an escape whose letter is not kept by the reduction
        r"\u0022",  # a quote written as \u: just characters for the depth scan
        r"ab\/cd\t\r\b\f",
        r"\\\\\\\\",
        "plain",
    ],
)
def test_depth_scan_agrees_with_the_parser_around_escapes(string: str) -> None:
    before = f'["{string}", "{string}"'
    ok = (before + "," + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "]").encode()
    read_json(ok)
    deep = (before + "," + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "]").encode()
    err = refusal(deep)
    assert (err.code, err.offset) == (ErrorCode.NESTING_TOO_DEEP, len(before) + 1 + 127)


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 64])
def test_depth_scan_is_exact_across_chunk_boundaries(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    monkeypatch.setattr(reading_scan, "_DEPTH_CHUNK", chunk)
    strings = r'"a\\", "[\"{", "\\\\\"]]", "\n]"'
    ok = ("[" * 100 + strings + "," + "[" * 28 + "]" * 128).encode()
    read_json(ok)
    deep = ("[" * 100 + strings + "," + "[" * 29 + "]" * 129).encode()
    err = refusal(deep)
    assert (err.code, err.offset) == (ErrorCode.NESTING_TOO_DEEP, deep.rindex(b"[" * 29) + 28)


def test_number_out_of_range_offset_and_pointer() -> None:
    data = b'{"a": [1, 9007199254740992]}'
    err = refusal(data)
    assert err.code is ErrorCode.NUMBER_OUT_OF_RANGE
    assert (err.offset, err.pointer) == (10, "/a/1")
    assert "9007199254740992" in err.message


@pytest.mark.parametrize(
    "literal",
    [
        "9007199254740992",
        "-9007199254740992",
        "9007199254740993",
        "1e21",
        "1E16",
        "1.5e300",
        "9007199254740991.5",  # rounds to 2^53 as a double
        "1e400",
        "-1e400",
        "123123e100000",
        "1" * 5000,  # beyond Python's int-string limit: still a refusal, not ValueError
        "-" + "9" * 100_000,
        "0." + "0" * 100 + "1e100000",
    ],
)
def test_numbers_out_of_range(literal: str) -> None:
    err = refusal(f'{{"n": {literal}}}'.encode())
    assert (err.code, err.offset, err.pointer) == (ErrorCode.NUMBER_OUT_OF_RANGE, 6, "/n")
    assert len(err.message) < 300


def test_not_an_object_for_packets() -> None:
    for data, kind in ((b" [1]", "array"), (b'\n"x"', "string"), (b"\t 1", "number")):
        with pytest.raises(ReadError) as caught:
            read_packet(data)
        err = caught.value
        assert err.code is ErrorCode.NOT_AN_OBJECT
        assert err.offset == len(data) - len(data.lstrip())
        assert err.pointer == ""
        assert kind in err.message
    for data in (b"null", b"true"):
        with pytest.raises(ReadError) as caught:
            read_packet(data)
        assert caught.value.code is ErrorCode.NOT_AN_OBJECT
    assert read_packet(b' {"a": 1} ') == {"a": 1}


def test_read_json_accepts_any_top_level_value() -> None:
    assert read_json(b" 1 ") == 1
    assert read_json(b'"x"') == "x"
    assert read_json(b"null") is None
    assert read_json(b"[true,false]") == [True, False]


# --- the order between several problems ------------------------------------------------
#
# Profile clarification of 2026-12-01: the problem at the lowest byte offset is reported
# (ties: the order of the §1 table). Each case has two problems; the comment says which
# comes first, and each would be the other one under the old fixed order of categories.


@pytest.mark.parametrize(
    ("data", "code", "offset"),
    [
        (b"\xef\xbb\xbf" + b"[" * 200, ErrorCode.INVALID_ENCODING, 0),  # BOM, then depth
        (b"[\xff" + b"[" * 200, ErrorCode.INVALID_ENCODING, 1),
        (b"[1,,]" + b"[" * 200, ErrorCode.INVALID_JSON, 3),  # syntax, then depth
        (b"[" * 200 + b"1,,", ErrorCode.NESTING_TOO_DEEP, 128),  # depth, then syntax
        (b"[NaN," + b"[" * 200 + b"]" * 200 + b"]", ErrorCode.INVALID_JSON, 1),  # the issue's
        (b'[{"a":1,"a":2}, NaN]', ErrorCode.DUPLICATE_KEY, 8),  # duplicate, then syntax
        (b'[{"a":1,"a":2}] x', ErrorCode.DUPLICATE_KEY, 8),  # duplicate, then trailing data
        (b'{"a":1,"a":2} x', ErrorCode.DUPLICATE_KEY, 7),
        (b'[NaN, {"a":1,"a":2}]', ErrorCode.INVALID_JSON, 1),  # syntax, then duplicate
        (b'[1e400, "\\ud800"]', ErrorCode.NUMBER_OUT_OF_RANGE, 1),  # number, then surrogate
        (b'["\\ud800", 1e400]', ErrorCode.INVALID_ENCODING, 2),  # surrogate, then number
        (b'[{"a":1,"a":2}, "\\ud800"]', ErrorCode.DUPLICATE_KEY, 8),
        (b'[1e400, {"a":1,"a":2}]', ErrorCode.NUMBER_OUT_OF_RANGE, 1),  # number, then duplicate
        (b'{"a":9007199254740993,"b":1,"b":2}', ErrorCode.NUMBER_OUT_OF_RANGE, 5),  # the issue's
        (b"[1e400, 1e400] x", ErrorCode.NUMBER_OUT_OF_RANGE, 1),  # number, then trailing data
        (b'[{"a":1,"a":2}, \xff]', ErrorCode.DUPLICATE_KEY, 8),  # duplicate, then a bad byte
        (b'["\\ud800\xff"]', ErrorCode.INVALID_ENCODING, 2),  # surrogate, then a bad byte
        # An escape cut by a bad byte: the bad byte is the first that cannot continue.
        (b'["abc\\\xff"]', ErrorCode.INVALID_ENCODING, 6),
        (b'["abc\xff\\"]', ErrorCode.INVALID_ENCODING, 5),  # the bad byte, then the escape
        (b'{"a"' + b"[" * 200, ErrorCode.INVALID_JSON, 4),  # the bracket itself is wrong
        (b'{"a":1,"a":2,"b":' + b"[" * 200, ErrorCode.DUPLICATE_KEY, 7),  # then depth
    ],
)
def test_the_problem_at_the_lowest_offset_is_reported(
    data: bytes, code: ErrorCode, offset: int
) -> None:
    err = refusal(data)
    assert (err.code, err.offset) == (code, offset), err.message


# --- the values it returns -------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("1", 1),
        ("1.0", 1),
        ("1E2", 100),
        ("1e+2", 100),
        ("-0", 0),
        ("-0.0", 0),
        ("0e10", 0),
        ("1e-400", 0),
        ("-1e-400", 0),
        ("9007199254740991", MAX_SAFE),
        ("-9007199254740991", -MAX_SAFE),
        ("9007199254740991.0", MAX_SAFE),
        ("0.5", 0.5),
        ("-2.5", -2.5),
        ("1e-7", 1e-7),
        ("123.456e-789", 0),
        ("4503599627370495.5", 4503599627370495.5),
    ],
)
def test_number_values(literal: str, expected: float) -> None:
    value = read_json(literal.encode())
    assert value == expected
    assert type(value) is type(expected)
    if expected == 0:
        assert str(value) == "0"  # never a negative zero


def test_objects_keep_source_order_and_build_plain_types() -> None:
    value = read_json(b'{"b": [1, 2.5, "s", true, null], "a": {}}')
    assert value == {"b": [1, 2.5, "s", True, None], "a": {}}
    assert isinstance(value, dict)
    assert list(value) == ["b", "a"]
    assert type(value) is dict


def test_bytes_like_inputs() -> None:
    assert read_json(bytearray(b"[1]")) == [1]  # type: ignore[arg-type]
    assert read_json(memoryview(b"[1]")) == [1]  # type: ignore[arg-type]
    # Text is not bytes: §1 checks the encoding, so a str is refused in words, coded.
    with pytest.raises(InputError, match="reads bytes, not str") as refused:
        read_json("[1]")  # type: ignore[arg-type]
    assert refused.value.code == "input_unusable"
    with pytest.raises(InputError, match="not int"):
        read_json(1)  # type: ignore[arg-type]


# --- the error object ------------------------------------------------------------------


def test_read_error_to_finding() -> None:
    err = refusal(b'{"a":1,"a":2}')
    finding = err.to_finding()
    assert finding == Finding(ErrorCode.DUPLICATE_KEY, Severity.ERROR, "/a", err.message, 7)
    err = refusal(b"[1,]")
    assert err.pointer is None
    assert err.to_finding().pointer == ""
    assert err.to_finding().offset == 3


def test_read_error_str_and_pickle() -> None:
    err = refusal(b"[1,]")
    assert str(err).startswith("invalid_json: ")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, copy.offset, copy.pointer) == (
        err.code,
        err.message,
        err.offset,
        err.pointer,
    )


@pytest.mark.parametrize(
    ("data", "code", "at"),
    [
        # Clean containers are skipped whole; a problem inside a later one is still found.
        (b'[{"a":1},{"b":[1,2,{"c":1,"c":2}]},NaN]', ErrorCode.DUPLICATE_KEY, b'"c":2'),
        (b'[[1,2],[3,["\\udc00"]],NaN]', ErrorCode.INVALID_ENCODING, b"\\udc00"),
        (b"[[1,2],[3,[9007199254740993]]] x", ErrorCode.NUMBER_OUT_OF_RANGE, b"9007199254740993"),
        (b'{"k":[[1],[2]],"k":3}' + b"[" * 200, ErrorCode.DUPLICATE_KEY, b'"k":3'),
    ],
)
def test_a_problem_deep_inside_is_found_before_a_later_one(
    data: bytes, code: ErrorCode, at: bytes
) -> None:
    err = refusal(data)
    assert (err.code, err.offset) == (code, data.index(at)), err.message
