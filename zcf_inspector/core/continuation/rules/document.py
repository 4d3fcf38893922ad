"""Checks that hold for the whole document, whichever plan is assessed.

§10a: historical records outside a plan's inventory do not block it, but invalid
references, inconsistent snapshots and malformed declarations still invalidate the source.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex
from zcf_inspector.core.continuation.models.profile import Operation
from zcf_inspector.core.continuation.models.session import Part, Requirement
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.git_state import check_git
from zcf_inspector.core.continuation.rules.paths import link_target_problem, path_problem
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.continuation.walks import cycles
from zcf_inspector.core.findings import Finding, Severity, error


class IdLookup(Protocol):
    """Anything that answers whether an ID resolves (a look-up table of any record type)."""

    def __contains__(self, key: str, /) -> bool: ...


# The kinds of record a plan inventories as nodes under their own ID (subjects.py): a
# reference to one that resolves nowhere is about that missing subject, which a plan that
# reaches the reference holds as a missing node. A reference to any other record (an
# event, a branch, a tool) is about the subject whose field holds it (`_Refs.owner`).
_NODE_KINDS = frozenset(
    {"resource", "environment", "dependency", "configuration", "context", "workspace"}
)


class _Refs:
    """Collects dangling-reference findings against the look-up tables."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.owner: str | None = None  # the node of the record whose fields are read

    def one(self, table: IdLookup | None, ident: str | None, where: str, what: str) -> None:
        if table is None or ident is None or ident in table:
            return
        subject = node_of(what, ident) if what in _NODE_KINDS else self.owner
        self.findings.append(
            error(PlanCode.DANGLING_REFERENCE, where, f"{what} {ident!r} resolves nowhere", subject)
        )

    def many(self, table: IdLookup | None, ids: Iterable[str], where: str, what: str) -> None:
        for i, ident in enumerate(ids):
            self.one(table, ident, pointer.child(where, i), what)

    def parts(self, table: IdLookup | None, parts: list[Part], where: str) -> None:
        for i, part in enumerate(parts):
            if part.kind in ("resource", "opaque"):
                self.one(table, part.resource_id, f"{where}/{i}/resource_id", "resource")


def _duplicates(
    idents: Iterable[str], where: str, field: str, findings: list[Finding], subject: str | None
) -> None:
    """A repeated ID among the items of one record (``subject``: that record's node)."""
    seen: set[str] = set()
    for i, ident in enumerate(idents):
        if ident in seen:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    f"{where}/{i}/{field}",
                    f"{field} {ident!r} repeats",
                    subject,
                )
            )
        seen.add(ident)


def _requirements(
    refs: _Refs,
    core: CoreIndex,
    items: list[Requirement],
    where: str,
    findings: list[Finding],
    *,
    kind: str,
    owner_id: str,
) -> None:
    """The requirements of one record (its node: ``refs.owner``), each a ``kind`` subject
    owned by ``owner_id``."""
    owner = refs.owner
    _duplicates((r.id for r in items), where, "id", findings, owner)
    for i, item in enumerate(items):
        tick()
        at = f"{where}/{i}"
        refs.owner = node_of(kind, item.id, owner_id)
        refs.one(core.resources, item.resource_id, at + "/resource_id", "resource")
        refs.one(core.environments, item.environment_id, at + "/environment_id", "environment")
    refs.owner = owner


