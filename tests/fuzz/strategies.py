"""Hypothesis strategies for near-valid inputs: structured mutations of the golden packets
and of the ASIF examples, and raw-byte mutations of the files themselves.

A *tree* is a parsed JSON value that may also hold three leaf markers the standard
encoder cannot write, so that the bytes can say what a ``dict`` cannot:

- ``RawNumber("1E2")`` — a number literal spelled exactly so (``-0``, ``9007199254740993``,
  ``1e400``, ``NaN``…);
- ``RawString('\\ud800')`` — a string literal whose body is written verbatim (escapes);
- ``DupObject((("a", 1), ("a", 2)))`` — an object that repeats a key.

``render`` writes a tree as UTF-8 bytes in one of several layouts (indent, separators,
ASCII escaping), letting lone surrogates through as raw CESU-8 bytes when not escaping.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from goldens import generate
from tests.conftest import CONTINUATION_SPEC, REPO
from tests.hostile.corpus import files as hostile_files
from zcf_inspector.core.packet.destination import Destination, parse_destination
from zcf_inspector.core.packet.producer import AuthKind, SealError, seal_packet

Tree = Any  # a JSON value, possibly holding the markers below
PathT = tuple[str | int, ...]

GOLDENS = REPO / "goldens"
FAILURES = REPO / ".hypothesis" / "zcf-fuzz"  # where a printed example's bytes are kept
EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"
MAX_SAFE = 2**53 - 1


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


# --- the corpus ------------------------------------------------------------------------------


@cache
def golden_files() -> dict[str, bytes]:
    """Every golden file by its path under goldens/, read once."""
    return {str(p.relative_to(GOLDENS)): p.read_bytes() for p in sorted(GOLDENS.glob("**/*.json"))}


@cache
def example_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.json"))}


def publication_packets() -> dict[str, Callable[[], dict[str, Any]]]:
    """The golden builders, plus the bare (unsealed) handoff of the generator."""
    builders: dict[str, Callable[[], dict[str, Any]]] = dict(generate.PUBLICATION)
    builders["handoff"] = lambda: generate.unsigned(generate.handoff("fuzz"))
    return builders


@cache
def _built(name: str) -> dict[str, Any]:
    return publication_packets()[name]()


def golden_packet(name: str) -> dict[str, Any]:
    return copy.deepcopy(_built(name))


@cache
def golden_destination_value() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(golden_files()["destination.json"])
    return value


def golden_destination(**override: Any) -> Destination:
    return parse_destination({**golden_destination_value(), **override})


_DESTINATION_OVERRIDES: list[dict[str, Any]] = [
    {},
    {"strict": True},
    {"refuseUnsigned": True},
    {"maxBeliefs": 0},
    {"maxBeliefs": 1, "maxBeliefBytes": 0},
    {"maxBeliefBytes": 1},
    {"installationKeyId": "dest-other"},
    {"capabilities": []},
    {"now": "2100-01-01T00:00:00Z"},
    {"now": "1970-01-01T00:00:00Z"},
]
DESTINATIONS = st.sampled_from(_DESTINATION_OVERRIDES).map(
    lambda override: golden_destination(**override)
)


@cache
def example_values() -> dict[str, Any]:
    return {name: json.loads(data) for name, data in example_files().items()}


def harvest(tree: Tree) -> tuple[list[str], list[Tree], list[str]]:
    """(all keys, all scalar values, all string values of id-like members) in ``tree``."""
    keys: list[str] = []
    scalars: list[Tree] = []
    ids: list[str] = []
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                keys.append(key)
                if isinstance(value, str) and _id_like(key):
                    ids.append(value)
                elif isinstance(value, list) and _id_like(key):
                    ids.extend(v for v in value if isinstance(v, str))
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
        else:
            scalars.append(item)
    return keys, scalars, ids


def _id_like(key: str) -> bool:
    low = key.lower()
    return low in ("id", "ref", "portableref", "depends_on") or low.endswith(
        ("id", "ids", "ref", "refs", "_id", "_ids")
    )


@cache
def _packet_pools() -> tuple[list[str], list[Tree], list[str]]:
    keys: set[str] = set()
    scalars: list[Tree] = []
    ids: set[str] = set()
    for name in publication_packets():
        k, s, i = harvest(_built(name))
        keys.update(k)
        scalars.extend(s)
        ids.update(i)
    return sorted(keys), _dedupe(scalars), sorted(ids)


@cache
def _example_pools() -> tuple[list[str], list[Tree], list[str]]:
    keys: set[str] = set()
    scalars: list[Tree] = []
    ids: set[str] = set()
    for value in example_values().values():
        k, s, i = harvest(value)
        keys.update(k)
        scalars.extend(s)
        ids.update(i)
    return sorted(keys), _dedupe(scalars), sorted(ids)


def _dedupe(values: list[Tree]) -> list[Tree]:
    seen: set[tuple[type, Tree]] = set()
    out: list[Tree] = []
    for value in values:
        marker = (type(value), value)
        if marker not in seen:
            seen.add(marker)
            out.append(value)
    return out


# --- hostile leaves --------------------------------------------------------------------------

BOUNDARY_INTS = [
    MAX_SAFE,
    -MAX_SAFE,
    MAX_SAFE + 1,
    -(MAX_SAFE + 1),
    MAX_SAFE + 2,
    2**63,
    2**64 + 1,
    0,
    -1,
    1,
    2,
]
NUMBER_LITERALS = [
    "9007199254740991",
    "-9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "9007199254740991.0",
    "9007199254740991.5",
    "9007199254740992.0",
    "9.007199254740991e15",
    "9.007199254740993e15",
    "1e21",
    "1E2",
    "1.0",
    "1.0e0",
    "-0",
    "-0.0",
    "0e-5",
    "1e-400",
    "1e400",
    "-1e400",
    "5e-324",
    "1.7976931348623157e308",
    "0.1",
    "1e-7",
    "1.5e-7",
    "123456789012345678901234567890",
    "NaN",
    "Infinity",
    "-Infinity",
    "01",
    "1.",
    ".5",
    "+1",
    "0x10",
    "1e",
    "-",
]
STRING_BODIES = [
    "\\ud800",
    "\\udc00",
    "\\uD800\\u0041",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\ude00\\ud83d",
    "\\u0000",
    "\\u001f",
    "\\/",
    "\\u00e9",
    "a\\nb",
    "\\x41",
    "\\u12",
    "\t",
    "\u0000",
    "\\",
    "\\ud800\\ud800\\udc00",
]
TIMESTAMPS = [
    "2026-09-30T10:00:00Z",
    "2026-09-30t10:00:00z",
    "2026-09-30T10:00:60Z",
    "2026-02-30T10:00:00Z",
    "2026-09-30T10:00:00+00:00",
    "2026-09-30T10:00:00.1234567891Z",
    "2026-09-30T10:00:00.Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "2026-09-30 10:00:00Z",
    "٢٠٢٦-09-30T10:00:00Z",
    # Offsets that move a date past datetime's range (year 1 / year 9999) once in UTC.
    "0001-01-01T00:00:00+01:00",
    "0001-01-01T00:59:59.999999+01:00",
    "9999-12-31T23:59:59-01:00",
    "9999-12-31T23:00:00-23:59",
    "2026-09-30T10:00:00+24:00",
    "2026-09-30T10:00:00-00:00",
    "2026-09-30T24:00:00Z",
]
DIGESTS = [
    "sha256:" + "0" * 64,
    "sha256:" + "A" * 64,
    "sha256:" + "0" * 63,
    "SHA256:" + "0" * 64,
    "0" * 64,
    "f" * 65,
    "sha256:",
]
B64U = ["", "A", "AA", "AAA=", "AAAA====", "AA AA", "AA\nAA", "+/", "-_", "A" * 1000, "é"]
SPECIAL_STRINGS = [
    "",
    " ",
    "\x00",
    "\x1f",
    "\x7f",
    "\u2028\u2029",
    "\ufeff",
    "\ud800",
    "\udfff",
    "😀" * 3,
    "\U0010ffff",
    "e\u0301" * 5,
    "\u202e",
    "~0~1/",
    "/",
    "~",
    "x-zephr-secret",
    "sha256:" + "0" * 64,
    "sha256:" + "A" * 64,
    "sha256:" + "0" * 63,
    "AAAAAAAAAAAAAAAAAAAAAA==",
    "AAAA AAAA",
    "+/+/",
    "a" * 256,
    "a" * 257,
    "a" * 1025,
    "../etc/passwd",
    "/abs/path",
    "a\\b",
    "a/./b",
    "unbound",
    "__proto__",
    "constructor",
    *TIMESTAMPS,
]
HUGE_STRING_CHARS = st.sampled_from(["a", "é", "😀", "\x00", "\\", '"', "\u2028"])


def _huge_string() -> st.SearchStrategy[str]:
    return st.builds(lambda ch, n: ch * n, HUGE_STRING_CHARS, st.integers(10_000, 300_000))


def scalars(pool: list[Tree]) -> st.SearchStrategy[Tree]:
    """A hostile scalar: boundary numbers, odd strings, bool-vs-int, null, or a pool value."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(BOUNDARY_INTS),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([1.0, -0.0, 0.5, 1e-7, 1e21, 9007199254740992.0]),
        st.sampled_from(NUMBER_LITERALS).map(RawNumber),
        st.sampled_from(STRING_BODIES).map(RawString),
        st.sampled_from(SPECIAL_STRINGS),
        st.text(max_size=40),
        st.text(st.characters(codec="utf-8"), max_size=20),
        st.text(st.characters(min_codepoint=0x10000), max_size=10),
        _huge_string(),
        st.sampled_from(pool),
    )


