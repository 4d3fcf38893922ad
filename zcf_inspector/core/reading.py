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
- ``invalid_json`` — where the parser finds the text cannot go on (``NaN``/``Infinity``
  included; an unterminated string: where it starts);
- ``duplicate_key`` — the repeated key (the second and later spellings of a key in one
  object);
- ``nesting_too_deep`` — the ``[``/``{`` that opens a 129th level (found before parsing,
  so hostile nesting never reaches the parser);
- ``number_out_of_range`` — the number (not in exact mode, below).

Only a refused input pays for the search: an accepted one is parsed once, as before; a
refused one is read again up to the problem first found, to see whether another lies
before it (`core.first_problem`).

**Exact mode** (``exact=True``, for ASIF documents): numbers are kept exactly
(`core.exact_numbers`: ``int`` of any size, else ``decimal.Decimal``), and the ±2^53
rule, which is the ZCF profile's, does not apply. Every other rule and bound is the same.

A ``ReadError`` carries the byte offset into the input (and, for duplicate keys and
numbers, the RFC 6901 pointer of the offending member/value).

Two paths, one verdict. A fast path tries first: orjson builds the value straight from
the bytes, and cheap checks decide whether §1 accepts that very value (see "the fast path"
below). It only ever says "clean": on any doubt it steps aside and the exact reader reads
the input again, and only the exact reader refuses, with the code, offset and pointer
above. Tests hold both paths to the same verdict and the same value on every vector.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import accumulate, chain, compress, repeat
from typing import Final, TypeVar

from zcf_inspector.core import headroom
from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import InputError, ZcfError
from zcf_inspector.core.exact_numbers import exact_number, parse_exact_int
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER, JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.read_error import ReadError

try:  # the fast path's parser; without it every input takes the exact path
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency: the tests run with it
    _orjson = None  # type: ignore[assignment]

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER",
    "ReadDocument",
    "ReadError",
    "fast_path_limit",
    "packet_document",
    "read_document",
    "read_json",
    "read_packet",
    "read_packet_document",
]

DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024
MAX_DEPTH: Final = 128

_T = TypeVar("_T")

_BOM: Final = b"\xef\xbb\xbf"
_JSON_WS: Final = b" \t\n\r"
_INF: Final = float("inf")


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
    parser = _Parser(data, text, exact=exact, monitor=monitor)
    try:
        value = parser.run()
    except ReadError as found:
        raise first_problem.after_parse(data, text, found, exact=exact) from None
    return ReadDocument(value, parser.fractions > 0, parser.decimal_literals > 0)


def _depth_problem(data: bytes, monitor: Monitor = NULL_MONITOR) -> ReadError | None:
    try:
        _check_depth(data, monitor)
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
    return packet_document(read_document(data, max_bytes=max_bytes), data)


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


# --- nesting ----------------------------------------------------------------------------
#
# The depth check must run before the recursive C parser sees the text, and it must not
# loop over 50 MB in Python. It works on chunks of the raw bytes with C-level operations
# (translate, replace, split, accumulate) and decides which brackets are outside strings:
#
# - every byte is deleted except quotes, brackets, backslashes and the bytes that may
#   follow a backslash in JSON (``"\\/bfnrtu``, the letters mapped to one stand-in), so
#   each escape keeps its second byte and an odd backslash run never merges with another;
# - "\\" pairs are dropped (left to right), then '\"' pairs: the quotes left delimit
#   strings, and adjacent quote pairs ('""') are dropped as they change no bracket's side.
#
# On any valid JSON prefix this is exactly the JSON view, so the parser never nests deeper
# than this check allows. A bracket's side depends only on the bytes before it, which
# makes chunking (at boundaries no escape straddles) and bisection exact.

_DEPTH_CHUNK: Final = 1 << 20
# The ':' is kept too, for the fast path's count of members (see _members_written).
_ESCAPE_BYTES: Final = b'\\"[]{}:/bfnrtu'
_DROP_FOR_ESCAPES: Final = bytes(b for b in range(256) if b not in _ESCAPE_BYTES)
_ESCAPE_LETTERS: Final = bytes.maketrans(b"/bfnrtu", b"aaaaaaa")
_KEEP_STRUCTURE: Final = bytes(b for b in range(256) if b not in b'"[]{}')  # delete set
_KEEP_COLONS: Final = bytes(b for b in range(256) if b not in b'":')  # delete set
# Opening brackets become +1 and closing ones -1 once the bytes are read as signed chars.
_BRACKET_STEP: Final = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_BACKSLASH_RUN: Final = re.compile(rb"\\*")


def _check_depth(data: bytes, monitor: Monitor = NULL_MONITOR) -> None:
    depth = 0
    in_string = False
    start = 0
    while start < len(data):
        monitor.breathe()
        end = _chunk_end(data, start + _DEPTH_CHUNK)
        chunk = data[start:end]
        deepest, after, in_string_after = _chunk_depth(chunk, depth, in_string)
        if deepest > MAX_DEPTH:
            offset = start + _first_too_deep(chunk, depth, in_string)
            raise ReadError(
                ErrorCode.NESTING_TOO_DEEP,
                f"nesting deeper than {MAX_DEPTH} arrays/objects at byte {offset}",
                offset=offset,
            )
        depth, in_string, start = after, in_string_after, end


def _chunk_end(data: bytes, end: int) -> int:
    """Move a chunk boundary so that no backslash escape straddles it."""
    if end >= len(data):
        return len(data)
    if data[end - 1] == 0x5C:  # a backslash: end after the byte that its run escapes
        run = _BACKSLASH_RUN.match(data, end)
        assert run is not None
        return min(run.end() + 1, len(data))
    return end


def _outside_strings(chunk: bytes, in_string: bool, delete: bytes) -> tuple[bytes, bool]:
    """The bytes of ``chunk`` that ``delete`` spares and that lie outside string literals,
    in order; and whether a string is open at the end (``in_string``: at the start)."""
    # One-byte search first: memchr is far faster than a two-byte search on 1 MiB.
    if b"\\" in chunk and b'\\"' in chunk:  # otherwise no quote can be escaped
        chunk = chunk.translate(_ESCAPE_LETTERS, _DROP_FOR_ESCAPES)
        if b"\\\\" in chunk:
            chunk = chunk.replace(b"\\\\", b"")
        chunk = chunk.replace(b'\\"', b"")
    # Dropping two adjacent quotes changes no byte's side, and removes most strings.
    marks = chunk.translate(None, delete).replace(b'""', b"")
    if b'"' in marks:
        parts = marks.split(b'"')
        in_string_after = in_string != (len(parts) % 2 == 0)
        return b"".join(parts[1::2] if in_string else parts[::2]), in_string_after
    return (b"" if in_string else marks), in_string


def _chunk_depth(chunk: bytes, depth: int, in_string: bool) -> tuple[int, int, bool]:
    """(deepest level reached, level at the end, inside a string at the end)."""
    marks, in_string_after = _outside_strings(chunk, in_string, _KEEP_STRUCTURE)
    steps = memoryview(marks.translate(_BRACKET_STEP)).cast("b")
    if not steps:
        return depth, depth, in_string_after
    levels = list(accumulate(steps, initial=depth))
    return max(levels), levels[-1], in_string_after


def _first_too_deep(chunk: bytes, depth: int, in_string: bool) -> int:
    """Bisect for the shortest prefix of ``chunk`` that goes too deep; its last byte."""
    low, high = 0, len(chunk)  # chunk[:low] stays within the limit, chunk[:high] does not
    while high - low > 1:
        middle = (low + high) // 2
        if _chunk_depth(chunk[:middle], depth, in_string)[0] > MAX_DEPTH:
            high = middle
        else:
            low = middle
    return high - 1


# --- the fast path ----------------------------------------------------------------------
#
# orjson parses bytes as strictly as RFC 8259 asks (trailing data, comments, NaN, leading
# zeros, control characters: all refused) and refuses a byte-order mark, bytes that are not
# UTF-8 (overlong forms and encoded surrogates included) and numbers beyond a double. What
# §1 adds is checked here, each in a few C-level passes and never a Python step per value:
#
# - a surrogate escape anywhere (a search of the raw bytes): a doubt, whether lone or
#   paired, so that this rule never rests on one version of one library;
# - nesting and numbers: one walk over the parsed value, a level at a time: the depth is
#   the number of levels; a level holding a float (the exact reader decides how a
#   non-integer literal reads) or an int beyond ±(2^53 - 1) is a doubt;
# - repeated keys: orjson keeps one member per key, so an object that repeats a key comes
#   back with fewer members than it wrote. The walk sums the members of every object, and
#   the bytes say how many members were written: exactly one ':' outside string literals
#   per member, counted with the string-aware pass of the nesting check. Equal sums: no
#   object repeats a key.

_ALLOWED_KINDS: Final = frozenset({dict, list, str, int, bool, type(None)})
_FEW_CONTAINERS: Final = 64


def _read_clean(data: bytes) -> ReadDocument | None:
    """The document §1 reads from ``data`` if the fast path can vouch for it, else None."""
    if _orjson is None or (b"\\" in data and _SURROGATE_ESCAPE_HINT.search(data)):
        return None
    if headroom.limited():
        # Under a memory limit orjson's allocator crashes the process where the exact
        # reader raises MemoryError (core.headroom): same verdict, slower, in words.
        return None
    try:
        value: JsonValue = _orjson.loads(data)
    except _orjson.JSONDecodeError:
        return None
    members = _plain_members(value)
    if members is None or members != _members_written(data):
        return None
    return ReadDocument(value, has_fractions=False)


def _plain_members(value: JsonValue) -> int | None:
    """How many members the objects in ``value`` hold; None if §1 might object to it.

    Breadth-first, a level at a time: each level is a few passes of ``map``, ``set`` and
    ``compress`` over the values the level above holds, so no Python code runs per value.
    A level held by few containers is taken container by container (a large array of
    objects is then seen to hold only objects without sorting it out from its siblings).
    """
    groups: list[Iterable[JsonValue]] = [(value,)]  # each can be iterated again
    members = 0
    level = 0  # of the containers the groups' values may include
    while True:
        dicts: list[dict[str, JsonValue]] = []
        lists: list[list[JsonValue]] = []
        for group in groups:
            kinds = set(map(type, group))
            if not kinds <= _ALLOWED_KINDS:
                return None
            if int in kinds and not _safe_ints(iter(group)):
                return None
            if dict in kinds or list in kinds:
                found_dicts, found_lists = _containers(iter(group), kinds)
                dicts += found_dicts
                lists += found_lists
        if not dicts and not lists:
            return members
        level += 1
        if level > MAX_DEPTH:
            return None
        members += sum(map(len, dicts))
        if len(dicts) + len(lists) <= _FEW_CONTAINERS:
            groups = [*map(dict.values, dicts), *lists]
        else:
            groups = [_LevelValues(dicts, lists)]


class _LevelValues:
    """The values many containers hold, as one group that can be iterated again."""

    __slots__ = ("dicts", "lists")

    def __init__(self, dicts: list[dict[str, JsonValue]], lists: list[list[JsonValue]]) -> None:
        self.dicts = dicts
        self.lists = lists

    def __iter__(self) -> Iterator[JsonValue]:
        return _level_values(self.dicts, self.lists)


def _level_values(
    dicts: list[dict[str, JsonValue]], lists: list[list[JsonValue]]
) -> Iterator[JsonValue]:
    """The values the containers of one level hold: the next level down."""
    if not lists:  # most levels hold one kind: one iterator less per value
        return chain.from_iterable(map(dict.values, dicts))
    if not dicts:
        return chain.from_iterable(lists)
    return chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists))


