"""Pools harvested from the corpus: the keys, scalars and ids a mutation draws from, so that
most mutations stay near-valid (a real key, a real id, a value some key really holds)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from tests.fuzz.strategies.corpus import built_packet, example_values, publication_packets
from tests.fuzz.strategies.trees import Tree


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
                if isinstance(value, str) and id_like(key):
                    ids.append(value)
                elif isinstance(value, list) and id_like(key):
                    ids.extend(v for v in value if isinstance(v, str))
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
        else:
            scalars.append(item)
    return keys, scalars, ids


def id_like(key: str) -> bool:
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
        k, s, i = harvest(built_packet(name))
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
    trees = [built_packet(name) for name in publication_packets()]
    return Pools(*_packet_pools(), by_key=_by_key(trees))


@cache
def example_pools() -> Pools:
    return Pools(*_example_pools(), by_key=_by_key(list(example_values().values())))
