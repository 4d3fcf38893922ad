"""A plain reference for the §1 reader, to fuzz ``read_json`` differentially.

It is written straight from the profile's table, with none of the reader's tricks:
decode, let the standard parser check the syntax, then walk the parsed tree (objects kept
as lists of pairs) for depth, lone surrogates, repeated keys and numbers out of range.

Which problem is reported when there are several is the one at the lowest byte offset
(profile clarification 2026-12-01); this reference does not locate problems, so it says
which codes the bytes' problems have, and any of them is an acceptable answer (the exact
choice is pinned by tests/core/test_reading.py and tests/data/zcf-edges/). Bytes it
cannot parse may hide any problem before the syntax error, so they allow every code.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from zcf_inspector.core.codes import ErrorCode

MAX_DEPTH = 128
MAX_SAFE = 2**53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Pairs:
    """An object as parsed: its members in order, repeats kept."""

    items: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class OutOfRange:
    literal: str


class _ConstantError(Exception):
    pass


def _constant(name: str) -> Any:
    raise _ConstantError(name)


def _int(literal: str) -> Any:
    return OutOfRange(literal) if abs(Decimal(literal)) > MAX_SAFE else int(literal)


def _float(literal: str) -> Any:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        return OutOfRange(literal)
    if value.is_integer():
        return OutOfRange(literal) if abs(value) > MAX_SAFE else int(value)
    return value


@dataclass(frozen=True, slots=True)
class Expected:
    """Either the value ``read_json`` must return, or the codes it may refuse with."""

    codes: frozenset[ErrorCode]
    value: Any = None
    tree: Any = None  # the parsed tree, when the syntax was valid
    # For duplicate keys and numbers: the pointers the reader may name (any repeated key,
    # any number out of range: the one at the lowest offset is not located here).
    pointers: frozenset[str] = frozenset()


def _refuse(*codes: ErrorCode) -> Expected:
    return Expected(frozenset(codes))


_BEFORE_A_SYNTAX_ERROR = frozenset(
    {
        ErrorCode.INVALID_JSON,
        ErrorCode.NESTING_TOO_DEEP,
        ErrorCode.DUPLICATE_KEY,
        ErrorCode.NUMBER_OUT_OF_RANGE,
        ErrorCode.INVALID_ENCODING,
    }
)


def expected(data: bytes, max_bytes: int) -> Expected:
    if len(data) > max_bytes:
        return _refuse(ErrorCode.PACKET_TOO_LARGE)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # Whatever lies before the first bad byte may be a problem of its own.
        return Expected(_BEFORE_A_SYNTAX_ERROR)
    if data.startswith(b"\xef\xbb\xbf"):
        return _refuse(ErrorCode.INVALID_ENCODING)  # at offset 0: nothing comes before
    try:
        tree = json.loads(
            text,
            object_pairs_hook=lambda items: Pairs(tuple(items)),
            parse_constant=_constant,
            parse_int=_int,
            parse_float=_float,
        )
    except (ValueError, _ConstantError, RecursionError):
        return Expected(_BEFORE_A_SYNTAX_ERROR)
    codes: set[ErrorCode] = set()
    if depth(tree) > MAX_DEPTH:
        codes.add(ErrorCode.NESTING_TOO_DEEP)
    if _has_surrogate(tree):
        codes.add(ErrorCode.INVALID_ENCODING)
    repeats = all_repeats(tree)
    if repeats:
        codes.add(ErrorCode.DUPLICATE_KEY)
    numbers = all_out_of_range(tree)
    if numbers:
        codes.add(ErrorCode.NUMBER_OUT_OF_RANGE)
    if not codes:
        return Expected(frozenset(), value=plain(tree), tree=tree)
    return Expected(frozenset(codes), tree=tree, pointers=frozenset(repeats + numbers))


def _children(node: Any) -> list[tuple[str, Any]]:
    if isinstance(node, Pairs):
        return list(node.items)
    if isinstance(node, list):
        return [(str(i), v) for i, v in enumerate(node)]
    return []


def depth(tree: Any) -> int:
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, Pairs | list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for _, v in _children(node))
    return deepest


def _has_surrogate(tree: Any) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return True
        elif isinstance(node, Pairs):
            for key, value in node.items:
                if _SURROGATE.search(key):
                    return True
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _preorder(tree: Any) -> list[tuple[str, Any]]:
    """(pointer, node) for every node in document order."""
    out: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [("", tree)]
    while stack:
        pointer, node = stack.pop()
        out.append((pointer, node))
        children = _children(node)
        stack.extend((pointer + "/" + _escape(k), v) for k, v in reversed(children))
    return out


def all_repeats(tree: Any) -> list[str]:
    """The pointer of every repeated key (its second and later spellings)."""
    out = []
    for pointer, node in _preorder(tree):
        if isinstance(node, Pairs):
            seen: set[str] = set()
            for key, _ in node.items:
                if key in seen:
                    out.append(pointer + "/" + _escape(key))
                seen.add(key)
    return out


def all_out_of_range(tree: Any) -> list[str]:
    return [pointer for pointer, node in _preorder(tree) if isinstance(node, OutOfRange)]


def plain(tree: Any) -> Any:
    """The value with objects as dicts (no repeats by now)."""
    if isinstance(tree, Pairs):
        return {k: plain(v) for k, v in tree.items}
    if isinstance(tree, list):
        return [plain(v) for v in tree]
    return tree


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types, objects in the same member order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
