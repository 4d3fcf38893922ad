"""The session view: an ASIF session's timeline, contexts and resources, with previews.

It renders the core's `SessionOutline` (`core.continuation.outline`: the facts, the
resources' bytes counted and hashed there) in `present.asif_session`'s words. Three
tables — the timeline (branches as lanes; compactions, checkpoints, the continuation
boundary and branch heads marked), the contexts, the resources — each walked by the
keyboard; the selected row's detail below it. A verified text resource is previewed as
plain text, a verified image through Qt's own image reader under a size and allocation
bound; anything else is its safe summary (type, size, digest). Nothing is fetched.

Enter (or a double click) on a row selects what it describes in the tree
(`pointerSelected`).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QItemSelection,
    QModelIndex,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QImageReader, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from zcf_inspector.core.continuation.outline import Integrity, ResourceRow, SessionOutline
from zcf_inspector.core.visible_text import visible_lines
from zcf_inspector.gui.plain_text import plain_label
from zcf_inspector.gui.plain_tooltip import install_on_view
from zcf_inspector.gui.roles import POINTER_ROLE
from zcf_inspector.gui.session_models import (
    ContextsModel,
    OutlineModel,
    ResourcesModel,
    TimelineModel,
)
from zcf_inspector.present import asif_session as words

PREVIEW_CHARS: Final = 20_000  # of a text resource shown
IMAGE_MAX_SIDE: Final = 4096  # larger images are summarised, not decoded
IMAGE_ALLOCATION_MB: Final = 64  # Qt's own bound on what one decode may allocate
SUB_TIMELINE: Final = "Timeline"
SUB_CONTEXTS: Final = "Contexts"
SUB_RESOURCES: Final = "Resources"


def _table(model: OutlineModel, widths: tuple[int, ...]) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)  # Tab leaves the table: the arrows walk its rows
    table.setWordWrap(False)
    vertical = table.verticalHeader()
    vertical.hide()
    # Fixed row heights and column widths: sizing to contents would ask every row up front.
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vertical.setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    for column, width in enumerate(widths):
        table.setColumnWidth(column, width)
    install_on_view(table)
    return table


def _detail() -> QPlainTextEdit:
    detail = QPlainTextEdit()
    detail.setReadOnly(True)
    detail.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return detail


def bounded_image(data: bytes) -> QPixmap | None:
    """``data`` decoded by Qt's image reader, or None when it is not an image Qt reads
    within the bounds (dimensions read from the header first, allocation limited)."""
    QImageReader.setAllocationLimit(IMAGE_ALLOCATION_MB)
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    size = reader.size()
    if not size.isValid() or max(size.width(), size.height()) > IMAGE_MAX_SIDE:
        return None
    image = reader.read()
    return None if image.isNull() else QPixmap.fromImage(image)


class SessionPane(QWidget):
    pointerSelected = Signal(str)  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outline = SessionOutline((), (), (), ())
        self.summary = plain_label(wrap=True, selectable=True)
        self.timeline_model = TimelineModel(self)
        self.contexts_model = ContextsModel(self)
        self.resources_model = ResourcesModel(self)
        self.timeline = _table(self.timeline_model, (50, 120, 85, 110, 70, 230))
        self.contexts = _table(self.contexts_model, (130, 80, 80, 110, 110))
        self.resources = _table(self.resources_model, (120, 120, 95, 150, 80))
        self.event_detail = _detail()
        self.context_detail = _detail()
        self.resource_detail = _detail()
        self.image = QLabel()  # a pixmap only, never text
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.image.setMinimumSize(QSize(64, 64))
        self.image.hide()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for name, table, below in (
            (SUB_TIMELINE, self.timeline, [self.event_detail]),
            (SUB_CONTEXTS, self.contexts, [self.context_detail]),
            (SUB_RESOURCES, self.resources, [self.resource_detail, self.image]),
        ):
            split = QSplitter(Qt.Orientation.Vertical)
            split.addWidget(table)
            for widget in below:
                split.addWidget(widget)
            split.setStretchFactor(0, 3)
            self.tabs.addTab(split, name)
        for table, show in (
            (self.timeline, self._show_event),
            (self.contexts, self._show_context),
            (self.resources, self._show_resource),
        ):
            table.selectionModel().selectionChanged.connect(
                lambda selected, _old, show=show: self._selected(selected, show)
            )
            # Enter (or a double click) shows the row's node in the tree. Not every
            # selection: the arrows walk thousands of rows, and expanding the tree to an
            # element deep in a 100,000-element array takes the tree 150-250 ms.
            table.activated.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)

    def set_outline(self, outline: SessionOutline) -> None:
        self.outline = outline
        for model in (self.timeline_model, self.contexts_model, self.resources_model):
            model.set_outline(outline)
        self.summary.setText(words.outline_summary(outline))
        for detail in (self.event_detail, self.context_detail, self.resource_detail):
            detail.clear()
        self.image.clear()
        self.image.hide()
        differs = next(
            (i for i, r in enumerate(outline.resources) if r.integrity is Integrity.DIFFERS), None
        )
        if differs is not None:  # a resource whose bytes differ is what to read first
            self.resources.selectRow(differs)

    def _selected(self, selected: QItemSelection, show: object) -> None:
        rows = {i.row() for i in selected.indexes()}
        if rows and callable(show):
            show(min(rows))

    def _show_event(self, row: int) -> None:
        event = self.outline.events[row]
        self.event_detail.setPlainText(visible_lines(words.event_detail(self.outline, event)))

    def _show_context(self, row: int) -> None:
        self.context_detail.setPlainText(visible_lines(self.contexts_model.tooltip(row)))

    def _show_resource(self, row: int) -> None:
        resource = self.outline.resources[row]
        self.resource_detail.setPlainText(self._preview_text(resource))
        self.image.clear()
        self.image.hide()
        if resource.preview is not None and resource.media_type.startswith("image/"):
            pixmap = bounded_image(resource.preview)
            if pixmap is not None:
                side = min(self.image.width(), self.image.height(), 512)
                self.image.setPixmap(
                    pixmap.scaled(
                        max(side, 64),
                        max(side, 64),
                        Qt.AspectRatioMode.KeepAspectRatio,
                        Qt.TransformationMode.FastTransformation,
                    )
                )
                self.image.show()

    def _activated(self, index: QModelIndex) -> None:
        pointer = index.data(POINTER_ROLE)
        if isinstance(pointer, str):
            self.pointerSelected.emit(pointer)

    @staticmethod
    def _preview_text(resource: ResourceRow) -> str:
        summary = words.resource_summary(resource)
        if resource.preview is None or not resource.media_type.startswith("text/"):
            return visible_lines(summary)
        text = resource.preview.decode("utf-8", errors="replace")
        return visible_lines(f"{summary}\n\n— preview —\n{text}", PREVIEW_CHARS)
