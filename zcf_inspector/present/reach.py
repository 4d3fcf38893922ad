"""What the graph view highlights: a node's closure both ways, paths and neighbours.

Pure walks over one plan's prerequisite edges (``source`` needs ``target``), built on the
iterative walks of :mod:`walks`, so they agree with the closure the core computes.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.continuation.walks import reachable


@dataclass(frozen=True, slots=True)
class Reach:
    """Sorted neighbour lists of one plan graph, in both directions."""

    needs: dict[str, tuple[str, ...]]  # node → its direct prerequisites
    needed_by: dict[str, tuple[str, ...]]  # node → its direct dependents

    @classmethod
    def of_plan(cls, plan: PlanResult) -> Reach:
        """Over the prerequisite edges: what a subject needs and what needs it (selection
        edges say why a subject is inventoried, not that anything needs it)."""
        return cls.of_edges(
            [n.id for n in plan.nodes],
            [(e.source, e.target) for e in plan.edges if e.prerequisite],
        )

    @classmethod
    def of_edges(cls, nodes: list[str], edges: list[tuple[str, str]]) -> Reach:
        needs: dict[str, set[str]] = {n: set() for n in nodes}
        needed_by: dict[str, set[str]] = {n: set() for n in nodes}
        for source, target in edges:
            needs.setdefault(source, set()).add(target)
            needed_by.setdefault(target, set()).add(source)
            needs.setdefault(target, set())
            needed_by.setdefault(source, set())
        return cls(
            {n: tuple(sorted(t)) for n, t in sorted(needs.items())},
            {n: tuple(sorted(s)) for n, s in sorted(needed_by.items())},
        )

    def prerequisites(self, node: str) -> frozenset[str]:
        """Everything ``node`` needs, directly or not (``node`` itself only through a cycle)."""
        return frozenset(reachable(self.needs.get(node, ()), self.needs))

    def dependents(self, node: str) -> frozenset[str]:
        """Everything that needs ``node``, directly or not."""
        return frozenset(reachable(self.needed_by.get(node, ()), self.needed_by))

    def closure(self, node: str) -> frozenset[str]:
        """``node`` with its prerequisites and its dependents: what the view highlights."""
        return frozenset({node}) | self.prerequisites(node) | self.dependents(node)

    def neighbours(self, node: str) -> tuple[str, ...]:
        """Direct prerequisites then direct dependents, each sorted, without repeats."""
        out = list(self.needs.get(node, ()))
        out += [n for n in self.needed_by.get(node, ()) if n not in out]
        return tuple(out)

    def path(self, start: str, end: str) -> tuple[str, ...] | None:
        """A shortest chain of prerequisites from ``start`` to ``end``, or from ``end`` to
        ``start`` when only that direction exists; ``None`` when neither needs the other."""
        return _shortest(start, end, self.needs) or _shortest(end, start, self.needs)


def _shortest(
    start: str, end: str, adjacency: dict[str, tuple[str, ...]]
) -> tuple[str, ...] | None:
    """Breadth-first from ``start`` with parent links; neighbours in sorted order."""
    if start not in adjacency or end not in adjacency:
        return None
    parent: dict[str, str] = {start: start}
    queue = [start]
    head = 0
    while head < len(queue) and end not in parent:
        node = queue[head]
        head += 1
        for child in adjacency[node]:
            if child not in parent:
                parent[child] = node
                queue.append(child)
    if end not in parent:
        return None
    chain = [end]
    while chain[-1] != start:
        chain.append(parent[chain[-1]])
    return tuple(reversed(chain))
