"""``ZCF-JSON-v1`` canonical bytes (profile §2).

Members are sorted by code point (Python's ``str`` order), strings are escaped exactly as
the C ``json`` encoder does with ``ensure_ascii=False`` (``"``, ``\\``, the five short
escapes, ``\\u00xx`` in lowercase for other controls, everything else literal), integral
numbers are plain integers and other numbers follow ECMAScript ``Number.prototype.toString``.

``canonical`` is defined on what ``read_json`` can return: it raises ``ValueError`` for a
value §1 could never produce — NaN or infinity, a non-``str`` key, a type other than
dict/list/str/int/float/bool/None (and their subclasses, except of ``bool``), a lone
surrogate in a string, an integral number of magnitude above 2^53 - 1, or nesting deeper
than 128 (which also rules out cycles). So whatever it writes, a §1 reader reads back.

Speed: one Python pass checks the value, then a C encoder writes the bytes: orjson when it
is installed (about ten times faster than the stdlib encoder on Python 3.11), else the
stdlib ``json`` encoder. Both give the same bytes for strings, integers, literals and key
order (the tests pin this over every code point); neither is trusted with floats beyond
this: the stdlib ``repr`` of a float is its ECMAScript spelling except for integral floats
(``1.0``) and non-integral ones below 1e-4 in magnitude (``1e-05``), and orjson is never
given a float. Those floats are replaced, in a copy, by ints (integral ones) or numbered
placeholder strings, which are swapped for their ECMAScript text in the output. If the
output holds any placeholder-looking string other than exactly the ones placed (a string
in the value mimicked one), the slow reference encoder writes the whole value instead.

The check of the value (is it one §1 could produce; where are its floats) is
`core.canonical_check`.

Memory: a placeholder costs about 200 bytes while the bytes are made, so a value with
more than `FLOATS_PER_PIECE` floats is encoded in pieces (its large arrays in runs, its
large objects member by member), each with at most that many: 64 MB of ``[0.5, ...]``
once peaked at 8.7 GB. `iter_canonical` hands the pieces out one by one (the CLI writes
them as they come), `canonical` joins them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Container, Iterator
from decimal import Decimal
from typing import Final

from zcf_inspector.core import headroom
from zcf_inspector.core.canonical_check import CARE_MASK, check, float_needs_care
from zcf_inspector.core.errors import FormatError
from zcf_inspector.core.exact_numbers import ecmascript_layout, exact_number_text
from zcf_inspector.core.jsontypes import JsonValue

__all__ = [
    "canonical",
    "canonical_chunked",
    "canonical_exact",
    "canonical_pieces",
    "es6_number",
    "iter_canonical",
]

try:  # optional: the stdlib C encoder is the reference; orjson only makes it faster
    import orjson as _orjson
except ImportError:  # pragma: no cover - the test environment has orjson
    _orjson = None  # type: ignore[assignment]
# Tests switch this off to pin the stdlib path to the same bytes.
_orjson_enabled = True

_MAX_DEPTH: Final = 128
_INF: Final = math.inf

_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False,
    sort_keys=True,
    separators=(",", ":"),
    allow_nan=False,
    check_circular=False,  # the depth limit already refuses cycles
)
_encode_string: Final = json.encoder.encode_basestring  # the C escaper with ensure_ascii off

# A placeholder is the JSON string "~zcf-es6-number#<n>#~": it needs no escaping, so each
# placed one appears in the output exactly once as written. Its first character cannot
# follow the closing quote of a value and its last cannot precede an opening one (neither
# is one of ',:[]{}'), so a look-alike inside a real string never overlaps a placed one:
# the output holds exactly the placed ones iff the mark occurs exactly that many times
# and each occurrence is a well-formed placeholder with a distinct, placed number.
_MARK_OPEN: Final = "~zcf-es6-number#"
_MARK_CLOSE: Final = "#~"
_MARK_START: Final = b'"' + _MARK_OPEN.encode()
_MARK_TAIL: Final = re.compile(b"([0-9]{1,18})" + re.escape(_MARK_CLOSE.encode()) + b'"')


# Floats (placeholders) at most in one encoder call: a few MB of bookkeeping at most.
FLOATS_PER_PIECE: Final = 16_384


def canonical(value: JsonValue) -> bytes:
    """The ``ZCF-JSON-v1`` bytes of ``value``; ``ValueError`` if §1 could not produce it."""
    pieces = iter_canonical(value)
    first = next(pieces)
    rest = list(pieces)
    return first if not rest else b"".join([first, *rest])


def canonical_exact(value: JsonValue) -> bytes:
    """``canonical(value)``, extended to the values of the reader's exact mode (ASIF
    documents): an int of any size is written in full, a ``Decimal`` with all its exact
    digits laid out as ECMAScript lays out a number (`exact_number_text`). A value
    `canonical` accepts gets exactly its bytes; no other value is ever rounded.

    §2 defines no bytes for numbers a double cannot hold (§1 refuses them in a packet):
    this is the extension the window's canonical-bytes pane shows for such documents.
    """
    try:
        return canonical(value)
    except FormatError:
        pass
    _check_exact(value, 0)
    return _utf8(_encode_exact(value))


def _check_exact(value: object, depth: int) -> None:
    """`canonical_check.check`'s rules less the ±2^53 bound, with ``Decimal`` allowed
    (finite only)."""
    if isinstance(value, dict):
        if depth >= _MAX_DEPTH:
            raise FormatError(f"nesting deeper than {_MAX_DEPTH}")
        for key, member in value.items():
            if not isinstance(key, str):
                raise FormatError(f"an object key must be a string, not {type(key).__name__}")
            _check_exact(member, depth + 1)
    elif isinstance(value, list):
        if depth >= _MAX_DEPTH:
            raise FormatError(f"nesting deeper than {_MAX_DEPTH}")
        for item in value:
            _check_exact(item, depth + 1)
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise FormatError(f"{value} is not a JSON number")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise FormatError(f"{value!r} is not a JSON number")
    elif not (value is None or isinstance(value, str | int)):
        raise FormatError(f"{type(value).__name__} is not a JSON value")


def iter_canonical(value: JsonValue) -> Iterator[bytes]:
    """``canonical(value)`` in pieces, each made with bounded extra memory (see the module
    docstring); ``ValueError`` at once if §1 could not produce ``value``."""
    holders: dict[int, int] = {}
    counts = check(value, 0, holders)
    fast = _orjson is not None and _orjson_enabled and not _memory_capped()
    if counts & CARE_MASK or (counts and fast):
        # orjson spells floats its own way, so on that path every float is a placeholder.
        return _float_pieces(value, holders, every_float=fast)
    return iter((_encode(value),))


def _float_count(value: object, holders: dict[int, int]) -> int:
    kind = type(value)
    if kind is float:
        return 1
    if kind is dict or kind is list:
        return holders.get(id(value), 0)
    return 1 if isinstance(value, float) else 0


def _float_pieces(
    value: JsonValue, holders: dict[int, int], *, every_float: bool
) -> Iterator[bytes]:
    if _float_count(value, holders) <= FLOATS_PER_PIECE:
        yield _encode_with_placeholders(value, holders, every_float=every_float)
    elif isinstance(value, list):
        yield b"["
        runs = _runs(((None, item) for item in value), holders)
        for index, (run, large) in enumerate(runs):
            if index:
                yield b","
            if large is not None:
                yield from _float_pieces(large[1], holders, every_float=every_float)
            else:
                items = [item for _, item in run]
                yield _encode_run(items, run, holders, every_float)[1:-1]
        yield b"]"
    else:
        assert isinstance(value, dict)
        yield b"{"
        runs = _runs(((key, value[key]) for key in sorted(value)), holders)
        for index, (run, large) in enumerate(runs):
            if index:
                yield b","
            if large is not None:
                key, member = large
                yield _encode(key) + b":"
                yield from _float_pieces(member, holders, every_float=every_float)
            else:
                members: dict[str, JsonValue] = {str(key): member for key, member in run}
                yield _encode_run(members, run, holders, every_float)[1:-1]
        yield b"}"


Entry = tuple[str | None, JsonValue]


def _runs(
    entries: Iterator[Entry], holders: dict[int, int]
) -> Iterator[tuple[list[Entry], Entry | None]]:
    """Entries grouped into runs of at most `FLOATS_PER_PIECE` floats (and `CHUNK_ITEMS`
    entries); an entry with more floats than that comes alone, as ``(_, entry)``."""
    run: list[Entry] = []
    floats = 0
    for entry in entries:
        count = _float_count(entry[1], holders)
        if count > FLOATS_PER_PIECE:
            if run:
                yield run, None
                run, floats = [], 0
            yield [], entry
            continue
        if run and (floats + count > FLOATS_PER_PIECE or len(run) >= CHUNK_ITEMS):
            yield run, None
            run, floats = [], 0
        run.append(entry)
        floats += count
    if run:
        yield run, None


def _encode_run(
    container: JsonValue, run: list[Entry], holders: dict[int, int], every_float: bool
) -> bytes:
    floats = sum(_float_count(member, holders) for _, member in run)
    holders[id(container)] = floats  # a new container: say what it holds, for the copy
    try:
        return _encode_with_placeholders(container, holders, every_float=every_float)
    finally:
        del holders[id(container)]


CHUNK_ITEMS: Final = 2048


def canonical_chunked(
    value: JsonValue,
    chunk_items: int = CHUNK_ITEMS,
    *,
    between: Callable[[], None] | None = None,
    reader_plain: bool = False,
) -> bytes:
    """The same bytes as ``canonical(value)``, made in pieces of bounded size.

    A 50 MB section in one encoder call holds the GIL for over 100 ms, which freezes the
    window's UI thread while a worker hashes. So objects are encoded member by member
    (their spine is short) and long arrays or objects a slice at a time.

    ``reader_plain`` promises that ``value`` is what the strict reader returned for a
    document without non-integral numbers (`ReadDocument.has_fractions` false): every
    check canonical() makes has then been made by the reader, so the pieces go straight
    to the encoder. That pass was most of the manifest's time on a 50 MB packet.
    """
    return b"".join(
        canonical_pieces(value, chunk_items, between=between, reader_plain=reader_plain)
    )


def canonical_pieces(
    value: JsonValue,
    chunk_items: int = CHUNK_ITEMS,
    *,
    between: Callable[[], None] | None = None,
    reader_plain: bool = False,
) -> list[bytes | memoryview]:
    """``canonical_chunked``'s pieces, not yet joined: their concatenation is the bytes.

    For a caller that only hashes the bytes, which then need not exist in one piece (on a
    50 MB section, joining is a copy of 50 MB).
    """
    parts: list[bytes | memoryview] = []
    encode = _encode if reader_plain else canonical
    _chunked_into(value, chunk_items, parts, between or _nothing, encode)
    return parts


def _nothing() -> None:
    return None  # one copy of the whole: every extra one is a long GIL hold


def _chunked_into(
    value: JsonValue,
    chunk_items: int,
    parts: list[bytes | memoryview],
    between: Callable[[], None],
    encode: Callable[[JsonValue], bytes],
) -> None:
    if isinstance(value, list) and len(value) > chunk_items:
        # Each slice encodes as "[...]"; their insides joined by "," are the whole array.
        # (A view of the inside: slicing the bytes would copy each piece once more.)
        parts.append(b"[")
        for start in range(0, len(value), chunk_items):
            if start:
                parts.append(b",")
            parts.append(memoryview(encode(value[start : start + chunk_items]))[1:-1])
            between()
        parts.append(b"]")
    elif isinstance(value, dict) and value and all(type(k) is str for k in value):
        keys = sorted(value)  # code-point order, as canonical() sorts
        parts.append(b"{")
        if len(keys) > chunk_items:
            for start in range(0, len(keys), chunk_items):
                if start:
                    parts.append(b",")
                piece = {k: value[k] for k in keys[start : start + chunk_items]}
                parts.append(memoryview(encode(piece))[1:-1])
                between()
        else:
            for index, key in enumerate(keys):
                if index:
                    parts.append(b",")
                parts.append(encode(key) + b":")
                _chunked_into(value[key], chunk_items, parts, between, encode)
        parts.append(b"}")
    else:  # scalars, short arrays, and objects canonical() must refuse (non-str keys)
        parts.append(encode(value))


def es6_number(value: float) -> str:
    """``value`` as ECMAScript ``Number.prototype.toString`` writes it (finite values only)."""
    if not math.isfinite(value):
        raise FormatError(f"{value!r} is not a JSON number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest round-trip digits (ties to the closest, like ECMAScript);
    # only the layout differs, so rebuild it from digits and a decimal exponent.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    significant = digits.lstrip("0")
    # value = 0.<significant> * 10**point
    point = len(whole) + (int(exponent) if exponent else 0) - (len(digits) - len(significant))
    return sign + ecmascript_layout(significant.rstrip("0"), point)


# --- encoding ---------------------------------------------------------------------------


def _memory_capped() -> bool:
    """Whether this process runs under a memory limit (``ulimit -v``): orjson's allocator
    does not fail cleanly (out of memory it crashes the process, SIGSEGV), where the
    stdlib encoder raises ``MemoryError``; under a limit the stdlib encoder is used."""
    return headroom.limited()


def _encode(value: JsonValue) -> bytes:
    """Encode a checked value; only floats that ``repr`` spells right may be in it."""
    if _orjson is not None and _orjson_enabled and not _memory_capped():
        try:
            # Same bytes as the stdlib path (escaping and code-point key order are pinned
            # by tests over every code point); it never sees a float.
            return _orjson.dumps(value, option=_orjson.OPT_SORT_KEYS)
        except _orjson.JSONEncodeError:
            pass  # a lone surrogate, or a subclass it refuses: the stdlib path decides
    return _utf8(_ENCODER.encode(value))


def _encode_with_placeholders(
    value: JsonValue, holders: Container[int], *, every_float: bool
) -> bytes:
    numbers: list[bytes] = []
    encoded = _encode(_with_placeholders(value, holders, numbers, every_float))
    view = memoryview(encoded)
    out: list[bytes | memoryview] = []
    seen: set[int] = set()
    position = 0
    while (found := encoded.find(_MARK_START, position)) >= 0:
        tail = _MARK_TAIL.match(encoded, found + len(_MARK_START))
        index = int(tail.group(1)) if tail is not None else -1
        if not 0 <= index < len(numbers) or index in seen or tail is None:
            break
        seen.add(index)
        out += (view[position:found], numbers[index])
        position = tail.end()
    else:
        if len(seen) == len(numbers):
            out.append(view[position:])
            return b"".join(out)
    # Some string in the value looks like a placeholder: write it the slow exact way.
    return _utf8(_encode_exact(value))


def _with_placeholders(
    value: JsonValue, holders: Container[int], numbers: list[bytes], every_float: bool
) -> JsonValue:
    """A copy in which floats are ints (integral) or numbered placeholder strings.

    Containers without a float inside are shared, not copied.
    """
    if isinstance(value, dict):
        if id(value) not in holders:
            return value
        return {k: _with_placeholders(v, holders, numbers, every_float) for k, v in value.items()}
    if isinstance(value, list):
        if id(value) not in holders:
            return value
        return [
            _placeholder(item, numbers, every_float)
            if type(item) is float
            else _with_placeholders(item, holders, numbers, every_float)
            for item in value
        ]
    if isinstance(value, float):
        return _placeholder(value, numbers, every_float)
    return value


def _placeholder(value: float, numbers: list[bytes], every_float: bool) -> JsonValue:
    if not (every_float or float_needs_care(value)):
        return value
    if value.is_integer():
        return int(value)
    numbers.append(_es6_bytes(value))
    return f"{_MARK_OPEN}{len(numbers) - 1}{_MARK_CLOSE}"


# ECMAScript spellings of recent floats: a document repeating one float a million times
# spells it once. Bounded; cleared when full.
_ES6_CACHE: dict[float, bytes] = {}
_ES6_CACHE_SIZE: Final = 65_536


def _es6_bytes(value: float) -> bytes:
    spelled = _ES6_CACHE.get(value)
    if spelled is None:
        if len(_ES6_CACHE) >= _ES6_CACHE_SIZE:
            _ES6_CACHE.clear()
        spelled = _ES6_CACHE[value] = es6_number(value).encode("ascii")
    return spelled


def _encode_exact(value: JsonValue) -> str:
    """The reference encoder: slow, plain, and written straight from §2."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def _write(value: JsonValue, parts: list[str]) -> None:
    if isinstance(value, dict):
        parts.append("{")
        for n, key in enumerate(sorted(value)):
            if n:
                parts.append(",")
            parts.append(_encode_string(key))
            parts.append(":")
            _write(value[key], parts)
        parts.append("}")
    elif isinstance(value, list):
        parts.append("[")
        for n, item in enumerate(value):
            if n:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    elif isinstance(value, str):
        parts.append(_encode_string(value))
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif value is None:
        parts.append("null")
    elif isinstance(value, int):
        parts.append(str(int(value)))
    elif isinstance(value, Decimal):
        parts.append(exact_number_text(value))
    else:
        parts.append(str(int(value)) if value.is_integer() else es6_number(value))


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise FormatError(
            f"a string holds the lone surrogate U+{code:04X}, which UTF-8 cannot encode"
        ) from None
