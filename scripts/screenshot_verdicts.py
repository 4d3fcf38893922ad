"""Render issue 18's verdict screenshots to docs/screenshots/: a blocked ASIF report and a
compare of a packet whose recipient MAC could not be checked, each light and dark, at
1600x1000 and 1024x700 (eight pictures).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_verdicts.py [OUT_FOLDER]

The blocked report is the public action-specific example assessed for a model request
(5 required subjects it cannot provide), read at the examples' clock; the compare puts the
negative golden whose MAC is wrong beside the published recipient-bound packet, both opened
without destination keys — so both sides are INTACT, never "valid". Settings go to a temp
folder, as for the other screenshot scripts.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from offscreen_window import fresh_app, save, settle, wait

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EXAMPLES = REPO / "tests" / "data" / "asif-0.4" / "examples" / "continuation"
GOLDENS = REPO / "goldens"
SIZES = {"": (1600, 1000), "-narrow": (1024, 700)}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else REPO / "docs" / "screenshots"
    app = fresh_app(argv)
    # Imported once the application exists (the window's modules make Qt objects).
    from zcf_inspector.core.continuation.timestamps import parse_datetime  # noqa: PLC0415
    from zcf_inspector.gui.main_window import MainWindow  # noqa: PLC0415
    from zcf_inspector.gui.theme import Theme  # noqa: PLC0415

    for dark in (False, True):
        for suffix, size in SIZES.items():
            prefix = "dark-" if dark else ""
            window = MainWindow()
            window.set_theme(Theme.DARK if dark else Theme.LIGHT)
            window.resize(*size)
            window.show()
            window.apply_settings(None, parse_datetime("2026-09-26T12:30:00Z"))
            window.open_paths(
                [
                    str(EXAMPLES / "action-specific.session.json"),
                    str(EXAMPLES / "action-specific-model_request.report.json"),
                ]
            )
            wait(app, lambda w=window: w.current_tab() is not None and not w.runner.busy)
            settle(app, 1.5)
            save(window, out / f"{prefix}blocked-report{suffix}.png")

            window.open_paths([str(GOLDENS / "negative" / "mac-invalid.json")])
            wait(
                app,
                lambda w=window: (
                    (t := w.current_tab()) is not None
                    and t.paths[0].endswith("mac-invalid.json")
                    and not w.runner.busy
                ),
            )
            tab = window.current_tab()
            assert tab is not None
            window.compare_paths(tab, str(GOLDENS / "publication" / "recipient-bound-mac.json"))
            wait(app, lambda w=window: w.current_compare() is not None and not w.runner.busy)
            settle(app, 1.5)
            save(window, out / f"{prefix}compare-unchecked-mac{suffix}.png")
            window.close()
            window.deleteLater()
            settle(app, 0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
