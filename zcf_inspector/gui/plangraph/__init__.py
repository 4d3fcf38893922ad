"""The "Plan graph" pane: a continuation plan's prerequisite closure on a canvas.

The window hosts `PlanGraphPane` and calls ``show_result(result, document)`` when an
ASIF session, a bare profile or a session with its destination report is opened, and
``clear()`` when it closes.
"""

from zcf_inspector.gui.plangraph.pane import PlanGraphPane

__all__ = ["PlanGraphPane"]
