"""Progress and cancellation for long core work, without any UI dependency.

The window runs the core on a worker thread and passes a `Monitor`; the core reports
where it is and stops at the next check after `cancel()` by raising `Cancelled`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from zcf_inspector.core.errors import ZcfError


class Cancelled(ZcfError):  # noqa: N818 - a signal, not an error condition
    """The caller asked the work to stop; nothing it had started is returned."""

    code = "cancelled"


class Monitor:
    def __init__(
        self, on_progress: Callable[[str, float], None] | None = None, *, pause: float = 0.0
    ) -> None:
        self._on_progress = on_progress
        self._cancelled = threading.Event()
        self._pause = pause

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def step(self, what: str, fraction: float) -> None:
        """Report progress (0.0-1.0 of the whole job); raise `Cancelled` if asked to stop."""
        self.breathe()
        if self._on_progress is not None:
            self._on_progress(what, fraction)

    def breathe(self) -> None:
        """A point where long work may stop (`Cancelled`) and lets other threads run.

        With ``pause`` the worker sleeps that long here. Why: a Qt view repainting while a
        worker runs Python takes the GIL once per model call, and each time waits out the
        interpreter's switch interval behind the worker; a short sleep between chunks of
        work lets a whole repaint through at once.
        """
        if self._cancelled.is_set():
            raise Cancelled("cancelled")
        if self._pause:
            time.sleep(self._pause)


class _NullMonitor(Monitor):
    """The default for callers that want no progress and will never cancel. It is shared
    by every such caller, so cancelling it would stop all of them: it refuses."""

    def cancel(self) -> None:
        raise TypeError("NULL_MONITOR is shared and cannot be cancelled; pass a Monitor()")


NULL_MONITOR: Monitor = _NullMonitor()