def small_values(pool: list[Tree]) -> st.SearchStrategy[Tree]:
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-10, 10),
        st.sampled_from(SPECIAL_STRINGS[:20]),
        st.sampled_from(pool),
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.text(max_size=8), inner, max_size=4),
        ),
        max_leaves=8,
    )


# --- structured mutation ---------------------------------------------------------------------


def paths(tree: Tree) -> list[PathT]:
    """Every path into ``tree`` (the root first), containers and leaves alike."""
    out: list[PathT] = []
    stack: list[tuple[Tree, PathT]] = [(tree, ())]
    while stack:
        item, path = stack.pop()
        out.append(path)
        if isinstance(item, dict):
            stack.extend((v, (*path, k)) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(item))
    out.sort(key=lambda p: (not p, len(p), [str(x) for x in p]))  # the root last
    return out


def get(tree: Tree, path: PathT) -> Tree:
    for part in path:
        tree = tree[part]
    return tree


def put(tree: Tree, path: PathT, value: Tree) -> Tree:
    """``tree`` with the value at ``path`` replaced (in place, except at the root)."""
    if not path:
        return value
    get(tree, path[:-1])[path[-1]] = value
    return tree


def nest(depth: int, inner: Tree, shape: int) -> Tree:
    """``inner`` wrapped in ``depth`` containers, arrays or objects by the bits of ``shape``."""
    value = inner
    for level in range(depth):
        value = {"d": value} if (shape >> (level % 30)) & 1 else [value]
    return value


