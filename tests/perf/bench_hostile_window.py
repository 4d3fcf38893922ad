"""The window's longest UI-thread stalls on hostile shapes: a 5 MB string, nesting at the
128 limit, an object of 100,000 members (the unit tests check what is shown; this says how
long the UI thread was kept waiting while it was shown).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.perf.bench_hostile_window
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from functools import partial
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from tests.perf.bench_window import STALL_BUDGET_S, Heartbeat, run_until
from zcf_inspector.core.reading import MAX_DEPTH
from zcf_inspector.gui.document_tab import DocumentTab


def _documents(folder: Path) -> list[tuple[str, Path, str]]:
    """(what, file, the pointer to select once it is shown)."""
    huge = folder / "huge-string.json"
    huge.write_text(json.dumps({"huge": "<b>bold</b>" + "x" * 5_000_000 + "\u202etail"}))
    deep = folder / "deep.json"
    deep.write_text('{"deep": ' + "[" * (MAX_DEPTH - 1) + '"bottom"' + "]" * (MAX_DEPTH - 1) + "}")
    wide = folder / "wide.json"
    width = 100_000
    wide.write_text(json.dumps({"wide": {f"k{i:06d}": i for i in range(width)}}))
    return [
        ("a 5 MB string: open, select it", huge, "/huge"),
        ("nesting at the limit: open, select the innermost", deep, "/deep" + "/0" * 127),
        ("100,000 members: open, select the last", wide, f"/wide/k{width - 1:06d}"),
    ]


def _encoded(tab: DocumentTab) -> bool:
    return tab.canonical_pane.form is not None


def main() -> int:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication([])
    from zcf_inspector.gui.main_window import MainWindow

    window = MainWindow()
    window.show()
    beat = Heartbeat()
    beat.timer.start()
    for what, path, pointer in _documents(Path(tempfile.mkdtemp())):
        app.processEvents()
        beat.reset()
        window.open_paths([str(path)])

        def shown() -> bool:
            tab = window.current_tab()
            return tab is not None and tab.model.rowCount() > 0

        run_until(app, shown)
        tab = window.current_tab()
        assert tab is not None
        tab.select_pointer(pointer)
        run_until(app, partial(_encoded, tab))
        app.processEvents()
        worst = max((gap for gap, _ in beat.gaps), default=0.0)
        verdict = "OK" if worst <= STALL_BUDGET_S else "OVER"
        print(f"{what:<52} longest UI stall {worst * 1000:5.0f} ms — {verdict}")
        window.close_current()
    return 0


if __name__ == "__main__":
    sys.exit(main())
