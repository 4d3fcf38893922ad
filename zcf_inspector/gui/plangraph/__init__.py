"""The "Plan graph" pane (`pane.PlanGraphPane`): a continuation plan's prerequisite
closure on a canvas.

The window hosts `PlanGraphPane` and calls ``show_result(result, document)`` when an
ASIF session, a bare profile or a session with its destination report is opened, and
``clear()`` when it closes. Nothing is imported here, so that a module of this package
importing a sibling never drags in the pane (no import cycle).
"""
