"""A closed pane is freed with its Qt object, at once: its parts hold it weakly.

A reference cycle through the pane would keep its Python object until the cyclic
collector runs, which may be on a worker thread, where no Qt object may be finalized.
"""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtTest import QTest

from tests.gui.review.conftest import PaneFactory
from zcf_inspector.core.formats import ReviewState


def test_a_deleted_pane_is_freed_without_the_cyclic_collector(make_pane: PaneFactory) -> None:
    pane = make_pane()
    QTest.keyClick(pane.table, Qt.Key.Key_C)  # a step taken: every part has been used
    assert pane.model.state("b-reader") is ReviewState.CONFIRMED
    freed = weakref.ref(pane)
    gc.disable()
    try:
        pane.close()
        pane.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        del pane
        assert freed() is None
    finally:
        gc.enable()
