"""Open the window on one documented scene, for `docs/screenshots/take.sh` to photograph.

    python docs/screenshots/take.py SCENE WORK_FOLDER

Scenes: ``window`` (the README's first picture: a recipient-bound packet opened without a
destination), ``truncated-review`` (200,000 beliefs under maxBeliefs 40, 1600x1000),
``narrow-window`` (a review at 1024x700), ``dark-theme`` (a plan graph with its report,
dark), ``dark-review``, ``review-previous`` (a later generation compared with the
previous one's receipt, filtered to what changed, the carry-over asked for);
``plan-EXAMPLE`` and ``dark-plan-EXAMPLE`` (issue 11: each public continuation example
with its report, 1400x900, the plan graph at Fit with the subject farthest from the plan
clicked, so its "why" path is lit); ``recheck-review``, ``narrow-recheck-review`` and
their ``dark-`` twins (issue 18: the truncated golden reviewed, then Settings changed —
another destination file, the "Assess at" clock moved — and the review shown again as it
was: admission chip, decisions, the cut belief marked, at 1600x1000 and 1024x700).
With ``TAKE_OUT=FILE.png`` in the environment the scene photographs its own screen
after ``TAKE_AFTER_S`` seconds (default 12) and quits, for an Xvfb without ImageMagick's
``import``. Settings, review
journals and the data made for a scene live in WORK_FOLDER (take.sh points
XDG_CONFIG_HOME and XDG_DATA_HOME there), never in a home.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from goldens import generate as g
from tests.core.generations import write_generations
from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.continuation.why import entry_path
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.document_tab import DocumentTab
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.review.settings import save_identity
from zcf_inspector.gui.settings import APPLICATION, ORGANIZATION, settings_store
from zcf_inspector.gui.theme import THEME_KEY

REPO = Path(__file__).resolve().parents[2]
PLAN_EXAMPLES = ("action-specific", "another-agent", "another-computer", "pending-remote-operation")
GOLDENS = REPO / "goldens"
EXAMPLES = REPO / "tests" / "data" / "asif-0.4" / "examples" / "continuation"


def big_packet(folder: Path, beliefs: int = 200_000) -> Path:
    """The reviewer's case: a sealed session handoff with ``beliefs`` beliefs."""
    path = folder / f"handoff-{beliefs}.json"
    if path.exists():
        return path
    packet = g.handoff("two-hundred-thousand")
    topics = ("the strict reader", "canonical bytes", "the manifest", "recipient MACs")
    packet["content"]["beliefs"] = [
        g.belief(
            f"b-{i:06d}",
            f"Belief {i:,} about {topics[i % len(topics)]}: checked against the profile "
            "and the conformance vectors before the handoff.",
        )
        for i in range(beliefs)
    ]
    path.write_text(json.dumps(g.unsigned(packet), ensure_ascii=False), encoding="utf-8")
    return path


def destination(folder: Path, **changes: object) -> Path:
    value = {**copy.deepcopy(g.DESTINATION), **changes}
    path = folder / "destination.json"
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def when_loaded(window: MainWindow, then: Callable[[DocumentTab], None]) -> None:
    tab = window.current_tab()
    if tab is None or window.runner.busy:
        QTimer.singleShot(200, lambda: when_loaded(window, then))
        return
    then(tab)


def review(tab: DocumentTab, decisions: list[tuple[ReviewState, str]]) -> None:
    tab.focus_pane("Review")
    pane = tab.review_pane
    assert pane is not None
    for state, note in decisions:
        pane.ui.note_field.setText(note)
        pane.decide_current(state)


def compare_then_ask(tab: DocumentTab, previous: Path, receipt: Path) -> None:
    """Compare with the previous generation, pick a changed belief, then open the
    carry-over's question (its real dialog, left open for the picture)."""
    tab.focus_pane("Review")
    pane = tab.review_pane
    assert pane is not None
    pane.load_previous(str(previous), str(receipt))

    def ask(pane: ReviewPane) -> None:
        if pane.previous is None or pane.runner.busy:
            QTimer.singleShot(200, lambda: ask(pane))
            return
        pane.focus_table()
        pane.move_by(1)  # b-edit: its content changed; History has the earlier decision
        pane.ui.note_field.setText("gen2 diff read: the unchanged claims still hold")
        QTimer.singleShot(300, pane.repeat_earlier)
        QTimer.singleShot(1500, aside)  # the question over the tree, the pane in view

    def aside() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is not None:
            dialog.move(20, 330)

    ask(pane)


