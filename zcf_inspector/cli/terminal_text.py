"""Document text on its way to a terminal: masked, escaped, so it can only ever be read, and cut.

A string from a packet (an id, a key in a pointer, a value) or a file name can hold
ESC sequences a terminal would obey, bidi overrides that reorder what the reader sees,
or zero-width characters that hide a difference, and it can be megabytes long.
Everything the CLI prints from a document goes through the core's one rule
(`core.visible_text`, the window's rule too), after the one masking step of every front
end (`core.secrets.masking`): `masked_visible` masks and escapes, `masked_shown` masks,
cuts a long text (saying how long it was) and escapes, so a cut never leaves part of a
credential; `quoted` is `masked_shown` in quotes, with the limits of this module. JSON
output stays exact JSON: `json_text` writes the same characters as JSON escapes, and
`masked_json` masks every string and member name of a JSON output (key files and
receipts, which are the documents themselves, are written as they are).
"""

from __future__ import annotations

import json
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import is_format_own, mask_json, masked_shown
from zcf_inspector.core.visible_text import json_visible

ID_CHARS: Final = 120  # of an identity shown quoted on a change's line
FIELD_CHARS: Final = 200  # of an id, a key or a name on a line
POINTER_CHARS: Final = 200
MESSAGE_CHARS: Final = 2000  # of a finding's message or an error's words


def quoted(text: str, limit: int = ID_CHARS) -> str:
    """A short document string in quotes, masked, escaped and cut to ``limit`` characters."""
    return '"' + masked_shown(text, limit) + '"'


def masked_json(value: JsonValue) -> JsonValue:
    """``value`` as a report prints it: every string and member name masked, save the
    format's own random values (`is_format_own`: nonces, signatures, MACs)."""
    return mask_json(value, keep=is_format_own)


def json_text(value: JsonValue) -> str:
    """JSON for people and scripts alike: 2-space indent, UTF-8, hidden characters escaped."""
    return json_visible(json.dumps(value, ensure_ascii=False, indent=2))
