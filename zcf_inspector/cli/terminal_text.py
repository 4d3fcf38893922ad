"""Document text on its way to a terminal: escaped, so it can only ever be read, and cut.

A string from a packet (an id, a key in a pointer, a value) or a file name can hold
ESC sequences a terminal would obey, bidi overrides that reorder what the reader sees,
or zero-width characters that hide a difference, and it can be megabytes long.
Everything the CLI prints from a document goes through the core's one rule
(`core.visible_text`, the window's rule too): `visible` escapes, `shown` cuts a long text
(saying how long it was) and escapes; `quoted` is `shown` in quotes, with the limits of
this module. JSON output stays exact JSON: `json_text` writes the same characters as JSON
escapes.
"""

from __future__ import annotations

import json
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.visible_text import json_visible, shown

ID_CHARS: Final = 120  # of an identity shown quoted on a change's line
FIELD_CHARS: Final = 200  # of an id, a key or a name on a line
POINTER_CHARS: Final = 200
MESSAGE_CHARS: Final = 2000  # of a finding's message or an error's words


def quoted(text: str, limit: int = ID_CHARS) -> str:
    """A short document string in quotes, escaped and cut to ``limit`` characters."""
    return '"' + shown(text, limit) + '"'


def json_text(value: JsonValue) -> str:
    """JSON for people and scripts alike: 2-space indent, UTF-8, hidden characters escaped."""
    return json_visible(json.dumps(value, ensure_ascii=False, indent=2))
