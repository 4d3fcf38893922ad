"""Iterative graph walks: reachability, required-flag propagation and cycles.

Every walk keeps an explicit stack and a visited set, so a 100,000-long chain costs
memory, never Python recursion depth.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def reachable(starts: Iterable[K], adjacency: Mapping[K, Sequence[K]]) -> list[K]:
    """Every node reachable from ``starts`` (starts included), in depth-first discovery order."""
    seen: set[K] = set()
    order: list[K] = []
    stack: list[K] = []
    for start in starts:
        if start in seen:
            continue
        seen.add(start)
        order.append(start)
        stack.append(start)
        while stack:
            node = stack.pop()
            for child in adjacency.get(node, ()):
                if child not in seen:
                    seen.add(child)
                    order.append(child)
                    stack.append(child)
    return order


def breadth_first(starts: Iterable[K], adjacency: Mapping[K, Sequence[K]]) -> list[K]:
    """Every node reachable from ``starts``, in breadth-first order (starts first)."""
    seen: set[K] = set()
    order: list[K] = []
    for start in starts:
        if start not in seen:
            seen.add(start)
            order.append(start)
    head = 0
    while head < len(order):
        for child in adjacency.get(order[head], ()):
            if child not in seen:
                seen.add(child)
                order.append(child)
        head += 1
    return order


def cycles(nodes: Iterable[K], adjacency: Mapping[K, Sequence[K]]) -> list[list[K]]:
    """Every cycle once: the strongly connected components with a cycle in them.

    Tarjan's algorithm with an explicit call stack. A component is a cycle when it has
    more than one member or its single member has an edge to itself. Members are listed
    in the order the walk first met them; components in the order they close.
    """
    index: dict[K, int] = {}
    low: dict[K, int] = {}
    on_stack: set[K] = set()
    component_stack: list[K] = []
    found: list[list[K]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        # Each frame: (node, iterator position into its children).
        frames: list[tuple[K, int]] = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        component_stack.append(root)
        on_stack.add(root)
        while frames:
            node, position = frames[-1]
            children = adjacency.get(node, ())
            if position < len(children):
                frames[-1] = (node, position + 1)
                child = children[position]
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    component_stack.append(child)
                    on_stack.add(child)
                    frames.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            frames.pop()
            if frames:
                parent = frames[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members: list[K] = []
                while True:
                    member = component_stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                members.reverse()
                if len(members) > 1 or node in adjacency.get(node, ()):
                    found.append(members)
    return found
