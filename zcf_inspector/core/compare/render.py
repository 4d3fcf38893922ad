"""A value shown on one line, in bounded time, and the two sides of a field lined up.

`preview` writes JSON (members in code-point order, as canonical bytes have them) and
stops after ``limit`` characters, so a 50 MB value costs no more than a short one;
strings are cut before they are escaped. The text is visible (`json_visible`): no
control or bidi character of the document reaches a terminal or a text view, and no
suspected credential either: every string and member name is masked (`core.secrets.masking`,
the one masking step) before it is cut, so a cut never leaves part of a credential behind —
save the format's own random values (a nonce, a signature, a MAC), shown as they are.

`field_lines` pairs, for each difference of a change, A's and B's text with the
character ranges to highlight — the CLI prints them, the window colours them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from zcf_inspector.core.compare.model import Absent, Change, FieldChange, Side
from zcf_inspector.core.compare.text_spans import Span, changed_spans
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pointer import split
from zcf_inspector.core.secrets.masking import CUT_MARGIN, is_format_own, mask_text
from zcf_inspector.core.visible_text import json_visible, visible

ABSENT_TEXT: Final = "(absent)"
MORE: Final = "…"
_WIDE: Final = 10_000  # members of a huge object shown in source order (no sort)


def preview(value: Side, limit: int, *, masked: bool = True) -> str:
    """``value`` as at most about ``limit`` characters of visible JSON, its suspected
    credentials masked unless ``masked`` is False (a format's own random value)."""
    if isinstance(value, Absent):
        return ABSENT_TEXT
    parts: list[str] = []
    _write(value, parts, [limit], mask_text if masked else _as_is)
    # JSON escapes are one-to-one already (JSON writes a typed backslash as two): only
    # the characters JSON leaves as they are and that hide or reorder text are escaped.
    return json_visible("".join(parts))


def _as_is(text: str) -> str:
    return text


def _write(value: JsonValue, parts: list[str], left: list[int], mask: Callable[[str], str]) -> None:
    if left[0] <= 0:
        return
    if isinstance(value, dict):
        keys = sorted(value) if len(value) <= _WIDE else list(value)
        _put("{", parts, left)
        for n, key in enumerate(keys):
            if left[0] <= 0:
                _put(MORE + "}", parts, left, force=True)
                return
            _put(("," if n else "") + _string(mask(key), left[0]) + ":", parts, left)
            _write(value[key], parts, left, mask)
        _put("}", parts, left, force=True)
    elif isinstance(value, list):
        _put("[", parts, left)
        for n, item in enumerate(value):
            if left[0] <= 0:
                _put(MORE + "]", parts, left, force=True)
                return
            if n:
                _put(",", parts, left)
            _write(item, parts, left, mask)
        _put("]", parts, left, force=True)
    elif isinstance(value, str):
        # Masked before it is cut, a margin past the cut scanned (`masking.masked_clip`).
        head = value[: max(left[0], 0) + CUT_MARGIN]
        _put(_string(mask(head), left[0]) if head is value else _cut(mask(head), left[0]),
             parts, left, force=True)  # fmt: skip
    else:
        _put(json.dumps(value), parts, left, force=True)


def _string(text: str, room: int) -> str:
    if len(text) > room:
        return json.dumps(text[: max(room, 0)], ensure_ascii=False)[:-1] + MORE + '"'
    return json.dumps(text, ensure_ascii=False)


def _cut(text: str, room: int) -> str:
    """A masked head of a longer string: always cut (the string goes on past it)."""
    return json.dumps(text[: max(room, 0)], ensure_ascii=False)[:-1] + MORE + '"'


def _put(text: str, parts: list[str], left: list[int], *, force: bool = False) -> None:
    if left[0] > 0 or force:
        parts.append(text)
        left[0] -= len(text)


@dataclass(frozen=True, slots=True)
class FieldLine:
    """One difference of a change as text: where, A's and B's value, what to highlight."""

    path: str  # relative to the element, "" for the element itself
    a: str
    b: str
    a_spans: tuple[Span, ...]
    b_spans: tuple[Span, ...]
    note: str = ""  # e.g. "moved from 3 to 0"


def shown_as_is(pointer: str, field: FieldChange) -> bool:
    """Whether the field at ``field.path`` of the element at ``pointer`` is one of the
    format's own random values (`is_format_own`), shown unmasked."""
    return is_format_own((*split(pointer), *split(field.path)))


def field_line(field: FieldChange, limit: int, *, masked: bool = True) -> FieldLine:
    """``masked``: False for a format's own value (`shown_as_is`); the path is masked."""
    a, b = preview(field.a, limit, masked=masked), preview(field.b, limit, masked=masked)
    a_spans: tuple[Span, ...]
    b_spans: tuple[Span, ...]
    if isinstance(field.a, Absent) or isinstance(field.b, Absent):
        a_spans = () if isinstance(field.a, Absent) else ((0, len(a)),)
        b_spans = () if isinstance(field.b, Absent) else ((0, len(b)),)
    else:
        a_spans, b_spans = changed_spans(a, b)
    note = "" if field.moved is None else f"moved from {field.moved[0]} to {field.moved[1]}"
    return FieldLine(visible(mask_text(field.path)), a, b, a_spans, b_spans, note)


def field_lines(change: Change, limit: int) -> tuple[FieldLine, ...]:
    return tuple(
        field_line(f, limit, masked=not shown_as_is(change.pointer, f)) for f in change.fields
    )
