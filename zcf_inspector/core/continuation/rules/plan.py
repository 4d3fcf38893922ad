"""The per-plan rules of §3, §5, §9 and §10 that do not come from the graph itself."""

from __future__ import annotations

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.models.session import Checkpoint
from zcf_inspector.core.continuation.rules.bindings import check_rule_roots
from zcf_inspector.core.continuation.rules.context_calls import check_open_calls, context_calls
from zcf_inspector.core.continuation.rules.paths import path_problem
from zcf_inspector.core.continuation.rules.plan_secrets import undeclared_secrets
from zcf_inspector.core.continuation.rules.session_history import SessionHistory
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonValue

# §3 path_references: which core (or profile) collection each entity type names.
# The path-reference entity kinds a plan inventories as nodes (an event is none).
_ENTITY_NODES = frozenset({"dependency", "resource", "environment", "configuration"})
_ENTITY_TABLES = {
    "event": "events",
    "resource": "resources",
    "environment": "environments",
    "configuration": "configurations",
}


class PlanRules:
    def __init__(
        self,
        plan: ContinuationPlan,
        where: str,
        profile: ProfileIndex,
        core: CoreIndex | None,
        history: SessionHistory | None = None,
    ) -> None:
        self.plan = plan
        self.where = where
        self.profile = profile
        self.core = core
        self.history = history  # look-ups over the raw history (a session's, once checked)
        self.subject = node_of("plan", plan.id)
        self.findings: list[Finding] = []

    def add(self, code: PlanCode, field: str, message: str, subject: str | None = None) -> None:
        """A finding at the plan's ``field``: about ``subject`` (a node ID), by default
        the plan itself."""
        self.findings.append(error(code, self.where + field, message, subject or self.subject))

    def run(self, inventoried_environments: list[str] | None = None) -> list[Finding]:
        self._selection()
        checkpoint = self._checkpoint()
        self._workspaces(checkpoint)
        self._paths()
        self._next_action(checkpoint)
        if self.core is not None and checkpoint is not None:
            self._accounting(self.core, checkpoint)
            self._open_calls(checkpoint)
            self._plan_context(self.core, checkpoint)
        self.findings.extend(
            undeclared_secrets(
                self.plan, self.profile, self.core, checkpoint, inventoried_environments or []
            )
        )
        self._binding_roots()
        return self.findings

    def _dangling(
        self, present: bool, field: str, what: str, ident: str, kind: str | None = None
    ) -> None:
        """A selection that resolves nowhere: about the missing subject (``kind``), which
        the plan's inventory holds as a missing node; about the plan when it has none."""
        if not present:
            subject = None if kind is None else node_of(kind, ident)
            self.add(
                PlanCode.DANGLING_REFERENCE, field, f"{what} {ident!r} resolves nowhere", subject
            )

    def _selection(self) -> None:
        plan, profile, core = self.plan, self.profile, self.core
        for name, table, what, kind in (
            ("workspace_ids", profile.workspaces, "workspace", "workspace"),
            ("dependency_ids", profile.dependencies, "dependency", "dependency"),
            ("service_binding_ids", profile.services, "service binding", "service"),
            ("operation_ids", profile.operations, "operation", "operation"),
        ):
            for i, ident in enumerate(getattr(plan, name)):
                self._dangling(ident in table, f"/{name}/{i}", what, ident, kind)
        if plan.native_import_id is not None:
            self._dangling(
                plan.native_import_id in profile.natives,
                "/native_import_id",
                "native import",
                plan.native_import_id,
                "native_import",
            )
        self._dangling(
            plan.configuration_id in profile.bindings,
            "/configuration_id",
            "configuration binding for",
            plan.configuration_id,
            "configuration",
        )
        if core is None:
            return
        self._dangling(
            plan.checkpoint_id in core.checkpoints,
            "/checkpoint_id",
            "checkpoint",
            plan.checkpoint_id,
        )
        self._dangling(
            plan.context_id in core.contexts, "/context_id", "context", plan.context_id, "context"
        )
        self._dangling(
            plan.configuration_id in core.configurations,
            "/configuration_id",
            "configuration",
            plan.configuration_id,
            "configuration",
        )
        for i, rid in enumerate(plan.boundary.evidence_resource_ids):
            self._dangling(
                rid in core.resources,
                f"/boundary/evidence_resource_ids/{i}",
                "resource",
                rid,
                "resource",
            )

    def _checkpoint(self) -> Checkpoint | None:
        """§3: the checkpoint fixes branch and head; its context and configuration match."""
        core, plan = self.core, self.plan
        if core is None:
            return None
        checkpoint = core.checkpoints.get(plan.checkpoint_id)
        if checkpoint is None:
            return None
        code = PlanCode.CHECKPOINT_BINDING_MISMATCH
        if checkpoint.context_id != plan.context_id:
            self.add(
                code,
                "/context_id",
                f"checkpoint {checkpoint.id!r} binds context "
                f"{checkpoint.context_id!r}, the plan {plan.context_id!r}",
            )
        if checkpoint.configuration_id != plan.configuration_id:
            self.add(
                code,
                "/configuration_id",
                f"checkpoint {checkpoint.id!r} binds "
                f"configuration {checkpoint.configuration_id!r}, the plan "
                f"{plan.configuration_id!r}",
            )
        ctx = core.contexts.get(plan.context_id)
        if ctx is not None:
            if ctx.purpose != "continuation":
                self.add(
                    code,
                    "/context_id",
                    f"context {ctx.id!r} is for {ctx.purpose!r}, not continuation",
                    node_of("context", ctx.id),
                )
            if ctx.at_event_id != checkpoint.at_event_id or ctx.branch_id != checkpoint.branch_id:
                self.add(
                    code,
                    "/context_id",
                    f"context {ctx.id!r} stands at "
                    f"{ctx.branch_id!r}@{ctx.at_event_id!r}, the checkpoint boundary at "
                    f"{checkpoint.branch_id!r}@{checkpoint.at_event_id!r}",
                    node_of("context", ctx.id),
                )
            if ctx.configuration_id != plan.configuration_id:
                self.add(
                    PlanCode.CONTEXT_CONFIGURATION_MISMATCH,
                    "/context_id",
                    f"context {ctx.id!r} carries configuration {ctx.configuration_id!r}, the "
                    f"plan {plan.configuration_id!r}",
                    node_of("context", ctx.id),
                )
        branch = core.branches.get(checkpoint.branch_id)
        if branch is not None and branch.head_event_id != checkpoint.at_event_id:
            self.add(
                PlanCode.CHECKPOINT_NOT_HEAD,
                "/checkpoint_id",
                f"checkpoint {checkpoint.id!r} stands at {checkpoint.at_event_id!r}; the head "
                f"of branch {branch.id!r} is {branch.head_event_id!r}",
            )
        return checkpoint

    def _workspaces(self, checkpoint: Checkpoint | None) -> None:
        """§3/§5: each selected workspace names the boundary; one state per root."""
        roots: dict[str, str] = {}
        for i, ws_id in enumerate(self.plan.workspace_ids):
            workspace = self.profile.workspaces.get(ws_id)
            if workspace is None:
                continue
            if checkpoint is not None and workspace.at_event_id != checkpoint.at_event_id:
                self.add(
                    PlanCode.WORKSPACE_BOUNDARY_MISMATCH,
                    f"/workspace_ids/{i}",
                    f"workspace {ws_id!r} is at {workspace.at_event_id!r}, the checkpoint "
                    f"boundary at {checkpoint.at_event_id!r}",
                    node_of("workspace", ws_id),
                )
            if workspace.root_id in roots:
                self.add(
                    PlanCode.WORKSPACE_ROOT_CONFLICT,
                    f"/workspace_ids/{i}",
                    f"workspaces {roots[workspace.root_id]!r} and {ws_id!r} both select "
                    f"root {workspace.root_id!r}",
                    node_of("workspace", ws_id),
                )
            else:
                roots[workspace.root_id] = ws_id

    def _selected_roots(self) -> set[str]:
        roots = set()
        for ws_id in self.plan.workspace_ids:
            workspace = self.profile.workspaces.get(ws_id)
            if workspace is not None:
                roots.add(workspace.root_id)
        return roots

    def _paths(self) -> None:
        """§5: cwd and path references use selected roots, portable paths, real pointers."""
        plan = self.plan
        if plan.cwd is not None:
            self._root(plan.cwd.root_id, "/cwd/root_id")
            self._relative(plan.cwd.relative_path, "/cwd/relative_path")
        for i, ref in enumerate(plan.path_references):
            at = f"/path_references/{i}"
            self._root(ref.root_id, at + "/root_id")
            self._relative(ref.relative_path, at + "/relative_path")
            entity = self._entity(ref.entity_type, ref.entity_id)
            if entity is None:
                if self.core is not None or ref.entity_type == "dependency":
                    self.add(
                        PlanCode.DANGLING_REFERENCE,
                        at + "/entity_id",
                        f"{ref.entity_type} {ref.entity_id!r} resolves nowhere",
                        _entity_node(ref.entity_type, ref.entity_id),
                    )
                continue
            self._pointer(
                entity, ref.json_pointer, at + "/json_pointer", ref.entity_type, ref.entity_id
            )

    def _root(self, root_id: str, field: str) -> None:
        if root_id not in self._selected_roots():
            self.add(
                PlanCode.DANGLING_REFERENCE,
                field,
                f"root {root_id!r} is not the root of a selected workspace",
            )

    def _relative(self, path: str, field: str) -> None:
        problem = path_problem(path, allow_empty=True)
        if problem:
            self.add(PlanCode.UNSAFE_PATH, field, f"{path!r}: {problem}")

    def _entity(self, entity_type: str, ident: str) -> JsonValue | None:
        if entity_type == "dependency":
            if ident not in self.profile.dependencies:
                return None
            return pointer.resolve(
                self.profile.raw,
                self.profile.dependencies.at(ident).removeprefix(self.profile.base),
            )
        if self.core is None:
            return None
        collection = _ENTITY_TABLES[entity_type]
        if ident not in getattr(self.core, collection):
            return None
        return self.core.raw_entity(collection, ident)

    def _pointer(
        self, entity: JsonValue, selector: str, field: str, entity_type: str, ident: str
    ) -> None:
        """A path reference's pointer names a path string of the entity it references
        (the finding is about that entity)."""
        subject = _entity_node(entity_type, ident)
        try:
            target = pointer.resolve(entity, selector)
        except (KeyError, ValueError):
            self.add(
                PlanCode.POINTER_UNRESOLVED,
                field,
                f"{selector!r} names no field of the referenced entity",
                subject,
            )
            return
        if not isinstance(target, str):
            self.add(
                PlanCode.POINTER_UNRESOLVED,
                field,
                f"{selector!r} names a {type(target).__name__}, not a path string",
                subject,
            )

    def _next_action(self, checkpoint: Checkpoint | None) -> None:
        """§3: await_decision, reconcile_operation and resume_native bind their target."""
        plan, action = self.plan, self.plan.next_action
        code = PlanCode.NEXT_ACTION_UNBOUND
        if action.kind == "reconcile_operation" and action.operation_id is not None:
            if action.operation_id not in plan.operation_ids:
                self.add(
                    code,
                    "/next_action/operation_id",
                    f"operation {action.operation_id!r} is not selected by the plan",
                )  # about the plan's next action: the operation is in no inventory
        elif action.kind == "resume_native" and action.native_import_id is not None:
            if action.native_import_id != plan.native_import_id:
                self.add(
                    code,
                    "/next_action/native_import_id",
                    f"native import {action.native_import_id!r} is not the plan's "
                    f"native_import_id {plan.native_import_id!r}",
                )
        elif action.kind == "await_decision" and action.request_id is not None:
            if checkpoint is not None and action.request_id not in {
                d.request_id for d in checkpoint.open_decisions
            }:
                self.add(
                    code,
                    "/next_action/request_id",
                    f"decision {action.request_id!r} is not open at the checkpoint",
                )
            if self.core is not None and action.request_id not in self.core.decisions:
                self.add(
                    code,
                    "/next_action/request_id",
                    f"no decision request {action.request_id!r} in the session",
                )

    def _accounting(self, core: CoreIndex, checkpoint: Checkpoint) -> None:
        """§3: every event of the branch through the head is accounted exactly once."""
        code = PlanCode.CONTEXT_ACCOUNTING_INCOMPLETE
        branch = core.branches.get(checkpoint.branch_id)
        if branch is None:
            return
        history = branch.event_ids
        if checkpoint.at_event_id is None:
            history = []
        elif checkpoint.at_event_id in history:
            history = history[: history.index(checkpoint.at_event_id) + 1]
        expected = set(history)
        seen: dict[str, int] = {}
        ctx = core.contexts.get(self.plan.context_id)
        inputs = {item.id for item in ctx.inputs} if ctx is not None else None
        for i, entry in enumerate(self.plan.context_accounting):
            at = f"/context_accounting/{i}"
            if entry.event_id in seen:
                self.add(
                    code,
                    at + "/event_id",
                    f"event {entry.event_id!r} is accounted "
                    f"twice (first at entry {seen[entry.event_id]})",
                )
                continue
            seen[entry.event_id] = i
            if entry.event_id not in expected:
                self.add(
                    code,
                    at + "/event_id",
                    f"event {entry.event_id!r} is not in branch "
                    f"{branch.id!r} through the checkpoint head",
                )
            for j, input_id in enumerate(entry.input_ids):
                if inputs is not None and input_id not in inputs:
                    self.add(
                        PlanCode.DANGLING_REFERENCE,
                        f"{at}/input_ids/{j}",
                        f"input {input_id!r} is not in context {self.plan.context_id!r}",
                    )
        for event_id in history:
            if event_id not in seen:
                self.add(
                    code,
                    "/context_accounting",
                    f"event {event_id!r} of branch {branch.id!r} has no accounting entry",
                )

    def _bound_calls(self) -> dict[str, str]:
        """Call ID → the selected operation bound to it (the first one)."""
        bound: dict[str, str] = {}
        for i, op_id in enumerate(self.plan.operation_ids):
            operation = self.profile.operations.get(op_id)
            if operation is None or operation.call_id is None:
                continue
            if operation.call_id in bound:
                self.add(
                    PlanCode.OPEN_CALL_STATE_MISMATCH,
                    f"/operation_ids/{i}",
                    f"operations {bound[operation.call_id]!r} and {op_id!r} are both bound to "
                    f"call {operation.call_id!r}",
                    node_of("operation", op_id),
                )
                continue
            bound[operation.call_id] = op_id
        return bound

    def _plan_context(self, core: CoreIndex, checkpoint: Checkpoint) -> None:
        """§9 over the selected context: its open calls and the operations' calls.

        The §4 correlation of the context's inputs with their sources is about the context
        and is reported once for it (inspection), however many plans select it.
        """
        if self.history is None:
            return
        found = context_calls(self.history, self.plan.context_id)
        if found is None:
            return
        self.findings.extend(
            check_open_calls(
                found,
                self.plan.context_id,
                [c.call_id for c in checkpoint.open_calls],
                self._bound_calls(),
                self.where,
            )
        )

    def _binding_roots(self) -> None:
        binding = self.profile.bindings.get(self.plan.configuration_id)
        if binding is None:
            return
        where = self.profile.bindings.at(self.plan.configuration_id)
        self.findings.extend(check_rule_roots(binding, where, self._selected_roots(), self.plan.id))

    def _open_calls(self, checkpoint: Checkpoint) -> None:
        """§9: each open call at the checkpoint has a selected operation binding."""
        bound = set()
        for op_id in self.plan.operation_ids:
            operation = self.profile.operations.get(op_id)
            if operation is not None and operation.call_id is not None:
                bound.add(operation.call_id)
        for call in checkpoint.open_calls:
            if call.call_id not in bound:
                self.add(
                    PlanCode.UNBOUND_OPEN_CALL,
                    "/operation_ids",
                    f"open call {call.call_id!r} has no selected operation",
                )


def check_plan_rules(
    plan: ContinuationPlan,
    where: str,
    profile: ProfileIndex,
    core: CoreIndex | None,
    inventoried_environments: list[str] | None = None,
    *,
    history: SessionHistory | None = None,
) -> list[Finding]:
    return PlanRules(plan, where, profile, core, history).run(inventoried_environments)


def _entity_node(entity_type: str, ident: str) -> str | None:
    """The node of a path reference's entity, for the kinds a plan inventories."""
    return node_of(entity_type, ident) if entity_type in _ENTITY_NODES else None
