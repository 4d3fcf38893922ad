"""Letting go of a shown packet off the UI thread, a slice at a time.

When a tab shows a document again (a re-check, F5) the document it showed before dies:
by reference counting, on the thread that drops its last reference. For a packet of
200,000 beliefs that is one C call freeing every belief (about 110 ms on the development
machine, more under load), and the last holder is a pane on the UI thread — a stall the
window feels. So the tab hands the old document to `Releaser`: its thread keeps the parsed
value alive until every other holder has let go of it (the panes do as they show the new
one), then frees its long arrays `RELEASE_SLICE` elements at a time
(`compare_work.release_in_slices`), sleeping in between so the UI thread gets the GIL.
The value holds no Qt object (it is the core's parse), so freeing it here is safe; a
value some holder keeps for longer than `WAIT_S` is simply let go as before.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.gui.compare_work import release_in_slices

POLL_S: Final = 0.05  # how often the thread looks whether the others have let go
WAIT_S: Final = 120.0  # the longest it waits for them
PAUSE_S: Final = 0.002  # between two slices: the UI thread's turn for the GIL
BIG: Final = 4_096  # arrays shorter than this are freed at once (a few milliseconds)


def _breathe() -> None:
    time.sleep(PAUSE_S)


def _alone(value: dict[str, JsonValue], held: int) -> bool:
    """Whether ``value`` and its content object are held by the caller alone: ``held``
    references to ``value`` (besides this call's parameter and `sys.getrefcount`'s
    argument), and the content by ``value`` alone (besides the local and the argument)."""
    content = value.get("content")
    return sys.getrefcount(value) <= held + 2 and (
        not isinstance(content, dict) or sys.getrefcount(content) <= 3
    )


def _large(value: JsonValue) -> bool:
    content = value.get("content") if isinstance(value, dict) else None
    return isinstance(content, dict) and any(
        isinstance(items, list) and len(items) >= BIG for items in content.values()
    )


class Releaser:
    """One thread that frees the old documents handed to it, in the order given."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[tuple[float, dict[str, JsonValue]]] = []
        self._thread: threading.Thread | None = None

    def release(self, value: JsonValue) -> None:
        """Take a document's parsed value, to free it once no one else holds it."""
        if not isinstance(value, dict) or not _large(value):
            return  # small: freed where it falls, at no cost
        with self._lock:
            self._pending.append((time.monotonic() + WAIT_S, value))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="zcf-release", daemon=True)
                self._thread.start()

    @property
    def pending(self) -> int:
        """Values taken and not yet freed (or let go of)."""
        with self._lock:
            return len(self._pending)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._thread = None
                    return
                deadline, value = self._pending[0]
            # ``value``, the list's entry: two references held here.
            alone = _alone(value, 2)
            if alone or time.monotonic() > deadline:
                if alone:
                    release_in_slices(value, _breathe)
                with self._lock:
                    self._pending.pop(0)  # `pending` counts it until it is freed
                del value
            else:
                del value
                time.sleep(POLL_S)


RELEASER: Final = Releaser()  # the window's: one thread for every tab
