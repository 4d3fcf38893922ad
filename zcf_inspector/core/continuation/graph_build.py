"""§10a for one plan: the inventory, its typed edges and the required flags, in one walk.

The walk starts at the plan node and adds a subject only together with the edge that
brings it in (:meth:`graph_edges.GraphEdges.add`): a selection edge (§10a step 1, the plan or the
configuration names it) or a prerequisite edge (steps 2-3, its source needs it). So the
inventory is, by construction, exactly the set reachable from the plan node, and every
subject remembers the edge by which it entered (:attr:`graph_edges.NodeState.via`). The required
flags flow along prerequisite edges only (step 4), from the action table's seeds.

Only the typed references §10a lists become edges; arbitrary JSON inside definitions,
structured parts or extensions never selects a resource.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zcf_inspector.core.continuation.graph_edges import GraphEdges, PlanGraph
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex, WorkspaceView
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.session import (
    Capability,
    Instruction,
    Policy,
)
from zcf_inspector.core.continuation.subjects import (
    ACTIVE_ACTIONS,
    AGENT_ACTIONS,
    EdgeKind,
    SubjectKey,
)
from zcf_inspector.core.continuation.walks import reachable
from zcf_inspector.core.gc_pause import paused_gc


class _Builder(GraphEdges):
    """The walk of one plan over the typed references of `GraphEdges`."""

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
        # (kind, ID, edge, the plan's field, seeded, the core table it resolves in): §10a
        # names the model subject by the plan, whose own field holds its requirements.
        selected: dict[str, SubjectKey] = {}
        for kind, ident, edge, field_name, seeded, table in (
            (
                "context",
                plan.context_id,
                EdgeKind.SELECTS_CONTEXT,
                "/context_id",
                agent,
                "contexts",
            ),
            ("model", plan.id, EdgeKind.SELECTS_MODEL, "/model_requirements", agent, None),
            (
                "configuration",
                plan.configuration_id,
                EdgeKind.SELECTS_CONFIGURATION,
                "/configuration_id",
                True,
                "configurations",
            ),
        ):
            missing, where = self._core_pointer(table, ident) if table else (False, at + field_name)
            selected[kind] = self.add(
                root,
                SubjectKey(kind, None, ident),
                edge,
                at + field_name,
                seeded=seeded,
                selected=True,
                missing=missing,
                where=where,
            )
        context, configuration = selected["context"], selected["configuration"]
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
            # The configuration's members, owned by it (kind, records, their field, the
            # edge); each member's own references follow it.
            members: tuple[tuple[str, Sequence[_Member], str, EdgeKind], ...] = (
                ("instruction", config.instructions, "instructions", EdgeKind.INSTRUCTION),
                ("capability", config.capabilities, "capabilities", EdgeKind.CAPABILITY),
                ("policy", config.policies, "policies", EdgeKind.POLICY),
            )
            for kind, items, field_name, edge in members:
                for i, member in enumerate(items):
                    at_item = f"{base}/{field_name}/{i}"
                    key = self.add(
                        configuration,
                        SubjectKey(kind, config.id, member.id),
                        edge,
                        at_item,
                        seeded=_member_seeded(member, agent),
                        where=at_item,
                    )
                    if isinstance(member, Instruction):
                        self.parts(key, member.parts, EdgeKind.PART_RESOURCE, at_item + "/parts")
                    elif isinstance(member, Capability):
                        self.resources(
                            key, member.resource_ids, EdgeKind.RESOURCE, at_item + "/resource_ids"
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
            key = self._select(
                profile.services,
                "service",
                svc_id,
                EdgeKind.SELECTS_SERVICE,
                f"{at}/service_binding_ids/{i}",
                seeded=active,
            )
            if service is not None:
                base = profile.services.at(svc_id) + "/dependency_ids"
                for j, dep_id in enumerate(service.dependency_ids):
                    self.dependency(key, dep_id, EdgeKind.SERVICE_DEPENDENCY, f"{base}/{j}")
        for i, op_id in enumerate(plan.operation_ids):
            target = action.kind == "reconcile_operation" and action.operation_id == op_id
            operation = profile.operations.get(op_id)
            key = self._select(
                profile.operations,
                "operation",
                op_id,
                EdgeKind.SELECTS_OPERATION,
                f"{at}/operation_ids/{i}",
                seeded=agent or target,
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
            key = self._select(
                profile.natives,
                "native_import",
                plan.native_import_id,
                EdgeKind.SELECTS_NATIVE_IMPORT,
                at + "/native_import_id",
                seeded=agent,
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
        key = self._select(
            profile.workspaces,
            "workspace",
            ws_id,
            EdgeKind.SELECTS_WORKSPACE,
            selected_at,
            seeded=active,
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


_Member = Instruction | Capability | Policy


def _member_seeded(item: _Member, agent: bool) -> bool:
    """§10a step 4 for a configuration member: instructions are seeded for agent actions,
    capabilities for those when required, policies when enforcing."""
    if isinstance(item, Policy):
        return item.enforcing
    if isinstance(item, Capability):
        return agent and item.required
    return agent


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