@dataclass(frozen=True, slots=True)
class Pools:
    keys: list[str]
    scalars: list[Tree]
    ids: list[str]
    by_key: dict[str, list[Tree]]  # the values each key holds somewhere in the corpus


def _by_key(trees: list[Tree]) -> dict[str, list[Tree]]:
    found: dict[str, list[Tree]] = {}
    stack = list(trees)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                found.setdefault(key, []).append(value)
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return {key: _dedupe_json(values) for key, values in found.items()}


def _dedupe_json(values: list[Tree]) -> list[Tree]:
    seen: set[str] = set()
    out: list[Tree] = []
    for value in values:
        text = json.dumps(value, sort_keys=True)
        if text not in seen:
            seen.add(text)
            out.append(value)
    return out


@cache
def packet_pools() -> Pools:
    trees = [_built(name) for name in publication_packets()]
    return Pools(*_packet_pools(), by_key=_by_key(trees))


@cache
def example_pools() -> Pools:
    return Pools(*_example_pools(), by_key=_by_key(list(example_values().values())))


MUTATIONS = (
    "replace",
    "same_key_value",
    "same_key_value",
    "delete",
    "add_key",
    "rename",
    "swap_type",
    "duplicate_item",
    "set_ref",
    "set_ref",
    "deep",
    "number",
    "string",
    "dup_key",
    "copy_subtree",
    "reorder",
    "empty",
    "format_string",
    "format_string",
)
_TIMESTAMP_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]")


