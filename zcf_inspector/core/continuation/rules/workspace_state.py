"""Workspace trees after applying delta chains, and the §5 snapshot/delta/refs rules.

**Bounds (issue 19).** A session's workspaces form a forest by ``base_snapshot_id``. The
§5 findings of every workspace are made in one depth-first walk of that forest over one
shared tree of paths (`path_trie`): entering a workspace applies its own deletions and
entries, leaving it takes them back. So the time is the sum of each workspace's own
deletions, entries and excludes, times the depth of their paths — linear in the
session's size, however long a delta chain or however many deltas share one large
snapshot — and the memory is one tree plus what the walk takes back.

Two things are bounded by a number rather than by the walk: glob excludes (patterns
with ``*``, ``?`` or ``[``) are matched against deletions one pair at a time, at most
`GLOB_MATCH_CHARS` characters (path + pattern) per session, past which the remaining
deletions are reported as not checked (`workspace_too_complex`); and a glob longer than
`regex_budget.MAX_PATTERN_CHARS` is not compiled (also `workspace_too_complex`).

**Trees.** A workspace's flattened tree (`WorkspaceTree.entries`, read by the plans that
select it and by report checks) is made only when first read, by replaying its chain,
and the last `TREES_KEPT` made are kept. `WorkspaceTrees.work` counts what the replays
cost, so that the plan loop can count it against what one check covers.

**Findings** are reported once, where they arise: a deletion by the workspace that makes
it, a file/directory collision by the entry that makes it (an entry under a file, or a
file over entries a base already had). A collision a base already had is not repeated
for every delta on top of it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Final

from zcf_inspector.core import pointer
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.index import Located, ProfileIndex
from zcf_inspector.core.continuation.models.profile import Workspace, WorkspaceEntry
from zcf_inspector.core.continuation.rules.path_trie import Excludes, GlobBudget, Node
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.regex_budget import MAX_PATTERN_CHARS

GLOB_MATCH_CHARS: Final = 4 * 1024 * 1024
TREES_KEPT: Final = 8
_BREATHE_EVERY: Final = 256  # operations between two cancellation points

Entry = Located[WorkspaceEntry]
_CODE: Final = PlanCode.WORKSPACE_STATE_INVALID


class WorkspaceTree:
    """The selected tree of one workspace: path → entry (with where it was declared),
    made when first read."""

    __slots__ = ("_ident", "_trees")

    def __init__(self, ident: str, trees: WorkspaceTrees) -> None:
        self._ident = ident
        self._trees = trees

    @property
    def entries(self) -> dict[str, Entry]:
        return self._trees.entries_of(self._ident)

    @property
    def chain(self) -> tuple[str, ...]:
        """This workspace, then its base, its base's base, … (up to a missing base or
        the first repeat of a cycle)."""
        return tuple(_chain(self._ident, self._trees.index))


@dataclass
class WorkspaceTrees(Mapping[str, WorkspaceTree]):
    """Every workspace's tree by id (see the module docstring)."""

    index: ProfileIndex
    work: int = 0  # entries and deletions replayed to make trees so far
    _made: OrderedDict[str, dict[str, Entry]] = field(default_factory=OrderedDict)

    def __getitem__(self, ident: str) -> WorkspaceTree:
        if ident not in self.index.workspaces.by_id:
            raise KeyError(ident)
        return WorkspaceTree(ident, self)

    def __iter__(self) -> Iterator[str]:
        return iter(self.index.workspaces.by_id)

    def __len__(self) -> int:
        return len(self.index.workspaces.by_id)

    def entries_of(self, ident: str) -> dict[str, Entry]:
        made = self._made.get(ident)
        if made is not None:
            self._made.move_to_end(ident)
            return made
        made = self._replay(ident)
        self._made[ident] = made
        if len(self._made) > TREES_KEPT:
            self._made.popitem(last=False)
        return made

    def _replay(self, ident: str) -> dict[str, Entry]:
        """The tree as the reference checker makes it (same paths, same order): the
        oldest base first, each later state deleting, then overlaying its entries."""
        entries: dict[str, Entry] = {}
        paths: Node[str] = Node()  # the same paths, for deletions by prefix
        for member in reversed(_chain(ident, self.index)):
            found = self.index.workspaces.by_id[member]
            workspace = found.value
            self.work += 1 + len(workspace.deletions) + len(workspace.entries)
            for deletion in workspace.deletions:
                node, above = paths.walk(deletion)
                if node is None or not node.count:
                    continue
                for path in node.values():
                    del entries[path]
                above[-1].children.pop(deletion.rsplit("/", 1)[-1])
                for parent in above:
                    parent.count -= node.count
            for i, entry in enumerate(workspace.entries):
                node, above = paths.make(entry.path)
                if node.value is None:
                    node.value = entry.path
                    for parent in (*above, node):
                        parent.count += 1
                entries[entry.path] = Located(entry, found.pointer + pointer.join("entries", i))
        return entries


