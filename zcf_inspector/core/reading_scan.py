r"""String-aware passes over the raw bytes of a JSON text, for the strict reader
(`core.reading`): the nesting check, which runs before any parser sees the text, and the
count of object members the fast path compares with what it parsed.

The depth check must run before the recursive C parser sees the text, and it must not
loop over 50 MB in Python. It works on chunks of the raw bytes with C-level operations
(translate, replace, split, accumulate) and decides which brackets are outside strings:

- every byte is deleted except quotes, brackets, backslashes and the bytes that may
  follow a backslash in JSON (``"\\/bfnrtu``, the letters mapped to one stand-in), so
  each escape keeps its second byte and an odd backslash run never merges with another;
- "\\" pairs are dropped (left to right), then '\"' pairs: the quotes left delimit
  strings, and adjacent quote pairs ('""') are dropped as they change no bracket's side.

On any valid JSON prefix this is exactly the JSON view, so the parser never nests deeper
than this check allows. A bracket's side depends only on the bytes before it, which
makes chunking (at boundaries no escape straddles) and bisection exact.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Final

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.read_error import ReadError

MAX_DEPTH: Final = 128

# A surrogate escape (``\ud800``...): the fast path steps aside for any, and the exact
# reader looks for lone ones only where one is.
SURROGATE_ESCAPE_HINT: Final = re.compile(rb"\\u[dD][89a-fA-F]")

_DEPTH_CHUNK: Final = 1 << 20
# The ':' is kept too, for the fast path's count of members (see members_written).
_ESCAPE_BYTES: Final = b'\\"[]{}:/bfnrtu'
_DROP_FOR_ESCAPES: Final = bytes(b for b in range(256) if b not in _ESCAPE_BYTES)
_ESCAPE_LETTERS: Final = bytes.maketrans(b"/bfnrtu", b"aaaaaaa")
_KEEP_STRUCTURE: Final = bytes(b for b in range(256) if b not in b'"[]{}')  # delete set
_KEEP_COLONS: Final = bytes(b for b in range(256) if b not in b'":')  # delete set
# Opening brackets become +1 and closing ones -1 once the bytes are read as signed chars.
_BRACKET_STEP: Final = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_BACKSLASH_RUN: Final = re.compile(rb"\\*")


def check_depth(data: bytes, monitor: Monitor = NULL_MONITOR) -> None:
    depth = 0
    in_string = False
    start = 0
    while start < len(data):
        monitor.breathe()
        end = _chunk_end(data, start + _DEPTH_CHUNK)
        chunk = data[start:end]
        deepest, after, in_string_after = _chunk_depth(chunk, depth, in_string)
        if deepest > MAX_DEPTH:
            offset = start + _first_too_deep(chunk, depth, in_string)
            raise ReadError(
                ErrorCode.NESTING_TOO_DEEP,
                f"nesting deeper than {MAX_DEPTH} arrays/objects at byte {offset}",
                offset=offset,
            )
        depth, in_string, start = after, in_string_after, end


def _chunk_end(data: bytes, end: int) -> int:
    """Move a chunk boundary so that no backslash escape straddles it."""
    if end >= len(data):
        return len(data)
    if data[end - 1] == 0x5C:  # a backslash: end after the byte that its run escapes
        run = _BACKSLASH_RUN.match(data, end)
        assert run is not None
        return min(run.end() + 1, len(data))
    return end


def _outside_strings(chunk: bytes, in_string: bool, delete: bytes) -> tuple[bytes, bool]:
    """The bytes of ``chunk`` that ``delete`` spares and that lie outside string literals,
    in order; and whether a string is open at the end (``in_string``: at the start)."""
    # One-byte search first: memchr is far faster than a two-byte search on 1 MiB.
    if b"\\" in chunk and b'\\"' in chunk:  # otherwise no quote can be escaped
        chunk = chunk.translate(_ESCAPE_LETTERS, _DROP_FOR_ESCAPES)
        if b"\\\\" in chunk:
            chunk = chunk.replace(b"\\\\", b"")
        chunk = chunk.replace(b'\\"', b"")
    # Dropping two adjacent quotes changes no byte's side, and removes most strings.
    marks = chunk.translate(None, delete).replace(b'""', b"")
    if b'"' in marks:
        parts = marks.split(b'"')
        in_string_after = in_string != (len(parts) % 2 == 0)
        return b"".join(parts[1::2] if in_string else parts[::2]), in_string_after
    return (b"" if in_string else marks), in_string


def _chunk_depth(chunk: bytes, depth: int, in_string: bool) -> tuple[int, int, bool]:
    """(deepest level reached, level at the end, inside a string at the end)."""
    marks, in_string_after = _outside_strings(chunk, in_string, _KEEP_STRUCTURE)
    steps = memoryview(marks.translate(_BRACKET_STEP)).cast("b")
    if not steps:
        return depth, depth, in_string_after
    levels = list(accumulate(steps, initial=depth))
    return max(levels), levels[-1], in_string_after


def _first_too_deep(chunk: bytes, depth: int, in_string: bool) -> int:
    """Bisect for the shortest prefix of ``chunk`` that goes too deep; its last byte."""
    low, high = 0, len(chunk)  # chunk[:low] stays within the limit, chunk[:high] does not
    while high - low > 1:
        middle = (low + high) // 2
        if _chunk_depth(chunk[:middle], depth, in_string)[0] > MAX_DEPTH:
            high = middle
        else:
            low = middle
    return high - 1


def members_written(data: bytes) -> int:
    """How many object members well-formed JSON ``data`` writes: its ':' outside strings."""
    count = 0
    in_string = False
    start = 0
    while start < len(data):
        end = _chunk_end(data, start + _DEPTH_CHUNK)
        marks, in_string = _outside_strings(data[start:end], in_string, _KEEP_COLONS)
        count += marks.count(b":")
        start = end
    return count