def _formatted(value: str) -> bool:
    return bool(
        _TIMESTAMP_LIKE.match(value)
        or value.startswith("sha256:")
        or re.fullmatch(r"[0-9a-f]{64}|[A-Za-z0-9_-]{16,}", value)
    )


def _hostile_formats(value: str) -> list[str]:
    """Strings that get a format wrong (or right in an odd way) for ``value``'s kind."""
    if _TIMESTAMP_LIKE.match(value):
        return TIMESTAMPS
    if value.startswith("sha256:") or re.fullmatch(r"[0-9a-f]{64}", value):
        return DIGESTS
    if re.fullmatch(r"[A-Za-z0-9_-]{16,}", value):
        return [*B64U, value + "=", value[:-1], value + "A"]
    return [value + "\x00", value * 2, value.upper(), "", " " + value, value + "/..", "a" * 257]


def _suits(op: str, tree: Tree, path: PathT) -> bool:
    """Whether ``op`` applies at ``path`` (so that most draws do what they say)."""
    target = get(tree, path)
    last = path[-1] if path else None
    if op in ("delete", "rename"):
        return bool(path) and (op == "delete" or isinstance(last, str))
    if op in ("add_key", "dup_key"):
        return isinstance(target, dict) and (op == "add_key" or bool(target))
    if op in ("duplicate_item", "reorder"):
        return (isinstance(target, list | dict) and len(target) > 1) or (
            op == "duplicate_item" and isinstance(target, list) and bool(target)
        )
    if op == "set_ref":
        return isinstance(last, str) and _id_like(last)
    if op == "same_key_value":
        return isinstance(last, str) and not isinstance(target, dict | list)
    if op == "format_string":  # only strings that have a format: few, so often hit
        return isinstance(target, str) and _formatted(target)
    return bool(path)  # the rest apply anywhere but the root, which they would replace


