"""Layout step 6: place the laid-out connected components side by side in rows.

A plan's graph is often many small islands (a feature, a model, a configuration with
no edges); stacking them in one column would make a tall, empty picture, so they are
packed onto shelves about as wide as the largest component or the square root of the
total area, whichever is more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

_ASPECT = 1.6  # a landscape picture fits a pane better than a square one


def shelf_pack(sizes: Sequence[tuple[float, float]], gap: float) -> list[tuple[float, float]]:
    """Top-left corner of each (width, height) box, in the given order, row by row."""
    if not sizes:
        return []
    area = sum((w + gap) * (h + gap) for w, h in sizes)
    row_limit = max(*(w for w, _ in sizes), math.sqrt(area * _ASPECT))
    corners: list[tuple[float, float]] = []
    x = y = row_height = 0.0
    for width, height in sizes:
        if x > 0 and x + width > row_limit:
            y += row_height + gap
            x = row_height = 0.0
        corners.append((x, y))
        x += width + gap
        row_height = max(row_height, height)
    return corners
