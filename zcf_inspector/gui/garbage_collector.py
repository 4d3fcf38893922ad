"""Cyclic garbage collection on the UI thread only.

CPython runs its cycle collector in whichever thread happens to allocate. When that is a
worker (the core allocates millions of objects while reading a packet), the collector can
free a cycle holding Qt wrappers there, and Qt objects must die on their own thread: a
segfault. So while a window is open the automatic collector is off and this timer runs
the same generational collections on the UI thread (the recipe pyqtgraph uses).
"""

from __future__ import annotations

import gc
from typing import Final

from PySide6.QtCore import QObject, QTimer

_INTERVAL_MS: Final = 250
_holders = 0  # windows that need the collector on the UI thread


class UiThreadGarbageCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(_INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._active = False

    def start(self) -> None:
        global _holders  # noqa: PLW0603 - the collector switch is process-wide too
        if not self._active:
            self._active = True
            _holders += 1
            gc.disable()
            self._timer.start()

    def stop(self) -> None:
        global _holders  # noqa: PLW0603
        if self._active:
            self._active = False
            self._timer.stop()
            _holders -= 1
            if _holders == 0:
                gc.enable()

    def check(self) -> None:
        """Collect the generations whose thresholds are passed, as CPython would."""
        threshold0, threshold1, threshold2 = gc.get_threshold()
        count0, count1, count2 = gc.get_count()
        if count0 > threshold0:
            generation = 0
            if count1 > threshold1:
                generation = 1
                if count2 > threshold2:
                    generation = 2
            gc.collect(generation)
