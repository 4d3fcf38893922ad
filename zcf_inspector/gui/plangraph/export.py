"""Export of the plan on screen: SVG and PNG of the scene as drawn, DOT of the plan.

SVG and PNG render the scene with its current emphasis (a highlighted closure stays
highlighted). DOT is exactly what `zcf-inspector plan --dot --plan ID` prints, so a
diagram made from the window and one made by a script agree.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QImageWriter, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.continuation.export.to_dot import plan_dot
from zcf_inspector.core.continuation.results import PlanResult
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import shown_path

MAX_PNG_SIDE = 8000  # a 5,000-node plan is shrunk to fit rather than allocating gigabytes
PNG_SCALE = 2.0  # crisp on high-density screens when the plan is small enough


class ExportError(InputError):
    """The image could not be written (the message says where and why)."""

    code = "export_failed"


def _render(scene: QGraphicsScene, painter: QPainter, target: QRectF) -> None:
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, target, scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)


def export_svg(scene: QGraphicsScene, path: Path, title: str) -> None:
    rect = scene.sceneRect()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(int(rect.width()), int(rect.height())))
    generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    generator.setTitle(title)
    generator.setDescription("Prerequisite graph drawn by zcf-inspector")
    painter = QPainter()
    if not painter.begin(generator):
        raise ExportError(f"cannot draw the plan as SVG for {shown_path(path)}")
    _render(scene, painter, QRectF(0, 0, rect.width(), rect.height()))
    painter.end()
    buffer.close()
    _write(path, bytes(buffer.data().data()), "SVG")


def export_png(scene: QGraphicsScene, path: Path) -> None:
    rect = scene.sceneRect()
    scale = min(PNG_SCALE, MAX_PNG_SIDE / max(rect.width(), rect.height(), 1.0))
    size = QSize(max(1, round(rect.width() * scale)), max(1, round(rect.height() * scale)))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    painter = QPainter(image)
    _render(scene, painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QImageWriter(buffer, QByteArray(b"png"))
    if not writer.write(image):
        raise ExportError(f"cannot encode the plan as PNG: {writer.errorString()}")
    buffer.close()
    _write(path, bytes(buffer.data().data()), "PNG")


def export_dot(plan: PlanResult, path: Path) -> None:
    _write(path, plan_dot(plan).encode("utf-8"), "DOT")


def _write(path: Path, data: bytes, what: str) -> None:
    """Atomically, like every file the program writes: a kill never leaves half an image.
    The save dialog has already asked before replacing a file."""
    try:
        write_atomic(path, data, overwrite=True)
    except InputError as exc:
        raise ExportError(f"cannot write {what}: {exc}") from exc
