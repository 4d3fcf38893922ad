"""The ASIF package screenshots (issue 33), light and dark, at 1024x700: the inventory of a
package whose member was changed after packing, and the timeline of a session with a
continuation plan.

    DISPLAY=:N QT_QPA_PLATFORM=xcb PYTHONPATH=. .venv/bin/python \
        docs/screenshots/take_package.py OUT_FOLDER

(``QT_QPA_PLATFORM=offscreen`` works too, with the offscreen platform's fonts.) Writes
package-tampered.png, dark-package-tampered.png, session-timeline.png and
dark-session-timeline.png. The package is built by the inspector's own writer from the
compaction example, then one byte of its attachment is changed (the archive rewritten
with Python's zipfile), in a temporary folder.
"""

from __future__ import annotations

import sys
import tempfile
import zipfile
from pathlib import Path

from PySide6.QtWidgets import QApplication

from scripts.offscreen_window import fresh_app, save, settle, wait
from zcf_inspector import api
from zcf_inspector.gui.document_tab import PANE_INVENTORY, PANE_SESSION
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.theme import THEME_KEY

DATA = Path(__file__).parents[2] / "tests" / "data"
COMPACTION = DATA / "asif-0.5-package" / "examples" / "compaction-with-attachment.session.json"
ANOTHER_AGENT = DATA / "asif-0.5" / "examples" / "continuation" / "another-agent.session.json"


def tampered(folder: Path) -> Path:
    built = folder / "notes.asif.zip"
    built.write_bytes(api.build_package(COMPACTION))
    out = folder / "notes-changed.asif.zip"
    with zipfile.ZipFile(built) as read, zipfile.ZipFile(out, "w") as write:
        for info in read.infolist():
            data = read.read(info)
            write.writestr(
                info, data.replace(b"e", b"E", 1) if info.filename[:7] == "assets/" else data
            )
    return out


def shoot(out: Path, name: str, *, dark: bool, path: Path, pane: str) -> None:
    store = settings_store()
    store.setValue(THEME_KEY, "dark" if dark else "light")
    store.sync()
    window = MainWindow()
    window.resize(1024, 700)
    window.show()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window.open_paths([str(path)])
    wait(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    total = sum(tab.splitter.sizes())
    tab.splitter.setSizes([int(total * 0.34), total - int(total * 0.34)])
    tab.focus_pane(pane)
    if pane == PANE_SESSION and tab.session_pane is not None:
        tab.session_pane.timeline.selectRow(3)
        tab.session_pane.timeline.setFocus()
    settle(app, 1.0)
    save(window, out / f"{name}.png")
    window.close()
    window.deleteLater()
    settle(app, 0.3)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/screenshots")
    app = fresh_app([sys.argv[0]])
    with tempfile.TemporaryDirectory() as work:
        package = tampered(Path(work))
        for dark in (False, True):
            prefix = "dark-" if dark else ""
            shoot(out, f"{prefix}package-tampered", dark=dark, path=package, pane=PANE_INVENTORY)
            shoot(
                out, f"{prefix}session-timeline", dark=dark, path=ANOTHER_AGENT, pane=PANE_SESSION
            )
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
