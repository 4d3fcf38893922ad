"""The plan graph's colours for a widget's palette: the light set on a light palette, a
dark set built from the palette's own base and text colours on a dark one."""

from __future__ import annotations

from PySide6.QtGui import QPalette

from zcf_inspector.gui.plangraph.style import LIGHT_COLOURS, GraphColours, dark_colours
from zcf_inspector.gui.theme import is_dark


def colours_for(palette: QPalette) -> GraphColours:
    if not is_dark(palette):
        return LIGHT_COLOURS
    role = QPalette.ColorRole
    return dark_colours(
        palette.color(role.Base).name(),
        palette.color(role.Text).name(),
        palette.color(role.PlaceholderText).name(),
    )
