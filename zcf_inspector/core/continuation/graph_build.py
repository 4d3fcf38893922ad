"""§10a for one plan: the inventory, its typed edges and the required flags, in one walk.

The walk starts at the plan node and adds a subject only together with the edge that
brings it in (:meth:`_Builder.add`): a selection edge (§10a step 1, the plan or the
configuration names it) or a prerequisite edge (steps 2-3, its source needs it). So the
inventory is, by construction, exactly the set reachable from the plan node, and every
subject remembers the edge by which it entered (:attr:`NodeState.via`). The required
flags flow along prerequisite edges only (step 4), from the action table's seeds.

Only the typed references §10a lists become edges; arbitrary JSON inside definitions,
structured parts or extensions never selects a resource.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from zcf_inspector.core import pointer
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, WorkspaceView
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.session import Part, Requirement
from zcf_inspector.core.continuation.subjects import (
    ACTIVE_ACTIONS,
    AGENT_ACTIONS,
    SELECTIONS,
    EdgeKind,
    SubjectKey,
)
from zcf_inspector.core.continuation.walks import reachable
from zcf_inspector.core.gc_pause import paused_gc


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


class _Builder:
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

    # -- the inventory -----------------------------------------------------------------
    def build(self) -> PlanGraph:
        plan, action = self.plan, self.plan.next_action.kind
        agent = action in AGENT_ACTIONS
        active = action in ACTIVE_ACTIONS
        at = self.plan_pointer
        root = self.root
        self.resources(
            root,
            plan.boundary.evidence_resource_ids,
            EdgeKind.BOUNDARY_EVIDENCE,
            at + "/boundary/evidence_resource_ids",
        )
        self._core_subjects(root, agent, active)
        self._profile_subjects(agent, active)
        self._expand_dependencies()
        self._expand_environments()
        graph = self.graph
        seeds = [key for key, state in graph.nodes.items() if state.seeded]
        graph.required = set(reachable(seeds, graph.adjacency))
        return graph

    def _core_subjects(self, root: SubjectKey, agent: bool, active: bool) -> None:
        plan, core, at = self.plan, self.core, self.plan_pointer
        missing, where = self._core_pointer("contexts", plan.context_id)
        context = self.add(
            root,
            SubjectKey("context", None, plan.context_id),
            EdgeKind.SELECTS_CONTEXT,
            at + "/context_id",
            seeded=agent,
            selected=True,
            missing=missing,
            where=where,
        )
        # §10a names the model subject by the plan: its requirements live in the plan.
        self.add(
            root,
            SubjectKey("model", None, plan.id),
            EdgeKind.SELECTS_MODEL,
            at + "/model_requirements",
            seeded=agent,
            selected=True,
            where=at + "/model_requirements",
        )
        missing, where = self._core_pointer("configurations", plan.configuration_id)
        configuration = self.add(
            root,
            SubjectKey("configuration", None, plan.configuration_id),
            EdgeKind.SELECTS_CONFIGURATION,
            at + "/configuration_id",
            seeded=True,
            selected=True,
            missing=missing,
            where=where,
        )
        if core is None:
            return
        for i, feature in enumerate(core.session.required_features):
            self.add(
                root,
                SubjectKey("feature", None, feature),
                EdgeKind.REQUIRED_FEATURE,
                f"/required_features/{i}",
                seeded=True,
                where=f"/required_features/{i}",
            )
        ctx = core.contexts.get(plan.context_id)
        if ctx is not None:
            base = core.contexts.at(plan.context_id)
            for i, item in enumerate(ctx.inputs):
                self.parts(context, item.parts, EdgeKind.INPUT_RESOURCE, f"{base}/inputs/{i}/parts")
            for tool_id in ctx.tool_ids:
                tool = core.tools.get(tool_id)
                if tool is not None and tool.resource_ids:
                    self.resources(
                        context,
                        tool.resource_ids,
                        EdgeKind.TOOL_RESOURCE,
                        core.tools.at(tool_id) + "/resource_ids",
                    )
        config = core.configurations.get(plan.configuration_id)
        if config is not None:
            base = core.configurations.at(config.id)
            owner = config.id
            for i, instruction in enumerate(config.instructions):
                key = self.add(
                    configuration,
                    SubjectKey("instruction", owner, instruction.id),
                    EdgeKind.INSTRUCTION,
                    f"{base}/instructions/{i}",
                    seeded=agent,
                    where=f"{base}/instructions/{i}",
                )
                self.parts(
                    key, instruction.parts, EdgeKind.PART_RESOURCE, f"{base}/instructions/{i}/parts"
                )
            for i, capability in enumerate(config.capabilities):
                key = self.add(
                    configuration,
                    SubjectKey("capability", owner, capability.id),
                    EdgeKind.CAPABILITY,
                    f"{base}/capabilities/{i}",
                    seeded=agent and capability.required,
                    where=f"{base}/capabilities/{i}",
                )
                self.resources(
                    key,
                    capability.resource_ids,
                    EdgeKind.RESOURCE,
                    f"{base}/capabilities/{i}/resource_ids",
                )
            for i, policy in enumerate(config.policies):
                self.add(
                    configuration,
                    SubjectKey("policy", owner, policy.id),
                    EdgeKind.POLICY,
                    f"{base}/policies/{i}",
                    seeded=policy.enforcing,
                    where=f"{base}/policies/{i}",
                )
            for i, env_id in enumerate(config.environment_ids or []):
                self.environment(
                    configuration,
                    env_id,
                    EdgeKind.CONFIGURATION_ENVIRONMENT,
                    f"{base}/environment_ids/{i}",
                    seeded=active,
                )
        if plan.next_action.kind == "await_decision" and plan.next_action.request_id:
            request = core.decisions.get(plan.next_action.request_id)
            if request is not None:
                self.parts(
                    root,
                    request.value.prompt,
                    EdgeKind.PROMPT_RESOURCE,
                    request.pointer + "/prompt",
                )
        checkpoint = core.checkpoints.get(plan.checkpoint_id)
        if checkpoint is not None:
            self.requirements(
                root,
                checkpoint.requirements,
                "checkpoint_requirement",
                checkpoint.id,
                core.checkpoints.at(checkpoint.id) + "/requirements",
                selection=EdgeKind.CHECKPOINT_REQUIREMENT,
            )

    def _profile_subjects(self, agent: bool, active: bool) -> None:
        plan, profile, root, at = self.plan, self.profile, self.root, self.plan_pointer
        scopes = self.graph.scopes
        action = plan.next_action
        for i, dep_id in enumerate(plan.dependency_ids):
            dep = profile.dependencies.get(dep_id)
            seeded = dep is not None and bool(scopes.intersection(dep.required_for))
            self.dependency(
                root, dep_id, EdgeKind.SELECTS_DEPENDENCY, f"{at}/dependency_ids/{i}", seeded=seeded
            )
        for i, ws_id in enumerate(plan.workspace_ids):
            self._workspace(ws_id, active, f"{at}/workspace_ids/{i}")
        for i, svc_id in enumerate(plan.service_binding_ids):
            service = profile.services.get(svc_id)
            key = self.add(
                root,
                SubjectKey("service", None, svc_id),
                EdgeKind.SELECTS_SERVICE,
                f"{at}/service_binding_ids/{i}",
                seeded=active,
                selected=True,
                missing=service is None,
                where=profile.services.at(svc_id) if service else None,
            )
            if service is not None:
                base = profile.services.at(svc_id) + "/dependency_ids"
                for j, dep_id in enumerate(service.dependency_ids):
                    self.dependency(key, dep_id, EdgeKind.SERVICE_DEPENDENCY, f"{base}/{j}")
        for i, op_id in enumerate(plan.operation_ids):
            operation = profile.operations.get(op_id)
            target = action.kind == "reconcile_operation" and action.operation_id == op_id
            key = self.add(
                root,
                SubjectKey("operation", None, op_id),
                EdgeKind.SELECTS_OPERATION,
                f"{at}/operation_ids/{i}",
                seeded=agent or target,
                selected=True,
                missing=operation is None,
                where=profile.operations.at(op_id) if operation else None,
            )
            if operation is None:
                continue
            base = profile.operations.at(op_id)
            handler = operation.recovery.handler_dependency_id
            if handler is not None:
                self.dependency(
                    key,
                    handler,
                    EdgeKind.RECOVERY_HANDLER,
                    base + "/recovery/handler_dependency_id",
                )
            self.resources(
                key,
                operation.evidence_resource_ids,
                EdgeKind.EVIDENCE,
                base + "/evidence_resource_ids",
            )
            self.resources(
                key,
                operation.recovery.evidence_resource_ids,
                EdgeKind.EVIDENCE,
                base + "/recovery/evidence_resource_ids",
            )
        if plan.native_import_id is not None:
            native = profile.natives.get(plan.native_import_id)
            key = self.add(
                root,
                SubjectKey("native_import", None, plan.native_import_id),
                EdgeKind.SELECTS_NATIVE_IMPORT,
                at + "/native_import_id",
                seeded=agent,
                selected=True,
                missing=native is None,
                where=profile.natives.at(native.id) if native else None,
            )
            if native is not None:
                self.resources(
                    key,
                    native.resource_ids,
                    EdgeKind.NATIVE_RESOURCE,
                    profile.natives.at(native.id) + "/resource_ids",
                )

    def _workspace(self, ws_id: str, active: bool, selected_at: str) -> None:
        profile = self.profile
        workspace = profile.workspaces.get(ws_id)
        key = self.add(
            self.root,
            SubjectKey("workspace", None, ws_id),
            EdgeKind.SELECTS_WORKSPACE,
            selected_at,
            seeded=active,
            selected=True,
            missing=workspace is None,
            where=profile.workspaces.at(ws_id) if workspace else None,
        )
        if workspace is None:
            return
        base = profile.workspaces.at(ws_id)
        self.environment(
            key, workspace.environment_id, EdgeKind.ENVIRONMENT, base + "/environment_id"
        )
        tree = self.trees.get(ws_id)
        for located in tree.entries.values() if tree else ():
            entry = located.value
            if entry.kind == "file" and entry.resource_id is not None:
                self.resource(
                    key, entry.resource_id, EdgeKind.FILE_RESOURCE, located.pointer + "/resource_id"
                )
        # Base Git prerequisites are inherited even when no current file uses them.
        for member in tree.chain if tree else (ws_id,):
            state = profile.workspaces.get(member)
            if state is None or state.git is None:
                continue
            git, at = state.git, profile.workspaces.at(member) + "/git"
            self.resources(
                key, git.bundle_resource_ids, EdgeKind.GIT_RESOURCE, at + "/bundle_resource_ids"
            )
            for i, index_entry in enumerate(git.index_entries):
                if index_entry.resource_id is not None:
                    self.resource(
                        key,
                        index_entry.resource_id,
                        EdgeKind.GIT_RESOURCE,
                        f"{at}/index_entries/{i}/resource_id",
                    )
            for i, prerequisite in enumerate(git.prerequisites):
                if prerequisite.resource_id is not None:
                    self.resource(
                        key,
                        prerequisite.resource_id,
                        EdgeKind.GIT_RESOURCE,
                        f"{at}/prerequisites/{i}/resource_id",
                    )
            for i, dep_id in enumerate(git.lfs_dependency_ids):
                self.dependency(
                    key, dep_id, EdgeKind.GIT_DEPENDENCY, f"{at}/lfs_dependency_ids/{i}"
                )
            for i, module in enumerate(git.submodules):
                self.dependency(
                    key,
                    module.dependency_id,
                    EdgeKind.GIT_DEPENDENCY,
                    f"{at}/submodules/{i}/dependency_id",
                )

    def _expand_dependencies(self) -> None:
        # A work list, not recursion: each dependency is expanded once, however deep.
        head = 0
        while head < len(self._dependencies):
            dep_id = self._dependencies[head]
            head += 1
            dep = self.profile.dependencies.get(dep_id)
            if dep is None:
                continue
            key = SubjectKey("dependency", None, dep_id)
            base = self.profile.dependencies.at(dep_id)
            for i, other in enumerate(dep.depends_on):
                self.dependency(key, other, EdgeKind.DEPENDS_ON, f"{base}/depends_on/{i}")
            self.resources(key, dep.resource_ids, EdgeKind.RESOURCE, base + "/resource_ids")

    def _expand_environments(self) -> None:
        head = 0
        while head < len(self._environments):
            env_id = self._environments[head]
            head += 1
            env = self.core.environments.get(env_id) if self.core else None
            if env is None or self.core is None:
                continue
            key = SubjectKey("environment", None, env_id)
            base = self.core.environments.at(env_id)
            self.resources(key, env.resource_ids, EdgeKind.RESOURCE, base + "/resource_ids")
            self.requirements(
                key,
                env.requirements,
                "environment_requirement",
                env_id,
                base + "/requirements",
                selection=EdgeKind.ENVIRONMENT_REQUIREMENT,
            )


def build_plan_graph(
    plan: ContinuationPlan,
    plan_pointer: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    *,
    trees: Mapping[str, WorkspaceView],
    scopes: frozenset[str],
) -> PlanGraph:
    """The §10a inventory, edges and required flags of ``plan``."""
    with paused_gc():
        return _Builder(plan, plan_pointer, profile, core, trees=trees, scopes=scopes).build()
