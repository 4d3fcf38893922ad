"""How each subject type and state looks: shape, colours, a text badge and status glyphs.

Every distinction has a non-colour carrier too: the type has a shape and a badge, the
required flag a bold border, selection a double border, a missing subject a dashed
ghost, a cycle a dash-dot red edge and a ↻ mark, a status a glyph and a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Shape(StrEnum):
    ROUNDED = "rounded"  # dependency
    FOLDER = "folder"  # workspace
    HEXAGON = "hexagon"  # service
    PARALLELOGRAM = "parallelogram"  # operation
    OCTAGON = "octagon"  # native import
    STADIUM = "stadium"  # context, model, plan
    DOCUMENT = "document"  # resource
    TAG = "tag"  # requirements
    RECT = "rect"  # everything else


@dataclass(frozen=True, slots=True)
class TypeStyle:
    label: str  # what the legend calls it
    badge: str  # short text drawn in the node, so the type never rests on colour
    shape: Shape
    fill: str
    border: str


_FALLBACK = TypeStyle("other", "•", Shape.RECT, "#eceff1", "#546e7a")

TYPE_STYLES: dict[str, TypeStyle] = {
    "plan": TypeStyle("plan", "PLAN", Shape.STADIUM, "#fff3c4", "#8d6e00"),
    "dependency": TypeStyle("dependency", "DEP", Shape.ROUNDED, "#dcecff", "#1f5fa8"),
    "workspace": TypeStyle("workspace", "WS", Shape.FOLDER, "#e3f4dc", "#3b7a2a"),
    "service": TypeStyle("service", "SVC", Shape.HEXAGON, "#f1e2fb", "#7b3fa0"),
    "operation": TypeStyle("operation", "OP", Shape.PARALLELOGRAM, "#ffe5d0", "#b2541a"),
    "native_import": TypeStyle("native import", "NAT", Shape.OCTAGON, "#dff4f4", "#1d7c7c"),
    "context": TypeStyle("context", "CTX", Shape.STADIUM, "#e8eaf6", "#3949ab"),
    "model": TypeStyle("model", "MDL", Shape.STADIUM, "#fce4ec", "#ad1457"),
    "resource": TypeStyle("resource", "RES", Shape.DOCUMENT, "#f5f5f5", "#616161"),
    "environment": TypeStyle("environment", "ENV", Shape.RECT, "#e0f2e9", "#2e7d5b"),
    "checkpoint_requirement": TypeStyle("requirement", "REQ", Shape.TAG, "#fff8e1", "#a66b00"),
    "environment_requirement": TypeStyle(
        "environment requirement", "EREQ", Shape.TAG, "#fff8e1", "#a66b00"
    ),
    "configuration": TypeStyle("configuration", "CFG", Shape.RECT, "#ede7f6", "#5e35b1"),
    "instruction": TypeStyle("instruction", "INS", Shape.RECT, "#f3f0e8", "#6d5d3a"),
    "capability": TypeStyle("capability", "CAP", Shape.RECT, "#e1f5fe", "#0277bd"),
    "policy": TypeStyle("policy", "POL", Shape.RECT, "#efebe9", "#5d4037"),
    "feature": TypeStyle("feature", "FEAT", Shape.RECT, "#f9fbe7", "#827717"),
}


def type_style(node_type: str) -> TypeStyle:
    return TYPE_STYLES.get(node_type, _FALLBACK)


@dataclass(frozen=True, slots=True)
class StatusStyle:
    glyph: str
    colour: str


# Destination-report assessment statuses (§11), each with a glyph as well as a colour.
STATUS_STYLES: dict[str, StatusStyle] = {
    "supported": StatusStyle("✔", "#2e7d32"),
    "adapted": StatusStyle("≈", "#1565c0"),
    "omitted": StatusStyle("∅", "#6d4c41"),
    "unresolved": StatusStyle("?", "#e65100"),
    "unsupported": StatusStyle("✖", "#c62828"),
}
UNKNOWN_STATUS = StatusStyle("·", "#757575")


def status_style(status: str) -> StatusStyle:
    return STATUS_STYLES.get(status, UNKNOWN_STATUS)


EDGE_COLOUR = "#78909c"
CYCLE_COLOUR = "#d32f2f"
BLOCKING_COLOUR = "#c62828"
BLOCKING_GLOW = "#ffcdd2"
KNOWN_BLOCKER_COLOUR = "#8e0000"  # the badge of a known blocker (white ! on dark red)
KNOWN_BLOCKER_MARK = "⊘"
HIGHLIGHT_COLOUR = "#ff8f00"
PATH_COLOUR = "#00897b"
GHOST_FILL = "#fafafa"
GHOST_BORDER = "#9e9e9e"
TEXT_COLOUR = "#212121"
MUTED_TEXT = "#616161"
BACKGROUND = "#fbfbfd"
DIMMED_OPACITY = 0.3  # the rest of the plan while a path or closure is lit: faint, still legible


# --- the colours in force: light (the values above) or dark (derived from the palette) ---


def mix(a: str, b: str, share_of_b: float) -> str:
    """``#rrggbb`` between ``a`` and ``b``: 0 is ``a``, 1 is ``b``."""
    first = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    second = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(
        f"{round(x + (y - x) * share_of_b):02x}" for x, y in zip(first, second, strict=True)
    )


