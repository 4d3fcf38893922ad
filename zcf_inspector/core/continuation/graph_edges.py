"""The plan graph's data and the one way subjects and edges enter it (§10a).

`PlanGraph` holds a plan's inventory in discovery order, its edges and the required set;
`GraphEdges.add` is the only way a subject other than the plan enters it: its node and
the edge that brings it in are made together. The typed references of §10a (resources,
environments, dependencies, requirements, capabilities, parts) each have one method here;
`graph_build.py` walks the plan with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from zcf_inspector.core import pointer
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, Table, WorkspaceView
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.session import (
    Part,
    Requirement,
)
from zcf_inspector.core.continuation.subjects import (
    SELECTIONS,
    EdgeKind,
    SubjectKey,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Edge:
    source: SubjectKey
    target: SubjectKey
    kind: EdgeKind
    pointer: str


@dataclass(slots=True)
class NodeState:
    selected: bool = False
    seeded: bool = False  # required directly by the action table (§10a step 4 seeds)
    missing: bool = False
    pointer: str | None = None
    via: Edge | None = None  # the edge by which the walk first reached it (None: the plan)


@dataclass(slots=True)
class PlanGraph:
    """The plan's inventory in discovery order, its edges and the computed required set.

    ``edges`` holds both relations; ``adjacency`` only the prerequisite edges (what the
    required flags and the cycle check walk).
    """

    plan: ContinuationPlan
    scopes: frozenset[str]
    nodes: dict[SubjectKey, NodeState] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    adjacency: dict[SubjectKey, list[SubjectKey]] = field(default_factory=dict)
    required: set[SubjectKey] = field(default_factory=set)


class GraphEdges:
    """A plan graph being built: its nodes, edges and the work lists of the walk."""

    def __init__(
        self,
        plan: ContinuationPlan,
        plan_pointer: str,
        profile: ProfileIndex,
        core: CoreIndex | None,
        *,
        trees: Mapping[str, WorkspaceView],
        scopes: frozenset[str],
    ) -> None:
        self.plan = plan
        self.plan_pointer = plan_pointer
        self.profile = profile
        self.core = core
        self.trees = trees
        self.graph = PlanGraph(plan, scopes)
        self._edge_keys: set[tuple[SubjectKey, SubjectKey, EdgeKind]] = set()
        self._environments: list[str] = []
        self._dependencies: list[str] = []
        self._expanded: set[SubjectKey] = set()
        self.config_id = plan.configuration_id
        self._selected_dependencies = frozenset(plan.dependency_ids)
        self.root = SubjectKey("plan", None, plan.id)
        self.graph.nodes[self.root] = NodeState(seeded=True, selected=True, pointer=plan_pointer)
        self.graph.adjacency[self.root] = []

    # -- nodes and edges -------------------------------------------------------------
    def add(
        self,
        parent: SubjectKey,
        key: SubjectKey,
        kind: EdgeKind,
        at: str,
        *,
        seeded: bool = False,
        selected: bool = False,
        missing: bool = False,
        where: str | None = None,
    ) -> SubjectKey:
        """Inventory ``key`` as reached from ``parent`` by the field at ``at``.

        The only way a subject other than the plan enters the inventory: its node and
        the edge that brings it in are made together.
        """
        state = self.graph.nodes.get(key)
        if state is None:
            state = self.graph.nodes[key] = NodeState()
            self.graph.adjacency[key] = []
        state.seeded |= seeded
        state.selected |= selected
        state.missing |= missing
        if where is not None and state.pointer is None:
            state.pointer = where
        edge_key = (parent, key, kind)
        if edge_key not in self._edge_keys:
            self._edge_keys.add(edge_key)
            edge = Edge(parent, key, kind, at)
            self.graph.edges.append(edge)
            if state.via is None and key != self.root:
                state.via = edge
            if kind not in SELECTIONS:  # a prerequisite (the set test beats the property)
                self.graph.adjacency[parent].append(key)
        return key

    def _select(
        self, table: Table[T], kind: str, ident: str, edge: EdgeKind, at: str, *, seeded: bool
    ) -> SubjectKey:
        """The node of a profile record the plan selects by its field ``at`` (missing when
        the ID resolves nowhere in ``table``)."""
        record = table.get(ident)
        return self.add(
            self.root,
            SubjectKey(kind, None, ident),
            edge,
            at,
            seeded=seeded,
            selected=True,
            missing=record is None,
            where=table.at(ident) if record is not None else None,
        )

    def _core_pointer(self, table_name: str, ident: str) -> tuple[bool, str | None]:
        """(missing, pointer) of a core record; without a session nothing is known missing."""
        if self.core is None:
            return False, None
        table = getattr(self.core, table_name)
        if ident in table:
            return False, str(table.at(ident))
        return True, None

    def resource(self, parent: SubjectKey, rid: str, kind: EdgeKind, where: str) -> None:
        missing, at = self._core_pointer("resources", rid)
        self.add(parent, SubjectKey("resource", None, rid), kind, where, missing=missing, where=at)

    def resources(self, parent: SubjectKey, ids: Iterable[str], kind: EdgeKind, where: str) -> None:
        for i, rid in enumerate(ids):
            self.resource(parent, rid, kind, pointer.child(where, i))

    def parts(self, parent: SubjectKey, parts: list[Part], kind: EdgeKind, where: str) -> None:
        for i, part in enumerate(parts):
            if part.kind in ("resource", "opaque") and part.resource_id is not None:
                self.resource(parent, part.resource_id, kind, f"{where}/{i}/resource_id")

    def environment(
        self, parent: SubjectKey, eid: str, kind: EdgeKind, where: str, *, seeded: bool = False
    ) -> SubjectKey:
        missing, at = self._core_pointer("environments", eid)
        key = self.add(
            parent,
            SubjectKey("environment", None, eid),
            kind,
            where,
            seeded=seeded,
            missing=missing,
            where=at,
        )
        if key not in self._expanded:
            self._expanded.add(key)
            self._environments.append(eid)
        return key

    def dependency(
        self, parent: SubjectKey, dep_id: str, kind: EdgeKind, where: str, *, seeded: bool = False
    ) -> None:
        key = SubjectKey("dependency", None, dep_id)
        if key in self.graph.nodes:  # the common case in dense graphs: already inventoried
            self.add(parent, key, kind, where, seeded=seeded)
            return
        selected = dep_id in self._selected_dependencies
        exists = dep_id in self.profile.dependencies
        self.add(
            parent,
            key,
            kind,
            where,
            seeded=seeded,
            selected=selected,
            missing=not (selected and exists),
            where=self.profile.dependencies.at(dep_id) if exists else None,
        )
        # A new dependency is expanded later, from the work list (however deep the chain).
        self._dependencies.append(dep_id)

    def requirements(
        self,
        parent: SubjectKey,
        items: list[Requirement],
        kind: str,
        owner: str,
        where: str,
        *,
        selection: EdgeKind,
    ) -> None:
        """Each requirement: a prerequisite of ``parent`` when its scopes apply, else
        only inventoried (the ``selection`` edge: §10a step 1 lists it all the same)."""
        scopes = self.graph.scopes
        for i, item in enumerate(items):
            at = f"{where}/{i}"
            key = SubjectKey(kind, owner, item.id)
            if scopes.intersection(item.required_for):
                self.add(parent, key, EdgeKind.REQUIREMENT, at + "/required_for", where=at)
            else:
                self.add(parent, key, selection, at, where=at)
            if item.resource_id is not None:
                self.resource(
                    key, item.resource_id, EdgeKind.REQUIREMENT_RESOURCE, at + "/resource_id"
                )
            if item.capability_id is not None:
                self._capability(key, item.capability_id, at + "/capability_id")
            if item.environment_id is not None:
                self.environment(
                    key,
                    item.environment_id,
                    EdgeKind.REQUIREMENT_ENVIRONMENT,
                    at + "/environment_id",
                )

    def _capability(self, parent: SubjectKey, cap_id: str, where: str) -> None:
        key = SubjectKey("capability", self.config_id, cap_id)
        if key in self.graph.nodes:
            self.add(parent, key, EdgeKind.REQUIREMENT_CAPABILITY, where)
            return
        config = self.core.configurations.get(self.config_id) if self.core else None
        known = config is not None and any(c.id == cap_id for c in config.capabilities)
        missing = self.core is not None and not known
        self.add(parent, key, EdgeKind.REQUIREMENT_CAPABILITY, where, missing=missing)
