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
DIMMED_OPACITY = 0.16
