"""The checks that decide whether an anchor (`anchors`) is a credential: each reads a
bounded number of bytes at and around its anchor, the same whichever search found it.

Offsets are bytes of the chunk (`anchors.SEPARATOR` before each text and after the last);
``text_end`` gives the end of the text an offset lies in (a private key's body runs at
most to it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from zcf_inspector.core.secrets import detectors as d
from zcf_inspector.core.secrets.anchors import ALNUM, Anchors

PEM_END: Final = re.compile(rb"-----END [A-Z0-9 ]{0,64}-----")
PEM_BODY_LIMIT: Final = 65_536  # bytes after a header looked at for its END line
CHECK_EVERY: Final = 64  # anchors checked between two calls of ``tick``
_LETTERS: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SEGMENT: Final = re.compile(rb"[A-Za-z0-9_-]*")  # a JSON Web Token's part


@dataclass(slots=True)
class Raw:
    """One flagged span of a chunk, before overlaps are settled (`scan`)."""

    start: int
    end: int
    kind: str
    label: str
    family: str  # which check: decides which of two overlapping spans is kept
    shown_prefix: int
    origin: str


def check(
    data: bytes, anchors: Anchors, text_end: Callable[[int], int], tick: Callable[[], None]
) -> list[Raw]:
    """Every span the anchors' checks flag, family by family."""
    raws: list[Raw] = []
    _private_keys(data, anchors.headers, text_end, raws)
    keys: list[Raw] = []  # the private keys kept when overlaps are settled: the first of each
    for raw in raws:
        if not keys or raw.start >= keys[-1].end:
            keys.append(raw)
    _tokens(data, anchors.tokens, raws, tick, keys)
    _url_passwords(data, anchors.urls, raws, tick)
    _keywords(data, anchors.assignments, raws, tick)
    _pieces(data, anchors.pieces, raws, tick)
    return raws


def _private_keys(
    data: bytes, starts: Sequence[int], text_end: Callable[[int], int], raws: list[Raw]
) -> None:
    headers = [h for h in map(d.PRIVATE_KEY_HEADER.match, [data] * len(starts), starts) if h]
    for number, header in enumerate(headers):
        # The body runs to its END line, looked for no further than the next header: so
        # each byte is searched once, however many headers a text repeats.
        limit = min(text_end(header.start()), header.end() + PEM_BODY_LIMIT)
        if number + 1 < len(headers):
            limit = min(limit, headers[number + 1].start())
        footer = PEM_END.search(data, header.end(), limit)
        raws.append(
            Raw(
                header.start(),
                footer.end() if footer is not None else max(limit, header.end()),
                "private-key",
                "a private key",
                "private-key",
                header.end() - header.start(),
                d.PRIVATE_KEY_ORIGIN,
            )
        )


def _url_passwords(
    data: bytes, starts: Sequence[int], raws: list[Raw], tick: Callable[[], None]
) -> None:
    for count, at in enumerate(starts):
        if count % CHECK_EVERY == 0:
            tick()
        found = d.URL_CREDENTIALS.match(data, at)
        if found is None:
            continue
        if d.URL_SCHEME_BEFORE.search(data, max(0, at - 32), at) is None:
            continue
        if d.PLACEHOLDER.match(found.group("v")):
            continue
        raws.append(
            Raw(
                found.start("v"),
                found.end("v"),
                "url-password",
                "a password in a URL",
                "url-password",
                0,
                "detect-secrets BasicAuthDetector",
            )
        )


def _keywords(
    data: bytes, starts: Sequence[int], raws: list[Raw], tick: Callable[[], None]
) -> None:
    for count, at in enumerate(starts):
        if count % CHECK_EVERY == 0:
            tick()
        low = max(0, at - d.KEYWORD_LOOK_BACK)
        name = d.KEYWORD_BEFORE.search(data[low:at].lower())
        if name is None:
            continue
        begin = low + name.start()
        # Part of another word ("monkey", "bypass") unless a compound ("apikey"); begin is
        # at least 1: a chunk begins with a separator.
        glued = data[begin - 1] in _LETTERS
        if glued and not data[max(0, begin - 8) : begin].lower().endswith(d.KEYWORD_PREFIXES):
            continue
        assignment = d.KEYWORD_VALUE.match(data, at)
        if assignment is None:
            continue
        start, end = assignment.span("v")
        quote = assignment.group("q")
        quoted = bool(quote) and data[end : end + 1] == quote
        if not d.acceptable_keyword_value(data[start:end], quoted):
            continue
        raws.append(
            Raw(
                start,
                end,
                "keyword",
                "a value assigned to a credential name",
                "keyword",
                0,
                "detect-secrets KeywordDetector",
            )
        )


