"""The tool panes written elsewhere (``gui.review``, ``gui.plangraph``), imported lazily.

If a pane's module is missing or does not provide the pane, the tab shows a plain
"not available" placeholder instead and the window keeps working.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.review.decisions import ReviewPreparation, ReviewTarget
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.settings import APPLICATION, ORGANIZATION


@runtime_checkable
class ReviewPaneLike(Protocol):
    """What the window uses of ``gui.review.ReviewPane``."""

    target: ReviewTarget | None

    def set_packet(
        self,
        path: str,
        data: bytes,
        inspection: PacketInspection,
        destination: Destination | None,
        prepared: ReviewPreparation | None = None,
    ) -> None: ...

    def export_receipt(self) -> object: ...

    def review_actions(self) -> Sequence[QAction]: ...

    def edit_reviewer(self) -> None: ...


@runtime_checkable
class PlanGraphPaneLike(Protocol):
    """What the window uses of ``gui.plangraph.PlanGraphPane``."""

    def show_result(self, result: InspectionResult, document: JsonValue | None = None) -> None: ...

    def clear(self) -> None: ...


def _load(module: str, name: str) -> type[QWidget] | str:
    try:
        found = importlib.import_module(module)
    except ImportError as exc:
        return f"{exc.__class__.__name__}: {exc}"
    pane = getattr(found, name, None)
    if not (isinstance(pane, type) and issubclass(pane, QWidget)):
        return f"{module} has no {name} widget"
    return pane


def preload() -> None:
    """Import both pane modules now (at start-up, while the window is idle), so the first
    document opened does not pay for the imports on the UI thread."""
    _load("zcf_inspector.gui.review", "ReviewPane")
    _load("zcf_inspector.gui.plangraph", "PlanGraphPane")


def placeholder(title: str, reason: str) -> QWidget:
    label = plain_label(f"{title} is not available in this build.\n\n{reason}", wrap=True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


def make_review_pane() -> QWidget:
    """A ``ReviewPane``, or a placeholder saying why there is none.

    The reviewer's identity is kept with the window's own settings (the same INI file as
    the destination), not in a second, native-format store.
    """
    pane = _load("zcf_inspector.gui.review", "ReviewPane")
    if isinstance(pane, str):
        return placeholder("Review", pane)
    store = QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )
    factory: Callable[..., QWidget] = pane
    widget = factory(settings=store)
    store.setParent(widget)  # deleted with the pane, on the GUI thread
    return widget


def make_plan_graph_pane() -> QWidget:
    """A ``PlanGraphPane``, or a placeholder saying why there is none."""
    pane = _load("zcf_inspector.gui.plangraph", "PlanGraphPane")
    return placeholder("The plan graph", pane) if isinstance(pane, str) else pane()