def _safe_ints(values: Iterator[JsonValue]) -> bool:
    """Whether every int among ``values`` is within ±(2^53 - 1) (bools pass, as 0 and 1)."""
    found = list(values)
    ints: list[int] = list(compress(found, map(isinstance, found, repeat(int))))  # type: ignore[arg-type]
    return min(ints) >= -MAX_SAFE_INTEGER and max(ints) <= MAX_SAFE_INTEGER


def _containers(
    values: Iterator[JsonValue], kinds: set[type]
) -> tuple[list[dict[str, JsonValue]], list[list[JsonValue]]]:
    """The objects and the arrays among ``values``, whose types are ``kinds``."""
    if kinds == {dict}:
        return list(values), []  # type: ignore[arg-type]
    if kinds == {list}:
        return [], list(values)  # type: ignore[arg-type]
    found = list(values)
    dicts = list(compress(found, map(isinstance, found, repeat(dict))))
    lists = list(compress(found, map(isinstance, found, repeat(list))))
    return dicts, lists  # type: ignore[return-value]


def _members_written(data: bytes) -> int:
    """How many object members well-formed JSON ``data`` writes: its ':' outside strings."""
    count = 0
    in_string = False
    start = 0
    while start < len(data):
        end = _chunk_end(data, start + _DEPTH_CHUNK)
        marks, in_string = _outside_strings(data[start:end], in_string, _KEEP_COLONS)
        count += marks.count(b":")
        start = end
    return count


