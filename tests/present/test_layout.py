"""The layered layout: a named table of graphs, each checked for the same properties.

Deterministic positions (also when the input is shuffled), no overlapping nodes, every
edge routed from its source's border to its target's, layers that follow the edges
(cycle edges reversed and still drawn), and routes that never pass through a node.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass

import pytest

from tests.core.continuation.spec_examples import CLOCK, inspect, raw_session, session_names
from tests.perf.bench_continuation import dag, generated_profile
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.present.layout import GraphLayout, NodeBox, layout_graph, layout_plan
from zcf_inspector.present.layout.layers import longest_path_layers, reversed_edges
from zcf_inspector.present.layout.order import build_layered, crossings, reduce_crossings
from zcf_inspector.present.reach import Reach

Edges = list[tuple[str, str]]


@dataclass(frozen=True)
class Graph:
    name: str
    nodes: list[str]
    edges: Edges
    reversed_count: int  # edges the layout must lay against their direction
    components: int


def _big(count: int, seed: int = 7) -> tuple[list[str], Edges]:
    """A dependency-shaped random DAG: each node needs one or two recent earlier nodes."""
    rnd = random.Random(seed)
    nodes = [f"n{i:05d}" for i in range(count)]
    edges: Edges = []
    for i in range(1, count):
        edges.append((nodes[i], nodes[rnd.randrange(max(0, i - 200), i)]))
        if rnd.random() < 0.4:
            edges.append((nodes[i], nodes[rnd.randrange(max(0, i - 400), i)]))
    return nodes, edges


BIG_NODES, BIG_EDGES = _big(5_000)

GRAPHS = [
    Graph("chain", ["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("c", "d")], 0, 1),
    Graph("diamond", ["a", "b", "c", "d"], [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")], 0, 1),
    Graph("cycle", ["a", "b", "c"], [("a", "b"), ("b", "c"), ("c", "a")], 1, 1),
    Graph("two-cycle", ["a", "b"], [("a", "b"), ("b", "a")], 1, 1),
    Graph("self-loop", ["a", "b"], [("a", "a"), ("a", "b")], 0, 1),
    Graph("disconnected", ["a", "b", "c", "d", "e"], [("a", "b"), ("c", "d")], 0, 3),
    Graph(
        "long edge", ["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")], 0, 1
    ),
    Graph("parallel edges", ["a", "b"], [("a", "b"), ("a", "b")], 0, 1),
    Graph("empty", [], [], 0, 0),
    Graph("5,000 nodes", BIG_NODES, BIG_EDGES, 0, 1),
]


def _overlaps(boxes: tuple[NodeBox, ...]) -> list[tuple[str, str]]:
    """Pairs of boxes whose interiors intersect (sweep over x)."""
    ordered = sorted(boxes, key=lambda b: b.x)
    found = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.x + a.width:
                break
            if b.y < a.y + a.height and a.y < b.y + b.height:
                found.append((a.id, b.id))
    return found


def _on_border(box: NodeBox, point: tuple[float, float]) -> bool:
    x, y = point
    inside_x = box.x - 1e-6 <= x <= box.x + box.width + 1e-6
    inside_y = box.y - 1e-6 <= y <= box.y + box.height + 1e-6
    on_side = abs(x - box.x) < 1e-6 or abs(x - box.x - box.width) < 1e-6
    on_top = abs(y - box.y) < 1e-6
    return inside_x and inside_y and (on_side or on_top)


def _strictly_inside(box: NodeBox, point: tuple[float, float]) -> bool:
    x, y = point
    return box.x < x < box.x + box.width and box.y < y < box.y + box.height


@pytest.fixture(scope="module", params=GRAPHS, ids=[g.name for g in GRAPHS])
def laid_out(request: pytest.FixtureRequest) -> tuple[Graph, GraphLayout]:
    graph: Graph = request.param
    return graph, layout_graph(graph.nodes, graph.edges)


def test_positions_are_deterministic(laid_out: tuple[Graph, GraphLayout]) -> None:
    graph, layout = laid_out
    assert layout_graph(graph.nodes, graph.edges) == layout
    # Node order in the input does not matter (nodes are indexed by sorted ID).
    shuffled = graph.nodes[:]
    random.Random(1).shuffle(shuffled)
    again = layout_graph(shuffled, graph.edges)
    assert again.nodes == layout.nodes


def test_no_nodes_overlap(laid_out: tuple[Graph, GraphLayout]) -> None:
    _, layout = laid_out
    assert _overlaps(layout.nodes) == []
    assert {b.id for b in layout.nodes} == set(laid_out[0].nodes)
    for box in layout.nodes:
        assert box.x >= 0
        assert box.y >= 0
        assert box.x + box.width <= layout.width + 1e-6
        assert box.y + box.height <= layout.height + 1e-6


def test_every_edge_is_routed_border_to_border(laid_out: tuple[Graph, GraphLayout]) -> None:
    graph, layout = laid_out
    boxes = {b.id: b for b in layout.nodes}
    assert [(r.source, r.target) for r in layout.edges] == graph.edges
    assert [r.index for r in layout.edges] == list(range(len(graph.edges)))
    for route in layout.edges:
        assert len(route.points) >= 2
        assert _on_border(boxes[route.source], route.points[0]), route
        assert _on_border(boxes[route.target], route.points[-1]), route


def test_layers_follow_edges_and_cycles_are_broken(laid_out: tuple[Graph, GraphLayout]) -> None:
    graph, layout = laid_out
    boxes = {b.id: b for b in layout.nodes}
    assert sum(r.reversed for r in layout.edges) == graph.reversed_count
    for route in layout.edges:
        source, target = boxes[route.source], boxes[route.target]
        assert source.component == target.component
        if route.self_loop:
            assert route.source == route.target
        elif route.reversed:
            assert source.layer > target.layer  # drawn right to left, against the layers
        else:
            assert source.layer < target.layer
    assert len({b.component for b in layout.nodes}) == graph.components


def test_routes_never_pass_through_a_node(laid_out: tuple[Graph, GraphLayout]) -> None:
    graph, layout = laid_out
    if len(graph.nodes) > 100:
        return  # checked on the small graphs; quadratic in the big one
    for route in layout.edges:
        for point in route.points[1:-1]:
            assert not any(_strictly_inside(b, point) for b in layout.nodes), (route, point)


def test_cycle_breaking_reverses_only_back_edges() -> None:
    edges = [(0, 1), (1, 2), (2, 0), (2, 2)]
    assert reversed_edges(3, edges) == [False, False, True, False]
    assert longest_path_layers(3, [(0, 1), (1, 2), (0, 2)]) == [0, 1, 2]


def test_a_source_moves_next_to_its_nearest_prerequisite() -> None:
    # a→b→c→d and x→d: x sits just left of d, not in the first column.
    assert longest_path_layers(5, [(0, 1), (1, 2), (2, 3), (4, 3)]) == [0, 1, 2, 3, 2]


def test_crossing_reduction_untangles_a_crossed_pair() -> None:
    # Layer 0: a, b; layer 1: c, d; edges a→d, b→c cross in the initial order only
    # if the sweep does nothing. After reduction there are none.
    layered = build_layered(4, [0, 0, 1, 1], [(0, 3), (1, 2), (0, 3)])
    layered.layers = [[0, 1], [2, 3]]
    assert crossings(layered) == 2
    assert reduce_crossings(layered) == 0


@pytest.mark.parametrize("name", session_names())
def test_every_example_plan_is_laid_out(name: str) -> None:
    for plan in inspect(raw_session(name)).plans:
        layout = layout_plan(plan)
        assert [b.id for b in layout.nodes] == sorted(n.id for n in plan.nodes)
        assert len(layout.edges) == len(plan.edges)
        assert _overlaps(layout.nodes) == []


REACH_EDGES = [("a", "b"), ("b", "c"), ("x", "b"), ("c", "d"), ("e", "f")]


@pytest.mark.parametrize(
    ("node", "needs", "needed_by"),
    [
        ("b", {"c", "d"}, {"a", "x"}),
        ("a", {"b", "c", "d"}, set()),
        ("d", set(), {"a", "b", "c", "x"}),
        ("e", {"f"}, set()),
    ],
)
def test_reach_closure_both_ways(node: str, needs: set[str], needed_by: set[str]) -> None:
    reach = Reach.of_edges(["a", "b", "c", "d", "e", "f", "x"], REACH_EDGES)
    assert reach.prerequisites(node) == needs
    assert reach.dependents(node) == needed_by
    assert reach.closure(node) == {node} | needs | needed_by


def test_reach_paths_go_either_way_or_not_at_all() -> None:
    reach = Reach.of_edges(["a", "b", "c", "d", "e", "f", "x"], REACH_EDGES)
    assert reach.path("a", "d") == ("a", "b", "c", "d")
    assert reach.path("d", "x") == ("x", "b", "c", "d")
    assert reach.path("a", "x") is None
    assert reach.path("a", "f") is None
    assert reach.path("a", "a") == ("a",)
    assert reach.neighbours("b") == ("c", "a", "x")


def test_reach_in_a_cycle_includes_the_node_itself() -> None:
    reach = Reach.of_edges(["a", "b"], [("a", "b"), ("b", "a")])
    assert reach.prerequisites("a") == {"a", "b"}
    assert reach.closure("a") == {"a", "b"}


def _distances(plan: PlanResult) -> dict[str, int]:
    successors: dict[str, list[str]] = {}
    for edge in plan.edges:
        successors.setdefault(edge.source, []).append(edge.target)
    root = f"plan:{plan.id}"
    found = {root: 0}
    queue = [root]
    for node in queue:
        for child in successors.get(node, ()):
            if child not in found:
                found[child] = found[node] + 1
                queue.append(child)
    return found


def _assert_rooted(plan: PlanResult, layout: GraphLayout) -> None:
    boxes = {b.id: b for b in layout.nodes}
    distance = _distances(plan)
    assert {b.id: b.layer for b in layout.nodes if b.component == 0} == distance
    assert [b.id for b in layout.nodes if b.layer == 0 and b.component == 0] == [f"plan:{plan.id}"]
    assert _overlaps(layout.nodes) == []
    for route in layout.edges:
        source, target = boxes[route.source], boxes[route.target]
        assert _on_border(source, route.points[0]), route
        assert _on_border(target, route.points[-1]), route
        if route.self_loop:
            continue
        if route.flat:
            assert source.layer == target.layer
        elif route.reversed:
            assert source.layer > target.layer
        else:
            assert target.layer == source.layer + 1  # never more than one column forward
        if route.drawn:  # one piece of a bus: it ends where the whole route ends
            assert route.drawn[-1] == route.points[-1]
            assert len(route.drawn) >= 2
            assert set(route.drawn[:-1]) <= set(route.points[:-1]) | {
                (route.points[1][0], y) for _, y in route.drawn
            }
        if len(plan.nodes) <= 100:
            for point in route.points[1:-1]:
                assert not any(_strictly_inside(b, point) for b in layout.nodes), (route, point)


@pytest.mark.parametrize("name", session_names())
def test_example_plans_are_laid_out_from_the_plan_by_distance(name: str) -> None:
    for plan in inspect(raw_session(name)).plans:
        _assert_rooted(plan, layout_plan(plan))


def test_a_generated_plan_is_laid_out_in_few_columns() -> None:
    """Every dependency selected: one column of dependencies, their depends_on flat arcs."""
    (plan,) = inspect_continuation(
        json.dumps(generated_profile(dag(300, 4))).encode(), now=CLOCK
    ).plans
    layout = layout_plan(plan)
    _assert_rooted(plan, layout)
    assert max(b.layer for b in layout.nodes) <= 3
    assert sum(r.flat for r in layout.edges) >= 300


def test_subjects_of_other_plans_are_set_apart_below() -> None:
    plans = inspect(raw_session("action-specific")).plans
    plan = plans[0]
    own = {n.id for n in plan.nodes}
    others = sorted({n.id for p in plans for n in p.nodes} - own)
    assert others  # await_decision's prompt resource, the reconcile target…
    alone = layout_plan(plan)
    layout = layout_plan(plan, others=[*others, *own])  # own subjects are never repeated
    assert [b.id for b in layout.nodes] == sorted(own | set(others))
    assert _overlaps(layout.nodes) == []
    for box in layout.nodes:
        if box.id in own:
            assert box.component == 0
        else:
            assert box.component == 1
            assert box.y >= alone.height
    assert layout.edges == alone.edges


def test_a_wide_fan_out_is_drawn_as_one_bus() -> None:
    """The plan's many selections share one trunk: drawn once, in stub-to-stub pieces."""
    plan = inspect(raw_session("action-specific")).plans[0]
    layout = layout_plan(plan)
    root = f"plan:{plan.id}"
    bus = [r for r in layout.edges if r.source == root and r.drawn]
    assert len(bus) >= 5
    trunk = {r.points[1][0] for r in bus}
    assert len(trunk) == 1  # one trunk
    # Pieces along the trunk never overlap: their vertical spans only touch.
    spans = sorted((min(p[1] for p in r.drawn[:-1]), max(p[1] for p in r.drawn[:-1])) for r in bus)
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert start >= end - 1e-6
