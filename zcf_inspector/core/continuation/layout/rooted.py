"""Layering from a root: every node's column is its distance from the plan node.

A plan's graph has one source, the plan, which reaches every subject (selection and
prerequisite edges together). Laid out by longest path, the plan's edge to a dependency
at the end of a 5,000-long ``depends_on`` chain would cross 5,000 columns; laid out by
distance, every edge runs at most one column forward: the walk's own tree edges go one
column right, an edge between two subjects at the same distance is *flat* (drawn as an
arc beside their column) and one to a nearer subject runs backwards, like a cycle edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from zcf_inspector.core.continuation.layout.routes import Point

_ARC_MIN = 10.0  # how far a flat edge's arc leaves its column
_ARC_SHARE = 0.3  # ... at most this share of the gap to the next column
_ARC_STEP = 0.04  # ... growing with the vertical distance it spans


def distances(count: int, root: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    """Breadth-first distance of every node from ``root`` along ``edges`` (-1: unreached).

    Neighbours are visited in edge order, so the result is deterministic.
    """
    successors: list[list[int]] = [[] for _ in range(count)]
    for source, target in edges:
        successors[source].append(target)
    distance = [-1] * count
    distance[root] = 0
    queue = [root]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        step = distance[node] + 1
        for child in successors[node]:
            if distance[child] < 0:
                distance[child] = step
                queue.append(child)
    return distance


def flat_route(
    source: tuple[float, float, float, float],
    target: tuple[float, float, float, float],
    column_right: float,
    gap: float,
) -> tuple[Point, ...]:
    """An arc from ``source``'s right side out beside the column and into ``target``'s
    right side (boxes as x, y, width, height); the arc's reach grows with its span."""
    sx, sy, sw, sh = source
    tx, ty, tw, th = target
    out_y = sy + sh * 0.75
    in_y = ty + th * 0.25
    reach = min(gap * _ARC_SHARE, _ARC_MIN + _ARC_STEP * abs(in_y - out_y))
    side = column_right + reach
    return ((sx + sw, out_y), (side, out_y), (side, in_y), (tx + tw, in_y))


BUS_MIN = 5  # a node with this many edges into the next column draws them as one bus
_BUS_FROM = 0.45  # trunks share the gap's right part (flat arcs keep to its left part)
_BUS_SPAN = 0.4


def trunk_x(gap_left: float, gap: float, rank: int, count: int) -> float:
    """Where the ``rank``-th of ``count`` buses crossing one gap runs its trunk."""
    share = _BUS_FROM + (_BUS_SPAN * rank / (count - 1) if count > 1 else _BUS_SPAN / 2)
    return gap_left + gap * share


def bus_routes(
    start: Point, trunk: float, ends: Sequence[tuple[int, Point]]
) -> dict[int, tuple[tuple[Point, ...], tuple[Point, ...]]]:
    """One bus: from ``start`` (the source's right side) to the trunk, along it and into
    each end (``(edge, point on the target's left side)``).

    Per edge: its whole route and the part the base picture draws. Drawn parts share
    nothing: the trunk is drawn once, in pieces from one stub to the next, so a node
    with 5,000 subjects in the next column costs one trunk and 5,000 short stubs.
    """
    sx, sy = start
    out: dict[int, tuple[tuple[Point, ...], tuple[Point, ...]]] = {}
    below = sorted((e for e in ends if e[1][1] >= sy), key=lambda e: (e[1][1], e[0]))
    above = sorted((e for e in ends if e[1][1] < sy), key=lambda e: (-e[1][1], e[0]))
    for side in (below, above):
        previous: float | None = None
        for edge, (tx, ty) in side:
            whole: tuple[Point, ...] = ((sx, sy), (trunk, sy), (trunk, ty), (tx, ty))
            drawn: tuple[Point, ...]
            if previous is None:
                drawn = whole
            elif previous == ty:
                drawn = ((trunk, ty), (tx, ty))
            else:
                drawn = ((trunk, previous), (trunk, ty), (tx, ty))
            out[edge] = (_deduplicated(whole), _deduplicated(drawn))
            previous = ty
    return out


def _deduplicated(points: tuple[Point, ...]) -> tuple[Point, ...]:
    kept = [points[0]]
    for point in points[1:]:
        if point != kept[-1]:
            kept.append(point)
    if len(kept) == 1:
        kept.append(points[-1])
    return tuple(kept)
