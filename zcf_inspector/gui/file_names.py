"""Names the window proposes for files it writes: safe, and never a file already there.

A proposal that already exists would be one Enter away from replacing it; every export
proposes a free name, and still asks before replacing a file the user picks.
"""

from __future__ import annotations

import re
from pathlib import Path

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
NAME_PART_CHARS = 80


def safe_part(text: str) -> str:
    """``text`` (an id from a document) as part of a file name: no separators, no
    leading dots, at most 80 characters; "" when nothing usable is left."""
    return _UNSAFE.sub("_", text)[:NAME_PART_CHARS].strip("._")


def free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``stem + suffix`` in ``folder``, or ``stem-2 + suffix``, ``stem-3``…: a name no file
    (nor dangling link) has yet."""
    candidate = folder / f"{stem}{suffix}"
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = folder / f"{stem}-{number}{suffix}"
        number += 1
    return candidate
