"""Interpreter limits never reach a caller (issue 34): an integer of more than 4,300 digits
(Python's int() refuses it), an exponent no exact number holds (the decimal module's
limit) and the search for a lower problem beside them all end in a §1 refusal with a code
and an offset, in both reading modes, through the reader, the API and the CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, REPO
from zcf_inspector import api
from zcf_inspector.cli import main
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.read_error import ReadError
from zcf_inspector.core.reading import read_json

DIGITS = b"1" * 5000  # past sys.get_int_max_str_digits()'s default of 4,300
BESIDE_A_BAD_BYTE = b'{"a": [' + DIGITS + b'], "b": "\xff"}'
BAD_BYTE_AT = BESIDE_A_BAD_BYTE.index(b"\xff")
HUGE_EXPONENT = b'{"a": [1, {"b": 1e-99999999999999999999}]}'


def refusal(data: bytes, *, exact: bool) -> ReadError:
    with pytest.raises(ReadError) as caught:
        read_json(data, exact=exact)
    return caught.value


def test_a_long_integer_beside_a_bad_byte_is_the_bad_byte_in_exact_mode() -> None:
    # Exact mode keeps the integer (a Decimal past 4,300 digits): the bad byte is the problem.
    found = refusal(BESIDE_A_BAD_BYTE, exact=True)
    assert (found.code, found.offset) == (ErrorCode.INVALID_ENCODING, BAD_BYTE_AT)


def test_a_long_integer_beside_a_bad_byte_is_out_of_range_for_a_packet() -> None:
    found = refusal(BESIDE_A_BAD_BYTE, exact=False)
    assert (found.code, found.offset, found.pointer) == (
        ErrorCode.NUMBER_OUT_OF_RANGE,
        7,
        "/a/0",
    )


@pytest.mark.parametrize(
    "data",
    [
        DIGITS + b"\xff",
        b'{"a": ' + DIGITS + b', "a": 1, "\xff": 0}',
        b"[[[" + DIGITS + b"]]\xff",
        b"[" * 127 + DIGITS + b"\xff",
    ],
)
def test_long_integers_before_a_bad_byte_never_raise_a_builtin(data: bytes) -> None:
    for exact in (True, False):
        found = refusal(data, exact=exact)
        assert found.offset is not None
        assert found.offset <= data.index(b"\xff")


def test_an_exponent_no_exact_number_holds_is_out_of_range_in_exact_mode() -> None:
    found = refusal(HUGE_EXPONENT, exact=True)
    assert (found.code, found.pointer) == (ErrorCode.NUMBER_OUT_OF_RANGE, "/a/1/b")
    assert found.offset == HUGE_EXPONENT.index(b"1e")
    assert "exponent" in found.message


def test_the_api_raises_only_its_own_errors_on_these_inputs() -> None:
    session = (EXAMPLES / "another-computer.session.json").read_bytes()
    destination = REPO / "goldens" / "destination.json"
    packet = (REPO / "goldens" / "publication" / "full-handoff.json").read_bytes()
    calls: dict[str, Callable[[bytes], object]] = {
        "inspect_packet": api.inspect_packet,
        "inspect_continuation": api.inspect_continuation,
        "inspect_continuation with a report": lambda d: api.inspect_continuation(session, report=d),
        "verify_receipt": api.verify_receipt,
        "compare": lambda d: api.compare(d, d),
        "canonicalize": api.canonicalize,
        "seal": api.seal,
        "ingest": lambda d: api.ingest(d, destination),
        "review": lambda d: api.review(packet, destination, d, reviewer="carol"),
    }
    inputs = [
        BESIDE_A_BAD_BYTE,
        HUGE_EXPONENT,
        b'{"a": 1e' + DIGITS + b"}",
        b'{"a": [' + DIGITS + b'], "a": 1}',
    ]
    escaped = []
    for name, call in calls.items():
        for data in inputs:
            try:
                call(data)
            except ZcfError:
                continue
            except Exception as exc:  # noqa: BLE001 - what the test looks for
                escaped.append(f"{name}: {type(exc).__name__}")
    assert escaped == []


def test_inspect_continuation_refuses_the_document_with_a_finding() -> None:
    result = api.inspect_continuation(BESIDE_A_BAD_BYTE)
    codes = {f.code for f in result.findings}
    assert "document_refused" in codes
    assert any("invalid_encoding" in f.message for f in result.findings)


def test_plan_prints_a_refusal_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long-integer.json"
    path.write_bytes(BESIDE_A_BAD_BYTE)
    code = main(["plan", str(path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "invalid_encoding" in out
    assert "Traceback" not in out + err
