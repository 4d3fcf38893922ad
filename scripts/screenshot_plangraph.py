"""Render the plan graph of the action-specific example to docs/screenshots/plan-graph.png.

Run from the repository root: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
scripts/screenshot_plangraph.py`` (or under Xvfb). The session is checked together
with its `model_request` destination report, at the fixed clock the spec's checker
uses, so the statuses shown are the example's own.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.reading import read_json
from zcf_inspector.gui.plangraph.pane import PlanGraphPane

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "tests/data/asif-0.4/examples/continuation"
CLOCK = parse_datetime("2026-09-26T12:30:00Z")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs/screenshots/plan-graph.png")
    parser.add_argument("--plan", default="model_request")
    parser.add_argument(
        "--select", default="", help="a node to click (default: none, the legend is shown)"
    )
    parser.add_argument("--size", default="1600x940")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    session = (EXAMPLES / "action-specific.session.json").read_bytes()
    report = (EXAMPLES / f"action-specific-{args.plan}.report.json").read_bytes()
    result = inspect_continuation(session, now=CLOCK, report=report)
    pane = PlanGraphPane()
    width, height = (int(v) for v in args.size.split("x"))
    pane.resize(width, height)
    pane.show_result(result, read_json(session))
    pane.select_plan([p.id for p in result.plans].index(args.plan))
    pane.show()
    pane.splitter.setSizes([int(width * 0.72), int(width * 0.28)])
    app.processEvents()
    pane.view.fit()
    if args.select:
        pane.select_node(args.select, centre=False)
    else:
        pane.side.setCurrentIndex(2)  # the legend explains the picture
    app.processEvents()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not pane.grab().save(str(args.out), "PNG"):
        print(f"cannot write {args.out}", file=sys.stderr)
        return 1
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
