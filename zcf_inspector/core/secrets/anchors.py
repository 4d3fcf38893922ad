"""Where a credential may be, found with the standard library: the anchors the scan's
checks (`verify`) start from, each a pure function of the bytes at and around it.

The scan reads a chunk of texts as one byte string, each text after a NUL (`SEPARATOR`),
and one more NUL at the end; no pattern matches a NUL, so nothing found crosses a text.
An anchor of each family:

- ``headers``: where a private-key header begins (``-----BEGIN … PRIVATE KEY-----``, a
  PuTTY key file's first line);
- ``urls``: where ``://`` is (a ``user:password@`` may follow);
- ``assignments``: a ``:`` or ``=`` (a credential name may stand before it, a value after);
- ``tokens``: where a token detector's literal begins (``ghp_``, ``AKIA``, ``eyJ``…), not
  glued to a letter or digit before it;
- ``pieces``: a maximal run of at least `ENTROPY_MIN_LENGTH` piece bytes (token bytes but
  ``.`` and ``=``), which may read as a random key.

`find_anchors` lists every anchor that begins inside the given windows of a chunk: the
whole chunk for the standard-library scan, the engine's candidate windows for the engine's
(`engine`), so both run the same checks on the same anchors wherever a credential can be.
Each search is C-level and each window is read once per family: linear in the window.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from zcf_inspector.core.secrets import detectors as d

SEPARATOR: Final = b"\x00"  # before each text of a chunk and after the last

# Piece bytes: token bytes that do not split a token run into entropy pieces.
PIECE_BYTES: Final = bytes(b for b in d.TOKEN_BYTES if b not in b".=")
_PIECE_SET: Final = frozenset(PIECE_BYTES)
_TOKEN_SET: Final = frozenset(d.TOKEN_BYTES)
# bytes.translate tables: a byte of the class becomes "a", any other a space, so that the
# runs of a class are found by a literal search of "a" * n (C's substring search: far
# faster over a chunk than a regular expression's class tried at every byte).
_PIECE_TABLE: Final = bytes((0x61 if i in _PIECE_SET else 0x20) for i in range(256))
_TOKEN_TABLE: Final = bytes((0x61 if i in _TOKEN_SET else 0x20) for i in range(256))
_PIECE_RUNS: Final = re.compile(b"a" * d.ENTROPY_MIN_LENGTH + b"a*")
_PIECE_REST: Final = re.compile(b"[" + re.escape(PIECE_BYTES) + b"]*")
TOKEN_SHORTEST: Final = 11  # the shortest token run a detector can match in (eyJ + 8)
_TOKEN_RUNS: Final = re.compile(b"a" * TOKEN_SHORTEST + b"a*")
_HEADER_STARTS: Final = (re.compile(rb"-----BEGIN "), re.compile(rb"PuTTY-User-Key-File-"))
_ASSIGNMENTS: Final = (re.compile(b":"), re.compile(b"="))
_URLS: Final = re.compile(re.escape(d.URL_LITERAL))
ALNUM: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
LONGEST_START: Final = 20  # the longest literal an anchor begins with (a PuTTY header's)


@dataclass(slots=True)
class Anchors:
    """The anchors of one chunk, each family in increasing order."""

    # Offsets as machine integers: a run of near matches has an anchor every few bytes.
    headers: array[int] = field(default_factory=lambda: array("q"))
    urls: array[int] = field(default_factory=lambda: array("q"))
    assignments: array[int] = field(default_factory=lambda: array("q"))
    tokens: array[int] = field(default_factory=lambda: array("q"))
    pieces: list[tuple[int, int]] = field(default_factory=list)  # (start, end) of each run

    def __bool__(self) -> bool:
        return bool(self.headers or self.urls or self.assignments or self.tokens or self.pieces)


def find_anchors(data: bytes, windows: Sequence[tuple[int, int]]) -> Anchors:
    """Every anchor beginning inside one of ``windows`` (disjoint, in order, each a
    ``(start, end)`` of ``data``); what follows an anchor may run past its window."""
    found = Anchors()
    for start, end in windows:
        found.urls.extend(m.start() for m in _URLS.finditer(data, start, end))
        found.assignments.extend(_literals(_ASSIGNMENTS, data, start, end))
        found.headers.extend(_literals(_HEADER_STARTS, data, start, end))
        _tokens(data, start, end, found.tokens)
        _pieces(data, start, end, found.pieces)
    return found


def _literals(
    patterns: Sequence[re.Pattern[bytes]], data: bytes, start: int, end: int
) -> list[int]:
    """Where each literal of ``patterns`` begins in [start, end), in order (each literal a
    search of its own: C's substring search, where an alternation tries every byte)."""
    limit = min(len(data), end + LONGEST_START)
    found = [at for p in patterns for at in map(re.Match.start, p.finditer(data, start, limit))]
    return sorted(at for at in found if at < end)


def _runs(
    table: bytes, runs: re.Pattern[bytes], data: bytes, start: int, end: int
) -> Iterator[tuple[int, int]]:
    """The runs of a class (``table``) in [start, end) at least as long as ``runs`` asks,
    as (start, end) offsets of ``data``; a run cut by ``end`` is cut there."""
    classes = data[start:end].translate(table)
    for run in runs.finditer(classes):
        yield start + run.start(), start + run.end()


def _tokens(data: bytes, start: int, end: int, out: array[int]) -> None:
    """Where a token literal begins in [start, end), not glued to a letter or digit before
    it. Over a whole chunk, looked for only inside the runs of token bytes long enough to
    hold a token (every token is such a run); in a window, at every byte of it."""
    if start == 0 and end == len(data):
        spans = list(_runs(_TOKEN_TABLE, _TOKEN_RUNS, data, start, end))
    else:
        spans = [(start, min(len(data), end + LONGEST_START))]
    search = d.TOKEN_STARTS.search
    for span_start, span_end in spans:
        pos = span_start
        while (found := search(data, pos, span_end)) is not None and found.start() < end:
            at = found.start()
            if data[at - 1] not in ALNUM:  # at >= 1: a chunk begins with a separator
                out.append(at)
            pos = at + 1


def _pieces(data: bytes, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """The runs of piece bytes at least `ENTROPY_MIN_LENGTH` long that begin in [start,
    end), each to its true end; a run begun before ``start`` belongs to an earlier window."""
    if start > 0 and data[start - 1] in _PIECE_SET:
        start = _PIECE_REST.match(data, start).end()  # type: ignore[union-attr]  # * matches
    for run_start, run_end in _runs(_PIECE_TABLE, _PIECE_RUNS, data, start, end):
        stop = run_end
        if stop == end:
            stop = _PIECE_REST.match(data, stop).end()  # type: ignore[union-attr]
        out.append((run_start, stop))
