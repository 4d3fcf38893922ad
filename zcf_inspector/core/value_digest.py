"""The canonical digest of one value, and whether it is cheap enough to take right now.

The window shows every element of a covered section with its own digest, so that two
copies of a packet can be matched by eye. A belief's digest takes microseconds; a
hostile element of 50 MB does not, and the window hands such elements to a worker:
`is_small` decides which is which without walking more than ``budget`` of a value.
"""

from __future__ import annotations

from typing import Final

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.jsontypes import JsonValue

SMALL_BUDGET: Final = 16_384  # values plus string characters visited at most


def value_digest(value: JsonValue) -> str | None:
    """``sha256:`` of ``value``'s canonical bytes; None for a value §1 could not produce."""
    try:
        return sha256_digest(canonical(value))
    except ValueError:
        return None


def is_small(value: JsonValue, budget: int = SMALL_BUDGET) -> bool:
    """Whether ``value`` holds fewer than ``budget`` values and string characters
    together (so its digest takes well under a millisecond); stops as soon as it does not."""
    left = budget
    stack: list[JsonValue] = [value]
    while stack:
        item = stack.pop()
        left -= 1
        if isinstance(item, str):
            left -= len(item)
        elif isinstance(item, dict | list):
            if len(item) > left:  # decided before a huge container's members are visited
                return False
            if isinstance(item, dict):
                left -= sum(len(key) for key in item)
                stack.extend(item.values())
            else:
                stack.extend(item)
        if left < 0:
            return False
    return True
