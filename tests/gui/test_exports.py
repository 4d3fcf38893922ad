"""Issue 12, point 9: exports never overwrite without asking, propose a free name that
carries the packet's (or plan's) id, beside the document, and the status bar names the
file written."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.gui.driving import DESTINATION, PUBLICATION, drop_and_wait, wait_idle
from tests.gui.review.conftest import ScriptedPrompter
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.gui.main_window import MainWindow


def test_receipt_export_proposes_a_free_name_with_the_packet_id(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    packet = tmp_path / "handoff.json"
    shutil.copy(PUBLICATION / "full-handoff.json", packet)
    (tmp_path / "handoff.pkt-full-handoff.receipt.json").write_text("an older receipt")
    window.apply_destination(str(DESTINATION))
    wait_idle(qtbot, window)
    tab = drop_and_wait(qtbot, window, [packet])
    pane = tab.review_pane
    assert pane is not None
    prompter = ScriptedPrompter()
    pane.prompter = prompter
    pane.identity_bar.field.setText("carol")  # the window's settings have no reviewer yet
    pane.identity_bar.button.click()
    pane.decide_current(ReviewState.CONFIRMED)
    taken = tmp_path / "handoff.pkt-full-handoff.receipt.json"
    # the proposal skips the name taken; the user picks the taken one anyway and says no
    prompter.script(("confirm", True), ("confirm", True), ("path", str(taken)), ("confirm", False))
    window.export_action.trigger()
    assert prompter.log[-2][2] == str(tmp_path / "handoff.pkt-full-handoff.receipt-2.json")
    assert prompter.log[-1][1] == "Replace receipt?"
    assert taken.read_text() == "an older receipt"
    # a free name is written, and the status bar says where
    proposed = str(tmp_path / "handoff.pkt-full-handoff.receipt-2.json")
    prompter.script(("confirm", True), ("confirm", True), ("path", proposed))
    window.export_action.trigger()
    assert Path(proposed).exists()
    assert window.statusBar().currentMessage() == f"Receipt written to {proposed}"


def test_plan_graph_export_is_proposed_beside_the_session_and_asks_to_replace(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    session = tmp_path / "another-computer.session.json"
    shutil.copy(EXAMPLES / "another-computer.session.json", session)
    tab = drop_and_wait(qtbot, window, [session])
    graph = tab.plan_graph_pane
    assert graph is not None
    graph.wait_for_layout()
    plan = graph.current_plan
    assert plan is not None
    proposals: list[str] = []
    chosen: list[str] = []

    def ask(_parent: Any, _title: str, suggested: str, _filters: str) -> str:
        proposals.append(suggested)
        return chosen.pop() if chosen else suggested

    graph.ask_save_path = ask
    first = graph._export_dialog("dot")
    # Named after the session and the plan.
    assert first == str(tmp_path / f"another-computer.session.plan-{plan.id}.dot")
    assert Path(first).read_text(encoding="utf-8").startswith("digraph")
    assert window.statusBar().currentMessage() == f"Plan graph written to {first}"
    second = graph._export_dialog("dot")
    # Never the name just written.
    assert second == str(tmp_path / f"another-computer.session.plan-{plan.id}-2.dot")
    asked: list[str] = []

    def refuse(_parent: Any, _title: str, text: str) -> bool:
        asked.append(text)
        return False

    graph.confirm = refuse
    Path(first).write_text("keep")
    chosen.append(first)
    assert graph._export_dialog("svg") is None
    assert asked == [f"{first} already exists. Replace it?"]
    assert Path(first).read_text() == "keep"
