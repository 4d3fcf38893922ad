"""Layering from a root: every node's column is its distance from the plan node.

A plan's graph has one source, the plan, which reaches every subject (selection and
prerequisite edges together). Laid out by longest path, the plan's edge to a dependency
at the end of a 5,000-long ``depends_on`` chain would cross 5,000 columns; laid out by
distance, every edge runs at most one column forward: the walk's own tree edges go one
column right, an edge between two subjects at the same distance is *flat* (drawn as an
arc beside their column) and one to a nearer subject runs backwards, like a cycle edge.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from zcf_inspector.present.layout.routes import Point

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
    *,
    narrow: bool = False,
) -> tuple[Point, ...]:
    """An arc from ``source``'s right side out beside the column and into ``target``'s
    right side (boxes as x, y, width, height); the arc's reach grows with its span.

    ``narrow``: in a wrapped column the arc leaves and enters close to the middle, where
    the other half's members leave room."""
    sx, sy, sw, sh = source
    tx, ty, tw, th = target
    shift = 3.0 if narrow else None
    out_y = sy + sh / 2 + (shift if shift is not None else sh / 4)
    in_y = ty + th / 2 - (shift if shift is not None else th / 4)
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


WRAP_MIN = 6  # a column of fewer subjects is never wrapped
SUB_GAP = 16.0  # between the two halves of a wrapped column
TARGET_ASPECT = 1.3  # width over height the wrapping aims for, when the caller has none


@dataclass(frozen=True, slots=True)
class Column:
    """One layer's members (in order), for choosing which columns to wrap."""

    members: Sequence[int]
    has_dummies: bool


def wrap_height(heights: Sequence[float], members: Sequence[int], gap: float) -> float:
    """The height each member of a wrapped column counts for in the spacing: two halves,
    staggered, so consecutive members sit half a row apart, in alternate halves."""
    tallest = max(heights[m] for m in members)
    return (tallest - gap) / 2


def columns_to_wrap(
    columns: Sequence[Column],
    widths: Sequence[float],
    heights: Sequence[float],
    *,
    node_gap: float,
    layer_gap: float,
    aspect: float = TARGET_ASPECT,
) -> set[int]:
    """Which columns to fold into two staggered halves, so the picture comes closer to the
    shape of the view (``aspect``: its width over its height): the tallest column first,
    while folding it raises the scale at which the whole picture fits that view. (Folding
    any other column only widens the picture, so the tallest is the only candidate each
    time: a heap keeps this O(columns log columns) on a plan of thousands of columns.)"""
    total_w = layer_gap * max(len(columns) - 1, 0)
    heap: list[tuple[float, int]] = []
    for depth, column in enumerate(columns):
        if not column.members:
            continue
        total_w += max(widths[m] for m in column.members)
        height = sum(heights[m] for m in column.members) + node_gap * (len(column.members) - 1)
        heapq.heappush(heap, (-height, depth))

    def scale(width: float, height: float) -> float:
        return min(aspect / max(width, 1.0), 1.0 / max(height, 1.0))

    wrapped: set[int] = set()
    while heap:
        negative, depth = heap[0]
        column = columns[depth]
        if depth in wrapped or column.has_dummies or len(column.members) < WRAP_MIN:
            break  # the tallest cannot be folded (again): nothing else would help
        width = max(widths[m] for m in column.members)
        tallest = max(heights[m] for m in column.members)
        folded_h = len(column.members) * (tallest + node_gap) / 2
        heapq.heappop(heap)
        rest = -heap[0][0] if heap else 0.0
        before = scale(total_w, -negative)
        after_w = total_w + width + SUB_GAP
        if scale(after_w, max(folded_h, rest)) <= before:
            break
        total_w = after_w
        wrapped.add(depth)
        heapq.heappush(heap, (-folded_h, depth))
    return wrapped
