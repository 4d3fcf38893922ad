"""Document text on its way to a terminal: escaped, so it can only ever be read, and cut.

A string from a packet (an id, a key in a pointer, a value) or a file name can hold
ESC sequences a terminal would obey, bidi overrides that reorder what the reader sees,
or zero-width characters that hide a difference, and it can be megabytes long.
Everything the CLI prints from a document goes through `safe`, `field` or `quoted`,
which write those characters as escapes (`core.visible_text`, the window's rule too);
`field` and `quoted` also cut a long text, saying how long it was. JSON output stays
exact JSON: `json_text` writes the same characters as JSON escapes.

And no suspected credential reaches the terminal: `safe`, `field` and `quoted` mask the
text first (`core.secrets.masking`, the one masking step of every front end), before it
is cut, so a cut never leaves part of a credential; `masked_json` does the same for every
string and member name of a JSON output (key files and receipts, which are the documents
themselves, are written as they are).
"""

from __future__ import annotations

import json
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import is_format_own, mask_json, mask_text, masked_clip
from zcf_inspector.core.visible_text import json_visible, visible

ID_CHARS: Final = 120  # of an identity shown quoted on a change's line
FIELD_CHARS: Final = 200  # of an id, a key or a name on a line
POINTER_CHARS: Final = 200
MESSAGE_CHARS: Final = 2000  # of a finding's message or an error's words


def safe(text: str) -> str:
    """``text`` with every control, bidi and invisible character escaped (not cut: for
    text already bounded, or made by the program around a few document strings)."""
    return visible(mask_text(text))


def field(text: str, limit: int = FIELD_CHARS) -> str:
    """A text from an input (an id, a pointer, a key, a message) as a line may show it:
    cut to ``limit`` characters, then escaped."""
    return visible(masked_clip(text, limit))


def quoted(text: str, limit: int = ID_CHARS) -> str:
    """A short document string in quotes, escaped and cut to ``limit`` characters."""
    return '"' + field(text, limit) + '"'


def json_safe(text: str) -> str:
    """JSON text with every character a terminal could act on written as a ``\\u``
    escape: the same JSON value, safe to print."""
    return json_visible(text)


def masked_json(value: JsonValue) -> JsonValue:
    """``value`` as a report prints it: every string and member name masked, save the
    format's own random values (`is_format_own`: nonces, signatures, MACs)."""
    return mask_json(value, keep=is_format_own)


def json_text(value: JsonValue) -> str:
    """JSON for people and scripts alike: 2-space indent, UTF-8, hidden characters escaped."""
    return json_safe(json.dumps(value, ensure_ascii=False, indent=2))
