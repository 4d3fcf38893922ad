"""Structured mutation: one or a few edits of a tree (replace, delete, rename, retype, add a
key, repeat a key, dangle a reference, nest deep, break a format...) at a drawn path."""

from __future__ import annotations

import copy
import json
import re

from hypothesis import strategies as st

from tests.fuzz.strategies.leaves import (
    B64U,
    BOUNDARY_INTS,
    DIGESTS,
    NUMBER_LITERALS,
    SPECIAL_STRINGS,
    STRING_BODIES,
    TIMESTAMPS,
    huge_string,
    scalars,
    small_values,
)
from tests.fuzz.strategies.pools import Pools, id_like
from tests.fuzz.strategies.trees import DupObject, PathT, RawNumber, RawString, Tree


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
        return isinstance(last, str) and id_like(last)
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
                    huge_string(),
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
