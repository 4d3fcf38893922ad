"""The Briefing pane's screenshots (issue 20), light and dark: the briefing of a packet
holding a suspected credential, and a workspace check with one mismatch.

    DISPLAY=:N QT_QPA_PLATFORM=xcb PYTHONPATH=. .venv/bin/python \
        docs/screenshots/take_briefing.py OUT_FOLDER

(``QT_QPA_PLATFORM=offscreen`` works too, with the offscreen platform's fonts.) Writes
briefing.png, dark-briefing.png, briefing-workspace.png and dark-briefing-workspace.png.
The packet, the workspace folder and the settings are made in a temporary folder.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QApplication

from goldens import generate as g
from scripts.offscreen_window import fresh_app, save, settle, wait
from zcf_inspector.gui.document_tab import PANE_BRIEFING
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.settings import settings_store
from zcf_inspector.gui.theme import THEME_KEY

READER_THEN = b"def read(data):\n    return json.loads(data)\n"
READER_NOW = b"def read(data):\n    return scanner.scan(data)\n"
PROFILE = b"profile"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def scene_packet(folder: Path) -> Path:
    packet = g.full_handoff()
    c = packet["content"]
    c["capsule"]["risks"].append(
        "The staging deploy key AKIAIOSFODNN7EXAMPLE is still in the CI settings"
    )
    c["evidenceSources"].append(
        {
            "id": "src-reader",
            "kind": "local",
            "locator": "zcf/reading.py",
            "digest": sha(READER_THEN),
        }
    )
    c["evidenceAnchors"].append({"id": "a-3", "beliefRef": "b-reader", "sourceRef": "src-reader"})
    path = folder / "full-handoff-with-key.json"
    path.write_text(json.dumps(g.unsigned(packet), ensure_ascii=False), encoding="utf-8")
    return path


def scene_workspace(folder: Path) -> Path:
    root = folder / "workspace"
    (root / "spec").mkdir(parents=True)
    (root / "zcf").mkdir()
    (root / "tests").mkdir()
    (root / "spec" / "zcf-v1-profile.md").write_bytes(PROFILE)  # as the packet claims
    (root / "zcf" / "reading.py").write_bytes(READER_NOW)  # changed since: the mismatch
    (root / "tests" / "test_reading.py").write_bytes(b"def test_read(): ...\n")
    return root


def shoot(out: Path, name: str, *, dark: bool, workspace: Path | None, packet: Path) -> None:
    store = settings_store()
    store.setValue(THEME_KEY, "dark" if dark else "light")
    store.sync()
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window.open_paths([str(packet)])
    wait(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    total = sum(tab.splitter.sizes())
    tab.splitter.setSizes([int(total * 0.36), total - int(total * 0.36)])
    tab.focus_pane(PANE_BRIEFING)
    pane = tab.briefing_pane
    wait(app, lambda: pane.text is not None and not pane.busy)
    if workspace is not None:
        pane.choose_folder = lambda: str(workspace)
        pane.choose_and_check()
        wait(app, lambda: not pane.busy and pane.find_line(": differs") >= 0)
        line = pane.find_line("• evidence source src-reader")
        pane.go_to_line(pane.find_line("Claims vs workspace"))
        pane.go_to_line(line)
        tab.select_pointer("/content/evidenceSources/2")
        pane.view.setFocus()
    else:
        risk = pane.find_line("• The staging deploy key")
        pane.go_to_line(risk)
        tab.select_pointer("/content/capsule/risks/1")
        pane.view.setFocus()
    settle(app, 1.0)
    save(window, out / f"{name}.png")
    window.close()
    window.deleteLater()
    settle(app, 0.3)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/screenshots")
    app = fresh_app([sys.argv[0]])
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        packet, workspace = scene_packet(folder), scene_workspace(folder)
        for dark in (False, True):
            prefix = "dark-" if dark else ""
            shoot(out, f"{prefix}briefing", dark=dark, workspace=None, packet=packet)
            shoot(out, f"{prefix}briefing-workspace", dark=dark, workspace=workspace, packet=packet)
            # The folder is remembered per packet: forget it for the next scene.
            settings_store().clear()
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
