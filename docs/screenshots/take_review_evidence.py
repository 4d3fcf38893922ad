"""The review's evidence screenshots (issue 20), light and dark: a belief's evidence in
the review pane's detail, with the Briefing's workspace check holding one mismatch.

    DISPLAY=:N QT_QPA_PLATFORM=xcb PYTHONPATH=. .venv/bin/python \
        docs/screenshots/take_review_evidence.py OUT_FOLDER

(``QT_QPA_PLATFORM=offscreen`` works too, with the offscreen platform's fonts.) Writes
review-evidence.png and dark-review-evidence.png. The packet and the workspace folder are
the Briefing's scene (`take_briefing`): b-reader cites zcf/reading.py, which the
workspace holds with other bytes. Settings and journals live in a temporary folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from docs.screenshots.take_briefing import scene_packet, scene_workspace
from scripts.offscreen_window import fresh_app, save, settle, wait
from zcf_inspector.gui.document_tab import PANE_REVIEW
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.theme import THEME_KEY

REPO = Path(__file__).resolve().parents[2]
DESTINATION = REPO / "goldens" / "destination.json"


def shoot(out: Path, name: str, *, dark: bool, packet: Path, workspace: Path) -> None:
    store = settings_store()
    store.setValue(THEME_KEY, "dark" if dark else "light")
    store.sync()
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window.apply_destination(str(DESTINATION))
    window.open_paths([str(packet)])
    wait(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    briefing = tab.briefing_pane
    wait(app, lambda: briefing.text is not None and not briefing.busy)
    briefing.choose_folder = lambda: str(workspace)
    briefing.choose_and_check()
    wait(app, lambda: not briefing.busy and briefing.find_line(": differs") >= 0)
    tab.focus_pane(PANE_REVIEW)
    pane = tab.review_pane
    assert isinstance(pane, ReviewPane)
    wait(app, lambda: pane.target is not None and not pane.opening and not window.runner.busy)
    total = sum(pane.ui.splitter.sizes())
    pane.ui.splitter.setSizes([int(total * 0.3), total - int(total * 0.3)])
    detail = pane.detail
    width = sum(detail.splitter.sizes())
    detail.splitter.setSizes([int(width * 0.4), width - int(width * 0.4)])
    pane.focus_table()
    while pane.current_ref() != "b-reader":
        pane.move_by(1)
    detail.focus_evidence()
    # The cursor on the mismatching source, its node selected in the tree (Enter).
    line = next(n for n, x in enumerate(detail.evidence_lines) if "src-reader —" in x.text)
    detail.evidence.setTextCursor(QTextCursor(detail.evidence.document().findBlockByNumber(line)))
    detail.evidence.activated.emit(line)
    detail.evidence.setFocus(Qt.FocusReason.OtherFocusReason)
    settle(app, 1.0)
    save(window, out / f"{name}.png")
    window.close()
    window.deleteLater()
    settle(app, 0.3)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/screenshots")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        # The review journals go to the temporary folder too, never to a home.
        os.environ["XDG_DATA_HOME"] = str(folder / "data")
        app = fresh_app([sys.argv[0]])
        packet, workspace = scene_packet(folder), scene_workspace(folder)
        for dark in (False, True):
            prefix = "dark-" if dark else ""
            shoot(out, f"{prefix}review-evidence", dark=dark, packet=packet, workspace=workspace)
            settings_store().clear()
        app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
