"""Workspace trees after applying delta chains, and the §5 snapshot/delta/refs rules."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import Located, ProfileIndex
from zcf_inspector.core.continuation.models.profile import Workspace, WorkspaceEntry
from zcf_inspector.core.findings import Finding, error


@dataclass(frozen=True, slots=True)
class WorkspaceTree:
    """The selected tree of one workspace: path → entry (with where it was declared)."""

    entries: dict[str, Located[WorkspaceEntry]]
    chain: tuple[str, ...]  # this workspace, then its base, its base's base, …


def _excluded(path: str, patterns: list[str]) -> bool:
    for pattern in patterns:
        stem = pattern.rstrip("/")
        if fnmatch.fnmatchcase(path, pattern) or path == stem or path.startswith(stem + "/"):
            return True
    return False


def _chain(start: str, index: ProfileIndex, findings: list[Finding]) -> list[str]:
    """``start`` and its bases, stopping at a missing base or a base cycle (reported)."""
    chain = [start]
    seen = {start}
    current = index.workspaces.get(start)
    while current is not None and current.base_snapshot_id is not None:
        base = current.base_snapshot_id
        where = pointer.child(index.workspaces.at(current.id), "base_snapshot_id")
        if base in seen:
            findings.append(
                error(
                    PlanCode.WORKSPACE_STATE_INVALID,
                    where,
                    f"workspace base chain of {start!r} returns to {base!r}",
                )
            )
            break
        if base not in index.workspaces:
            break  # a dangling base is reported with the other references
        seen.add(base)
        chain.append(base)
        current = index.workspaces.get(base)
    return chain


def _apply(
    workspace: Workspace,
    where: str,
    entries: dict[str, Located[WorkspaceEntry]],
    findings: list[Finding],
) -> None:
    code = PlanCode.WORKSPACE_STATE_INVALID
    for i, deletion in enumerate(workspace.deletions):
        at = pointer.join("deletions", i)
        if _excluded(deletion, workspace.selection.exclude):
            # §5: excluded paths are protected from implicit (and explicit) deletion.
            findings.append(error(code, where + at, f"deletion {deletion!r} is an excluded path"))
        targets = [p for p in entries if p == deletion or p.startswith(deletion + "/")]
        if not targets:
            findings.append(
                error(code, where + at, f"deletion {deletion!r} names nothing in the base tree")
            )
        for target in targets:
            del entries[target]
    own: set[str] = set()
    for i, entry in enumerate(workspace.entries):
        at = where + pointer.join("entries", i)
        if entry.path in own:
            findings.append(error(code, at + "/path", f"entry path {entry.path!r} repeats"))
        own.add(entry.path)
        entries[entry.path] = Located(entry, at)


def _collisions(entries: dict[str, Located[WorkspaceEntry]], findings: list[Finding]) -> None:
    for path, located in entries.items():
        parts = path.split("/")
        for cut in range(1, len(parts)):
            parent = entries.get("/".join(parts[:cut]))
            if parent is not None and parent.value.kind != "directory":
                findings.append(
                    error(
                        PlanCode.WORKSPACE_STATE_INVALID,
                        located.pointer + "/path",
                        f"{path!r} lies under {parent.value.kind} {parent.value.path!r}",
                    )
                )
                break


def workspace_trees(index: ProfileIndex, findings: list[Finding]) -> dict[str, WorkspaceTree]:
    """The flattened tree of every workspace; §5 delta and snapshot findings on the way."""
    trees: dict[str, WorkspaceTree] = {}
    code = PlanCode.WORKSPACE_STATE_INVALID
    for ident, located in index.workspaces.by_id.items():
        workspace, where = located.value, located.pointer
        chain = _chain(ident, index, [])
        entries: dict[str, Located[WorkspaceEntry]] = {}
        # Apply the oldest base first; each later state overlays its own entries.
        for member in reversed(chain):
            found = index.workspaces.by_id[member]
            _apply(found.value, found.pointer, entries, findings if member == ident else [])
        _collisions(entries, findings)
        trees[ident] = WorkspaceTree(entries, tuple(chain))
        _chain(ident, index, findings)
        base = index.workspaces.get(workspace.base_snapshot_id or "")
        if base is not None and base.root_id != workspace.root_id:
            findings.append(
                error(
                    code,
                    where + "/base_snapshot_id",
                    f"base {base.id!r} belongs to root {base.root_id!r}, not {workspace.root_id!r}",
                )
            )
        if workspace.mode == "refs" and workspace.git is not None:
            git = workspace.git
            # §5: refs need named repository prerequisites; a commit alone is not a workspace.
            if not git.prerequisites and not git.bundle_resource_ids:
                findings.append(
                    error(
                        code,
                        where + "/git",
                        "a refs workspace names its repository prerequisites "
                        "(prerequisites or bundle resources)",
                    )
                )
        if workspace.git is not None:
            for i, prerequisite in enumerate(workspace.git.prerequisites):
                if prerequisite.availability == "embedded" and prerequisite.resource_id is None:
                    findings.append(
                        error(
                            code,
                            where + f"/git/prerequisites/{i}",
                            "an embedded Git prerequisite names its resource",
                        )
                    )
    return trees
