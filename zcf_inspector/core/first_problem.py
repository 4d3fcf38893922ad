"""Which of several §1 problems a refusal names: the one at the lowest byte offset.

The profile's clarification of 2026-12-01: "When the bytes have several §1 problems, the
code is that of the problem at the lowest byte offset (ties: the order of the §1 table),
and the finding carries that offset." The reader (`core.reading`) finds *a* problem the
fast way — the first bad byte, the first bracket too deep, the parser's first syntax
error, or after a clean parse a repeated key, a lone surrogate escape or a number out of
range. Only then does this module look for one lower down:

1. a problem that stops the reader early (a bad byte at ``E``, a bracket too deep at
   ``D``) leaves a head of text that is a JSON prefix or not: the C parser reads that head
   and any syntax error it finds *inside* the head (not merely its end) is real — the
   byte after the head can continue no token it cuts (a non-ASCII byte, or a ``[``/``{``
   where a value was expected), except a string left open, which the bad byte is inside;
2. up to the lowest offset known so far the text is a valid JSON prefix, so one plain
   walk over its tokens (`_first_in_prefix`) finds the first repeated key, lone surrogate
   escape, and (outside exact mode) number out of range, with its pointer.

Cost: only refused inputs get here; the walk is a Python step per token up to the
problem first found.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Final

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.jsontypes import MAX_SAFE_INTEGER
from zcf_inspector.core.read_error import ReadError
from zcf_inspector.core.syntax_offset import constant_offset, syntax_offset, syntax_words

__all__ = ["after_parse", "earliest"]

# The order of the §1 table, for problems at one offset.
_RANK: Final = {
    ErrorCode.INVALID_ENCODING: 1,
    ErrorCode.INVALID_JSON: 2,
    ErrorCode.DUPLICATE_KEY: 3,
    ErrorCode.NESTING_TOO_DEEP: 4,
    ErrorCode.NUMBER_OUT_OF_RANGE: 5,
}

_WS: Final = re.compile(r"[ \t\n\r]*")
# A string's body after its opening quote, up to and with its closing quote (on text that
# is a JSON prefix every backslash starts an escape).
_STRING_REST: Final = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_WORD: Final = re.compile(r"[a-zA-Z]+")
_ESCAPE: Final = re.compile(r"\\u([0-9a-fA-F]{4})|\\.", re.DOTALL)
_INF: Final = float("inf")
_scanstring: Final = json.decoder.scanstring  # type: ignore[attr-defined]  # C, untyped


def earliest(
    data: bytes,
    text: str,
    bad_byte: ReadError | None,
    deep: ReadError | None,
    *,
    exact: bool,
) -> ReadError:
    """The refusal for input whose reading stopped early.

    ``data`` is the input up to the first bad byte (all of it when ``bad_byte`` is None)
    and ``text`` its decoding; ``deep`` the first bracket too deep within ``data``.
    """
    known = [p for p in (bad_byte, deep) if p is not None]
    stop = min(known, key=_order)
    assert stop.offset is not None
    try:
        head = text if stop is bad_byte else _chars(data, stop.offset)
        syntax = _head_syntax(head, after_bad_byte=stop is bad_byte)
        if syntax is not None:
            known.append(syntax)
        return _lowest(data, text, known, exact=exact)
    except _INTERPRETER_LIMITS:
        return _fallback(known)


def after_parse(data: bytes, text: str, found: ReadError, *, exact: bool) -> ReadError:
    """The refusal for input the parser read to its end: ``found`` or an earlier one."""
    # The whole text parsed, so its one value holds the problem found: never clean.
    try:
        return _lowest(data, text, [found], exact=exact, root_holds_bound=True)
    except _INTERPRETER_LIMITS:
        return _fallback([found])


# What the interpreter itself may refuse on hostile text (an int's digit limit, the C
# stack, a size): no known path reaches one, and should one be found the search for a
# lower problem stops there and the §1 problem already found is the refusal — a finding
# with a code and an offset, never a traceback.
_INTERPRETER_LIMITS: Final = (ValueError, RecursionError, OverflowError)


def _fallback(known: list[ReadError]) -> ReadError:
    return min(known, key=_order)


def _order(problem: ReadError) -> tuple[int, int]:
    return (problem.offset if problem.offset is not None else 1 << 62, _RANK.get(problem.code, 9))


def _lowest(
    data: bytes,
    text: str,
    known: list[ReadError],
    *,
    exact: bool,
    root_holds_bound: bool = False,
) -> ReadError:
    best = min(known, key=_order)
    if best.offset is None:
        return best
    bound = len(_chars(data, best.offset))
    found = _first_in_prefix(text, bound, exact=exact, root_holds_bound=root_holds_bound)
    if found is not None and _order(found) < _order(best):
        return found
    return best


def _chars(data: bytes, offset: int) -> str:
    """The text of ``data[:offset]`` (offsets of problems lie on character boundaries)."""
    return data[:offset].decode("utf-8", errors="ignore")


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", errors="surrogatepass"))


# --- 1: a syntax error inside a head of text ------------------------------------------


class _StopAtConstantError(ZcfError):
    """Raised inside the parser to stop at ``NaN``/``Infinity`` (a signal, never seen)."""


def _constant(name: str) -> object:
    raise _StopAtConstantError(name)


def _head_syntax(head: str, *, after_bad_byte: bool) -> ReadError | None:
    """A syntax error inside ``head``, the text before the byte that stopped the reader."""
    decoder = json.JSONDecoder(
        object_pairs_hook=list, parse_int=len, parse_float=len, parse_constant=_constant
    )
    try:
        decoder.decode(head)
    except json.JSONDecodeError as exc:
        return _syntax_in_head(head, exc, after_bad_byte=after_bad_byte)
    except _StopAtConstantError as exc:
        return _constant_in_head(head, str(exc.args[0]))
    except RecursionError:  # pragma: no cover - the head is at most 128 deep
        return None
    return None  # a whole value: the byte after it is the problem (trailing data, or its own)


def _syntax_in_head(
    head: str, exc: json.JSONDecodeError, *, after_bad_byte: bool
) -> ReadError | None:
    # The first character that cannot continue a JSON text (clarification of 2026-12-07).
    position = syntax_offset(head, exc.pos, exc.msg)
    if position >= len(head):
        # The whole head can begin a JSON text. After a bad byte, that byte is the problem
        # (encoding comes first at one offset; a string or an escape it cuts included).
        # Before a bracket too deep, the bracket continues the text only where a value
        # was expected right there; anywhere else it is the byte that cannot continue.
        if after_bad_byte or (exc.pos >= len(head) and exc.msg.startswith("Expecting value")):
            return None
        position = len(head)
    return _invalid_json(head, position, syntax_words(head, exc))


def _invalid_json(head: str, position: int, what: str) -> ReadError:
    offset = _byte_offset(head, position)
    return ReadError(
        ErrorCode.INVALID_JSON,
        f"not RFC 8259 JSON: {what} at byte {offset}",
        offset=offset,
    )


def _constant_in_head(head: str, name: str) -> ReadError | None:
    # As the reader does: spell every NaN/Infinity wrongly (same length), and the parser
    # then stops at the first one with its position.
    spoiled = head.replace("NaN", "NaX").replace("Infinity", "Infinitx")
    try:
        json.JSONDecoder(object_pairs_hook=list, parse_int=len, parse_float=len).decode(spoiled)
    except json.JSONDecodeError as exc:
        offset = _byte_offset(head, constant_offset(head, exc.pos))
        return ReadError(
            ErrorCode.INVALID_JSON,
            f"not RFC 8259 JSON: {name} at byte {offset} is not a JSON value",
            offset=offset,
        )
    return None  # pragma: no cover - the constant is there


# --- 2: the first repeated key, lone surrogate or number out of range in a prefix -------


@dataclass(slots=True)
class _Frame:
    """An open container: its members' keys so far (objects) and where the walk is."""

    is_object: bool
    keys: set[str] = field(default_factory=set)
    at: str | int = 0  # the current member's key, or the current item's index
    expecting_key: bool = True