def _chain(start: str, index: ProfileIndex) -> list[str]:
    """``start`` and its bases, stopping at a missing base or the first repeat."""
    chain = [start]
    seen = {start}
    current = index.workspaces.get(start)
    while current is not None and current.base_snapshot_id is not None:
        base = current.base_snapshot_id
        if base in seen or base not in index.workspaces:
            break
        seen.add(base)
        chain.append(base)
        current = index.workspaces.get(base)
    return chain


# --- the walk ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Put:
    """An entry set by a workspace: its node, the value before, the nodes above it."""

    node: Node[Entry]
    previous: Entry | None
    above: list[Node[Entry]]
    parts: list[str]


@dataclass(slots=True)
class _Cut:
    """A path a workspace deleted: the node cut from ``parent`` under ``part``."""

    parent: Node[Entry]
    part: str
    node: Node[Entry]
    above: list[Node[Entry]]


@dataclass
class _Walk:
    """The depth-first walk of the base forest over one shared tree of paths."""

    index: ProfileIndex
    findings: list[Finding]
    monitor: Monitor
    tree: Node[Entry] = field(default_factory=Node)
    globs: GlobBudget = field(default_factory=lambda: GlobBudget(GLOB_MATCH_CHARS))
    ops: int = 0
    undo: list[_Put | _Cut] = field(default_factory=list)  # what leaving takes back
    subject: str | None = None  # the node of the workspace entered last: findings' subject

    def report(self, code: PlanCode, at: Callable[[], str], message: Callable[[], str]) -> None:
        """A finding, its pointer and message spelled out only if the budget keeps it."""
        findings = self.findings
        if isinstance(findings, FindingBudget) and findings.full:
            findings.tally(code, Severity.ERROR, at)
        else:
            findings.append(error(code, at(), message(), self.subject))

    def breathe(self) -> None:
        self.ops += 1
        if self.ops % _BREATHE_EVERY == 0:
            self.monitor.breathe()

    def run(self, children: dict[str, list[str]], roots: list[str]) -> None:
        # An explicit stack: a chain of 100,000 deltas is as deep. An int is the undo
        # mark to return to when leaving a workspace.
        pending: list[str | int] = list(reversed(roots))
        while pending:
            top = pending.pop()
            if isinstance(top, int):
                self._leave(top)
                continue
            pending.append(len(self.undo))
            self._enter(top)
            pending.extend(reversed(children.get(top, [])))

    def _enter(self, ident: str) -> None:
        located = self.index.workspaces.by_id[ident]
        workspace, where = located.value, located.pointer
        self.subject = node_of("workspace", ident)
        self._deletions(workspace, where)
        own: set[str] = set()
        for i, entry in enumerate(workspace.entries):
            self.breathe()
            at = where + pointer.join("entries", i)
            if entry.path in own:
                self.findings.append(
                    error(_CODE, at + "/path", f"entry path {entry.path!r} repeats", self.subject)
                )
            own.add(entry.path)
            self._insert(Located(entry, at))

    def _deletions(self, workspace: Workspace, where: str) -> None:
        if not workspace.deletions:
            return
        excludes = Excludes.of(workspace.selection.exclude)
        unknown = False
        for i, deletion in enumerate(workspace.deletions):
            self.breathe()
            at = partial(_deletion_at, where, i)
            excluded = excludes.matches(deletion, self.globs)
            if excluded:
                # §5: excluded paths are protected from implicit (and explicit) deletion.
                self.report(_CODE, at, partial(_excluded, deletion))
            elif excluded is None and not unknown:
                unknown = True  # said once per workspace: from here on, not known
                self.report(PlanCode.WORKSPACE_TOO_COMPLEX, at, partial(_unchecked, deletion))
            node, above = self.tree.walk(deletion)
            if node is None or not node.count:
                self.report(_CODE, at, partial(_names_nothing, deletion))
                continue
            part = deletion.rsplit("/", 1)[-1]
            del above[-1].children[part]
            for parent in above:
                parent.count -= node.count
            self.undo.append(_Cut(above[-1], part, node, above))

    def _insert(self, located: Entry) -> None:
        entry = located.value
        node, above = self.tree.make(entry.path)
        for parent in above[1:]:  # shallowest first, as a reader would look
            if parent.value is not None and parent.value.value.kind != "directory":
                self._collision(located, parent.value)
                break
        previous = node.value
        if previous is None:
            for parent in (*above, node):
                parent.count += 1
        node.value = located
        self.undo.append(_Put(node, previous, above, entry.path.split("/")))
        if entry.kind != "directory" and node.count > 1:
            below = node.first_below()
            if below is not None and below.value is not None:
                self._collision(below.value, located, node.count - 2)

    def _collision(self, lower: Entry, upper: Entry, more: int = 0) -> None:
        also = f" (and {more:,} more entries under it)" if more else ""
        self.findings.append(
            error(
                _CODE,
                lower.pointer + "/path",
                f"{lower.value.path!r} lies under {upper.value.kind} {upper.value.path!r}{also}",
                self.subject,
            )
        )

    def _leave(self, mark: int) -> None:
        undo = self.undo
        while len(undo) > mark:
            self.breathe()
            record = undo.pop()
            if isinstance(record, _Cut):
                record.parent.children[record.part] = record.node
                for up in record.above:
                    up.count += record.node.count
                continue
            node = record.node
            node.value = record.previous
            if record.previous is not None:
                continue
            for up in (*record.above, node):
                up.count -= 1
            # Prune the nodes this entry made, so that no later walk steps over them.
            for depth in range(len(record.parts) - 1, -1, -1):
                parent = record.above[depth]
                child = parent.children[record.parts[depth]]
                if child.count or child.value is not None or child.children:
                    break
                del parent.children[record.parts[depth]]


