"""Render the compare view to docs/screenshots/compare.png.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_compare.py [OUT.png]

A is the full-handoff golden; B is its next generation, both written here to a temp folder:
one belief reworded and confirmed, one added, a receipt dropped, a tool removed and an
extension changed. Settings go to a temp folder, as for scripts/screenshot_window.py.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from offscreen_window import fresh_app, save, settle, wait

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for goldens.generate

from goldens import generate as g  # noqa: E402

PACKET = REPO / "goldens" / "publication" / "full-handoff.json"
DEFAULT_OUT = REPO / "docs" / "screenshots" / "compare.png"


def next_generation(folder: Path) -> Path:
    packet = json.loads(PACKET.read_bytes())
    b = copy.deepcopy(packet)
    beliefs = b["content"]["beliefs"]
    beliefs[1]["content"] = "Keys are sorted by code point (not by UTF-16 code unit)."
    beliefs[1]["reviewState"] = "confirmed"
    beliefs.append(g.belief("b-lazy", "The tree makes rows only when the view asks for them."))
    del b["content"]["receipts"][0]
    b["content"]["allowedTools"].remove("zephr_why")
    b = g.unsigned(b)
    b["extensions"] = {"org.example.ticket": "ZCF-43"}
    path = folder / "handoff-gen2.json"
    path.write_text(json.dumps(b, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    app = fresh_app(argv)
    from zcf_inspector.gui.compare_view import CompareView  # noqa: PLC0415 - after the app
    from zcf_inspector.gui.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow()
    window.resize(1480, 920)
    window.show()
    # Both generations in one folder with a fixed name, so the paths shown are short.
    folder = Path(tempfile.gettempdir()) / "handoffs"
    folder.mkdir(exist_ok=True)
    first = folder / "handoff-gen1.json"
    first.write_bytes(PACKET.read_bytes())
    window.open_paths([str(first)])
    wait(app, lambda: window.current_tab() is not None and not window.runner.busy)
    tab = window.current_tab()
    assert tab is not None
    window.compare_paths(tab, str(next_generation(folder)))
    wait(app, lambda: window.current_compare() is not None and not window.runner.busy)
    view = window.current_compare()
    assert isinstance(view, CompareView)
    view.splitter.setSizes([860, 600])
    view.next_change()
    wait(app, lambda: not window.runner.busy)
    settle(app)
    save(window, out)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