def check_core(core: CoreIndex, findings: list[Finding]) -> None:
    """Every typed reference among the core entities §10a reads resolves."""
    refs = _Refs(findings)
    session = core.session
    for i, branch in enumerate(session.branches):
        tick()  # a branch is no plan subject: its findings are about none (owner None)
        refs.many(core.events, branch.event_ids, f"/branches/{i}/event_ids", "event")
        if branch.head_event_id is not None and branch.head_event_id not in branch.event_ids:
            findings.append(
                error(
                    PlanCode.DANGLING_REFERENCE,
                    f"/branches/{i}/head_event_id",
                    f"head {branch.head_event_id!r} is not an event of the branch",
                )
            )
    for i, ctx in enumerate(session.contexts):
        tick()
        at = f"/contexts/{i}"
        refs.owner = node_of("context", ctx.id)
        refs.one(core.branches, ctx.branch_id, at + "/branch_id", "branch")
        refs.one(core.events, ctx.at_event_id, at + "/at_event_id", "event")
        refs.one(
            core.configurations, ctx.configuration_id, at + "/configuration_id", "configuration"
        )
        refs.many(core.tools, ctx.tool_ids, at + "/tool_ids", "tool")
        _duplicates((x.id for x in ctx.inputs), at + "/inputs", "id", findings, refs.owner)
        for j, item in enumerate(ctx.inputs):
            refs.parts(core.resources, item.parts, f"{at}/inputs/{j}/parts")
            for k, source in enumerate(item.source_events):
                if source.capture_id is None:
                    refs.one(
                        core.events,
                        source.event_id,
                        f"{at}/inputs/{j}/source_events/{k}/event_id",
                        "event",
                    )
    for i, config in enumerate(session.configurations):
        at = f"/configurations/{i}"
        refs.owner = owner = node_of("configuration", config.id)
        _duplicates(
            (x.id for x in config.instructions), at + "/instructions", "id", findings, owner
        )
        _duplicates(
            (x.id for x in config.capabilities), at + "/capabilities", "id", findings, owner
        )
        _duplicates((x.id for x in config.policies), at + "/policies", "id", findings, owner)
        for j, instruction in enumerate(config.instructions):
            refs.parts(core.resources, instruction.parts, f"{at}/instructions/{j}/parts")
        for j, capability in enumerate(config.capabilities):
            refs.many(
                core.resources,
                capability.resource_ids,
                f"{at}/capabilities/{j}/resource_ids",
                "resource",
            )
        refs.many(
            core.environments, config.environment_ids or [], at + "/environment_ids", "environment"
        )
    refs.owner = None  # a tool is no plan subject
    for i, tool in enumerate(session.tools):
        tick()
        refs.many(core.resources, tool.resource_ids or [], f"/tools/{i}/resource_ids", "resource")
    for i, env in enumerate(session.environments):
        at = f"/environments/{i}"
        refs.owner = node_of("environment", env.id)
        refs.many(core.resources, env.resource_ids, at + "/resource_ids", "resource")
        _requirements(
            refs,
            core,
            env.requirements,
            at + "/requirements",
            findings,
            kind="environment_requirement",
            owner_id=env.id,
        )
    for i, checkpoint in enumerate(session.checkpoints):
        tick()
        at = f"/checkpoints/{i}"
        # A checkpoint is no plan subject (its requirements are, owned by it).
        refs.owner = None
        refs.one(core.branches, checkpoint.branch_id, at + "/branch_id", "branch")
        refs.one(core.events, checkpoint.at_event_id, at + "/at_event_id", "event")
        refs.one(core.contexts, checkpoint.context_id, at + "/context_id", "context")
        refs.one(
            core.configurations,
            checkpoint.configuration_id,
            at + "/configuration_id",
            "configuration",
        )
        _requirements(
            refs,
            core,
            checkpoint.requirements,
            at + "/requirements",
            findings,
            kind="checkpoint_requirement",
            owner_id=checkpoint.id,
        )