def _deletion_at(where: str, i: int) -> str:
    return where + pointer.join("deletions", i)


def _excluded(deletion: str) -> str:
    return f"deletion {deletion!r} is an excluded path"


def _names_nothing(deletion: str) -> str:
    return f"deletion {deletion!r} names nothing in the base tree"


def _unchecked(deletion: str) -> str:
    return (
        f"deletions from {deletion!r} on were not checked against the glob excludes: the "
        f"session's {GLOB_MATCH_CHARS:,} characters of glob matching are spent (or a glob "
        f"longer than {MAX_PATTERN_CHARS:,} characters was not compiled)"
    )


def _forest(index: ProfileIndex, findings: list[Finding]) -> tuple[dict[str, list[str]], list[str]]:
    """Each workspace's children (by base) and the roots of the walk, in linear time.

    A base cycle is reported for every workspace whose chain runs into it, at the state
    whose base closes the loop (as `_chain` would stop), and cut there: the state the
    chain re-enters is walked as a root.
    """
    by_id = index.workspaces.by_id
    done: dict[str, tuple[str, str] | None] = {}  # ws -> (closing ws, re-entered ws)
    cuts: set[str] = set()
    for start in by_id:
        path: list[str] = []
        on_path: dict[str, int] = {}
        current: str | None = start
        closing: dict[str, tuple[str, str] | None] = {}
        tail: tuple[str, str] | None = None
        while current is not None and current not in done:
            if current in on_path:  # a new cycle, re-entered at ``current``
                first = on_path[current]
                cuts.add(current)
                for i in range(first, len(path)):
                    closing[path[i]] = (path[i - 1] if i > first else path[-1], path[i])
                tail = (path[-1], current)
                break
            on_path[current] = len(path)
            path.append(current)
            base = by_id[current].value.base_snapshot_id
            current = base if base is not None and base in by_id else None
        else:
            tail = done[current] if current is not None else None
        for ident in path:
            done[ident] = closing.get(ident, tail)
    children: dict[str, list[str]] = {}
    roots: list[str] = []
    for ident, located in by_id.items():  # document order: the walk follows the file
        loop = done[ident]
        if loop is not None:
            findings.append(
                error(
                    _CODE,
                    pointer.child(index.workspaces.at(loop[0]), "base_snapshot_id"),
                    f"workspace base chain of {ident!r} returns to {loop[1]!r}",
                    node_of("workspace", ident),
                )
            )
        base = located.value.base_snapshot_id
        if ident in cuts or base is None or base not in by_id:
            roots.append(ident)
        else:
            children.setdefault(base, []).append(ident)
    return children, roots


def workspace_trees(
    index: ProfileIndex, findings: list[Finding], monitor: Monitor = NULL_MONITOR
) -> WorkspaceTrees:
    """The flattened tree of every workspace; §5 delta and snapshot findings on the way."""
    children, roots = _forest(index, findings)
    walk = _Walk(index, findings, monitor)
    walk.run(children, roots)
    for located in index.workspaces.by_id.values():
        workspace, where = located.value, located.pointer
        subject = node_of("workspace", workspace.id)
        base = index.workspaces.get(workspace.base_snapshot_id or "")
        if base is not None and base.root_id != workspace.root_id:
            findings.append(
                error(
                    _CODE,
                    where + "/base_snapshot_id",
                    f"base {base.id!r} belongs to root {base.root_id!r}, not {workspace.root_id!r}",
                    subject,
                )
            )
        if workspace.mode == "refs" and workspace.git is not None:
            git = workspace.git
            # §5: refs need named repository prerequisites; a commit alone is not a workspace.
            if not git.prerequisites and not git.bundle_resource_ids:
                findings.append(
                    error(
                        _CODE,
                        where + "/git",
                        "a refs workspace names its repository prerequisites "
                        "(prerequisites or bundle resources)",
                        subject,
                    )
                )
        if workspace.git is not None:
            for i, prerequisite in enumerate(workspace.git.prerequisites):
                if prerequisite.availability == "embedded" and prerequisite.resource_id is None:
                    findings.append(
                        error(
                            _CODE,
                            where + f"/git/prerequisites/{i}",
                            "an embedded Git prerequisite names its resource",
                            subject,
                        )
                    )
    return WorkspaceTrees(index)
