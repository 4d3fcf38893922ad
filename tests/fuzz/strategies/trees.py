"""Trees, their leaf markers, and rendering them as bytes.

A *tree* is a parsed JSON value that may also hold three leaf markers the standard
encoder cannot write, so that the bytes can say what a ``dict`` cannot:

- ``RawNumber("1E2")`` — a number literal spelled exactly so (``-0``, ``9007199254740993``,
  ``1e400``, ``NaN``…);
- ``RawString('\\ud800')`` — a string literal whose body is written verbatim (escapes);
- ``DupObject((("a", 1), ("a", 2)))`` — an object that repeats a key.

``render`` writes a tree as UTF-8 bytes in one of several layouts (indent, separators,
ASCII escaping), letting lone surrogates through as raw CESU-8 bytes when not escaping.
``Blob`` carries rendered bytes whose ``repr`` names a file instead of printing them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.conftest import REPO

Tree = Any  # a JSON value, possibly holding the markers below
PathT = tuple[str | int, ...]

FAILURES = REPO / ".hypothesis" / "zcf-fuzz"  # where a printed example's bytes are kept


@dataclass(frozen=True, slots=True)
class RawNumber:
    literal: str


@dataclass(frozen=True, slots=True)
class RawString:
    body: str  # written between the quotes as is


@dataclass(frozen=True, slots=True)
class DupObject:
    pairs: tuple[tuple[str, Tree], ...]


class Blob(bytes):
    """Input bytes whose repr stays short: a failing example names a file holding them.

    Hypothesis prints a falsifying example with ``repr``; for a 40 kB packet that would be
    unreadable, so the bytes are written to ``.hypothesis/zcf-fuzz/SHA256.bin`` instead
    and the repr says how to load them.
    """

    def __repr__(self) -> str:
        digest = hashlib.sha256(self).hexdigest()
        path = FAILURES / f"{digest}.bin"
        try:
            FAILURES.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self)
        except OSError:
            pass
        head = bytes(self[:48])
        return f"Blob.load({str(path)!r})  # {len(self)} bytes, starting {head!r}"

    @staticmethod
    def load(path: str) -> bytes:
        return Path(path).read_bytes()


def is_plain(tree: Tree) -> bool:
    """No markers anywhere: the standard encoder and ``canonical`` can write it."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, RawNumber | RawString | DupObject):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


# --- rendering -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    indent: int | str | None
    ensure_ascii: bool
    item_sep: str
    key_sep: str
    newline_at_end: bool


LAYOUTS = st.builds(
    Layout,
    indent=st.sampled_from([None, 2, 0, "\t", " \r"]),
    ensure_ascii=st.booleans(),
    item_sep=st.sampled_from([",", ", ", " ,\n"]),
    key_sep=st.sampled_from([":", ": ", " :\t"]),
    newline_at_end=st.booleans(),
)
DEFAULT_LAYOUT = Layout(2, False, ",", ": ", True)


def render(tree: Tree, layout: Layout = DEFAULT_LAYOUT) -> bytes:
    parts: list[str] = []
    _render(tree, layout, 0, parts)
    if layout.newline_at_end:
        parts.append("\n")
    return "".join(parts).encode("utf-8", "surrogatepass")


def _break(layout: Layout, level: int) -> str:
    if layout.indent is None:
        return ""
    unit = " " * layout.indent if isinstance(layout.indent, int) else layout.indent
    return "\n" + unit * level


def _render(tree: Tree, layout: Layout, level: int, parts: list[str]) -> None:
    if isinstance(tree, RawNumber):
        parts.append(tree.literal)
    elif isinstance(tree, RawString):
        parts.append('"' + tree.body + '"')
    elif isinstance(tree, dict | DupObject):
        pairs = tree.pairs if isinstance(tree, DupObject) else tuple(tree.items())
        if not pairs:
            parts.append("{}")
            return
        parts.append("{")
        for n, (key, value) in enumerate(pairs):
            if n:
                parts.append(
                    layout.item_sep.rstrip(" ") if layout.indent is not None else layout.item_sep
                )
            parts.append(_break(layout, level + 1))
            parts.append(json.dumps(key, ensure_ascii=layout.ensure_ascii))
            parts.append(layout.key_sep)
            _render(value, layout, level + 1, parts)
        parts.append(_break(layout, level))
        parts.append("}")
    elif isinstance(tree, list):
        if not tree:
            parts.append("[]")
            return
        parts.append("[")
        for n, value in enumerate(tree):
            if n:
                parts.append(
                    layout.item_sep.rstrip(" ") if layout.indent is not None else layout.item_sep
                )
            parts.append(_break(layout, level + 1))
            _render(value, layout, level + 1, parts)
        parts.append(_break(layout, level))
        parts.append("]")
    elif isinstance(tree, int) and not isinstance(tree, bool) and abs(tree) > 10**4000:
        parts.append("9" * 5000)  # beyond int's str limit; still just a huge literal
    else:
        parts.append(json.dumps(tree, ensure_ascii=layout.ensure_ascii))