# --- parsing ----------------------------------------------------------------------------

_SURROGATE_ESCAPE_HINT: Final = re.compile(rb"\\u[dD][89a-fA-F]")
# Consumes text up to the first lone surrogate escape. Only used on text that already
# parsed, where every backslash starts a well-formed escape inside a string literal.
# Nothing follows the loop, so the greedy match never backtracks; no possessive
# quantifiers: CPython before 3.11.5 mishandles them next to lookaheads (gh-100061).
_UP_TO_LONE_SURROGATE: Final = re.compile(
    r"(?:[^\\]+"
    r"|\\[^u]"
    r"|\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4}"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    r")*",
    re.DOTALL,
)
_WS_RE: Final = re.compile(r"[ \t\n\r]*")


class _ConstantError(ZcfError):
    """Raised inside the parser to stop at ``NaN``/``Infinity``, which RFC 8259 lacks."""


class _OutOfRange:
    """Stands in for a number §1 refuses, so the refusal can be located after parsing."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _refuse_constant(name: str) -> JsonValue:
    raise _ConstantError(name)


# The exact reader's parser is one C call; it comes back to Python only through its hooks
# (per object and per number), so a watched read checks its monitor every this many hooks.
_HOOKS_PER_CHECK: Final = 4096


class _Parser:
    def __init__(
        self, data: bytes, text: str, *, exact: bool = False, monitor: Monitor = NULL_MONITOR
    ) -> None:
        self.data = data
        self.text = text
        self.exact = exact
        self.monitor = monitor
        self.calls = 0
        self.duplicated: list[dict[str, JsonValue]] = []
        self.out_of_range = 0
        self.fractions = 0  # non-integral numbers read (they need ES6 formatting)
        self.decimal_literals = 0  # numbers written with a fraction or an exponent

    def run(self) -> JsonValue:
        value = self._parse()
        self._check_surrogates()
        if self.duplicated:
            self._refuse_duplicate(value)
        if self.out_of_range:
            self._refuse_number(value)
        return value

    def _parse(self) -> JsonValue:
        # Hooks cost a Python call per object and per number; measured, that is cheap for
        # packets (few numbers) and about +35% parse time for a document of only integers.
        on_object: Callable[[list[tuple[str, JsonValue]]], JsonValue] = self._object
        on_float: Callable[[str], JsonValue] = self._exact_float if self.exact else self._float
        on_int: Callable[[str], JsonValue] = self._exact_int if self.exact else self._int
        if self.monitor is not NULL_MONITOR:
            # Only a watched read pays for the count (a few percent on a dense input).
            on_object = self._watched(on_object)
            on_float, on_int = self._watched(on_float), self._watched(on_int)
        decoder = json.JSONDecoder(
            object_pairs_hook=on_object,
            parse_float=on_float,
            parse_int=on_int,
            parse_constant=_refuse_constant,
        )
        try:
            value: JsonValue = decoder.decode(self.text)
        except json.JSONDecodeError as exc:
            offset = self._byte_offset(exc.pos)
            what = exc.msg.removesuffix(" at")  # "Unterminated string starting at"
            raise ReadError(
                ErrorCode.INVALID_JSON,
                f"not RFC 8259 JSON: {what} at byte {offset} "
                f"(line {exc.lineno}, column {exc.colno})",
                offset=offset,
            ) from None
        except _ConstantError as exc:
            where = self._constant_offset()
            raise ReadError(
                ErrorCode.INVALID_JSON,
                f"not RFC 8259 JSON: {exc.args[0]} at byte {where} is not a JSON value",
                offset=where,
            ) from None
        except RecursionError:
            # _check_depth bounds the nesting, so only a caller already deep in its own
            # stack can get here; still a refusal, never a crash.
            raise ReadError(
                ErrorCode.NESTING_TOO_DEEP, "nesting too deep for the parser's stack"
            ) from None
        return value

    # Hooks: they record problems instead of raising, so that a syntax error anywhere in
    # the text is still the one reported (see the module docstring for the order).

    def _watched(self, hook: Callable[[_T], JsonValue]) -> Callable[[_T], JsonValue]:
        """``hook``, checking the monitor every `_HOOKS_PER_CHECK` calls of any hook: a
        `Cancelled` raised in a hook goes up through the C parser, and nothing is kept."""

        def watched(argument: _T) -> JsonValue:
            self.calls += 1
            if not self.calls % _HOOKS_PER_CHECK:
                self.monitor.breathe()
            return hook(argument)

        return watched

    def _object(self, pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            self.duplicated.append(obj)
        return obj

    def _float(self, literal: str) -> JsonValue:
        self.decimal_literals += 1
        value = float(literal)
        if value.is_integer():
            if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                return int(value)
        elif value not in (_INF, -_INF):
            self.fractions += 1
            return value
        self.out_of_range += 1
        return _OutOfRange(literal)  # type: ignore[return-value]

    def _exact_float(self, literal: str) -> JsonValue:
        self.decimal_literals += 1
        value = exact_number(literal)
        if not isinstance(value, int) or not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            self.fractions += 1  # canonical() needs its careful path for it
        return value

    def _exact_int(self, literal: str) -> JsonValue:
        value = parse_exact_int(literal)
        if not isinstance(value, int) or not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            self.fractions += 1
        return value

    def _int(self, literal: str) -> JsonValue:
        # 17 characters hold any sign plus 16 digits; longer literals are ≥ 10^16 > 2^53,
        # and never reach int(), whose digit limit would raise ValueError.
        if len(literal) <= 17:
            value = int(literal)
            if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
                return value
        self.out_of_range += 1
        return _OutOfRange(literal)  # type: ignore[return-value]

    # --- locating refusals (only ever on the refusal path) --------------------------

    def _byte_offset(self, index: int) -> int:
        if len(self.text) == len(self.data):  # pure ASCII: characters are bytes
            return index
        return len(self.text[:index].encode("utf-8"))

    def _constant_offset(self) -> int | None:
        # The parser stopped at the first NaN/Infinity outside strings without saying
        # where. Spoiling every such spelling (same length, so strings before it stay
        # valid and positions stay put) turns it into a syntax error that carries its
        # position; nothing before it changes, so the parse fails exactly there.
        spoiled = self.text.replace("NaN", "NaX").replace("Infinity", "Infinitx")
        try:
            json.JSONDecoder(parse_int=str, parse_float=str).decode(spoiled)
        except json.JSONDecodeError as exc:
            return self._byte_offset(exc.pos)
        return None  # pragma: no cover - unreachable by the argument above

    def _check_surrogates(self) -> None:
        if not _SURROGATE_ESCAPE_HINT.search(self.data):
            return
        text = self.text
        match = _UP_TO_LONE_SURROGATE.match(text)
        if match is None or match.end() == len(text):
            return
        index = match.end()
        offset = self._byte_offset(index)
        escape = text[index : index + 6]
        high = escape[3] in "89abAB"
        what = "a high surrogate not followed by a low one" if high else "a lone low surrogate"
        raise ReadError(
            ErrorCode.INVALID_ENCODING,
            f"the escape {escape} at byte {offset} is {what}; strings must be Unicode text",
            offset=offset,
        )

    def _refuse_duplicate(self, value: JsonValue) -> None:
        targets = {id(obj) for obj in self.duplicated}
        path = _find_first(value, lambda v: id(v) in targets)
        if path is None:  # pragma: no cover - defensive: a dropped object has a dup parent
            raise ReadError(ErrorCode.DUPLICATE_KEY, "an object repeats a key")
        start = _Locator(self.text).value_at(path)
        key, index = _Locator(self.text).first_repeated_key(start)
        where = jpointer.join(*path)
        offset = self._byte_offset(index)
        raise ReadError(
            ErrorCode.DUPLICATE_KEY,
            f"duplicate key {key!r} in the object at {where or '/'} (byte {offset})",
            offset=offset,
            pointer=jpointer.child(where, key),
        )

    def _refuse_number(self, value: JsonValue) -> None:
        path = _find_first(value, lambda v: isinstance(v, _OutOfRange))
        if path is None:  # pragma: no cover - defensive
            raise ReadError(ErrorCode.NUMBER_OUT_OF_RANGE, "a number is out of range")
        literal = _literal_at(value, path)
        offset = self._byte_offset(_Locator(self.text).value_at(path))
        shown = literal if len(literal) <= 40 else literal[:20] + "…" + literal[-10:]
        if abs(float(literal)) == _INF:
            why = "is beyond the range of a double"
        else:
            why = f"is integral and its magnitude exceeds 2^53 - 1 ({MAX_SAFE_INTEGER})"
        raise ReadError(
            ErrorCode.NUMBER_OUT_OF_RANGE,
            f"the number {shown} at byte {offset} {why}",
            offset=offset,
            pointer=jpointer.join(*path),
        )


def _literal_at(value: JsonValue, path: list[str | int]) -> str:
    current: object = value
    for part in path:
        assert isinstance(current, dict | list)
        current = current[part]  # type: ignore[index]
    assert isinstance(current, _OutOfRange)
    return current.literal


def _find_first(value: JsonValue, wanted: Callable[[object], bool]) -> list[str | int] | None:
    """The path of the first value (pre-order, i.e. document order) that ``wanted`` picks.

    Depth-first with one iterator per open container, so no path is built for the values
    merely passed over.
    """
    if wanted(value):
        return []
    path: list[str | int] = []
    frames: list[Iterator[tuple[str | int, object]]] = [_children(value)]
    while frames:
        for key, child in frames[-1]:
            if wanted(child):
                return [*path, key]
            if isinstance(child, dict | list) and child:
                path.append(key)
                frames.append(_children(child))
                break
        else:
            frames.pop()
            if path:
                path.pop()
    return None


def _children(value: object) -> Iterator[tuple[str | int, object]]:
    if isinstance(value, dict):
        return iter(value.items())
    if isinstance(value, list):
        return enumerate(value)
    return iter(())


class _Locator:
    """Walks well-formed JSON text along a path, skipping values with the C scanner."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Skipped values are never kept, so numbers stay strings (no int-digit limit).
        self.decoder = json.JSONDecoder(parse_int=str, parse_float=str)

    def _ws(self, index: int) -> int:
        match = _WS_RE.match(self.text, index)
        assert match is not None
        return match.end()

    def _skip(self, index: int) -> int:
        return self._ws(self.decoder.raw_decode(self.text, index)[1])

    def _members(self, start: int) -> Iterator[tuple[str, int, int]]:
        """(key, key offset, value offset) of each member of the object at ``start``."""
        index = self._ws(start + 1)
        if self.text[index] == "}":
            return
        while True:
            key, after = self.decoder.raw_decode(self.text, index)
            value_at = self._ws(self._ws(after) + 1)  # past the ':'
            yield key, index, value_at
            index = self._skip(value_at)
            if self.text[index] == "}":
                return
            index = self._ws(index + 1)

    def value_at(self, path: list[str | int]) -> int:
        index = self._ws(0)
        for part in path:
            if isinstance(part, int):
                index = self._ws(index + 1)
                for _ in range(part):
                    index = self._ws(self._skip(index) + 1)
            else:
                # Objects on the path to a refusal repeat no key (a repeat would itself be
                # the refusal, found first), so the first match is the only one.
                index = next(v for k, _, v in self._members(index) if k == part)
        return index

    def first_repeated_key(self, start: int) -> tuple[str, int]:
        seen: set[str] = set()
        for key, key_at, _ in self._members(start):
            if key in seen:
                return key, key_at
            seen.add(key)
        raise AssertionError("no repeated key in an object the parser saw repeat one")


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
