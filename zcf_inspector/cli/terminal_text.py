"""Document text on its way to a terminal: escaped, so it can only ever be read.

A string from a packet (an id, a key in a pointer, a value) or a file name can hold
ESC sequences a terminal would obey, bidi overrides that reorder what the reader sees,
or zero-width characters that hide a difference. Everything printed from a document
goes through `safe` (or `quoted`), which writes those characters as escapes.
"""

from __future__ import annotations

from typing import Final

from zcf_inspector.core.visible_text import clip, visible

ID_CHARS: Final = 120  # of an identity shown on a change's line


def safe(text: str) -> str:
    """``text`` with every control, bidi and invisible character escaped."""
    return visible(text)


def quoted(text: str, limit: int = ID_CHARS) -> str:
    """A short document string in quotes, escaped and cut to ``limit`` characters."""
    return '"' + visible(clip(text, limit)) + '"'
