"""Icons from ``zcf_inspector/resources/icons`` (SVG), loaded once per name."""

from __future__ import annotations

import tempfile
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

_SIZES = (16, 20, 24, 32, 48, 64, 128)


class IconName(StrEnum):
    APP = "app"
    PASS = "pass"
    FAIL = "fail"
    NOT_CHECKABLE = "not_checkable"
    NOT_RUN = "not_run"
    WARNING = "warning"
    INFO = "info"
    UNPROTECTED = "unprotected"


# The app icon is the one the desktop entry and the bundle use; the rest are UI icons.
_PATHS = {IconName.APP: "app/zcf-inspector.svg"}


def icon_path(name: IconName) -> str:
    """The icon's path inside ``zcf_inspector.resources``."""
    return _PATHS.get(name, f"icons/{name}.svg")


def svg_bytes(name: IconName) -> bytes:
    return resources.files("zcf_inspector.resources").joinpath(icon_path(name)).read_bytes()


@cache
def icon(name: IconName) -> QIcon:
    renderer = QSvgRenderer(QByteArray(svg_bytes(name)))
    result = QIcon()
    for size in _SIZES:
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        renderer.render(painter)
        painter.end()
        result.addPixmap(pixmap)
    return result


def example_packet_path() -> Path:
    """The bundled example (a copy of ``goldens/publication/full-handoff.json``) on disk.

    An installed package holds it as a file; from a zip, it is copied to a temp file once.
    """
    example = resources.files("zcf_inspector.resources").joinpath("examples/full-handoff.json")
    if isinstance(example, Path):
        return example
    target = Path(tempfile.gettempdir()) / "zcf-inspector-example-full-handoff.json"
    target.write_bytes(example.read_bytes())
    return target
