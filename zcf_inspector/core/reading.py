"""The strict byte reader of profile §1: bytes in, a JSON value or one ``ReadError`` out.

A packet is always read from bytes. ``read_json`` accepts any RFC 8259 JSON text that §1
allows; ``read_packet`` additionally requires an object at the top level.

Values come back as: objects → ``dict`` (keys in source order), arrays → ``list``,
strings → ``str``, ``true``/``false``/``null`` → ``bool``/``None``; a number whose value
(as an IEEE-754 double, rounded to nearest) is integral → ``int`` (``-0`` → ``0``,
``1.0`` → ``1``, ``1e-400`` → ``0``), any other number → ``float``.

When an input has several problems, exactly one is reported: the one at the lowest byte
offset (profile clarification of 2026-12-01, "first problem wins"), ties broken by the
order of the §1 table (``invalid_encoding``, ``invalid_json``, ``duplicate_key``,
``nesting_too_deep``, ``number_out_of_range``). Where each problem is:

- ``packet_too_large`` — the length is checked before a single byte is decoded, so it
  comes first whatever else the bytes hold (it is a property of the whole input);
- ``invalid_encoding`` — a UTF-8 byte-order mark (offset 0), the first byte that is not
  UTF-8 (which includes UTF-8-encoded surrogates and overlong forms), or the backslash of
  a lone surrogate escape (``\\ud800`` not followed by a low surrogate escape, or a lone
  ``\\udc00``);
- ``invalid_json`` — at the first byte that cannot continue a JSON text (clarification
  of 2026-12-07: in ``{"s": "\\x41"}`` the ``x``, in ``{"v": -}`` the ``}``; ``NaN``
  at its ``N``; ``1.``, ``1e``, an unterminated string, object or array and an empty input
  at the end of the input; `core.syntax_offset`);
- ``duplicate_key`` — the repeated key (the second and later spellings of a key in one
  object);
- ``nesting_too_deep`` — the ``[``/``{`` that opens a 129th level (found before parsing,
  so hostile nesting never reaches the parser);
- ``number_out_of_range`` — the number (not in exact mode, below);
- ``not_an_object`` (``read_packet`` only) — the first byte of a top-level value that is
  not an object, before any problem inside that value (`packet_refusal`).

Only a refused input pays for the search: an accepted one is parsed once, as before; a
refused one is read again up to the problem first found, to see whether another lies
before it (`core.first_problem`).

**Exact mode** (``exact=True``, for ASIF documents): numbers are kept exactly
(`core.exact_numbers`: ``int`` of any size, else ``decimal.Decimal``), and the ±2^53
rule, which is the ZCF profile's, does not apply. Every other rule and bound is the same.

A ``ReadError`` carries the byte offset into the input (and, for duplicate keys and
numbers, the RFC 6901 pointer of the offending member/value).

Two paths, one verdict. A fast path tries first: orjson builds the value straight from
the bytes, and cheap checks decide whether §1 accepts that very value
(`core.reading_fast`). It only ever says "clean": on any doubt it steps aside and the
exact reader reads the input again, and only the exact reader refuses, with the code,
offset and pointer above. Tests hold both paths to the same verdict and the same value on
every vector.

The parts: `core.reading_scan` (string-aware passes over the raw bytes: the nesting check
and the member count), `core.reading_fast` (the fast path), `core.reading_parser` (the
exact parser and the location of its refusals).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER, JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.read_error import ReadError
from zcf_inspector.core.reading_fast import fast_read
from zcf_inspector.core.reading_parser import Parser
from zcf_inspector.core.reading_scan import MAX_DEPTH, check_depth

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER",
    "ReadDocument",
    "ReadError",
    "fast_path_limit",
    "packet_document",
    "packet_refusal",
    "read_document",
    "read_json",
    "read_packet",
    "read_packet_document",
]

DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024

_BOM: Final = b"\xef\xbb\xbf"
_JSON_WS: Final = b" \t\n\r"


@dataclass(frozen=True, slots=True)
class ReadDocument:
    """A value the reader accepted, and whether it holds a non-integral number.

    Without one, the value is made of str, int (|n| < 2^53), bool, None, dict and list
    only, at most 128 deep, with str keys: canonical bytes need no validation pass.
    """

    value: JsonValue
    has_fractions: bool
    # Whether a number was written with a fraction or an exponent: outside exact mode it
    # was read as a double, so ``1.0000000000000000001`` may have become ``1``.
    decimal_literals: bool = False


def read_json(
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    exact: bool = False,
    monitor: Monitor = NULL_MONITOR,
) -> JsonValue:
    """Parse ``data`` as §1 requires; any refusal is a ``ReadError``, nothing else escapes.

    ``exact``: keep numbers exactly and drop the ±2^53 rule (ASIF documents; see above).
    ``monitor``: checked as the read goes (`Cancelled` once it is cancelled).

    Raises:
        ReadError: the bytes are refused (its ``code`` says why: ``invalid_json``,
            ``duplicate_key``…; ``offset`` and ``pointer`` say where; with several
            problems, the one at the lowest offset).
        InputError: ``data`` is not bytes (``bytearray`` and ``memoryview`` are read as
            their bytes).
        Cancelled: ``monitor`` was cancelled; nothing read is returned.
    """
    return read_document(data, max_bytes=max_bytes, exact=exact, monitor=monitor).value


def read_document(
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    exact: bool = False,
    monitor: Monitor = NULL_MONITOR,
) -> ReadDocument:
    """``read_json``, also saying whether a non-integral number was read (in exact mode:
    a number that is not a plain ``int`` within ±2^53)."""
    if not isinstance(data, bytes):
        if not isinstance(data, bytearray | memoryview):
            # A str is text already decoded: §1 reads bytes (the encoding is one of its
            # checks), so it is refused in words rather than guessed at.
            raise InputError(
                f"read_json reads bytes, not {type(data).__name__}"
                + (" (encode the text as UTF-8 first)" if isinstance(data, str) else "")
            )
        data = bytes(data)
    if len(data) > max_bytes:
        raise ReadError(
            ErrorCode.PACKET_TOO_LARGE,
            f"{len(data)} bytes exceed the size limit of {max_bytes} bytes",
            offset=max_bytes,
        )
    monitor.breathe()
    limit = _FAST_PATH_MAX_BYTES.get()
    if (limit is None or len(data) <= limit) and not _dense(data):
        # Both modes read the same value from what the fast path vouches for: ints
        # within ±2^53 and no other number.
        # Not watched inside: an input that is not dense takes a few C calls of tens of
        # milliseconds (orjson's parse, the member count), checked before and after.
        clean = _read_clean(data)
        monitor.breathe()
        if clean is not None:
            return clean
    return _read_exact(data, exact=exact, monitor=monitor)


# The fast path's parser (orjson, over yyjson) first builds a document of its own, 16 bytes
# per JSON value, and only then the Python value: on an input made of tiny values
# (``[{}, {}, ...]``: a value per 3 bytes) that is a transient 5x the input on top of the
# value's 24x. The exact reader builds the Python value directly. So a large input with
# more than one value per `_DENSE_BYTES_PER_VALUE` bytes goes to the exact reader: the
# same verdict and value (both paths are held to that), a little slower, and within the
# memory bound. Values are estimated from the commas and colons (each element after the
# first follows a comma; each member has a colon): counted in C, inside strings too,
# which only ever sends more inputs to the exact reader.
_DENSE_MIN_BYTES: Final = 1 << 20
_DENSE_BYTES_PER_VALUE: Final = 6


def _dense(data: bytes) -> bool:
    if len(data) < _DENSE_MIN_BYTES:
        return False
    values = data.count(b",") + data.count(b":")
    return values * _DENSE_BYTES_PER_VALUE > len(data)


# The fast path's parse is one C call that holds the GIL throughout (about 3 ms per MB on
# the development machine); the exact reader's parser lets other threads run between
# objects. A process with a UI thread caps the fast path to what the UI can wait for.
_FAST_PATH_MAX_BYTES: ContextVar[int | None] = ContextVar("fast_path_max_bytes", default=None)


@contextmanager
def fast_path_limit(max_bytes: int) -> Iterator[None]:
    """Within the block (in this thread's context), read larger inputs than ``max_bytes``
    with the exact reader only, so that no single call holds the GIL for long.

    Same results either way; only the time and how long other threads wait differ. The
    window's worker reads files under such a limit.
    """
    token = _FAST_PATH_MAX_BYTES.set(max_bytes)
    try:
        yield
    finally:
        _FAST_PATH_MAX_BYTES.reset(token)


def _read_clean(data: bytes) -> ReadDocument | None:
    """The document §1 reads from ``data`` if the fast path (`core.reading_fast`) can
    vouch for it, else None."""
    vouched = fast_read(data)
    return None if vouched is None else ReadDocument(vouched[0], has_fractions=False)


def _read_exact(
    data: bytes, *, exact: bool = False, monitor: Monitor = NULL_MONITOR
) -> ReadDocument:
    """The exact reader: every check; raises the one refusal at the lowest offset."""
    # Only a refusal needs it (and it needs this module's ReadError).
    from zcf_inspector.core import first_problem  # noqa: PLC0415

    try:
        text = _decode(data)
    except ReadError as bad_byte:
        # Up to the first bad byte the input is UTF-8: what lies before it is looked at.
        head = data[: bad_byte.offset or 0]
        raise first_problem.earliest(
            head, head.decode("utf-8"), bad_byte, _depth_problem(head), exact=exact
        ) from None
    monitor.breathe()
    deep = _depth_problem(data, monitor)
    if deep is not None:
        raise first_problem.earliest(data, text, None, deep, exact=exact) from None
    parser = Parser(data, text, exact=exact, monitor=monitor)
    try:
        value = parser.run()
    except ReadError as found:
        raise first_problem.after_parse(data, text, found, exact=exact) from None
    return ReadDocument(value, parser.fractions > 0, parser.decimal_literals > 0)


def _depth_problem(data: bytes, monitor: Monitor = NULL_MONITOR) -> ReadError | None:
    try:
        check_depth(data, monitor)
    except ReadError as exc:
        return exc
    return None


def read_packet(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> dict[str, JsonValue]:
    """``read_json``, then refuse any top level that is not an object (``not_an_object``)."""
    value = read_packet_document(data, max_bytes=max_bytes).value
    assert isinstance(value, dict)
    return value


def read_packet_document(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> ReadDocument:
    """``read_document``, then refuse any top level that is not an object."""
    try:
        document = read_document(data, max_bytes=max_bytes)
    except ReadError as found:
        raise packet_refusal(found, data) from None
    return packet_document(document, data)


def packet_document(document: ReadDocument, data: bytes) -> ReadDocument:
    """``document`` (read from ``data``) if its top level is an object, else `not_an_object`."""
    value = document.value
    if not isinstance(value, dict):
        start = len(data) - len(bytes(data).lstrip(_JSON_WS))
        raise ReadError(
            ErrorCode.NOT_AN_OBJECT,
            f"the top level is {_kind(value)}, but a packet is a JSON object",
            offset=start,
            pointer="",
        )
    return document


_LEADING_WS: Final = re.compile(rb"[ \t\n\r]*")
# The first character of each kind of JSON value but an object, and how it reads.
_VALUE_STARTS: Final = {
    ord("["): "an array",
    ord('"'): "a string",
    ord("t"): "a boolean",
    ord("f"): "a boolean",
    ord("n"): "null",
    **{ord(c): "a number" for c in "-0123456789"},
}


def packet_refusal(found: ReadError, data: bytes) -> ReadError:
    """The refusal of ``data`` as a packet, when reading it refused ``found``: a top level
    that begins a value other than an object is `not_an_object` at that value's first byte,
    the lowest offset of any problem inside it (clarification of 2026-12-07: ``[{"a": 1,
    "a": 2}]`` is not_an_object at 0). The size limit comes first whatever the bytes hold,
    and a problem before the value (a byte-order mark, a bad byte) stays the problem."""
    if found.code is ErrorCode.PACKET_TOO_LARGE:
        return found
    start = _LEADING_WS.match(data).end()  # type: ignore[union-attr]  # it matches ""
    kind = _VALUE_STARTS.get(data[start]) if start < len(data) else None
    if kind is None or (found.offset is not None and found.offset <= start):
        return found
    return ReadError(
        ErrorCode.NOT_AN_OBJECT,
        f"the top level is {kind}, but a packet is a JSON object",
        offset=start,
        pointer="",
    )


# --- encoding ---------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    if data.startswith(_BOM):
        raise ReadError(
            ErrorCode.INVALID_ENCODING,
            "the input starts with a UTF-8 byte-order mark (EF BB BF), which is not allowed",
            offset=0,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(
            ErrorCode.INVALID_ENCODING, _utf8_message(data, exc), offset=exc.start
        ) from None


def _utf8_message(data: bytes, exc: UnicodeDecodeError) -> str:
    start = exc.start
    if start == 0 and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "the input starts with a UTF-16/UTF-32 byte-order mark; a packet is UTF-8"
    if data[start] == 0xED and b"\xa0" <= data[start + 1 : start + 2] <= b"\xbf":
        spelled = " ".join(f"0x{b:02x}" for b in data[start : start + 3])
        return f"bytes {spelled} at offset {start} encode a surrogate, which UTF-8 forbids"
    bad = data[start : max(exc.end, start + 1)]
    spelled = " ".join(f"0x{b:02x}" for b in bad)
    verb = "byte {} at offset {} is" if len(bad) == 1 else "bytes {} at offset {} are"
    return f"{verb.format(spelled, start)} not valid UTF-8 ({exc.reason})"


def _kind(value: JsonValue) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"