def main(argv: list[str]) -> int:
    scene, work = argv[0], Path(argv[1])
    work.mkdir(parents=True, exist_ok=True)
    app = QApplication([sys.argv[0]])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    store = settings_store()
    save_identity(store, "carol", "")
    store.setValue(THEME_KEY, "dark" if scene.startswith("dark") else "system")
    store.sync()
    window = MainWindow()
    example = scene.removeprefix("dark-").removeprefix("plan-")
    plan_scene = scene.removeprefix("dark-").startswith("plan-")
    narrow = scene.removeprefix("dark-") in ("narrow-window", "narrow-recheck-review")
    size = (1024, 700) if narrow else (1400, 900) if plan_scene else (1600, 1000)
    recheck = scene.removeprefix("dark-").endswith("recheck-review")
    window.setGeometry(0, 0, *size)
    if scene == "truncated-review":
        window.apply_destination(str(destination(work, maxBeliefs=40)))
        files = [big_packet(work)]
        decisions = [
            (ReviewState.CONFIRMED, "matches the reader tests"),
            (ReviewState.CONFIRMED, ""),
        ]
    elif scene == "window":
        files = [GOLDENS / "publication" / "recipient-bound-mac.json"]
        decisions = []
    elif scene == "review-previous":
        window.apply_destination(str(destination(work)))
        gen1, receipt, gen2 = write_generations(work / "stream")
        files = [gen1, receipt, gen2]
        decisions = []
    elif recheck:
        window.apply_destination(str(destination(work)))
        files = [GOLDENS / "publication" / "truncation.json"]
        decisions = [(ReviewState.CONFIRMED, "the kept 160 bytes say it")]
    elif scene in ("narrow-window", "dark-review"):
        window.apply_destination(str(destination(work)))
        files = [GOLDENS / "publication" / "truncation.json"]
        decisions = [(ReviewState.CONFIRMED, "checked against the byte limit")]
    elif plan_scene:
        files = [EXAMPLES / f"{example}.session.json", EXAMPLES / f"{example}.report.json"]
        decisions = []
    else:
        files = [
            EXAMPLES / "action-specific.session.json",
            EXAMPLES / "action-specific.report.json",
        ]
        decisions = []
    window.show()
    window.open_paths([str(f) for f in files])

    def arrange(tab: DocumentTab) -> None:
        if tab.plan_graph_pane is not None:
            tab.focus_pane("Plan graph")
            graph = tab.plan_graph_pane
            graph.wait_for_layout()
            scene_ = graph.scene
            plan = graph.current_plan
            if plan_scene and scene_ is not None and plan is not None:
                # The subject the plan reaches last: the longest "why" path, lit.
                far = max(plan.nodes, key=lambda n: (len(entry_path(plan, n.id) or ()), n.id))
                graph.select_node(far.id, centre=False)
                graph.view.fit()
                return
            if scene_ is not None and scene_.nodes:
                # the subject with the most prerequisites and dependents: a lit closure
                degree = dict.fromkeys(scene_.nodes, 0)
                for edge in scene_.facts.plan.edges:
                    for end in (edge.source, edge.target):
                        if end in degree:
                            degree[end] += 1
                graph.select_node(max(sorted(degree), key=degree.__getitem__))
            return
        if scene == "window":
            tab.header.details_button.setChecked(True)
            return
        if scene == "review-previous":
            compare_then_ask(tab, files[0], files[1])
            return
        review(tab, decisions)
        if recheck:
            # Then Settings: another destination file, the clock moved; every tab is
            # checked again by the path an open takes.
            moved = work / "moved"
            moved.mkdir(exist_ok=True)
            tab.select_pointer("/content/beliefs/1")  # b-cut, the belief now highlighted
            later = parse_datetime("2026-10-01T13:00:00Z")
            QTimer.singleShot(500, lambda: window.apply_settings(str(destination(moved)), later))

    QTimer.singleShot(300, lambda: when_loaded(window, arrange))
    out = os.environ.get("TAKE_OUT")
    if out:
        after_ms = int(float(os.environ.get("TAKE_AFTER_S", "12")) * 1000)

        def photograph() -> None:
            screen = app.primaryScreen()
            screen.grabWindow(0).save(out)
            app.quit()

        QTimer.singleShot(after_ms, photograph)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