@st.composite
def mutate_once(draw: st.DrawFn, tree: Tree, pools: Pools) -> Tree:
    """One structured mutation of ``tree`` (which it may change in place)."""
    where = paths(tree)
    op = draw(st.sampled_from(MUTATIONS))
    fitting = [p for p in where if _suits(op, tree, p)]
    path = draw(st.sampled_from(fitting or where))
    target = get(tree, path)
    parent = get(tree, path[:-1]) if path else None
    last = path[-1] if path else None
    if op == "same_key_value" and isinstance(last, str) and pools.by_key.get(last):
        return put(tree, path, copy.deepcopy(draw(st.sampled_from(pools.by_key[last]))))
    if op == "format_string" and isinstance(target, str):
        return put(tree, path, draw(st.sampled_from(_hostile_formats(target))))
    if op == "replace":
        return put(tree, path, draw(st.one_of(scalars(pools.scalars), small_values(pools.scalars))))
    if op == "delete" and path:
        assert isinstance(parent, dict | list)
        del parent[last]  # type: ignore[arg-type]
        return tree
    if op == "add_key" and isinstance(target, dict):
        key = draw(st.one_of(st.sampled_from(pools.keys), st.sampled_from(SPECIAL_STRINGS)))
        target[key] = draw(
            st.one_of(
                scalars(pools.scalars),
                st.sampled_from(where).map(lambda p: copy.deepcopy(get(tree, p))),
            )
        )
        return tree
    if op == "rename" and isinstance(parent, dict):
        key = draw(st.one_of(st.sampled_from(pools.keys), st.sampled_from(SPECIAL_STRINGS)))
        value = parent.pop(last)
        parent[key] = value
        return tree
    if op == "swap_type":
        return put(tree, path, _swapped(target, draw(st.integers(0, 7))))
    if op == "duplicate_item" and isinstance(target, list) and target:
        index = draw(st.integers(0, len(target) - 1))
        target.insert(draw(st.integers(0, len(target))), copy.deepcopy(target[index]))
        return tree
    if op == "set_ref":
        fresh = draw(st.sampled_from(["dangling-ref", "b-missing", "x" * 300, "", "\x01"]))
        pick = bool(pools.ids) and draw(st.booleans())
        ref = draw(st.sampled_from(pools.ids)) if pick else fresh
        if isinstance(target, list):
            return put(tree, path, [*target, ref] if draw(st.booleans()) else [ref])
        return put(tree, path, ref)
    if op == "deep":
        total = draw(st.integers(118, 132))
        depth = max(1, total - len(path))
        leaves: list[Tree] = [[], {}, 0, "x", None, [1, 2]]
        inner = draw(st.sampled_from(leaves))
        return put(tree, path, nest(depth, inner, draw(st.integers(0, 2**30))))
    if op == "number":
        return put(
            tree,
            path,
            draw(
                st.one_of(
                    st.sampled_from(BOUNDARY_INTS),
                    st.sampled_from(NUMBER_LITERALS).map(RawNumber),
                    st.sampled_from([True, False, 1.0, 0.0, -0.0]),
                )
            ),
        )
    if op == "string":
        return put(
            tree,
            path,
            draw(
                st.one_of(
                    st.sampled_from(SPECIAL_STRINGS),
                    st.sampled_from(STRING_BODIES).map(RawString),
                    _huge_string(),
                    st.text(st.characters(codec="utf-8"), max_size=60),
                )
            ),
        )
    if op == "dup_key" and isinstance(target, dict) and target:
        pairs = list(target.items())
        index = draw(st.integers(0, len(pairs) - 1))
        pairs.insert(draw(st.integers(0, len(pairs))), (pairs[index][0], draw(scalars([0]))))
        return put(tree, path, DupObject(tuple(pairs)))
    if op == "copy_subtree":
        source = draw(st.sampled_from(where))
        return put(tree, path, copy.deepcopy(get(tree, source)))
    if op == "reorder" and isinstance(target, dict | list) and len(target) > 1:
        if isinstance(target, dict):
            items = list(target.items())
            items.reverse()
            return put(tree, path, dict(items))
        return put(tree, path, list(reversed(target)))
    if op == "empty" and isinstance(target, dict | list | str):
        return put(tree, path, type(target)())
    # The operation does not apply here: fall back to replacing with a scalar.
    return put(tree, path, draw(scalars(pools.scalars)))


def _swapped(value: Tree, choice: int) -> Tree:
    if choice == 0:
        return None
    if choice == 1:
        return [value]
    if choice == 2:
        return {"value": value}
    if choice == 3:
        # default=repr: a container may hold a RawNumber, RawString or DupObject marker.
        text = json.dumps(value, default=repr) if isinstance(value, dict | list) else str(value)
        return text[:100] if isinstance(value, dict | list) else text
    if choice == 4:
        return bool(value) if not isinstance(value, bool) else int(value)
    if choice == 5:
        return 1 if isinstance(value, bool | str) else True
    if choice == 6:
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else 1.0
    return list(value.values()) if isinstance(value, dict) else {}


@st.composite
def mutated(draw: st.DrawFn, base: Tree, pools: Pools, max_mutations: int = 4) -> Tree:
    tree = copy.deepcopy(base)
    count = draw(st.sampled_from([1, 1, 1, 2, 2, max_mutations]))
    for _ in range(count):
        tree = draw(mutate_once(tree, pools))
    return tree


# --- packets ---------------------------------------------------------------------------------


