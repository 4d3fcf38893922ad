"""Layout step 5: edge routes as polylines through their dummy vertices.

Between layers an edge runs straight; inside a layer's column it runs horizontally at
its dummy's position, which the ordering kept clear of nodes, so a route never crosses
a node box. Edges leaving or entering one side of a node get spread-out ports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zcf_inspector.present.layout.order import LayeredGraph

Point = tuple[float, float]

_PORT_STEP = 6.0
_PORT_SPAN = 0.7  # ports use at most this share of a node's height
_LOOP_REACH = 14.0  # how far a self-loop sticks out of its node


@dataclass(frozen=True, slots=True)
class Columns:
    """Where each layer's column starts and how wide it is."""

    left: Sequence[float]
    width: Sequence[float]


@dataclass(frozen=True, slots=True)
class Geometry:
    """Vertex positions of one laid-out component (left-to-right)."""

    columns: Columns
    centre_y: Sequence[float]
    box_x: Sequence[float]  # left edge of each real vertex
    widths: Sequence[float]
    heights: Sequence[float]


def _spread(ports: list[tuple[float, int]], height: float) -> dict[int, float]:
    """Offsets from the node's centre for the edges on one side, ordered by where they go."""
    ports.sort()
    count = len(ports)
    if count == 1:
        return {ports[0][1]: 0.0}
    step = min(_PORT_STEP, height * _PORT_SPAN / (count - 1))
    middle = (count - 1) / 2
    return {chain: (rank - middle) * step for rank, (_, chain) in enumerate(ports)}


def port_offsets(graph: LayeredGraph, geometry: Geometry) -> tuple[list[float], list[float]]:
    """Per chain: the port offset at its source (right side) and at its target (left side)."""
    right: list[list[tuple[float, int]]] = [[] for _ in range(graph.real)]
    left: list[list[tuple[float, int]]] = [[] for _ in range(graph.real)]
    y = geometry.centre_y
    for index, chain in enumerate(graph.chains):
        right[chain[0]].append((y[chain[1]], index))
        left[chain[-1]].append((y[chain[-2]], index))
    out_offset = [0.0] * len(graph.chains)
    in_offset = [0.0] * len(graph.chains)
    for vertex in range(graph.real):
        height = geometry.heights[vertex]
        for chain_index, offset in _spread(right[vertex], height).items():
            out_offset[chain_index] = offset
        for chain_index, offset in _spread(left[vertex], height).items():
            in_offset[chain_index] = offset
    return out_offset, in_offset


def chain_route(
    graph: LayeredGraph, geometry: Geometry, chain: Sequence[int], out_port: float, in_port: float
) -> tuple[Point, ...]:
    """The polyline of one layered edge, from its layered source to its layered target."""
    columns = geometry.columns
    layer_of = graph.layer_of
    y = geometry.centre_y
    source, target = chain[0], chain[-1]
    s_layer, t_layer = layer_of[source], layer_of[target]
    points: list[Point] = [
        (geometry.box_x[source] + geometry.widths[source], y[source] + out_port),
        (columns.left[s_layer] + columns.width[s_layer], y[source] + out_port),
    ]
    for dummy in chain[1:-1]:
        depth = layer_of[dummy]
        points.append((columns.left[depth], y[dummy]))
        points.append((columns.left[depth] + columns.width[depth], y[dummy]))
    points.append((columns.left[t_layer], y[target] + in_port))
    points.append((geometry.box_x[target], y[target] + in_port))
    deduplicated = [points[0]]
    for point in points[1:]:
        if point != deduplicated[-1]:
            deduplicated.append(point)
    return tuple(deduplicated)


def self_loop_route(x: float, top: float, width: float, height: float) -> tuple[Point, ...]:
    """A small loop out of the right side and back in through the top."""
    right = x + width
    out_y = top + height / 4
    above = top - _LOOP_REACH * 0.8
    return (
        (right, out_y),
        (right + _LOOP_REACH, out_y),
        (right + _LOOP_REACH, above),
        (right - _LOOP_REACH, above),
        (right - _LOOP_REACH, top),
    )
