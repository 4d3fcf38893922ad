"""Render the main window on the richest golden to docs/screenshots/window.png.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_window.py [OUT.png]

(or under Xvfb with the xcb platform: scripts/screenshot.sh). Settings go to a
temp folder, so the user's own settings are neither used nor changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from offscreen_window import fresh_app, save, settle, wait

REPO = Path(__file__).resolve().parents[1]
PACKET = REPO / "goldens" / "publication" / "full-handoff.json"
DESTINATION = REPO / "goldens" / "destination.json"
DEFAULT_OUT = REPO / "docs" / "screenshots" / "window.png"


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    app = fresh_app(argv)
    from zcf_inspector.gui.main_window import MainWindow  # noqa: PLC0415 - after the app

    window = MainWindow()
    window.resize(1480, 920)
    window.apply_destination(str(DESTINATION))
    window.show()
    window.open_paths([str(PACKET)])
    wait(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    tab.splitter.setSizes([820, 640])
    tab.show_pane("Manifest")
    tab.tree.expand(tab.model.index_for_pointer("/content/beliefs", nearest=False))
    tab.select_pointer("/content/beliefs/0")
    tab.select_pointer("/content/capsule")
    row = tab.manifest_pane.model.row_of("capsule")
    if row is not None:
        tab.manifest_pane.select_row(row)
    settle(app)
    save(window, out)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