def reseal(tree: Tree, kind: str) -> Tree:
    """``tree`` with a fresh manifest and authentication, when the producer can make them."""
    if not isinstance(tree, dict) or not is_plain(tree):
        return tree
    try:
        if kind == "mac":
            return generate.mac(tree)
        if kind == "source":
            return seal_packet(tree, AuthKind.SOURCE_SIGNATURE, signing_seed=generate.SOURCE_SEED)
        return seal_packet(tree, AuthKind.UNSIGNED)
    except SealError:  # the producer refuses what it cannot seal (or canonical() cannot write)
        return tree


@dataclass(frozen=True, slots=True)
class PacketCase:
    base: str
    data: Blob


@st.composite
def mutated_packets(draw: st.DrawFn) -> PacketCase:
    """A golden packet after a few structured mutations, maybe re-sealed, then rendered."""
    name = draw(st.sampled_from(sorted(publication_packets())))
    tree = draw(mutated(golden_packet(name), packet_pools()))
    seal = draw(st.sampled_from(["none", "none", "unsigned", "mac", "source"]))
    if seal != "none":
        tree = reseal(tree, seal)
        if draw(st.booleans()):  # and maybe break it again after it is sealed
            tree = draw(mutate_once(tree, packet_pools()))
    return PacketCase(name, Blob(render(tree, draw(LAYOUTS))))


# --- raw bytes -------------------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"
TOKENS = [
    BOM,
    b"\xff\xfe",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf4\x90\x80\x80",
    b"\x80",
    b"\xff",
    b"\x00",
    b"\x1f",
    b"\x7f",
    b"\t",
    b"\r\n",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"-0",
    b"1e400",
    b"9007199254740993",
    b"9007199254740992.5",
    b"//",
    b"/*x*/",
    b"'",
    b'"',
    b"\\",
    b"\\\\",
    b'\\"',
    b",",
    b":",
    b"[",
    b"]",
    b"{",
    b"}",
    b"null",
    b"true",
    b'"a":1,',
    b'{"a":1,"a":2}',
    "é".encode(),
    "😀".encode(),
    "\u2028".encode(),
]


def _positions(data: bytes | bytearray) -> st.SearchStrategy[int]:
    return st.integers(0, len(data))


@st.composite
def byte_mutation(draw: st.DrawFn, data: bytearray, corpus: list[bytes]) -> bytearray:
    op = draw(
        st.sampled_from(
            [
                "flip",
                "set",
                "delete",
                "truncate",
                "insert",
                "dup_segment",
                "splice",
                "dup_line",
                "drop_line",
                "swap_lines",
                "brackets",
            ]
        )
    )
    if not data:
        return bytearray(draw(st.sampled_from(TOKENS)))
    at = draw(st.integers(0, len(data) - 1))
    if op == "flip":
        data[at] ^= 1 << draw(st.integers(0, 7))
    elif op == "set":
        data[at] = draw(st.sampled_from(b'\x00\x1f\x7f\x80\xbf\xc0\xed\xff"\\[]{},:0- '))
    elif op == "delete":
        end = min(len(data), at + draw(st.integers(1, 16)))
        del data[at:end]
    elif op == "truncate":
        del data[at:]
    elif op == "insert":
        data[at:at] = draw(st.sampled_from(TOKENS))
    elif op == "dup_segment":
        end = min(len(data), at + draw(st.integers(1, 200)))
        target = draw(_positions(data))
        data[target:target] = data[at:end]
    elif op == "splice":
        other = draw(st.sampled_from(corpus))
        cut = draw(st.integers(0, len(other)))
        data[at:] = other[cut:]
    elif op in ("dup_line", "drop_line", "swap_lines"):
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if op == "dup_line":
            lines.insert(j, lines[i])
        elif op == "drop_line":
            del lines[i]
        else:
            lines[i], lines[j] = lines[j], lines[i]
        data[:] = b"\n".join(lines)
    else:  # brackets: nesting right around the 128 limit
        count = draw(st.integers(120, 135))
        opener = draw(st.sampled_from([b"[", b'{"a":', b'[{"a":']))
        data[at:at] = opener * count
    return data


@st.composite
def mutated_bytes(draw: st.DrawFn, corpus: list[bytes], max_mutations: int = 4) -> Blob:
    data = bytearray(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, max_mutations))):
        data = draw(byte_mutation(data, corpus))
    return Blob(data)


