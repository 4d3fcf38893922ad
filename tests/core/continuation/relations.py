"""The invariant of issue 11: a plan's inventory is exactly what its plan node reaches.

Shared by the example, generated-plan and upstream-case tests and by the fuzz checks, so
every plan any test makes is held to it.
"""

from __future__ import annotations

import itertools
from typing import Any

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.continuation.subjects import EdgeKind
from zcf_inspector.core.continuation.walks import reachable
from zcf_inspector.core.continuation.why import entry_path
from zcf_inspector.core.pointer import resolve


def assert_explained(plan: PlanResult) -> int:
    """Every node of ``plan`` is reached from its plan node along named edges, the walk's
    ``via`` edges form a tree rooted at the plan, and each edge's relation is known.

    Returns how many subjects were checked.
    """
    root = f"plan:{plan.id}"
    ids = [n.id for n in plan.nodes]
    assert ids[0] == root, ids[:3]
    assert len(set(ids)) == len(ids)
    adjacency: dict[str, list[str]] = {}
    for edge in plan.edges:
        kind = EdgeKind(edge.kind)  # a closed set: an unknown kind raises here
        assert edge.prerequisite is kind.prerequisite, edge
        assert kind.label
        assert kind.meaning
        adjacency.setdefault(edge.source, []).append(edge.target)
    assert set(reachable([root], adjacency)) == set(ids)
    edges = {id(e) for e in plan.edges}
    for node in plan.nodes:
        if node.id == root:
            assert node.via is None
            continue
        assert node.via is not None, node.id
        assert id(node.via) in edges
        assert node.via.target == node.id
        path = entry_path(plan, node.id)
        assert path, node.id
        assert path[0].source == root
        assert path[-1].target == node.id
        assert all(a.target == b.source for a, b in itertools.pairwise(path))
    return len(ids)


def assert_pointers_name_their_fields(plan: PlanResult, document: Any) -> None:
    """Each edge's pointer resolves in ``document`` to the field that makes the edge: the
    target's ID, the object declaring it, or (scoped requirements) their ``required_for``."""
    subject_ids = {n.id: n.subject_id for n in plan.nodes}
    for edge in plan.edges:
        value = resolve(document, edge.pointer)
        target = subject_ids[edge.target]
        if edge.kind == EdgeKind.REQUIREMENT:
            assert edge.pointer.endswith("/required_for"), edge
            owner = resolve(document, edge.pointer.rpartition("/")[0])
            assert isinstance(owner, dict), edge
            assert owner["id"] == target, edge
        elif edge.kind == EdgeKind.SELECTS_MODEL:
            assert edge.pointer.endswith("/model_requirements")
            assert isinstance(value, dict)
        elif isinstance(value, dict):
            assert value.get("id") == target, edge
        else:
            assert value == target, (edge, value)
