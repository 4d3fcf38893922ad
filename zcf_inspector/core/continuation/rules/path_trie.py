"""Workspace paths as a tree of their ``/``-separated parts, for §5's prefix rules.

A deletion removes a path and everything under it; an exclude protects a path and
everything under it; an entry must not lie under a file. Asked of a flat list of paths,
each of these is a scan of the whole list (quadratic over a session); asked of this tree,
it is a walk down one path (linear in that path's length).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from zcf_inspector.core.regex_budget import MAX_PATTERN_CHARS, compile_problem

T = TypeVar("T")
GLOB_CHARS = frozenset("*?[")


class Node(Generic[T]):
    """One path (the parts from the root to here): its value, if the path is an entry,
    and how many entries lie at or under it."""

    __slots__ = ("children", "count", "value")

    def __init__(self) -> None:
        self.children: dict[str, Node[T]] = {}
        self.value: T | None = None
        self.count = 0

    def walk(self, path: str) -> tuple[Node[T] | None, list[Node[T]]]:
        """The node of ``path`` (None when it is not in the tree) and the nodes above it,
        root first."""
        above: list[Node[T]] = []
        node: Node[T] | None = self
        for part in path.split("/"):
            assert node is not None
            above.append(node)
            node = node.children.get(part)
            if node is None:
                return None, above
        return node, above

    def make(self, path: str) -> tuple[Node[T], list[Node[T]]]:
        """The node of ``path``, made (with the nodes above it) when missing."""
        above: list[Node[T]] = []
        node = self
        for part in path.split("/"):
            above.append(node)
            child = node.children.get(part)
            if child is None:
                child = node.children[part] = Node()
            node = child
        return node, above

    def first_below(self) -> Node[T] | None:
        """Some entry strictly under this node (the first in document order), or None."""
        node = self
        while True:
            child = next((c for c in node.children.values() if c.count), None)
            if child is None:
                return None
            if child.value is not None:
                return child
            node = child

    def values(self) -> list[T]:
        """Every entry at or under this node (depth first)."""
        out: list[T] = []
        pending: list[Node[T]] = [self]
        while pending:
            node = pending.pop()
            if node.value is not None:
                out.append(node.value)
            pending.extend(c for c in node.children.values() if c.count)
        return out


@dataclass
class Excludes:
    """One workspace's `selection.exclude`, matched as §5 (and the reference checker) do:
    a path is excluded when it matches a pattern (fnmatch) or is, or lies under, the
    pattern without its trailing slashes.

    The prefix half is one walk down a tree of the patterns; only patterns with glob
    characters are matched one by one, each match paid for from the session's
    `GlobBudget`. A glob of ``*`` alone is matched with string searches; one with ``?`` or
    ``[`` is compiled (fnmatch's translation), paying its length from the same budget.
    """

    stems: Node[bool] = field(default_factory=Node)
    stars: list[str] = field(default_factory=list)  # globs whose only wildcard is *
    others: list[str] = field(default_factory=list)  # globs with ? or [: compiled if needed
    compiled: list[Callable[[str], object]] | None = None
    unchecked: int = 0  # globs the budget left uncompiled
    glob_chars: int = 0

    @classmethod
    def of(cls, patterns: list[str]) -> Excludes:
        made = cls()
        seen: set[str] = set()
        for pattern in patterns:
            node, _ = made.stems.make(pattern.rstrip("/"))
            node.value = True
            if pattern in seen or not GLOB_CHARS.intersection(pattern):
                continue  # a literal pattern matches only itself: the stem covers it
            seen.add(pattern)
            star = "?" not in pattern and "[" not in pattern
            (made.stars if star else made.others).append(pattern)
            made.glob_chars += len(pattern)
        return made

    def _compile(self, budget: GlobBudget) -> list[Callable[[str], object]]:
        """The ? and [ globs as fnmatch's regexes, made at the first deletion the stems
        do not settle, each paid for (64 per character) from the budget."""
        if self.compiled is None:
            self.compiled = []
            for pattern in self.others:
                if len(pattern) > MAX_PATTERN_CHARS or not budget.spend(64 * len(pattern)):
                    self.unchecked += 1
                    continue
                regex = fnmatch.translate(pattern)
                if compile_problem(regex) is None:  # always, for a translation
                    self.compiled.append(re.compile(regex).match)
        return self.compiled

    def under_stem(self, path: str) -> bool:
        node: Node[bool] | None = self.stems
        for part in path.split("/"):
            assert node is not None
            node = node.children.get(part)
            if node is None:
                return False
            if node.value:
                return True
        return False

    def matches(self, path: str, budget: GlobBudget) -> bool | None:
        """Whether ``path`` is excluded; None when that is not known (the budget ran out,
        or a glob was not compiled, before any pattern matched)."""
        if self.under_stem(path):
            return True
        if not self.stars and not self.others:
            return False
        # Paid for the whole list at once (each glob against this path), before any of it.
        globs = len(self.stars) + len(self.others)
        if not budget.spend(globs * len(path) + self.glob_chars):
            return None
        if any(star_match(pattern, path) for pattern in self.stars):
            return True
        if any(match(path) for match in self._compile(budget)):
            return True
        return None if self.unchecked else False


def star_match(pattern: str, path: str) -> bool:
    """fnmatch of a pattern whose only wildcard is ``*``, without a regular expression:
    the first and last pieces at the ends, the others found left to right (taking the
    leftmost place of each is never wrong for ``*``)."""
    pieces = pattern.split("*")
    first, last = pieces[0], pieces[-1]
    if len(path) < len(first) + len(last) or not path.startswith(first):
        return False
    if not path.endswith(last):
        return False
    at, end = len(first), len(path) - len(last)
    for piece in pieces[1:-1]:
        found = path.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


@dataclass
class GlobBudget:
    """Characters of (path + pattern) one session may match against glob excludes (and
    64 per character of a glob it compiles)."""

    left: int

    def spend(self, cost: int) -> bool:
        self.left -= cost
        return self.left >= 0
