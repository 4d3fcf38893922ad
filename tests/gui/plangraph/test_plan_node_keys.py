"""Issue 31, point 6: from the plan node the arrow keys walk to its subjects (it has no
prerequisite of its own, so Right used to do nothing), and back."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from tests.core.continuation.spec_examples import raw_session
from tests.gui.plangraph.helpers import open_pane


def test_right_from_the_plan_node_goes_to_a_subject_and_left_comes_back(qtbot: Any) -> None:
    pane = open_pane(qtbot, raw_session("action-specific"))
    scene = pane.scene
    assert scene is not None
    layout, reach = scene.layout, scene.reach
    stuck = [
        n.id
        for n in layout.nodes
        if not reach.needs.get(n.id) and any(e.source == n.id for e in layout.edges)
    ]
    assert stuck  # the plan node: edges to its subjects, no prerequisite
    start = stuck[0]
    pane.select_node(start)
    view = pane.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    subjects = {e.target for e in layout.edges if e.source == start}
    subject = pane.current_node
    assert subject in subjects
    qtbot.keyClick(view, Qt.Key.Key_Left)  # back along an edge drawn to the subject
    came_back = pane.current_node
    linked = {e.source for e in layout.edges if e.target == subject}
    assert came_back in linked | set(reach.needed_by.get(subject, ()))
