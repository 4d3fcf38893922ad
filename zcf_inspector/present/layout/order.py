"""Layout step 3: the proper layered graph (dummy nodes on long edges) and its ordering.

Crossings are reduced by barycenter sweeps, down then up, for a bounded number of
rounds; the ordering with the fewest crossings seen is kept. Every sort breaks ties by
the current position and then the vertex index, so the result is deterministic.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

# How many segments (edges between adjacent layers) one round may touch before the
# sweeps stop: keeps a 5,000-node plan well under a second of ordering work.
_ROUND_BUDGET = 400_000
_MAX_ROUNDS = 24
_MIN_ROUNDS = 2
_PATIENCE = 3  # rounds without fewer crossings before giving up early


@dataclass(slots=True)
class LayeredGraph:
    """Real vertices ``0..real-1`` then dummies, each in one layer, edges one layer long."""

    real: int
    layer_of: list[int]
    layers: list[list[int]]  # vertices of each layer, in their current order
    up: list[list[int]]  # neighbours in the previous layer (with multiplicity)
    down: list[list[int]]  # neighbours in the next layer
    chains: list[list[int]]  # per layered edge: its vertices from source to target

    @property
    def segments(self) -> int:
        return sum(len(d) for d in self.down)


def build_layered(
    real: int, layer: Sequence[int], dag_edges: Sequence[tuple[int, int]]
) -> LayeredGraph:
    layer_of = list(layer)
    up: list[list[int]] = [[] for _ in range(real)]
    down: list[list[int]] = [[] for _ in range(real)]
    chains: list[list[int]] = []
    for source, target in dag_edges:
        chain = [source]
        for depth in range(layer_of[source] + 1, layer_of[target]):
            dummy = len(layer_of)
            layer_of.append(depth)
            up.append([])
            down.append([])
            chain.append(dummy)
        chain.append(target)
        for a, b in itertools.pairwise(chain):
            down[a].append(b)
            up[b].append(a)
        chains.append(chain)
    depth_count = max(layer_of, default=-1) + 1
    graph = LayeredGraph(real, layer_of, [[] for _ in range(depth_count)], up, down, chains)
    _initial_order(graph)
    return graph


def _initial_order(graph: LayeredGraph) -> None:
    """Depth-first discovery order from the first layer: a subtree starts out together."""
    seen = [False] * len(graph.layer_of)
    starts = [v for v in range(graph.real) if graph.layer_of[v] == 0]
    starts += range(len(graph.layer_of))
    for start in starts:
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        while stack:
            vertex = stack.pop()
            graph.layers[graph.layer_of[vertex]].append(vertex)
            for child in reversed(graph.down[vertex]):
                if not seen[child]:
                    seen[child] = True
                    stack.append(child)


def _positions(graph: LayeredGraph) -> list[int]:
    pos = [0] * len(graph.layer_of)
    for members in graph.layers:
        for index, vertex in enumerate(members):
            pos[vertex] = index
    return pos


def _sweep(graph: LayeredGraph, pos: list[int], neighbours: list[list[int]], depths: range) -> None:
    for depth in depths:
        members = graph.layers[depth]
        if len(members) == 1:
            continue
        at = pos.__getitem__
        # A vertex with no neighbour on that side keeps its place.
        keyed = [
            (
                sum(map(at, neighbours[v])) / len(neighbours[v]) if neighbours[v] else pos[v],
                pos[v],
                v,
            )
            for v in members
        ]
        keyed.sort()
        members = [vertex for _, _, vertex in keyed]
        graph.layers[depth] = members
        for index, vertex in enumerate(members):
            pos[vertex] = index


def _pair_crossings(upper: list[int], down: list[list[int]], pos: list[int], width: int) -> int:
    """Crossings between one layer and the next: inversions counted with a Fenwick tree."""
    targets: list[int] = []
    at = pos.__getitem__
    for vertex in upper:  # ``upper`` is in order, so sources come sorted
        targets.extend(sorted(map(at, down[vertex])))
    tree = [0] * (width + 1)
    crossings = 0
    for seen, target in enumerate(targets):
        # Count earlier segments whose target lies strictly to the right of this one.
        index = target + 1
        not_greater = 0
        while index > 0:
            not_greater += tree[index]
            index -= index & -index
        crossings += seen - not_greater
        index = target + 1
        while index <= width:
            tree[index] += 1
            index += index & -index
    return crossings


def crossings(graph: LayeredGraph) -> int:
    pos = _positions(graph)
    return sum(
        _pair_crossings(graph.layers[d], graph.down, pos, len(graph.layers[d + 1]))
        for d in range(len(graph.layers) - 1)
    )


def reduce_crossings(graph: LayeredGraph) -> int:
    """Reorder ``graph.layers`` in place; returns the crossings of the order kept."""
    segments = graph.segments
    if segments == 0 or len(graph.layers) < 2:
        return 0
    rounds = max(_MIN_ROUNDS, min(_MAX_ROUNDS, _ROUND_BUDGET // (4 * segments)))
    depth_count = len(graph.layers)
    pos = _positions(graph)
    if rounds == _MIN_ROUNDS:
        # A huge graph: counting crossings costs as much as a sweep, so sweep a fixed
        # number of rounds and count once at the end.
        for _ in range(rounds):
            _sweep(graph, pos, graph.up, range(1, depth_count))
            _sweep(graph, pos, graph.down, range(depth_count - 2, -1, -1))
        return crossings(graph)
    best = crossings(graph)
    best_layers = [m[:] for m in graph.layers]
    stale = 0
    for _ in range(rounds):
        if best == 0 or stale >= _PATIENCE:
            break
        _sweep(graph, pos, graph.up, range(1, depth_count))
        _sweep(graph, pos, graph.down, range(depth_count - 2, -1, -1))
        now = crossings(graph)
        if now < best:
            best, best_layers, stale = now, [m[:] for m in graph.layers], 0
        else:
            stale += 1
    graph.layers = best_layers
    return best
