"""Layout steps 1 and 2: break cycles, then give every node a layer.

Works on dense integer indices (a node's index is its rank among the sorted IDs), so
every loop visits nodes and edges in one fixed order and the result never depends on
dict or set iteration order.
"""

from __future__ import annotations

from collections.abc import Sequence


def reversed_edges(count: int, edges: Sequence[tuple[int, int]]) -> list[bool]:
    """Which edges to reverse so the rest is acyclic: the back edges of a depth-first walk.

    Self-loops are never reversed (the layering ignores them). The walk is iterative and
    starts from nodes in index order, following edges in index order, as dot does.
    """
    out_edges: list[list[int]] = [[] for _ in range(count)]
    for index, (source, target) in enumerate(edges):
        if source != target:
            out_edges[source].append(index)
    # 0 unvisited, 1 on the walk's stack, 2 finished.
    state = [0] * count
    back = [False] * len(edges)
    for root in range(count):
        if state[root]:
            continue
        state[root] = 1
        stack: list[tuple[int, int]] = [(root, 0)]
        while stack:
            node, cursor = stack[-1]
            successors = out_edges[node]
            if cursor == len(successors):
                state[node] = 2
                stack.pop()
                continue
            stack[-1] = (node, cursor + 1)
            edge = successors[cursor]
            target = edges[edge][1]
            if state[target] == 1:
                back[edge] = True
            elif state[target] == 0:
                state[target] = 1
                stack.append((target, 0))
    return back


def longest_path_layers(count: int, dag_edges: Sequence[tuple[int, int]]) -> list[int]:
    """Layer of each node: sources at 0, every edge spans at least one layer.

    Longest path from the sources, then each source moves right to sit one layer before
    its nearest successor, so a root that only needs a deep node gets a short edge.
    ``dag_edges`` must be acyclic and free of self-loops.
    """
    successors: list[list[int]] = [[] for _ in range(count)]
    indegree = [0] * count
    for source, target in dag_edges:
        successors[source].append(target)
        indegree[target] += 1
    layer = [0] * count
    order = [n for n in range(count) if indegree[n] == 0]
    head = 0
    remaining = indegree[:]
    while head < len(order):
        node = order[head]
        head += 1
        next_layer = layer[node] + 1
        for child in successors[node]:
            layer[child] = max(layer[child], next_layer)
            remaining[child] -= 1
            if remaining[child] == 0:
                order.append(child)
    if len(order) != count:
        raise ValueError("longest_path_layers needs an acyclic graph")
    for node in range(count):
        if indegree[node] == 0 and successors[node]:
            layer[node] = min(layer[c] for c in successors[node]) - 1
    return layer
