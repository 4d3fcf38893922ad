"""One plan's result: its §10a graph, closure and cycles plus the plan rules' findings."""

from __future__ import annotations

from collections.abc import Mapping

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.blockers import Blockers
from zcf_inspector.core.continuation.graph_build import build_plan_graph
from zcf_inspector.core.continuation.graph_edges import Edge, PlanGraph
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, WorkspaceView
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.results import Closure, PlanEdge, PlanNode, PlanResult
from zcf_inspector.core.continuation.rules.plan import check_plan_rules
from zcf_inspector.core.continuation.rules.session_history import SessionHistory
from zcf_inspector.core.continuation.subjects import SELECTIONS, SubjectKey, active_scopes
from zcf_inspector.core.continuation.walks import cycles
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.gc_pause import paused_gc


def _incoming(edges: list[Edge]) -> dict[SubjectKey, list[Edge]]:
    """The prerequisite edges into each subject (selection edges need nothing)."""
    into: dict[SubjectKey, list[Edge]] = {}
    for edge in edges:
        if edge.kind not in SELECTIONS:
            into.setdefault(edge.target, []).append(edge)
    return into


def _closure(
    graph: PlanGraph, into: dict[SubjectKey, list[Edge]], findings: list[Finding]
) -> Closure:
    """Every dependency the plan's subjects reach, and those the plan does not select."""
    dependencies: list[str] = []
    missing: list[str] = []
    for key, state in graph.nodes.items():
        if key.kind != "dependency":
            continue
        dependencies.append(key.id)
        if state.selected and not state.missing:
            continue
        missing.append(key.id)
        referrers = into.get(key, [])
        if not referrers:
            continue  # a selected ID that resolves nowhere: reported as a dangling reference
        why = "is not selected by the plan" if state.pointer else "is declared nowhere"
        findings.append(
            error(
                PlanCode.CLOSURE_INCOMPLETE,
                referrers[0].pointer,
                f"dependency {key.id!r} {why} but "
                + ", ".join(sorted({e.source.node_id for e in referrers}))
                + " need it",
                key.node_id,  # about the missing dependency, not the one that needs it
            )
        )
    return Closure(tuple(dependencies), tuple(missing))


def _cycles(
    graph: PlanGraph, findings: list[Finding]
) -> tuple[list[list[SubjectKey]], set[tuple[SubjectKey, SubjectKey]]]:
    # "Dependencies form an acyclic graph" (§2) is the text's one acyclicity rule here;
    # §10a adds requirement edges and propagates flags over whatever graph results (an
    # environment requirement may name its own environment). Only dependency-to-
    # dependency edges, which are depends_on, can close a cycle that is refused.
    among_dependencies = {
        key: [child for child in children if child.kind == "dependency"]
        for key, children in graph.adjacency.items()
        if key.kind == "dependency"
    }
    found = cycles(among_dependencies.keys(), among_dependencies)
    cycle_edges: set[tuple[SubjectKey, SubjectKey]] = set()
    # One pass over the edges for all cycles (cycles are disjoint): one pass per cycle
    # cost cycles times edges, the square of the plan's size for many small cycles.
    # Selection edges never close a cycle: only prerequisites are needs.
    cycle_of = {member: index for index, members in enumerate(found) for member in members}
    first_edge: dict[int, Edge] = {}
    for edge in graph.edges:
        if edge.kind in SELECTIONS:
            continue
        index = cycle_of.get(edge.source)
        if index is not None and cycle_of.get(edge.target) == index:
            cycle_edges.add((edge.source, edge.target))
            first_edge.setdefault(index, edge)
    for index, members in enumerate(found):
        first = first_edge.get(index)
        findings.append(
            error(
                PlanCode.DEPENDENCY_CYCLE,
                first.pointer if first else "",
                "prerequisites form a cycle among " + ", ".join(m.node_id for m in members),
                members[0].node_id,
            )
        )
    return found, cycle_edges


def check_plan(
    plan: ContinuationPlan,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    trees: Mapping[str, WorkspaceView],
    *,
    history: SessionHistory | None = None,
) -> PlanResult:
    scopes = active_scopes(plan.next_action.kind)
    graph = build_plan_graph(plan, where, profile, core, trees=trees, scopes=frozenset(scopes))
    return plan_result(graph, where, profile, core, history=history)


def plan_result(
    graph: PlanGraph,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    blockers: Blockers | None = None,
    *,
    history: SessionHistory | None = None,
) -> PlanResult:
    """The frozen result of an already built plan graph, with the plan rules' findings
    (``history``: look-ups over the session's raw history, for the context rules)."""
    with paused_gc():
        return _plan_result(graph, where, profile, core, blockers, history=history)


def _plan_result(
    graph: PlanGraph,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    blockers: Blockers | None,
    *,
    history: SessionHistory | None,
) -> PlanResult:
    plan = graph.plan
    scopes = active_scopes(plan.next_action.kind)
    environments = [k.id for k in graph.nodes if k.kind == "environment"]
    findings = check_plan_rules(plan, where, profile, core, environments, history=history)
    into = _incoming(graph.edges)
    closure = _closure(graph, into, findings)
    found, cycle_edges = _cycles(graph, findings)
    # Keyed by identity: the walk's edges are distinct objects, and hashing 20,000
    # dataclasses by value would cost more than the rest of this function.
    edges: dict[int, PlanEdge] = {}
    for e in graph.edges:
        needs = e.kind not in SELECTIONS
        edges[id(e)] = PlanEdge(
            e.source.node_id,
            e.target.node_id,
            str(e.kind),
            e.pointer,
            needs and (e.source, e.target) in cycle_edges,
            needs,
        )
    nodes = tuple(
        PlanNode(
            id=key.node_id,
            type=key.kind,
            subject_id=key.id,
            owner=key.owner,
            selected=state.selected,
            required=key in graph.required,
            missing=state.missing,
            pointer=state.pointer,
            referenced_by=tuple(dict.fromkeys(e.source.node_id for e in into.get(key, []))),
            blockers=tuple(blockers.get(key, ())) if blockers else (),
            via=None if state.via is None else edges[id(state.via)],
        )
        for key, state in graph.nodes.items()
    )
    return PlanResult(
        id=plan.id,
        pointer=where,
        next_action=plan.next_action.kind,
        active_scopes=scopes,
        nodes=nodes,
        edges=tuple(edges.values()),
        closure=closure,
        cycles=tuple(tuple(m.node_id for m in members) for members in found),
        findings=tuple(findings),
    )


def plan_graph(
    plan: ContinuationPlan,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    trees: Mapping[str, WorkspaceView],
) -> PlanGraph:
    scopes = frozenset(active_scopes(plan.next_action.kind))
    return build_plan_graph(plan, where, profile, core, trees=trees, scopes=scopes)


def required_inventory(graph: PlanGraph) -> dict[SubjectKey, bool]:
    """Every inventoried subject of the plan with its computed `required` flag."""
    return {key: key in graph.required for key in graph.nodes}
