"""The Qt binding must not leak references to None (PySide6 6.12.0 did, on every Qt
method returning nothing, and the interpreter died with "none_dealloc" in long sessions)."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen


def test_void_qt_calls_keep_none_references() -> None:
    pen = QPen(QColor("#000"), 1.0)
    path = QPainterPath(QPointF(0, 0))
    before = sys.getrefcount(None)
    for _ in range(500):
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setWidthF(2.0)
        path.lineTo(QPointF(1, 1))
    after = sys.getrefcount(None)
    # Other threads may create or drop a few references meanwhile; a leak is >= 1500.
    assert after - before > -100