def hostile_corpus(*kinds: str) -> list[bytes]:
    """The kept hostile documents (tests/data/hostile, made by tests/hostile/corpus.py) of
    ``kinds`` ("packet", "session", ...; all when none is named)."""
    return [
        data
        for name, data in hostile_files().items()
        if not kinds or name.removesuffix(".json").rsplit(".", 1)[-1] in kinds
    ]


def packet_corpus() -> list[bytes]:
    return [
        data
        for name, data in golden_files().items()
        if not name.endswith((".expect.json", ".destination.json"))
    ] + hostile_corpus("packet")


def receipt_corpus() -> list[bytes]:
    return [data for name, data in golden_files().items() if name.endswith(".receipt.json")]


def example_corpus() -> list[bytes]:
    return list(example_files().values()) + hostile_corpus("session", "report")


# --- ASIF sessions and reports ---------------------------------------------------------------

ACTIONS = ("await_decision", "reconcile_operation", "model_request", "resume_native")


def session_of(report_name: str) -> str:
    stem = report_name.removesuffix(".report.json")
    for action in ACTIONS:
        stem = stem.removesuffix("-" + action)
    return stem + ".session.json"


def report_names() -> list[str]:
    return sorted(n for n in example_files() if n.endswith(".report.json"))


def session_names() -> list[str]:
    return sorted(n for n in example_files() if n.endswith(".session.json"))


def rebind(report: Tree, session_bytes: bytes) -> Tree:
    """``report`` bound to the exact ``session_bytes`` (when it still has the field)."""
    source = report.get("source") if isinstance(report, dict) else None
    if isinstance(source, dict):
        source["document_sha256"] = hashlib.sha256(session_bytes).hexdigest()
    return report


@dataclass(frozen=True, slots=True)
class ContinuationCase:
    session: Blob
    report: Blob | None
    plan_id: str | None
    note: str


@st.composite
def mutated_continuations(draw: st.DrawFn) -> ContinuationCase:
    """A mutated ASIF session (or report), maybe with a report, rebound or not."""
    report_name = draw(st.sampled_from(report_names()))
    session_name = session_of(report_name)
    values = example_values()
    mutate_session = draw(st.booleans())
    mutate_report = not mutate_session or draw(st.booleans())
    session_tree: Tree = copy.deepcopy(values[session_name])
    if mutate_session:
        session_tree = draw(mutated(session_tree, example_pools()))
    # The examples' own spelling keeps an unmutated session's bytes (and hash) intact.
    session_bytes = (
        example_files()[session_name]
        if not mutate_session
        else render(
            session_tree,
            draw(st.sampled_from([DEFAULT_LAYOUT, Layout(None, False, ",", ":", False)])),
        )
    )
    report: Blob | None = None
    mode = draw(st.sampled_from(["none", "original", "rebound", "mutated", "alone"]))
    if mode != "none" or mutate_report:
        report_tree: Tree = copy.deepcopy(values[report_name])
        if mutate_report:
            report_tree = draw(mutated(report_tree, example_pools()))
        if mode != "original":
            report_tree = rebind(report_tree, session_bytes)
        report = Blob(render(report_tree))
    if mode == "alone" and report is not None:
        return ContinuationCase(report, None, None, f"{report_name} alone")
    plans = [p.get("id") for p in _plans(session_tree)]
    plan_id = draw(
        st.sampled_from([None, "no-such-plan", *[p for p in plans if isinstance(p, str)]])
    )
    return ContinuationCase(
        Blob(session_bytes), report, plan_id, f"{session_name} + {report_name} ({mode})"
    )


def _plans(session: Tree) -> list[dict[str, Any]]:
    continuation = session.get("continuation") if isinstance(session, dict) else None
    plans = continuation.get("plans") if isinstance(continuation, dict) else None
    return [p for p in plans if isinstance(p, dict)] if isinstance(plans, list) else []


def iter_files(folder: Path) -> Iterator[Path]:
    yield from sorted(folder.glob("*.json"))
