"""What a layout gives: boxes, routes and the whole picture as plain frozen data, the
spacing it is laid out with and the default box of a node whose text is not measured."""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.present.layout.routes import Point

Size = tuple[float, float]

# Default box size when the caller measures no text: about 7 px per character.
_CHAR_WIDTH = 7.0
_MIN_WIDTH = 90.0
_MAX_WIDTH = 320.0
_DEFAULT_HEIGHT = 44.0


@dataclass(frozen=True, slots=True)
class Spacing:
    layer_gap: float = 72.0  # between layer columns: room for edges to bend
    node_gap: float = 18.0  # between two nodes of one layer
    dummy_gap: float = 8.0  # next to an edge passing through a layer
    component_gap: float = 48.0


DEFAULT_SPACING = Spacing()  # a general graph's

# A plan's picture: tighter than a general graph's (its edges run as buses and short arcs),
# so that a public example reads at Fit in a 1400x900 window.
PLAN_SPACING = Spacing(layer_gap=48.0, node_gap=12.0)


@dataclass(frozen=True, slots=True)
class NodeBox:
    id: str
    x: float  # top-left corner
    y: float
    width: float
    height: float
    layer: int  # column within its component (0 = leftmost; a plan's: distance from it)
    component: int  # index of its connected component in packing order

    @property
    def centre(self) -> Point:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True, slots=True)
class EdgeRoute:
    index: int  # position of the edge in the input
    source: str
    target: str
    points: tuple[Point, ...]  # from the source's border to the target's border
    reversed: bool  # laid out against its direction (a cycle, or to a nearer subject)
    self_loop: bool
    flat: bool = False  # both ends in one column: drawn as an arc beside it
    # The part the base picture draws when the edge shares a bus trunk with its siblings
    # (empty: all of ``points``); a highlight draws all of ``points``.
    drawn: tuple[Point, ...] = ()


@dataclass(frozen=True, slots=True)
class GraphLayout:
    nodes: tuple[NodeBox, ...]  # sorted by ID
    edges: tuple[EdgeRoute, ...]  # in input order
    width: float
    height: float
    crossings: int  # edge crossings between adjacent layers, summed over components


def default_size(node_id: str) -> Size:
    width = min(_MAX_WIDTH, max(_MIN_WIDTH, _CHAR_WIDTH * len(node_id) + 24))
    return (width, _DEFAULT_HEIGHT)
