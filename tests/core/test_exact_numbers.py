"""The reader's exact mode (ASIF documents) and what the rest of the core does with it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from zcf_inspector.core.canonical import canonical, canonical_exact
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.continuation.models.json_values import json_key, short_json
from zcf_inspector.core.continuation.timestamps import instant_of, parse_datetime, parse_instant
from zcf_inspector.core.errors import FormatError
from zcf_inspector.core.exact_numbers import INT_DIGITS, exact_number_text, is_integral
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_document, read_json


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ("1", 1),
        ("1.0", 1),
        ("-0", 0),
        ("-0.0", 0),
        ("4.2e2", 420),
        ("1E2", 100),
        ("9007199254740993", 9007199254740993),
        ("18446744073709551616", 2**64),
        ("1e400", 10**400),
        ("27.999999999999999999", Decimal("27.999999999999999999")),
        ("420.0000000000000001", Decimal("420.0000000000000001")),
        ("1e-400", Decimal("1e-400")),
        ("0.1", Decimal("0.1")),
    ],
)
def test_exact_mode_keeps_every_number_exactly(literal: str, value: object) -> None:
    read = read_json(f"[{literal}]".encode(), exact=True)
    assert read == [value]
    assert type(read[0]) is type(value)  # type: ignore[index]


def _only(value: JsonValue) -> JsonValue:
    assert isinstance(value, list)
    (item,) = value
    return item


def test_integers_too_long_for_int_stay_exact_decimals() -> None:
    digits = "9" * (INT_DIGITS + 1)
    value = _only(read_json(f"[{digits}]".encode(), exact=True))
    assert value == Decimal(digits)
    assert is_integral(value)
    value = _only(read_json(b"[1e999999999]", exact=True))
    assert isinstance(value, Decimal)
    assert is_integral(value)
    assert value > 10**400


def test_the_default_mode_keeps_the_profiles_rule() -> None:
    for literal in (b"9007199254740992", b"1e400", b"2.0e53"):
        with pytest.raises(ReadError) as caught:
            read_json(b"[" + literal + b"]")
        assert caught.value.code is ErrorCode.NUMBER_OUT_OF_RANGE
    assert read_json(b"[27.999999999999999999]") == [28]  # a double: the profile's reading


def test_both_modes_share_every_other_rule() -> None:
    for data, code in [
        (b'{"a": 1, "a": 2}', ErrorCode.DUPLICATE_KEY),
        (b"[NaN]", ErrorCode.INVALID_JSON),
        (b"[" * 129 + b"]" * 129, ErrorCode.NESTING_TOO_DEEP),
        (b'["\\ud800"]', ErrorCode.INVALID_ENCODING),
    ]:
        with pytest.raises(ReadError) as caught:
            read_json(data, exact=True)
        assert caught.value.code is code


def test_a_document_says_whether_a_double_could_have_changed_it() -> None:
    assert read_document(b"[1, 2]").decimal_literals is False
    assert read_document(b"[27.999999999999999999]").decimal_literals is True
    assert read_document(b"[1.5]", exact=True).has_fractions is True


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("27.999999999999999999"), "27.999999999999999999"),
        (Decimal("1e-400"), "1e-400"),
        (Decimal("0.000001"), "0.000001"),
        (Decimal("1.5e-7"), "1.5e-7"),
        (Decimal("-2.50"), "-2.5"),
        (Decimal("1E+400"), "1e+400"),
        (Decimal("0.0"), "0"),
    ],
)
def test_exact_number_text_lays_out_digits_as_ecmascript_does(value: Decimal, text: str) -> None:
    assert exact_number_text(value) == text


def test_canonical_exact_extends_canonical_and_never_rounds() -> None:
    plain: JsonValue = {"b": [1, 0.5], "a": "x"}
    assert canonical_exact(plain) == canonical(plain)
    exact: JsonValue = {"n": 2**64, "f": Decimal("27.999999999999999999")}
    with pytest.raises(FormatError):
        canonical(exact)
    assert canonical_exact(exact) == b'{"f":27.999999999999999999,"n":18446744073709551616}'


def test_exact_comparison_keys() -> None:
    assert json_key(Decimal("1.0")) == json_key(1)
    assert json_key(Decimal("1.00000000000000001")) != json_key(1)
    assert json_key(True) != json_key(1)
    assert short_json({"n": Decimal("1.00000000000000001")}) == '{"n": 1.00000000000000001}'


def test_report_times_keep_every_fraction_digit() -> None:
    a = parse_instant("2026-09-26T12:00:00.0000000001Z")
    b = parse_instant("2026-09-26T12:00:00.00000000010Z")
    assert a == b  # the same instant, spelled with another length
    assert parse_instant("2026-09-26T12:00:00.00000000011Z") > a
    assert parse_instant("2026-09-26t14:00:00.5+02:00") == parse_instant("2026-09-26T12:00:00.5Z")
    assert parse_datetime("2026-09-26T12:00:00.1234567891Z").microsecond == 123456
    assert instant_of(parse_datetime("2026-09-26T12:00:00.25Z")) == parse_instant(
        "2026-09-26T12:00:00.250Z"
    )