class _Segments:
    """Where the run of a JSON Web Token's part bytes that holds an offset ends, the last
    run remembered: the anchors come in order, so each run is measured once however many
    anchors it holds (``eyJ-eyJ-eyJ-…`` would otherwise cost its length at each)."""

    __slots__ = ("_data", "_end", "_start")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._start = self._end = -1

    def end(self, at: int) -> int:
        if self._start <= at < self._end:
            return self._end
        stop = _SEGMENT.match(self._data, at).end()  # type: ignore[union-attr]  # * matches
        if stop > at:
            self._start, self._end = at, stop
        return stop


def _jwt_end(data: bytes, at: int, parts: tuple[_Segments, _Segments, _Segments]) -> int:
    """Where the token detectors' JWT pattern (``eyJ…{8,4096}.eyJ…{4,65536}.…{0,4096}``)
    matched at ``at`` ends, or -1: the same answer, each part measured as a whole run (no
    part holds a ".", so a part can only end where its run does)."""
    if data[at : at + 3] != b"eyJ":
        return -1
    first = at + 3
    stop = parts[0].end(first)
    if not 8 <= stop - first <= 4096 or data[stop : stop + 4] != b".eyJ":
        return -1
    second = stop + 4
    stop = parts[1].end(second)
    if not 4 <= stop - second <= 65536 or data[stop : stop + 1] != b".":
        return -1
    third = stop + 1
    return third + min(parts[2].end(third) - third, 4096)


def _tokens(
    data: bytes,
    starts: Sequence[int],
    raws: list[Raw],
    tick: Callable[[], None],
    keys: list[Raw],
) -> None:
    """Tokens, in order of their starts. A token overlapping a private key or the token
    last kept would lose to it when overlaps are settled (`scan._resolve`), so it is not
    kept at all: a run of ``ghp_`` has a match at every anchor, and keeping them all would
    cost memory in proportion to the run times the length of a token."""
    parts = (_Segments(data), _Segments(data), _Segments(data))
    last_end = -1
    key = 0
    for count, at in enumerate(starts):
        if count % CHECK_EVERY == 0:
            tick()
        if at < last_end:
            continue
        for detector in d.TOKEN_BY_FIRST_BYTE.get(data[at], ()):
            if detector.kind == "jwt":
                end = _jwt_end(data, at, parts)
                if end < 0 or data[end] in ALNUM or not d.is_jwt(data[at:end]):
                    continue
            else:
                found = detector.pattern.match(data, at)
                if found is None or data[found.end()] in ALNUM:
                    continue
                end = found.end()
            while key < len(keys) and keys[key].end <= at:
                key += 1
            if key < len(keys) and keys[key].start < end:
                break  # inside a private key: the key is kept
            last_end = end
            raws.append(
                Raw(
                    at,
                    end,
                    detector.kind,
                    detector.label,
                    "token",
                    detector.shown_prefix,
                    detector.origin,
                )
            )
            break


def _pieces(
    data: bytes, pieces: list[tuple[int, int]], raws: list[Raw], tick: Callable[[], None]
) -> None:
    for count, (start, end) in enumerate(pieces):
        if count % CHECK_EVERY == 0:
            tick()
        if d.looks_random(data[start : min(end, start + d.ENTROPY_MAX_LENGTH)]):
            raws.append(
                Raw(
                    start,
                    end,
                    "high-entropy",
                    "a random-looking key (high entropy)",
                    "entropy",
                    0,
                    "detect-secrets Base64HighEntropyString",
                )
            )