def _where(frames: list[_Frame]) -> str:
    return jpointer.join(*(f.at for f in frames))


def _first_in_prefix(
    text: str, bound: int, *, exact: bool, root_holds_bound: bool = False
) -> ReadError | None:
    """The first problem other than syntax before character ``bound`` of ``text`` (a
    JSON prefix there), with its byte offset and pointer; None if there is none."""
    frames: list[_Frame] = []
    pos = 0
    # C-parsed skips of clean containers, in characters: a few passes over the text at
    # most, so nesting that hides a problem deep down cannot make it quadratic.
    budget = _SKIP_PASSES * max(bound, 1)
    while True:
        pos = _skip_ws(text, pos)
        if pos >= bound:
            return None
        char = text[pos]
        if char in "[{" and budget > 0 and (frames or not root_holds_bound):
            end, scanned = _clean_container(text, pos, bound, exact=exact)
            budget -= scanned
            if end is not None:
                pos = end  # a whole value without a problem: nothing in it to report
                continue
        if char == '"':
            match = _STRING_REST.match(text, pos + 1)
            end = match.end() if match is not None else len(text)
            top = frames[-1] if frames else None
            # A key read in full (a key cut by a bad byte never completes: that byte wins).
            if top is not None and top.is_object and top.expecting_key and match is not None:
                try:
                    key = _scanstring(text, pos + 1)[0]
                except json.JSONDecodeError:
                    return None  # the syntax error the bound is, inside this key
                if key in top.keys:
                    return _duplicate(text, pos, frames, key)
                top.keys.add(key)
                top.at = key
                top.expecting_key = False
            lone = _lone_surrogate(text, pos, end, bound)
            if lone is not None:
                return lone
            pos = end
        elif char in "[{":
            frames.append(_Frame(is_object=char == "{"))
            pos += 1
        elif char in "]}":
            if frames:
                frames.pop()
            pos += 1
        elif char == ",":
            if frames:
                top = frames[-1]
                if top.is_object:
                    top.expecting_key = True
                elif isinstance(top.at, int):
                    top.at += 1
            pos += 1
        elif char == ":":
            pos += 1
        elif char in "-0123456789":
            number = _NUMBER.match(text, pos)
            end = number.end() if number is not None else pos + 1
            if not exact and number is not None and _out_of_range(number.group()):
                return _number(text, pos, number.group(), frames)
            pos = end
        else:
            word = _WORD.match(text, pos)
            pos = word.end() if word is not None else pos + 1


