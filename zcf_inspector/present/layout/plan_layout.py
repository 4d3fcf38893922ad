"""Layered (Sugiyama-style) layout of a plan's graph, as plain frozen data.

Left to right, like `plan --dot` (``rankdir=LR``): a subject sits left of what it
needs. Steps, each in its own module: cycle breaking and layering
(`layers`, or `rooted` for a plan: columns by distance from the plan node), dummy
vertices and crossing reduction (`order`), positions across layers (`coords`), edge
routes (`routes`) and the packing of connected components (`pack`).

Deterministic: nodes are indexed by sorted ID and every step walks indices in order,
so the same graph always gets the same picture. Written here rather than taken from a
library: the pure-Python candidate (grandalf) is GPL/EPL-licensed, unmaintained since
2023 and took 13 s for 2,000 nodes; this one lays out 5,000 in about a second
(`tests/perf/bench_plangraph.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.present.layout.boxes import (
    DEFAULT_SPACING,
    PLAN_SPACING,
    EdgeRoute,
    GraphLayout,
    NodeBox,
    Size,
    Spacing,
    default_size,
)
from zcf_inspector.present.layout.coords import assign_across, stack_centred
from zcf_inspector.present.layout.layers import longest_path_layers, reversed_edges
from zcf_inspector.present.layout.order import (
    LayeredGraph,
    build_layered,
    reduce_crossings,
)
from zcf_inspector.present.layout.pack import shelf_pack
from zcf_inspector.present.layout.rooted import (
    BUS_MIN,
    SUB_GAP,
    TARGET_ASPECT,
    Column,
    bus_routes,
    columns_to_wrap,
    distances,
    flat_route,
    trunk_x,
    wrap_height,
)
from zcf_inspector.present.layout.routes import (
    Columns,
    Geometry,
    Point,
    chain_route,
    port_offsets,
    self_loop_route,
)

# Coordinate sweeps: up to 8 rounds, fewer as the layered graph grows, so that a
# 5,000-node plan (tens of thousands of vertices with the dummies) stays fast.
_COORDINATE_ROUNDS = 8
_COORDINATE_BUDGET = 40_000  # vertex visits per round budgeted

# (edge index, points, reversed, self-loop, flat, drawn part)
_Route = tuple[int, tuple[Point, ...], bool, bool, bool, tuple[Point, ...]]


@dataclass(slots=True)
class _Placed:
    """One component laid out at its own origin."""

    boxes: list[tuple[int, float, float, int]]  # (node index, x, y, layer)
    routes: list[_Route]
    width: float
    height: float
    crossings: int
    min_x: float  # where the bounding box starts in the component's own coordinates
    min_y: float


def _components(count: int, edges: Sequence[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(count))

    def find(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for source, target in edges:
        a, b = find(source), find(target)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for node in range(count):  # ascending, so each group is sorted and keyed by its minimum
        groups.setdefault(find(node), []).append(node)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def _coordinate_rounds(vertex_count: int) -> int:
    return max(1, min(_COORDINATE_ROUNDS, _COORDINATE_BUDGET // max(vertex_count, 1)))


def _rooted_layers(
    count: int, root: int, edges: Sequence[tuple[int, int]]
) -> tuple[list[int], list[bool], list[bool]]:
    """Columns by distance from ``root``; which edges run backwards, which are flat.

    A node the root does not reach (never in a plan's graph) goes one column past the
    farthest one, so the picture stays whole whatever the input.
    """
    layer = distances(count, root, edges)
    beyond = max(layer) + 1
    layer = [beyond if d < 0 else d for d in layer]
    back = [layer[t] < layer[s] for s, t in edges]
    flat = [s != t and layer[t] == layer[s] for s, t in edges]
    return layer, back, flat


def _layout_component(
    members: list[int],
    edges: Sequence[tuple[int, int]],
    edge_ids: list[int],
    sizes: Sequence[Size],
    spacing: Spacing,
    *,
    root: int | None = None,
    aspect: float = TARGET_ASPECT,
) -> _Placed:
    local = {node: i for i, node in enumerate(members)}
    local_edges = [(local[edges[e][0]], local[edges[e][1]]) for e in edge_ids]
    count = len(members)
    rooted = root is not None and root in local
    if root is None or root not in local:
        back = reversed_edges(count, local_edges)
        flat = [False] * len(local_edges)
        layer: list[int] | None = None
    else:
        layer, back, flat = _rooted_layers(count, local[root], local_edges)
    layered: list[tuple[int, int]] = []
    layered_ids: list[int] = []
    loops: list[int] = []
    flats: list[int] = []
    for position, (source, target) in enumerate(local_edges):
        if source == target:
            loops.append(position)
            continue
        if flat[position]:
            flats.append(position)
            continue
        layered.append((target, source) if back[position] else (source, target))
        layered_ids.append(position)
    if layer is None:
        layer = longest_path_layers(count, layered)
    graph = build_layered(count, layer, layered)
    crossing_count = reduce_crossings(graph)
    vertex_count = len(graph.layer_of)
    widths = [sizes[m][0] for m in members] + [0.0] * (vertex_count - count)
    heights = [sizes[m][1] for m in members] + [0.0] * (vertex_count - count)
    wrapped = _wrapped(graph, widths, heights, spacing, aspect) if rooted else set()
    spaced = heights[:]
    for depth in wrapped:
        folded = wrap_height(heights, graph.layers[depth], spacing.node_gap)
        for member in graph.layers[depth]:
            spaced[member] = folded
    if rooted:
        centre_y = stack_centred(
            graph, spaced, node_gap=spacing.node_gap, dummy_gap=spacing.dummy_gap
        )
    else:
        centre_y = assign_across(
            graph,
            spaced,
            node_gap=spacing.node_gap,
            dummy_gap=spacing.dummy_gap,
            rounds=_coordinate_rounds(vertex_count),
        )
    column_width = [0.0] * len(graph.layers)
    for node in range(count):
        depth = graph.layer_of[node]
        column_width[depth] = max(column_width[depth], widths[node])
    half = column_width[:]  # a wrapped column: two halves of this width
    for depth in wrapped:
        column_width[depth] = 2 * half[depth] + SUB_GAP
    column_left: list[float] = []
    cursor = 0.0
    for width in column_width:
        column_left.append(cursor)
        cursor += width + spacing.layer_gap
    box_x = [
        column_left[graph.layer_of[n]] + (column_width[graph.layer_of[n]] - widths[n]) / 2
        for n in range(count)
    ]
    for depth in wrapped:  # alternate members go to the second half
        for rank, member in enumerate(graph.layers[depth]):
            offset = (half[depth] + SUB_GAP) * (rank % 2)
            box_x[member] = column_left[depth] + offset + (half[depth] - widths[member]) / 2
    geometry = Geometry(Columns(column_left, column_width), centre_y, box_x, widths, heights)
    routes: list[_Route] = []
    out_port, in_port = port_offsets(graph, geometry)
    if wrapped:  # edges meet a wrapped column's members mid-height, between the others
        for chain_index, chain in enumerate(graph.chains):
            if graph.layer_of[chain[0]] in wrapped:
                out_port[chain_index] = 0.0
            if graph.layer_of[chain[-1]] in wrapped:
                in_port[chain_index] = 0.0
    buses = _buses(graph, geometry, in_port, layered_ids, back, spacing=spacing) if rooted else {}
    for chain_index, position in enumerate(layered_ids):
        bus = buses.get(chain_index)
        if bus is not None:
            routes.append((edge_ids[position], bus[0], False, False, False, bus[1]))
            continue
        points = chain_route(
            graph, geometry, graph.chains[chain_index], out_port[chain_index], in_port[chain_index]
        )
        if back[position]:
            points = points[::-1]
        routes.append((edge_ids[position], points, back[position], False, False, ()))
    for position in flats:
        source, target = local_edges[position]
        depth = graph.layer_of[source]
        points = flat_route(
            (
                box_x[source],
                centre_y[source] - heights[source] / 2,
                widths[source],
                heights[source],
            ),
            (
                box_x[target],
                centre_y[target] - heights[target] / 2,
                widths[target],
                heights[target],
            ),
            column_left[depth] + column_width[depth],
            spacing.layer_gap,
            narrow=depth in wrapped,
        )
        routes.append((edge_ids[position], points, False, False, True, ()))
    for position in loops:
        node = local_edges[position][0]
        top = centre_y[node] - heights[node] / 2
        routes.append(
            (
                edge_ids[position],
                self_loop_route(box_x[node], top, widths[node], heights[node]),
                False,
                True,
                False,
                (),
            )
        )
    boxes = [
        (members[n], box_x[n], centre_y[n] - heights[n] / 2, graph.layer_of[n])
        for n in range(count)
    ]
    return _normalised(boxes, routes, widths, heights, crossing_count)


def _wrapped(
    graph: LayeredGraph,
    widths: Sequence[float],
    heights: Sequence[float],
    spacing: Spacing,
    aspect: float,
) -> set[int]:
    columns = [
        Column(
            [v for v in members if v < graph.real],
            any(v >= graph.real for v in members),
        )
        for members in graph.layers
    ]
    return columns_to_wrap(
        columns,
        widths,
        heights,
        node_gap=spacing.node_gap,
        layer_gap=spacing.layer_gap,
        aspect=aspect,
    )


def _buses(
    graph: LayeredGraph,
    geometry: Geometry,
    in_port: Sequence[float],
    layered_ids: Sequence[int],
    back: Sequence[bool],
    *,
    spacing: Spacing,
) -> dict[int, tuple[tuple[Point, ...], tuple[Point, ...]]]:
    """Routes of the edges leaving a node with many subjects in the next column, by chain."""
    fans: dict[int, list[int]] = {}
    for chain_index, position in enumerate(layered_ids):
        chain = graph.chains[chain_index]
        if not back[position] and len(chain) == 2:  # one column forward
            fans.setdefault(chain[0], []).append(chain_index)
    sources = sorted(
        (graph.layer_of[v], geometry.centre_y[v], v) for v, c in fans.items() if len(c) >= BUS_MIN
    )
    per_layer: dict[int, list[int]] = {}
    for depth, _, vertex in sources:
        per_layer.setdefault(depth, []).append(vertex)
    columns = geometry.columns
    out: dict[int, tuple[tuple[Point, ...], tuple[Point, ...]]] = {}
    for depth, members in per_layer.items():
        gap_left = columns.left[depth] + columns.width[depth]
        for rank, vertex in enumerate(members):
            trunk = trunk_x(gap_left, spacing.layer_gap, rank, len(members))
            start = (geometry.box_x[vertex] + geometry.widths[vertex], geometry.centre_y[vertex])
            ends = []
            for chain_index in fans[vertex]:
                target = graph.chains[chain_index][1]
                end = (geometry.box_x[target], geometry.centre_y[target] + in_port[chain_index])
                ends.append((chain_index, end))
            out.update(bus_routes(start, trunk, ends))
    return out


def _normalised(
    boxes: list[tuple[int, float, float, int]],
    routes: list[_Route],
    widths: Sequence[float],
    heights: Sequence[float],
    crossing_count: int,
) -> _Placed:
    """Measure a component's bounding box (routes included); its origin is kept as
    ``(min_x, min_y)`` and applied together with the packing offset, in one pass."""
    xs = [x for _, x, _, _ in boxes] + [p[0] for r in routes for p in r[1]]
    ys = [y for _, _, y, _ in boxes] + [p[1] for r in routes for p in r[1]]
    right = max([x + widths[i] for i, (_, x, _, _) in enumerate(boxes)] + xs)
    bottom = max([y + heights[i] for i, (_, _, y, _) in enumerate(boxes)] + ys)
    min_x, min_y = min(xs), min(ys)
    return _Placed(boxes, routes, right - min_x, bottom - min_y, crossing_count, min_x, min_y)


def layout_graph(
    node_ids: Sequence[str],
    edges: Sequence[tuple[str, str]],
    sizes: Mapping[str, Size] | None = None,
    spacing: Spacing = DEFAULT_SPACING,
    *,
    root: str | None = None,
    aspect: float = TARGET_ASPECT,
) -> GraphLayout:
    """Lay out a directed graph; an edge endpoint not in ``node_ids`` becomes a node too.

    ``sizes`` maps a node ID to its box (width, height); missing entries get
    :func:`default_size`. Every edge, self-loops and cycle edges included, gets a route.
    With ``root``, its component is laid out in columns by distance from it
    (:mod:`rooted`); other components, and every component without it, by longest path.
    """
    ids = sorted({*node_ids, *(s for s, _ in edges), *(t for _, t in edges)})
    index = {node_id: i for i, node_id in enumerate(ids)}
    indexed = [(index[s], index[t]) for s, t in edges]
    box_sizes = [
        (sizes.get(node_id) if sizes is not None else None) or default_size(node_id)
        for node_id in ids
    ]
    edges_of: dict[int, list[int]] = {}
    components = _components(len(ids), indexed)
    component_of = [0] * len(ids)
    for number, members in enumerate(components):
        for node in members:
            component_of[node] = number
    for position, (source, _) in enumerate(indexed):
        edges_of.setdefault(component_of[source], []).append(position)
    root_index = index.get(root) if root is not None else None
    placed = [
        _layout_component(
            members,
            indexed,
            edges_of.get(number, []),
            box_sizes,
            spacing,
            root=root_index,
            aspect=aspect,
        )
        for number, members in enumerate(components)
    ]
    corners = shelf_pack([(p.width, p.height) for p in placed], spacing.component_gap)
    nodes: list[NodeBox | None] = [None] * len(ids)
    routes: list[EdgeRoute | None] = [None] * len(edges)
    for number, (part, (corner_x, corner_y)) in enumerate(zip(placed, corners, strict=True)):
        left, top = corner_x - part.min_x, corner_y - part.min_y
        for node, x, y, depth in part.boxes:
            box_width, box_height = box_sizes[node]
            nodes[node] = NodeBox(
                ids[node], x + left, y + top, box_width, box_height, depth, number
            )
        for edge, points, rev, loop, flat, drawn in part.routes:
            moved = tuple((px + left, py + top) for px, py in points)
            moved_drawn = tuple((px + left, py + top) for px, py in drawn)
            routes[edge] = EdgeRoute(
                edge, edges[edge][0], edges[edge][1], moved, rev, loop, flat, moved_drawn
            )
    width = max((left + p.width for p, (left, _) in zip(placed, corners, strict=True)), default=0)
    height = max((top + p.height for p, (_, top) in zip(placed, corners, strict=True)), default=0)
    return GraphLayout(
        tuple(n for n in nodes if n is not None),
        tuple(r for r in routes if r is not None),
        float(width),
        float(height),
        sum(p.crossings for p in placed),
    )


def layout_plan(
    plan: PlanResult,
    sizes: Mapping[str, Size] | None = None,
    spacing: Spacing = PLAN_SPACING,
    *,
    others: Sequence[str] = (),
    aspect: float = TARGET_ASPECT,
) -> GraphLayout:
    """The layout of one plan's graph (the nodes and edges `plan --json` lists): the plan
    node in the first column, every subject in the column of its distance from it.

    ``others`` (subjects outside this plan's inventory, shown on request) are set apart
    in a grid below the plan's graph, as component 1; they have no edges. ``aspect`` is
    the view's width over its height: tall columns fold in two to come close to it.
    """
    main = layout_graph(
        [n.id for n in plan.nodes],
        [(e.source, e.target) for e in plan.edges],
        sizes,
        spacing,
        root=f"plan:{plan.id}",
        aspect=aspect,
    )
    known = {b.id for b in main.nodes}
    extra = sorted({o for o in others if o not in known})
    if not extra:
        return main
    return _with_others(main, extra, sizes, spacing)


def _with_others(
    main: GraphLayout, extra: list[str], sizes: Mapping[str, Size] | None, spacing: Spacing
) -> GraphLayout:
    box_sizes = [(sizes.get(o) if sizes is not None else None) or default_size(o) for o in extra]
    cell_w = max(w for w, _ in box_sizes) + spacing.node_gap
    cell_h = max(h for _, h in box_sizes) + spacing.node_gap
    columns = max(1, int(max(main.width, cell_w) // cell_w))
    top = main.height + 2 * spacing.component_gap
    boxes = list(main.nodes)
    for i, (other, (w, h)) in enumerate(zip(extra, box_sizes, strict=True)):
        row, column = divmod(i, columns)
        boxes.append(NodeBox(other, column * cell_w, top + row * cell_h, w, h, 0, 1))
    rows = -(-len(extra) // columns)
    return GraphLayout(
        tuple(sorted(boxes, key=lambda b: b.id)),
        main.edges,
        max(main.width, min(columns, len(extra)) * cell_w),
        top + rows * cell_h,
        main.crossings,
    )
