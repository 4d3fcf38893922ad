"""Core work off the UI thread: a thread pool, progress, and Cancel that never waits.

`TaskRunner.start(work, on_done)` runs ``work(monitor)`` on a pool thread and calls
``on_done(result)`` on the UI thread. `cancel_all()` cancels the monitors and forgets the
tasks at once: whatever a cancelled task returns later is dropped, so the window never
waits for a core call to reach its next cancellation point. Until each cancelled worker
has really returned, the runner is `stopping` (and says so with `stoppingChanged`): a
core call still holds a CPU and memory then, and the window says "cancelling…" rather
than idle.

A *durable* task (``durable=True``) is one whose work may pass a point of no return —
a review step committed to its journal. Cancel asks it to stop (its monitor raises
`Cancelled` before that point), but it is not forgotten: its result, or the news that it
stopped, always reaches ``on_done`` or ``on_cancelled``, so a committed step is never
dropped on the floor.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from zcf_inspector.core.monitor import Cancelled, Monitor

Work = Callable[[Monitor], Any]
ProgressHook = Callable[[str, float], None]

# Seconds a worker sleeps at each break in its work: long enough for the UI thread to
# repaint a view without queuing behind the worker for the GIL (see Monitor.breathe).
WORKER_PAUSE = 0.002


class _Signals(QObject):
    progress = Signal(int, str, float)
    finished = Signal(int, object)
    failed = Signal(int, str)
    cancelled = Signal(int)


class _Job(QRunnable):
    def __init__(self, task_id: int, work: Work, monitor: Monitor, signals: _Signals) -> None:
        super().__init__()
        self._task_id = task_id
        self._work = work
        self._monitor = monitor
        self._signals = signals

    def run(self) -> None:
        try:
            result = self._work(self._monitor)
        except Cancelled:
            self._signals.cancelled.emit(self._task_id)
        except Exception:  # noqa: BLE001 - the thread boundary: every failure goes to the window with its traceback
            self._signals.failed.emit(self._task_id, traceback.format_exc())
        else:
            self._signals.finished.emit(self._task_id, result)


@dataclass
class _Task:
    label: str
    monitor: Monitor
    on_done: Callable[[Any], None]
    on_failed: Callable[[str], None] | None
    durable: bool = False
    on_cancelled: Callable[[], None] | None = None
    job: _Job | None = None


class TaskRunner(QObject):
    """Runs core work on worker threads and posts results back to the UI thread."""

    progressChanged = Signal(str, float)  # noqa: N815 - Qt signal naming
    busyChanged = Signal(bool)  # noqa: N815
    taskFailed = Signal(str, str)  # noqa: N815 - (label, traceback) when no on_failed was given
    stoppingChanged = Signal(bool)  # noqa: N815 - cancelled workers still running, or none

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._signals = _Signals(self)
        self._signals.progress.connect(self._on_progress)
        self._signals.finished.connect(self._on_finished)
        self._signals.failed.connect(self._on_failed)
        self._signals.cancelled.connect(self._on_cancelled)
        self._tasks: dict[int, _Task] = {}
        self._stopping: set[int] = set()  # forgotten on cancel, their worker not yet back
        self._next_id = 0
        # Called on the worker thread at every progress step, before the UI hears of it
        # (tests use it to hold a load at a known point).
        self.progress_hook: ProgressHook | None = None

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    @property
    def stopping(self) -> bool:
        """Whether a cancelled task's worker is still running (it stops at its next
        cancellation point; its result will be dropped)."""
        return bool(self._stopping)

    def start(
        self,
        label: str,
        work: Work,
        on_done: Callable[[Any], None],
        on_failed: Callable[[str], None] | None = None,
        *,
        durable: bool = False,
        on_cancelled: Callable[[], None] | None = None,
    ) -> int:
        self._next_id += 1
        task_id = self._next_id
        signals = self._signals
        hook = self.progress_hook

        def report(what: str, fraction: float) -> None:
            if hook is not None:
                hook(what, fraction)
            signals.progress.emit(task_id, what, fraction)

        monitor = Monitor(report, pause=WORKER_PAUSE)
        task = _Task(label, monitor, on_done, on_failed, durable, on_cancelled)
        task.job = _Job(task_id, work, monitor, signals)
        was_busy = self.busy
        self._tasks[task_id] = task
        if not was_busy:
            self.busyChanged.emit(True)
        self.progressChanged.emit(label, 0.0)
        self._pool.start(task.job)
        return task_id

    def cancel_all(self) -> None:
        """Stop waiting for every task now; their monitors stop them at the next step.
        Durable tasks are asked to stop too, but still report (see the module)."""
        for task in self._tasks.values():
            task.monitor.cancel()
        had = self.busy
        self._forget_workers(n for n, t in self._tasks.items() if not t.durable)
        self._tasks = {n: t for n, t in self._tasks.items() if t.durable}
        if had and not self.busy:
            self.busyChanged.emit(False)

    def cancel(self, task_id: int) -> None:
        """Stop one task (a stale filter, a step the user cancelled): forgotten at once
        unless durable, like `cancel_all`."""
        task = self._tasks.get(task_id)
        if task is None:
            return
        task.monitor.cancel()
        if not task.durable:
            self._forget_workers([task_id])
            self._finish(task_id)

    def _forget_workers(self, task_ids: Iterable[int]) -> None:
        was = self.stopping
        self._stopping.update(task_ids)
        if self.stopping and not was:
            self.stoppingChanged.emit(True)

    def _worker_back(self, task_id: int) -> None:
        """A worker returned (a result, a failure or Cancelled)."""
        if task_id in self._stopping:
            self._stopping.discard(task_id)
            if not self._stopping:
                self.stoppingChanged.emit(False)

    def running(self, task_id: int) -> bool:
        """Whether the task has not reported yet (and was not forgotten)."""
        return task_id in self._tasks

    def wait_for_done(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)

    def _finish(self, task_id: int) -> _Task | None:
        task = self._tasks.pop(task_id, None)
        if task is not None and not self._tasks:
            self.busyChanged.emit(False)
        return task

    def _on_progress(self, task_id: int, what: str, fraction: float) -> None:
        task = self._tasks.get(task_id)
        if task is not None:
            self.progressChanged.emit(f"{task.label}: {what}", fraction)

    def _on_finished(self, task_id: int, result: object) -> None:
        self._worker_back(task_id)
        task = self._finish(task_id)
        if task is not None:
            task.on_done(result)

    def _on_failed(self, task_id: int, details: str) -> None:
        self._worker_back(task_id)
        task = self._finish(task_id)
        if task is None:
            return
        if task.on_failed is not None:
            task.on_failed(details)
        else:
            self.taskFailed.emit(task.label, details)

    def _on_cancelled(self, task_id: int) -> None:
        self._worker_back(task_id)
        task = self._finish(task_id)
        if task is not None and task.on_cancelled is not None:
            task.on_cancelled()
