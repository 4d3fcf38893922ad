"""The Digest column of the tree: each covered section and each of its elements with its
own canonical digest, so two copies of a packet can be matched by eye.

A section's digest is the one the manifest stage computed. An element's is taken when
its row is first shown: at once when the element is small (`is_small`: a belief takes
microseconds), else on a worker, the row saying "computing…" until it arrives. Digests
are kept per pointer for the life of the tree model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.value_digest import is_small, value_digest
from zcf_inspector.gui.manifest_pane import short_digest

# (label, work, on_done): how background work is asked for (the window's TaskRunner)
Runner = Callable[[str, Callable[[Monitor], Any], Callable[[Any], None]], object]

COMPUTING: Final = "computing…"


def short(digest: str) -> str:
    """As the manifest pane writes digests (the tooltip and Copy Digest have all of it)."""
    return short_digest(digest)


class ElementDigests:
    def __init__(
        self,
        sections: dict[str, str],
        run: Runner | None,
        arrived: Callable[[str], None],
    ) -> None:
        self._sections = sections  # section pointer -> its computed digest
        self._run = run
        self._arrived = arrived  # told the pointer of a digest a worker made
        self._known: dict[str, str | None] = {}
        self._pending: set[str] = set()
        self._closed = False

    def close(self) -> None:
        """The model is going away: digests still on their way are dropped."""
        self._closed = True

    def is_section(self, pointer: str) -> bool:
        return pointer in self._sections

    def digest(self, pointer: str, container: str | None, value: JsonValue) -> str | None:
        """The full digest of the node at ``pointer`` (inside ``container``), COMPUTING
        while a worker makes it, None when the node is neither a section nor an element."""
        section = self._sections.get(pointer)
        if section is not None:
            return section
        if container is None or container not in self._sections:
            return None
        if pointer in self._known:
            return self._known[pointer]
        if pointer in self._pending:
            return COMPUTING
        if self._run is None or is_small(value):
            digest = value_digest(value)
            self._known[pointer] = digest
            return digest
        self._pending.add(pointer)

        def done(result: object) -> None:
            if self._closed:
                return
            self._pending.discard(pointer)
            self._known[pointer] = result if isinstance(result, str) else None
            self._arrived(pointer)

        self._run("element digest", lambda _monitor: value_digest(value), done)
        return COMPUTING