@dataclass(frozen=True, slots=True)
class GraphColours:
    """Every colour the canvas, its nodes, edges and legend paint with. Shapes, badges,
    dashes and glyphs carry the same distinctions, so no state rests on colour alone."""

    dark: bool
    background: str
    text: str
    muted: str
    outline: str  # neutral borders (the legend's state swatches, a double border)
    swatch_fill: str
    edge: str
    cycle: str
    blocking: str
    blocking_glow: str
    highlight: str
    path: str
    ghost_fill: str
    ghost_border: str

    @property
    def selection(self) -> str:
        """Selection edges (inventoried, not needed): the edge colour, lighter."""
        return mix(self.edge, self.background, 0.3)

    def optional_fill(self, kind: TypeStyle) -> str:
        """An optional subject's fill: its type's, paler, so required ones stand out."""
        return mix(self.fill(kind), self.background, 0.6)

    def fill(self, kind: TypeStyle) -> str:
        return mix(kind.border, self.background, 0.72) if self.dark else kind.fill

    def border(self, kind: TypeStyle) -> str:
        return mix(kind.border, "#ffffff", 0.4) if self.dark else kind.border

    def status(self, status: str | None) -> str:
        if status is None:
            return self.muted
        colour = status_style(status).colour
        return mix(colour, "#ffffff", 0.4) if self.dark else colour


LIGHT_COLOURS = GraphColours(
    dark=False,
    background=BACKGROUND,
    text=TEXT_COLOUR,
    muted=MUTED_TEXT,
    outline="#455a64",
    swatch_fill="#ffffff",
    edge=EDGE_COLOUR,
    cycle=CYCLE_COLOUR,
    blocking=BLOCKING_COLOUR,
    blocking_glow=BLOCKING_GLOW,
    highlight=HIGHLIGHT_COLOUR,
    path=PATH_COLOUR,
    ghost_fill=GHOST_FILL,
    ghost_border=GHOST_BORDER,
)


def dark_colours(base: str, text: str, muted: str) -> GraphColours:
    """The canvas on a dark palette: its base and text colours, and lighter marks."""
    return GraphColours(
        dark=True,
        background=base,
        text=text,
        muted=muted,
        outline=mix(base, text, 0.6),
        swatch_fill=mix(base, text, 0.12),
        edge=mix(EDGE_COLOUR, text, 0.3),
        cycle="#ff6e6e",
        blocking="#ff6e6e",
        blocking_glow=mix(BLOCKING_COLOUR, base, 0.55),
        highlight="#ffb74d",
        path="#4fd1c5",
        ghost_fill=mix(base, text, 0.06),
        ghost_border=mix(base, text, 0.45),
    )
