"""Find in a document: by key, by value, or by JSON pointer, next or previous.

Walks the parsed value in document order (the tree's order) on a worker thread, so a
search through 200,000 beliefs never blocks the window; it wraps around at the end.

A query that starts with ``/`` is a JSON pointer in every mode: when it names a node, that
node is the answer (``/content/beliefs/3`` finds the fourth belief whatever the mode). A
text search is made for it only when no node has that pointer (a value may hold a path).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.gui.plain_text import scalar_json

Path = tuple[str | int, ...]
_STEP_EVERY = 50_000


class FindMode(StrEnum):
    ANY = "Key or value"
    KEY = "Key"
    VALUE = "Value"
    POINTER = "JSON pointer"


@dataclass(frozen=True, slots=True)
class FindQuery:
    text: str
    mode: FindMode
    start: Path  # the node selected when the search began (() for none)
    backwards: bool = False


def _walk(value: JsonValue) -> Iterator[tuple[Path, str | int, JsonValue]]:
    """Every node below the root in document (pre-)order."""
    stack: list[tuple[Path, str | int, JsonValue]] = []

    def push_children(path: Path, container: JsonValue) -> None:
        if isinstance(container, dict):
            stack.extend(((*path, k), k, v) for k, v in reversed(container.items()))
        elif isinstance(container, list):
            stack.extend(((*path, i), i, container[i]) for i in range(len(container) - 1, -1, -1))

    push_children((), value)
    while stack:
        path, key, item = stack.pop()
        yield path, key, item
        push_children(path, item)


def _matches(query: str, mode: FindMode, key: str | int, value: JsonValue) -> bool:
    if mode in (FindMode.KEY, FindMode.ANY) and isinstance(key, str) and query in key.casefold():
        return True
    if mode in (FindMode.VALUE, FindMode.ANY) and not isinstance(value, dict | list):
        text = value if isinstance(value, str) else scalar_json(value)
        return query in text.casefold()
    return False


def is_pointer_query(text: str) -> bool:
    return text.startswith("/")


def find(document: JsonValue, query: FindQuery, monitor: Monitor) -> Path | None:
    """The next (or previous) match after ``query.start``, wrapping; None if none."""
    if not query.text:
        return None
    if is_pointer_query(query.text) and jpointer.exists(document, query.text):
        return tuple(jpointer.split(query.text))
    if query.mode is FindMode.POINTER:
        return None
    needle = query.text.casefold()
    first: Path | None = None
    last: Path | None = None
    before_start: Path | None = None
    passed_start = query.start == ()
    for count, (path, key, value) in enumerate(_walk(document)):
        if count % _STEP_EVERY == 0:
            monitor.step("searching", 0.5)
        is_start = path == query.start
        if _matches(needle, query.mode, key, value):
            if first is None:
                first = path
            if not query.backwards and passed_start and not is_start:
                return path
            if query.backwards and not passed_start and not is_start:
                before_start = path
            last = path
        if is_start:
            passed_start = True
    if query.backwards:
        return before_start if before_start is not None else last
    return first
