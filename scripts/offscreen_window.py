"""What the screenshot scripts share: an application whose settings go to a temp folder (the
user's own are neither used nor changed), waiting for the window, and saving its picture."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget


def fresh_app(argv: list[str]) -> QApplication:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    return QApplication(argv[:1])


def wait(app: QApplication, done: Callable[[], bool], seconds: float = 30) -> None:
    """Process events until ``done()``; give up after ``seconds``."""
    deadline = time.perf_counter() + seconds
    while not done():
        if time.perf_counter() > deadline:
            raise SystemExit("timed out")
        app.processEvents()
        time.sleep(0.005)


def settle(app: QApplication, seconds: float = 1.0) -> None:
    """Process events for ``seconds``: layouts and repaints done before the picture."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        app.processEvents()
        time.sleep(0.01)


def save(window: QWidget, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise SystemExit(f"could not write {out}")
    print(out)
