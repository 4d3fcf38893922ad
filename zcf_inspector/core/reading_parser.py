"""The strict reader's exact parser (`core.reading`): the standard library's JSON
decoder with hooks that record what §1 refuses (repeated keys, numbers out of range,
``NaN``/``Infinity``, lone surrogate escapes) and then locate the first such refusal in
the text, with its byte offset and JSON pointer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from decimal import InvalidOperation
from typing import Final, TypeVar

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.exact_numbers import exact_number, parse_exact_int
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER, JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.read_error import ReadError
from zcf_inspector.core.reading_scan import SURROGATE_ESCAPE_HINT
from zcf_inspector.core.syntax_offset import constant_offset, syntax_offset, syntax_words

_T = TypeVar("_T")

_INF: Final = float("inf")

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


class Parser:
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
            # Where the profile places it (clarification of 2026-12-07): the first
            # character that cannot continue a JSON text, not the token's start.
            index = syntax_offset(self.text, exc.pos, exc.msg)
            offset = self._byte_offset(index)
            line = self.text.count("\n", 0, index) + 1
            column = index - self.text.rfind("\n", 0, index)
            raise ReadError(
                ErrorCode.INVALID_JSON,
                f"not RFC 8259 JSON: {syntax_words(self.text, exc)} at byte {offset} "
                f"(line {line}, column {column})",
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
            # check_depth bounds the nesting, so only a caller already deep in its own
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
        try:
            value = exact_number(literal)
        except InvalidOperation:
            # An exponent beyond ±(10^18 - 1): no exact number holds it (the decimal
            # module's own limit), so exact mode refuses it as out of range.
            self.out_of_range += 1
            return _OutOfRange(literal)  # type: ignore[return-value]
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
            return self._byte_offset(constant_offset(self.text, exc.pos))
        return None  # pragma: no cover - unreachable by the argument above

    def _check_surrogates(self) -> None:
        if not SURROGATE_ESCAPE_HINT.search(self.data):
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
        if self.exact:
            why = "has an exponent beyond what an exact number can hold"
        elif abs(float(literal)) == _INF:
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
