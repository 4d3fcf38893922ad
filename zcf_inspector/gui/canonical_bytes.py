"""The canonical form of one node: bytes, digest, and how to show them (worker side)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from zcf_inspector.core.canonical import canonical_chunked, canonical_exact
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.errors import FormatError
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.visible_text import json_visible

TEXT_SHOWN: Final = 64 * 1024  # characters of canonical text put in the text view (layout cost)
HEX_SHOWN: Final = 16 * 1024  # bytes put in the hex view


@dataclass(frozen=True, slots=True)
class CanonicalForm:
    pointer: str
    data: bytes
    digest: str
    # What the views show, made on the worker too (a 16 KiB hex dump is 30 ms of Python).
    shown_text: str = ""
    shown_hex: str = ""

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


def canonical_form(pointer: str, value: JsonValue, monitor: Monitor) -> CanonicalForm:
    monitor.step("canonicalizing", 0.0)
    try:
        data = canonical_chunked(value, between=monitor.breathe)
    except FormatError:
        # A continuation document's exact numbers (an int beyond ±2^53, a Decimal): the
        # exact extension, never a rounded double.
        data = canonical_exact(value)
    monitor.step("hashing", 0.7)
    digest = sha256_digest(data)
    monitor.breathe()
    # Shown by the one text rule for JSON: a line separator or a bidi override inside a
    # string is written as its \u escape (the same JSON value); the hex view and Copy
    # canonical JSON keep the exact bytes.
    shown = json_visible(data[:TEXT_SHOWN].decode("utf-8", errors="replace"))
    return CanonicalForm(pointer, data, digest, shown, hex_dump(data))


def value_text(value: JsonValue) -> str:
    """What "Copy value" puts on the clipboard: a string as itself, anything else as JSON."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2)
    except TypeError:
        # A Decimal (exact numbers of a continuation document), which json cannot write
        # without rounding: its exact canonical text instead.
        return canonical_exact(value).decode("utf-8")


def hex_dump(data: bytes, limit: int = HEX_SHOWN, base: int = 0) -> str:
    """16 bytes a line: offset (from ``base``), hex, and ASCII with dots for the rest."""
    lines = []
    for start in range(0, min(len(data), limit), 16):
        chunk = data[start : start + 16]
        hexpart = " ".join(f"{b:02x}" for b in chunk)
        text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)
        lines.append(f"{base + start:08x}  {hexpart:<47}  {text}")
    if len(data) > limit:
        lines.append(
            f"… {len(data) - limit:,} more bytes (copy the canonical JSON to get them all)"
        )
    return "\n".join(lines)