def check_profile(profile: ProfileIndex, core: CoreIndex | None, findings: list[Finding]) -> None:
    """Profile references (§2), portable paths (§5), dependency cycles and restarts (§9)."""
    refs = _Refs(findings)
    resources = core.resources if core else None
    p = profile.profile
    base = profile.base
    for i, dep in enumerate(p.dependencies):
        at = f"{base}/dependencies/{i}"
        refs.owner = node_of("dependency", dep.id)
        refs.many(profile.dependencies, dep.depends_on, at + "/depends_on", "dependency")
        refs.many(resources, dep.resource_ids, at + "/resource_ids", "resource")
        refs.one(core.tools if core else None, dep.tool_id, at + "/tool_id", "tool")
    for i, ws in enumerate(p.workspaces):
        at = f"{base}/workspaces/{i}"
        refs.owner = owner = node_of("workspace", ws.id)
        refs.one(
            core.environments if core else None,
            ws.environment_id,
            at + "/environment_id",
            "environment",
        )
        refs.one(profile.workspaces, ws.base_snapshot_id, at + "/base_snapshot_id", "workspace")
        refs.one(core.events if core else None, ws.at_event_id, at + "/at_event_id", "event")
        for j, entry in enumerate(ws.entries):
            _path(entry.path, f"{at}/entries/{j}/path", findings, owner)
            if entry.kind == "file":
                refs.one(resources, entry.resource_id, f"{at}/entries/{j}/resource_id", "resource")
            if entry.kind == "symlink" and entry.target is not None:
                problem = link_target_problem(entry.target, entry.path)
                if problem:
                    # A modelled link is data; it blocks restoring it, not the document.
                    findings.append(
                        Finding(
                            PlanCode.UNSAFE_PATH,
                            Severity.WARNING,
                            f"{at}/entries/{j}/target",
                            problem,
                            subject=owner,
                        )
                    )
        for j, deletion in enumerate(ws.deletions):
            _path(deletion, f"{at}/deletions/{j}", findings, owner)
        if ws.git is not None:
            git = ws.git
            check_git(git, at + "/git", core.resource_bytes if core else None, findings, owner)
            refs.many(
                resources, git.bundle_resource_ids, at + "/git/bundle_resource_ids", "resource"
            )
            for j, index_entry in enumerate(git.index_entries):
                _path(index_entry.path, f"{at}/git/index_entries/{j}/path", findings, owner)
                refs.one(
                    resources,
                    index_entry.resource_id,
                    f"{at}/git/index_entries/{j}/resource_id",
                    "resource",
                )
            for j, prerequisite in enumerate(git.prerequisites):
                refs.one(
                    resources,
                    prerequisite.resource_id,
                    f"{at}/git/prerequisites/{j}/resource_id",
                    "resource",
                )
            for j, module in enumerate(git.submodules):
                _path(module.path, f"{at}/git/submodules/{j}/path", findings, owner)
                refs.one(
                    profile.dependencies,
                    module.dependency_id,
                    f"{at}/git/submodules/{j}/dependency_id",
                    "dependency",
                )
            refs.many(
                profile.dependencies,
                git.lfs_dependency_ids,
                at + "/git/lfs_dependency_ids",
                "dependency",
            )
    for i, binding in enumerate(p.configuration_bindings):
        at = f"{base}/configuration_bindings/{i}"
        # A binding is part of its configuration's subject (it has no node of its own).
        refs.owner = owner = node_of("configuration", binding.configuration_id)
        refs.one(
            core.configurations if core else None,
            binding.configuration_id,
            at + "/configuration_id",
            "configuration",
        )
        _duplicates(
            (r.instruction_id for r in binding.instruction_rules),
            at + "/instruction_rules",
            "instruction_id",
            findings,
            owner,
        )
        for j, rule in enumerate(binding.instruction_rules):
            if rule.scope.kind == "path_prefix" and rule.scope.relative_path is not None:
                _path(
                    rule.scope.relative_path,
                    f"{at}/instruction_rules/{j}/scope/relative_path",
                    findings,
                    node_of("instruction", rule.instruction_id, binding.configuration_id),
                    allow_empty=True,
                )
    for i, service in enumerate(p.service_bindings):
        refs.owner = node_of("service", service.id)
        refs.many(
            profile.dependencies,
            service.dependency_ids,
            f"{base}/service_bindings/{i}/dependency_ids",
            "dependency",
        )
    for i, operation in enumerate(p.operations):
        at = f"{base}/operations/{i}"
        refs.owner = node_of("operation", operation.id)
        refs.one(
            profile.dependencies,
            operation.recovery.handler_dependency_id,
            at + "/recovery/handler_dependency_id",
            "dependency",
        )
        refs.many(
            resources, operation.evidence_resource_ids, at + "/evidence_resource_ids", "resource"
        )
        refs.many(
            resources,
            operation.recovery.evidence_resource_ids,
            at + "/recovery/evidence_resource_ids",
            "resource",
        )
        _restart(operation, at, findings)
    for i, native in enumerate(p.native_imports):
        refs.owner = node_of("native_import", native.id)
        refs.many(
            resources, native.resource_ids, f"{base}/native_imports/{i}/resource_ids", "resource"
        )


def _path(
    path: str,
    where: str,
    findings: list[Finding],
    subject: str | None,
    *,
    allow_empty: bool = False,
) -> None:
    problem = path_problem(path, allow_empty=allow_empty)
    if problem:
        findings.append(error(PlanCode.UNSAFE_PATH, where, f"{path!r}: {problem}", subject))


def _restart(operation: Operation, where: str, findings: list[Finding]) -> None:
    # §9: restart needs evidence that earlier effects did not happen or are covered by a
    # recognised idempotency mechanism; unknown replay safety blocks it.
    recovery = operation.recovery
    if recovery.strategy != "restart":
        return
    reasons = []
    if operation.replay != "idempotent":
        reasons.append(f"replay is {operation.replay!r}, not 'idempotent'")
    if recovery.idempotency_ref is None:
        reasons.append("no idempotency_ref")
    if not recovery.evidence_resource_ids:
        reasons.append("no recovery evidence")
    if reasons:
        findings.append(
            error(
                PlanCode.UNSAFE_RESTART,
                where + "/recovery/strategy",
                "restart is not safe: " + "; ".join(reasons),
                node_of("operation", operation.id),
            )
        )


def dependency_cycles(profile: ProfileIndex) -> list[list[str]]:
    """Every cycle among all declared dependencies (§2: they form an acyclic graph)."""
    adjacency = {
        ident: [d for d in located.value.depends_on if d in profile.dependencies]
        for ident, located in profile.dependencies.by_id.items()
    }
    return cycles(adjacency, adjacency)
