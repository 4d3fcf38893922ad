"""Render the app icon's PNG sizes from its SVG: `python packaging/render_icons.py [--check]`.

The SVG is the source; the PNGs exist because some desktops and icon themes look for
fixed-size bitmaps (hicolor 48x48 is the one the freedesktop icon spec requires). They are
committed so neither the wheel nor the bundle needs Qt at build time, and `--check` (run by
tests/test_packaging.py) fails when the SVG changed without re-rendering them. The check
compares pixels, not file bytes, so a different zlib or Qt PNG writer does not trip it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

APP_DIR = Path(__file__).resolve().parents[1] / "zcf_inspector" / "resources" / "app"
SVG = APP_DIR / "zcf-inspector.svg"
SIZES = (48, 128, 256)

# The QGuiApplication made here, held so it is not collected while renders run.
_KEEP_ALIVE: list[object] = []


def png_path(size: int) -> Path:
    return APP_DIR / f"zcf-inspector-{size}.png"


def _ensure_gui_application() -> None:
    # QPainter on a QImage wants a QGuiApplication for its font and paint-engine setup;
    # offscreen keeps this working on a machine (or CI job) without a display.
    from PySide6.QtGui import QGuiApplication  # noqa: PLC0415 - Qt only when rendering

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _KEEP_ALIVE.append(QGuiApplication([]))


def render(size: int) -> bytes:
    """The icon at ``size`` x ``size`` as straight (non-premultiplied) RGBA bytes."""
    from PySide6.QtCore import QRectF, Qt  # noqa: PLC0415
    from PySide6.QtGui import QImage, QPainter  # noqa: PLC0415
    from PySide6.QtSvg import QSvgRenderer  # noqa: PLC0415

    _ensure_gui_application()
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: {SVG} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return _rgba(image)


def _rgba(image: QImage) -> bytes:
    from PySide6.QtGui import QImage  # noqa: PLC0415

    converted = image.convertToFormat(QImage.Format.Format_RGBA8888)
    return bytes(converted.constBits())[: converted.sizeInBytes()]


def read_png(path: Path) -> tuple[int, int, bytes]:
    """Width, height and straight RGBA bytes of a PNG on disk."""
    from PySide6.QtGui import QImage  # noqa: PLC0415

    image = QImage(str(path))
    if image.isNull():
        raise SystemExit(f"render_icons: {path} is missing or not a PNG")
    return image.width(), image.height(), _rgba(image)


def stale_pngs() -> list[str]:
    """One line per PNG that does not match a fresh render of the SVG (empty: all match)."""
    problems = []
    for size in SIZES:
        path = png_path(size)
        if not path.is_file():
            problems.append(f"{path.name}: missing")
            continue
        width, height, pixels = read_png(path)
        if (width, height) != (size, size):
            problems.append(f"{path.name}: {width}x{height}, expected {size}x{size}")
        elif _differs(pixels, render(size)):
            problems.append(f"{path.name}: differs from a render of {SVG.name}")
    return problems


def _differs(left: bytes, right: bytes) -> bool:
    # One unit per channel of slack: antialiasing may round differently across Qt builds.
    return len(left) != len(right) or any(abs(a - b) > 1 for a, b in zip(left, right, strict=True))


def write_pngs() -> None:
    from PySide6.QtGui import QImage  # noqa: PLC0415

    for size in SIZES:
        image = QImage(render(size), size, size, QImage.Format.Format_RGBA8888)
        # Qt writes no timestamp chunk, so the same render gives the same bytes.
        if not image.save(str(png_path(size)), b"PNG"):
            raise SystemExit(f"render_icons: could not write {png_path(size)}")
        print(f"wrote {png_path(size)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if a PNG is out of date")
    args = parser.parse_args(argv)
    if not args.check:
        write_pngs()
        return 0
    problems = stale_pngs()
    for problem in problems:
        print(f"render_icons: {problem}", file=sys.stderr)
    if problems:
        print("render_icons: re-render with: python packaging/render_icons.py", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
