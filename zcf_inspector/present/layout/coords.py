"""Layout step 4: positions across the layers, keeping each layer's order and spacing.

Each sweep moves every vertex toward the weighted mean of its neighbours in the layer
just placed, then solves for the closest positions that keep the layer's order and
minimum gaps exactly (weighted isotonic regression, pool-adjacent-violators, linear
time). Long edges weigh more, as in dot, so their dummy chains straighten out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from zcf_inspector.present.layout.order import LayeredGraph

_REAL_REAL = 1.0
_REAL_DUMMY = 2.0
_DUMMY_DUMMY = 8.0
_IDLE_WEIGHT = 0.05  # a vertex with no neighbour on the swept side barely resists moving


def _offsets(
    members: Sequence[int], heights: Sequence[float], gaps: Sequence[float]
) -> list[float]:
    """Cumulative minimum distance of each vertex's centre from the first one's."""
    out = [0.0]
    for a, b, gap in zip(members, members[1:], gaps, strict=False):
        out.append(out[-1] + (heights[a] + heights[b]) / 2 + gap)
    return out


def _closest_ordered(
    desired: Sequence[float], weights: Sequence[float], offsets: Sequence[float]
) -> list[float]:
    """Positions minimising sum w·(y - desired)² with y[k+1] - y[k] >= gap (PAVA)."""
    if all(
        desired[k + 1] - desired[k] >= offsets[k + 1] - offsets[k] for k in range(len(desired) - 1)
    ):
        return list(desired)  # already far enough apart: nothing to pool
    # Blocks of pooled vertices: [weight, weighted sum, count].
    blocks: list[list[float]] = []
    for target, weight, offset in zip(desired, weights, offsets, strict=True):
        blocks.append([weight, weight * (target - offset), 1.0])
        while len(blocks) > 1 and (blocks[-2][1] * blocks[-1][0] >= blocks[-1][1] * blocks[-2][0]):
            top = blocks.pop()
            blocks[-1][0] += top[0]
            blocks[-1][1] += top[1]
            blocks[-1][2] += top[2]
    out: list[float] = []
    for weight, total, count in blocks:
        value = total / weight
        out.extend([value] * int(count))
    return [value + offset for value, offset in zip(out, offsets, strict=True)]


def _gaps(
    graph: LayeredGraph, members: Sequence[int], node_gap: float, dummy_gap: float
) -> list[float]:
    return [
        node_gap if a < graph.real and b < graph.real else dummy_gap
        for a, b in itertools.pairwise(members)
    ]


def assign_across(
    graph: LayeredGraph,
    heights: Sequence[float],
    *,
    node_gap: float,
    dummy_gap: float,
    rounds: int,
) -> list[float]:
    """Centre coordinate of every vertex across the layers (y for a left-to-right layout)."""
    centre = [0.0] * len(graph.layer_of)
    offsets_of: list[list[float]] = []
    for members in graph.layers:
        offsets = _offsets(members, heights, _gaps(graph, members, node_gap, dummy_gap))
        offsets_of.append(offsets)
        shift = offsets[-1] / 2 if offsets else 0.0
        for vertex, offset in zip(members, offsets, strict=False):
            centre[vertex] = offset - shift
    depth_count = len(graph.layers)
    up = _weighted(graph, graph.up)
    down = _weighted(graph, graph.down)
    passes: list[tuple[list[list[tuple[int, float]]], range]] = []
    for _ in range(rounds):
        passes.append((up, range(1, depth_count)))
        passes.append((down, range(depth_count - 2, -1, -1)))
    if rounds > 1:  # a last pass balancing both sides, skipped on huge graphs for time
        both = [u + d for u, d in zip(up, down, strict=True)]
        passes.append((both, range(depth_count)))
    for neighbours, depths in passes:
        for depth in depths:
            members = graph.layers[depth]
            if len(members) == 1:
                _place_alone(members[0], neighbours[members[0]], centre)
                continue
            desired: list[float] = []
            weights: list[float] = []
            for vertex in members:
                total = 0.0
                weight = 0.0
                for other, w in neighbours[vertex]:
                    total += w * centre[other]
                    weight += w
                if weight:
                    desired.append(total / weight)
                    weights.append(weight)
                else:
                    desired.append(centre[vertex])
                    weights.append(_IDLE_WEIGHT)
            placed = _closest_ordered(desired, weights, offsets_of[depth])
            for vertex, value in zip(members, placed, strict=True):
                centre[vertex] = value
    return centre


def _weighted(graph: LayeredGraph, neighbours: list[list[int]]) -> list[list[tuple[int, float]]]:
    # Long edges weigh more (dummy ends), as in dot. Written inline: this runs once per
    # edge end, 40,000 times on a 5,000-node plan.
    weights = (_REAL_REAL, _REAL_DUMMY, _DUMMY_DUMMY)
    real = graph.real
    return [
        [(other, weights[(vertex >= real) + (other >= real)]) for other in near]
        for vertex, near in enumerate(neighbours)
    ]


def _place_alone(vertex: int, near: list[tuple[int, float]], centre: list[float]) -> None:
    """A vertex alone in its layer has no order to keep: it goes to its neighbours' mean."""
    if near:
        weight = sum(w for _, w in near)
        centre[vertex] = sum(w * centre[other] for other, w in near) / weight


def stack_centred(
    graph: LayeredGraph, heights: Sequence[float], *, node_gap: float, dummy_gap: float
) -> list[float]:
    """Each layer packed tight and centred on 0, in its order: for a plan's columns, whose
    many edges run as orthogonal buses, compactness matters more than straight edges."""
    centre = [0.0] * len(graph.layer_of)
    for members in graph.layers:
        offsets = _offsets(members, heights, _gaps(graph, members, node_gap, dummy_gap))
        shift = offsets[-1] / 2 if offsets else 0.0
        for vertex, offset in zip(members, offsets, strict=False):
            centre[vertex] = offset - shift
    return centre
