"""Public vectors: JSONTestSuite, RFC 8785 (cyberphone) test data, ES6 number formatting.

The vectors are read in place from the shared folder; nothing is copied into the repo.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
from pathlib import Path

import pytest

from tests.conftest import VECTORS
from zcf_inspector.core.canonical import canonical, es6_number
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_json

SUITE = VECTORS / "jsontestsuite" / "test_parsing"
JCS = VECTORS / "jcs-cyberphone"
ES6 = JCS / "es6-numbers"
MAX_SAFE = 2**53 - 1


def suite_files(prefix: str) -> list[str]:
    return sorted(p.name for p in SUITE.iterdir() if p.name.startswith(prefix))


def normalized(value: object) -> object:
    """What §1 makes of a value ``json.loads`` built: integral floats become ints."""
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# --- JSONTestSuite ---------------------------------------------------------------------

# y_ files (valid RFC 8259) that §1 still refuses, each for a named reason.
Y_REFUSED = {
    "y_object_duplicated_key.json": ErrorCode.DUPLICATE_KEY,
    "y_object_duplicated_key_and_value.json": ErrorCode.DUPLICATE_KEY,
    "y_number.json": ErrorCode.NUMBER_OUT_OF_RANGE,  # 123e65
    "y_number_real_capital_e.json": ErrorCode.NUMBER_OUT_OF_RANGE,  # 1E22
    "y_number_real_exponent.json": ErrorCode.NUMBER_OUT_OF_RANGE,  # 123e45
    "y_number_real_fraction_exponent.json": ErrorCode.NUMBER_OUT_OF_RANGE,  # 123.456e78
    "y_object_extreme_numbers.json": ErrorCode.NUMBER_OUT_OF_RANGE,  # ±1.0e+28
}

# i_ files (parsers may go either way): this project's decision for each, pinned.
I_OUTCOMES: dict[str, ErrorCode | None] = {
    "i_number_double_huge_neg_exp.json": None,  # 123.456e-789 underflows to 0
    "i_number_huge_exp.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_neg_int_huge_exp.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_pos_double_huge_exp.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_real_neg_overflow.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_real_pos_overflow.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_real_underflow.json": None,  # 123e-10000000 underflows to 0
    "i_number_too_big_neg_int.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_too_big_pos_int.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_number_very_big_negative_int.json": ErrorCode.NUMBER_OUT_OF_RANGE,
    "i_object_key_lone_2nd_surrogate.json": ErrorCode.INVALID_ENCODING,
    "i_string_1st_surrogate_but_2nd_missing.json": ErrorCode.INVALID_ENCODING,
    "i_string_1st_valid_surrogate_2nd_invalid.json": ErrorCode.INVALID_ENCODING,
    "i_string_UTF-16LE_with_BOM.json": ErrorCode.INVALID_ENCODING,
    "i_string_UTF-8_invalid_sequence.json": ErrorCode.INVALID_ENCODING,
    "i_string_UTF8_surrogate_U+D800.json": ErrorCode.INVALID_ENCODING,
    "i_string_incomplete_surrogate_and_escape_valid.json": ErrorCode.INVALID_ENCODING,
    "i_string_incomplete_surrogate_pair.json": ErrorCode.INVALID_ENCODING,
    "i_string_incomplete_surrogates_escape_valid.json": ErrorCode.INVALID_ENCODING,
    "i_string_invalid_lonely_surrogate.json": ErrorCode.INVALID_ENCODING,
    "i_string_invalid_surrogate.json": ErrorCode.INVALID_ENCODING,
    "i_string_invalid_utf-8.json": ErrorCode.INVALID_ENCODING,
    "i_string_inverted_surrogates_U+1D11E.json": ErrorCode.INVALID_ENCODING,
    "i_string_iso_latin_1.json": ErrorCode.INVALID_ENCODING,
    "i_string_lone_second_surrogate.json": ErrorCode.INVALID_ENCODING,
    "i_string_lone_utf8_continuation_byte.json": ErrorCode.INVALID_ENCODING,
    "i_string_not_in_unicode_range.json": ErrorCode.INVALID_ENCODING,
    "i_string_overlong_sequence_2_bytes.json": ErrorCode.INVALID_ENCODING,
    "i_string_overlong_sequence_6_bytes.json": ErrorCode.INVALID_ENCODING,
    "i_string_overlong_sequence_6_bytes_null.json": ErrorCode.INVALID_ENCODING,
    "i_string_truncated-utf-8.json": ErrorCode.INVALID_ENCODING,
    # UTF-16 without a BOM: its NUL bytes are UTF-8, but no JSON text may hold one outside
    # a string, and that syntax error comes before any byte that is not UTF-8 (profile
    # clarification 2026-12-01: the problem at the lowest offset is the one reported).
    "i_string_utf16BE_no_BOM.json": ErrorCode.INVALID_JSON,
    "i_string_utf16LE_no_BOM.json": ErrorCode.INVALID_JSON,
    "i_structure_500_nested_arrays.json": ErrorCode.NESTING_TOO_DEEP,
    "i_structure_UTF-8_BOM_empty_object.json": ErrorCode.INVALID_ENCODING,
}


def test_the_suite_is_all_there() -> None:
    assert len(suite_files("y_")) == 95
    assert len(suite_files("n_")) == 188
    assert sorted(I_OUTCOMES) == suite_files("i_")
    assert set(Y_REFUSED) <= set(suite_files("y_"))


@pytest.mark.parametrize("name", suite_files("y_"))
def test_jsontestsuite_y(name: str) -> None:
    data = (SUITE / name).read_bytes()
    if name in Y_REFUSED:
        with pytest.raises(ReadError) as caught:
            read_json(data)
        assert caught.value.code is Y_REFUSED[name]
        assert caught.value.offset is not None
        return
    value = read_json(data)
    assert value == normalized(json.loads(data))
    once = canonical(value)
    assert canonical(read_json(once)) == once


@pytest.mark.parametrize("name", suite_files("n_"))
def test_jsontestsuite_n(name: str) -> None:
    data = (SUITE / name).read_bytes()
    with pytest.raises(ReadError) as caught:
        read_json(data)
    assert caught.value.code in {
        ErrorCode.INVALID_JSON,
        ErrorCode.INVALID_ENCODING,
        ErrorCode.NESTING_TOO_DEEP,
    }
    if caught.value.code is not ErrorCode.NESTING_TOO_DEEP:
        assert caught.value.offset is not None
        assert 0 <= caught.value.offset <= len(data)


@pytest.mark.parametrize("name", sorted(I_OUTCOMES))
def test_jsontestsuite_i(name: str) -> None:
    data = (SUITE / name).read_bytes()
    expected = I_OUTCOMES[name]
    if expected is None:
        read_json(data)
    else:
        with pytest.raises(ReadError) as caught:
            read_json(data)
        assert caught.value.code is expected
        assert caught.value.offset is not None


# --- RFC 8785 test data ----------------------------------------------------------------


def jcs_case(name: str) -> tuple[bytes, bytes]:
    output = (JCS / "output" / name).read_bytes()
    hexed = (JCS / "outhex" / name.replace(".json", ".txt")).read_text()
    assert bytes.fromhex(hexed) == output
    return (JCS / "input" / name).read_bytes(), output


def test_jcs_cases_are_all_there() -> None:
    names = sorted(p.name for p in (JCS / "input").iterdir())
    assert names == [
        "arrays.json",
        "french.json",
        "structures.json",
        "unicode.json",
        "values.json",
        "weird.json",
    ]


@pytest.mark.parametrize("name", ["arrays.json", "french.json", "structures.json", "unicode.json"])
def test_jcs_cases(name: str) -> None:
    data, output = jcs_case(name)
    assert canonical(read_json(data)) == output


def test_jcs_values_1e30_is_refused_and_the_rest_matches() -> None:
    # 1E30 is integral and beyond 2^53, which §1 refuses; everything else must match.
    data, output = jcs_case("values.json")
    with pytest.raises(ReadError) as caught:
        read_json(data)
    assert caught.value.code is ErrorCode.NUMBER_OUT_OF_RANGE
    assert caught.value.offset == data.index(b"1E30")
    assert caught.value.pointer == "/numbers/1"
    assert data.count(b"1E30, ") == 1
    assert output.count(b"1e+30,") == 1
    trimmed = data.replace(b"1E30, ", b"")
    assert canonical(read_json(trimmed)) == output.replace(b"1e+30,", b"")


# weird.json in code-point order, written out member by member for this test.
WEIRD_CODE_POINT_ORDER = b"".join(
    [
        b"{",
        b'"\\n":"Newline",',
        b'"\\r":"Carriage Return",',
        b'"1":"One",',
        b'"</script>":"Browser Challenge",',
        b'"\xc2\x80":"Control\x7f",',  # U+0080 and U+007F as literal UTF-8
        b'"\xc3\xb6":"Latin Small Letter O With Diaeresis",',  # U+00F6
        b'"\xe2\x82\xac":"Euro Sign",',  # U+20AC
        b'"\xef\xac\xb3":"Hebrew Letter Dalet With Dagesh",',  # U+FB33
        b'"\xf0\x9f\x98\x82":"Smiley"',  # U+1F602: after U+FB33 by code point
        b"}",
    ]
)


def test_jcs_weird_differs_from_rfc8785_only_in_key_order() -> None:
    data, output = jcs_case("weird.json")
    ours = canonical(read_json(data))
    assert ours == WEIRD_CODE_POINT_ORDER
    assert ours != output
    # Same members, same member bytes; only the order of U+1F602 and U+FB33 differs.
    smiley = b'"\xf0\x9f\x98\x82":"Smiley"'
    dalet = b'"\xef\xac\xb3":"Hebrew Letter Dalet With Dagesh"'
    assert output.replace(smiley + b"," + dalet, dalet + b"," + smiley) == ours
    theirs = read_json(output)
    assert isinstance(theirs, dict)
    assert theirs == read_json(ours)
    keys = list(theirs)
    assert keys == sorted(keys, key=lambda k: k.encode("utf-16-be"))  # RFC 8785: UTF-16
    mine = read_json(ours)
    assert isinstance(mine, dict)
    assert list(mine) == sorted(keys)  # ZCF-JSON-v1: code points


# --- ES6 numbers -----------------------------------------------------------------------


def from_hex(ieee: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(ieee.zfill(16)))[0]
    return value


def profile_accepts(value: float) -> bool:
    return math.isfinite(value) and not (value.is_integer() and abs(value) > MAX_SAFE)


def check_es6_lines(lines: list[str], *, read_back: bool = True) -> tuple[int, int]:
    failures: list[str] = []
    accepted = refused = 0
    for line in lines:
        ieee, expected = line.split(",")
        value = from_hex(ieee)
        if es6_number(value) != expected:
            failures.append(f"es6_number {line}: {es6_number(value)}")
        if profile_accepts(value):
            accepted += 1
            if canonical(value) != expected.encode():
                failures.append(f"canonical {line}: {canonical(value)!r}")
            if not read_back:
                continue
            back = read_json(expected.encode())
            if back != value or canonical(back) != expected.encode():
                failures.append(f"read back {line}: {back!r}")
            if isinstance(back, float) == value.is_integer():
                failures.append(f"type {line}: {type(back).__name__}")
        else:
            refused += 1
            try:
                canonical(value)
                failures.append(f"canonical accepted {line}")
            except ValueError:
                pass
            if not read_back:
                continue
            try:
                read_json(expected.encode())
                failures.append(f"accepted {line}")
            except ReadError as err:
                if err.code is not ErrorCode.NUMBER_OUT_OF_RANGE:
                    failures.append(f"code {line}: {err.code}")
    assert not failures, failures[:10]
    return accepted, refused


def test_es6_first_10000() -> None:
    lines = (ES6 / "es6_first_10000.txt").read_text().splitlines()
    assert len(lines) == 10_000
    accepted, refused = check_es6_lines(lines)
    assert accepted > 5000
    assert refused > 1000


def test_es6_first_100000() -> None:
    with gzip.open(ES6 / "es6_first_100000.txt.gz", "rt") as handle:
        lines = handle.read().splitlines()
    assert len(lines) == 100_000
    # The first 10,000 are the test above, which also reads every spelling back.
    check_es6_lines(lines[10_000:], read_back=False)


def test_es6_number_samples() -> None:
    samples = json.loads((ES6 / "es6_number_samples.json").read_text())["samples"]
    assert len(samples) == 26
    first = set((ES6 / "es6_first_10000.txt").read_text().splitlines())
    for sample in samples:
        value = from_hex(sample["ieee_hex"])
        expected = sample["expected"]
        if expected is None:
            assert not math.isfinite(value)
            with pytest.raises(ValueError, match="not a JSON number"):
                canonical(value)
            continue
        assert es6_number(value) == expected
        assert (f"{sample['ieee_hex'].lstrip('0') or '0'},{expected}" in first) is sample[
            "in_es6_first_10000"
        ]
        if profile_accepts(value):
            assert canonical(value) == expected.encode()
        else:
            with pytest.raises(ValueError, match="2\\^53"):
                canonical(value)


def test_es6_vectors_inside_documents() -> None:
    # Numbers inside a document go through the same formatting as bare ones.
    lines = (ES6 / "es6_first_10000.txt").read_text().splitlines()
    values: list[JsonValue] = []
    texts: list[str] = []
    for line in lines:
        ieee, expected = line.split(",")
        value = from_hex(ieee)
        if profile_accepts(value):
            values.append(value)
            texts.append(expected)
    document: JsonValue = {"numbers": values, "nested": [{"n": v} for v in values[:500]]}
    encoded = canonical(document)
    nested = ",".join(f'{{"n":{t}}}' for t in texts[:500])
    assert encoded == f'{{"nested":[{nested}],"numbers":[{",".join(texts)}]}}'.encode()
    assert canonical(read_json(encoded)) == encoded


def test_vector_paths_exist() -> None:
    for path in (SUITE, JCS / "input", ES6):
        assert Path(path).is_dir()
