"""Where a malformed token sits (profile clarification of 2026-12-07), against a plain
recognizer of the grammar (`tests/core/json_prefix.py`): an `invalid_json` refusal is at
the first byte that cannot continue a JSON text, the end of the input when the text is
only cut short; no refusal lies after that byte. Random texts made of JSON's pieces, and
the same with a byte that is not UTF-8 somewhere (the reader's head-of-text path)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.json_prefix import first_unviable
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.reading import ReadError, read_json, read_packet

SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PIECES = st.sampled_from(
    [
        "{", "}", "[", "]", ",", ":", " ", '"', '"a"', '"b"', "\\", "\\u", "00", "0",
        "1", "9", "-", "+", ".", "e", "E", "t", "tru", "true", "f", "false", "n", "null",
        "x", "é", "\n", "\x01", "NaN", "-Infinity", "\\x", "\\n", "12G",
    ]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=14).map("".join)


def _byte(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


def _refusal(data: bytes, *, exact: bool = False) -> ReadError | None:
    try:
        read_json(data, exact=exact)
    except ReadError as exc:
        return exc
    return None


@SETTINGS
@given(TEXTS, st.booleans())
def test_invalid_json_is_at_the_first_byte_that_cannot_continue(text: str, exact: bool) -> None:
    stop = first_unviable(text)
    found = _refusal(text.encode("utf-8"), exact=exact)
    if stop is None:
        assert found is None or found.code is not ErrorCode.INVALID_JSON
        return
    assert found is not None
    assert found.offset is not None
    assert found.offset <= _byte(text, stop), found
    if found.code is ErrorCode.INVALID_JSON:
        assert found.offset == _byte(text, stop), found


@SETTINGS
@given(TEXTS, TEXTS)
def test_a_bad_byte_is_where_the_text_stops_unless_it_stopped_before(head: str, tail: str) -> None:
    data = head.encode("utf-8") + b"\xff" + tail.encode("utf-8")
    stop = first_unviable(head)
    bad = len(head.encode("utf-8"))
    expected = bad if stop is None or stop >= len(head) else _byte(head, stop)
    found = _refusal(data)
    assert found is not None
    assert found.offset is not None
    assert found.offset <= expected, found
    if found.code is ErrorCode.INVALID_JSON:
        assert found.offset == expected < bad, found
    if found.offset == bad:
        assert found.code is ErrorCode.INVALID_ENCODING, found


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ('{"s": "\\x41"}', 8),
        ('{"v": -}', 7),
        ("1.", 2),
        ("1e", 2),
        ('"abc', 4),
        ("[1, 2", 5),
        ('{"a": {', 7),
        ("", 0),
    ],
)
def test_the_profiles_examples_agree_with_the_recognizer(text: str, offset: int) -> None:
    assert first_unviable(text) == offset
    found = _refusal(text.encode("utf-8"))
    assert found is not None
    assert (found.code, found.offset) == (ErrorCode.INVALID_JSON, offset)


@pytest.mark.parametrize(
    ("data", "offset"),
    [
        (b'[{"a": 1, "a": 2}]', 0),
        (b"  [1, 2", 2),
        (b'"\\x41"', 0),
        (b"[\xff]", 0),
        (b"-x", 0),
    ],
)
def test_a_top_level_that_is_not_an_object_wins_over_what_it_holds(
    data: bytes, offset: int
) -> None:
    with pytest.raises(ReadError) as caught:
        read_packet(data)
    assert (caught.value.code, caught.value.offset) == (ErrorCode.NOT_AN_OBJECT, offset)


@pytest.mark.parametrize(
    ("data", "code", "offset"),
    [
        (b"\xef\xbb\xbf[]", ErrorCode.INVALID_ENCODING, 0),  # before the value
        (b" \xff[]", ErrorCode.INVALID_ENCODING, 1),
        (b"NaN", ErrorCode.INVALID_JSON, 0),  # no JSON value begins with N
        (b"x", ErrorCode.INVALID_JSON, 0),
        (b"", ErrorCode.INVALID_JSON, 0),
        (b'{"a": 1, "a": 2}', ErrorCode.DUPLICATE_KEY, 9),
        # A tie at the value's first byte: the §1 table's order puts the number first.
        (b"9007199254740993", ErrorCode.NUMBER_OUT_OF_RANGE, 0),
    ],
)
def test_a_problem_before_the_value_or_no_value_is_not_not_an_object(
    data: bytes, code: ErrorCode, offset: int
) -> None:
    with pytest.raises(ReadError) as caught:
        read_packet(data)
    assert (caught.value.code, caught.value.offset) == (code, offset)


def test_a_receipt_that_is_not_an_object_is_refused_so_before_what_it_holds() -> None:
    from zcf_inspector import api

    report = api.verify_receipt(b'[{"a": 1, "a": 2}]')
    assert not report.valid
    (first, *_) = report.findings
    assert (first.code, first.offset) == (ErrorCode.NOT_AN_OBJECT, 0)
