"""A plan too large to lay out on the UI thread: the worker lays it out, the pane shows it."""

from __future__ import annotations

import json
from typing import Any

from tests.core.continuation.spec_examples import inspect
from tests.perf.bench_continuation import dag, generated_profile
from zcf_inspector.gui.plangraph.layout_worker import BACKGROUND_THRESHOLD
from zcf_inspector.gui.plangraph.node_item import LABEL_LOD
from zcf_inspector.gui.plangraph.pane import OVERVIEW_ZOOM, PlanGraphPane

DEPENDENCIES = 1_000


def test_a_large_plan_is_laid_out_in_the_background(qtbot: Any) -> None:
    data = json.dumps(generated_profile(dag(DEPENDENCIES, 2))).encode()
    result = inspect(data)
    plan = result.plans[0]
    assert len(plan.nodes) > BACKGROUND_THRESHOLD
    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    pane.resize(1000, 700)
    pane.show()
    with qtbot.waitSignal(pane.plan_shown, timeout=60_000):
        pane.show_result(result)
        # Until the worker reports, the pane says what it is doing instead of freezing.
        assert pane.scene is None
        assert "Laying out" in pane.message.text()
    assert pane.scene is not None
    assert len(pane.scene.nodes) == len(plan.nodes)
    assert len(pane.scene.edges) == len(plan.edges)
    # Fitted, the plan is far out: labels are below the level of detail that draws them.
    assert pane.view.zoom < LABEL_LOD
    # A click far out lights the path in the overview, without painting every node item.
    assert pane.view.zoom < OVERVIEW_ZOOM
    lit = pane.select_node("dependency:d500", centre=False)
    assert not pane.scene.detailed
    assert pane.scene.overview.focus == lit
    assert {"plan:continue-main", "dependency:d500", "dependency:d999"} <= lit
    pane.view.zoom_by(100)
    qtbot.wait(10)
    assert pane.scene.detailed  # closer in, the node items carry the highlight
    pane.clear_selection()
    assert pane.scene.overview.focus is None


def test_a_stale_layout_is_ignored(qtbot: Any) -> None:
    data = json.dumps(generated_profile(dag(DEPENDENCIES, 2))).encode()
    pane = PlanGraphPane()
    qtbot.addWidget(pane)
    pane.show_result(inspect(data))
    pane.clear()  # the user closed the document while the layout ran
    assert pane.wait_for_layout()
    qtbot.wait(20)
    assert pane.scene is None
