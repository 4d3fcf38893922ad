"""Issue 11, point 3: each public example, opened with its report in a 1400x900 window,
shows its plan graph at Fit with labels drawn and large enough to read, and the
subject's object in a tree that uses the side pane's width."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import EXAMPLES
from tests.core.continuation.spec_examples import session_names
from tests.gui.driving import drop_and_wait
from zcf_inspector.gui.main_window import MainWindow
from zcf_inspector.gui.plangraph.node_item import LABEL_LOD

# The smallest Fit zoom accepted: the 9 pt subject line is then drawn at about 8 px.
READABLE_ZOOM = 0.65


@pytest.mark.parametrize("name", session_names())
def test_each_example_reads_at_fit_in_a_1400_by_900_window(
    qtbot: QtBot, window: MainWindow, name: str
) -> None:
    window.resize(1400, 900)
    tab = drop_and_wait(
        qtbot, window, [EXAMPLES / f"{name}.session.json", EXAMPLES / f"{name}.report.json"]
    )
    pane = tab.plan_graph_pane
    assert pane is not None
    assert tab.focus_pane("Plan graph")
    qtbot.waitUntil(lambda: pane.scene is not None and pane.isVisible())
    pane.wait_for_layout()
    qtbot.wait(50)  # the canvas has its size: the plan is laid out for its shape
    pane.view.fit()
    assert pane.view.zoom >= max(LABEL_LOD, READABLE_ZOOM), (name, pane.view.zoom)
    # The side pane has room for the why line and the object's tree.
    assert pane.side.width() >= 300
    plan = pane.current_plan
    assert plan is not None
    far = max(plan.nodes, key=lambda n: len(n.id))
    pane.select_node(far.id, centre=False)
    tree = pane.details.object_tree
    assert tree.view.viewport().width() >= 280


def test_the_graph_is_laid_out_again_for_the_canvas_shape(qtbot: Any, window: MainWindow) -> None:
    """Laid out before the tab was shown (no size yet), then again for the real canvas."""
    window.resize(1400, 900)
    tab = drop_and_wait(
        qtbot,
        window,
        [EXAMPLES / "action-specific.session.json", EXAMPLES / "action-specific.report.json"],
    )
    pane = tab.plan_graph_pane
    assert pane is not None
    tab.focus_pane("Plan graph")
    qtbot.waitUntil(lambda: pane.scene is not None and pane.isVisible())
    assert pane._unsized is None  # nothing waits for a size any more
