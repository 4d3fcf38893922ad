"""Starting the window: `run_app(files)` is what ``zcf-inspector [FILE...]`` calls."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtWidgets import QApplication

from zcf_inspector.gui.icons import IconName, icon
from zcf_inspector.gui.main_window import APP_TITLE, MainWindow
from zcf_inspector.gui.settings import APPLICATION, ORGANIZATION


def make_window(files: Sequence[str] = (), *, restore: bool = True) -> MainWindow:
    """The main window with ``files`` being opened; with none, the last session's tabs
    (unless ``restore`` is off or Settings turned it off), else the start page."""
    window = MainWindow()
    if files:
        window.open_paths(list(files))
    elif restore and window.settings.restore_session:
        window.restore_session()
    return window


def run_app(
    files: Sequence[str] = (), qt_arguments: Sequence[str] = (), *, restore: bool = True
) -> int:
    """Open the window on ``files``; ``qt_arguments`` (``-style Fusion``…) go to Qt;
    ``restore`` False (``--no-restore``): no last session reopened."""
    program = sys.argv[0] if sys.argv else "zcf-inspector"
    app = QApplication.instance() or QApplication([program, *qt_arguments])
    assert isinstance(app, QApplication)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APP_TITLE)
    # The desktop entry's ID (packaging/linux/*.desktop): lets the desktop match the window
    # to its entry and icon.
    app.setDesktopFileName("io.github.zcf_inspector.ZcfInspector")
    app.setWindowIcon(icon(IconName.APP))
    window = make_window(files, restore=restore)
    window.show()
    return app.exec()