_SKIP_PASSES: Final = 4
_SURROGATE_HINT: Final = re.compile(r"\\u[dD][89a-fA-F]")


class _Flags:
    """Parser hooks that only note whether a container holds a §1 problem."""

    __slots__ = ("exact", "problem")

    def __init__(self, *, exact: bool) -> None:
        self.exact = exact
        self.problem = False

    def pairs(self, items: list[tuple[str, object]]) -> None:
        if len({key for key, _ in items}) != len(items):
            self.problem = True

    def integer(self, literal: str) -> None:
        if not self.exact and len(literal) > 15 and _out_of_range(literal):
            self.problem = True

    def number(self, literal: str) -> None:
        if not self.exact and _out_of_range(literal):
            self.problem = True


def _clean_container(text: str, pos: int, bound: int, *, exact: bool) -> tuple[int | None, int]:
    """(the end of the array or object at ``pos`` if it lies before ``bound`` and holds no
    repeated key, lone surrogate or number out of range, else None; characters scanned)."""
    flags = _Flags(exact=exact)
    decoder = json.JSONDecoder(
        object_pairs_hook=flags.pairs,
        # Exact mode has no number rule. Its integers still go to a hook (the builtin
        # ``len``, no Python frame): the C scanner's own int() refuses more than 4,300
        # digits with a ValueError, and no decoder limit may meet untrusted bytes here.
        parse_int=len if exact else flags.integer,
        parse_float=None if exact else flags.number,
        parse_constant=_constant,
    )
    try:
        _, end = decoder.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        return None, exc.pos - pos
    except (_StopAtConstantError, RecursionError):
        return None, bound - pos
    if end > bound or flags.problem or _SURROGATE_HINT.search(text, pos, end):
        return None, end - pos
    return end, end - pos


def _skip_ws(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    assert match is not None
    return match.end()


def _duplicate(text: str, pos: int, frames: list[_Frame], key: str) -> ReadError:
    where = _where(frames[:-1]) if frames else ""
    # The object's own pointer: its parent's path to it.
    offset = _byte_offset(text, pos)
    return ReadError(
        ErrorCode.DUPLICATE_KEY,
        f"duplicate key {key!r} in the object at {where or '/'} (byte {offset})",
        offset=offset,
        pointer=jpointer.child(where, key),
    )


def _out_of_range(literal: str) -> bool:
    """The reader's rule (profile §1): integral and beyond ±(2^53 - 1), or beyond a double."""
    if literal.lstrip("-").isdigit():
        return len(literal) > 17 or abs(int(literal)) > MAX_SAFE_INTEGER
    value = float(literal)
    if value in (_INF, -_INF):
        return True
    return value.is_integer() and abs(value) > MAX_SAFE_INTEGER


def _number(text: str, pos: int, literal: str, frames: list[_Frame]) -> ReadError:
    offset = _byte_offset(text, pos)
    shown = literal if len(literal) <= 40 else literal[:20] + "…" + literal[-10:]
    if abs(float(literal)) == _INF:
        why = "is beyond the range of a double"
    else:
        why = f"is integral and its magnitude exceeds 2^53 - 1 ({MAX_SAFE_INTEGER})"
    return ReadError(
        ErrorCode.NUMBER_OUT_OF_RANGE,
        f"the number {shown} at byte {offset} {why}",
        offset=offset,
        pointer=_where(frames),
    )


def _lone_surrogate(text: str, start: int, end: int, bound: int) -> ReadError | None:
    """The first lone surrogate escape before ``bound`` in the string token
    ``text[start:end]`` (a token open at the end of ``text`` is cut by a bad byte, which
    pairs with nothing)."""
    token = text[start:end]
    if "\\u" not in token:
        return None
    pending: re.Match[str] | None = None  # a high surrogate escape not yet paired
    for escape in _ESCAPE.finditer(token):
        hexdigits = escape.group(1)
        code = int(hexdigits, 16) if hexdigits is not None else -1
        if pending is not None:
            if escape.start() == pending.end() and 0xDC00 <= code <= 0xDFFF:
                pending = None
                continue
            break
        if 0xD800 <= code <= 0xDBFF:
            pending = escape
        elif 0xDC00 <= code <= 0xDFFF:
            pending = escape
            break
    if pending is None or start + pending.start() >= bound:
        return None
    return _surrogate(text, start + pending.start(), pending.group())


def _surrogate(text: str, index: int, escape: str) -> ReadError:
    offset = _byte_offset(text, index)
    high = escape[3] in "89abAB"
    what = "a high surrogate not followed by a low one" if high else "a lone low surrogate"
    return ReadError(
        ErrorCode.INVALID_ENCODING,
        f"the escape {escape} at byte {offset} is {what}; strings must be Unicode text",
        offset=offset,
    )
