"""The secret scan: every text of a packet a destination agent may act on (`texts`), read
for credentials (`detectors`), each finding a warning with its pointer and a masked value.

How, in time linear in the text: the texts are read in chunks of `CHUNK_TEXTS`, each
joined once as UTF-8 bytes (a NUL before each text and after the last); a multi-pattern
engine (`engine`: RE2) finds in one pass the windows of a chunk where a credential may
be, the standard library lists the anchors in those windows (`anchors`) and the checks
decide (`verify`). Without the engine's wheel the anchors are listed over the whole chunk:
the same findings, slower. A finding never holds the value: only its kind, where it is,
its length and a prefix that names the kind of key (``ghp_``), so neither a report nor a
receipt can carry it on.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Final

from zcf_inspector.core.codes import AdvisoryCode
from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    FindingBudget,
    OmittedFindings,
    Severity,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join
from zcf_inspector.core.secrets import detectors as d
from zcf_inspector.core.secrets import engine
from zcf_inspector.core.secrets.anchors import SEPARATOR, find_anchors
from zcf_inspector.core.secrets.texts import Pacer, Path, TextPaths, gather
from zcf_inspector.core.secrets.verify import Raw, check

__all__ = [
    "SecretHit",
    "SecretScan",
    "TextPaths",
    "masked_text",
    "packet_texts",
    "scan_packet",
    "scan_texts",
]

CHUNK_TEXTS: Final = 2048  # texts joined and searched at once: a chunk stays in the cache
# Which of two overlapping findings is kept: the more specific one.
_PRIORITY: Final = {"private-key": 0, "token": 1, "url-password": 2, "keyword": 3, "entropy": 4}
_CONTINUATION: Final = bytes(range(0x80, 0xC0))  # UTF-8 bytes that do not begin a character


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One suspected credential: in which text, where in it (characters), what kind, and
    its masked form. The value itself is not kept."""

    pointer: str
    kind: str  # "github-token", "private-key", "url-password", "keyword", "high-entropy"…
    label: str  # "a GitHub token"
    start: int  # character offsets in the text
    end: int
    masked: str
    origin: str  # the detect-secrets plugin (or format document) the check follows

    @property
    def message(self) -> str:
        return (
            f"looks like {self.label}, {self.masked}, at characters "
            f"{self.start:,} to {self.end:,}; the value is not shown here — "
            "check it before this text is admitted or confirmed"
        )

    def to_finding(self) -> Finding:
        return Finding(AdvisoryCode.SECRET_SUSPECTED, Severity.WARNING, self.pointer, self.message)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "code": str(AdvisoryCode.SECRET_SUSPECTED),
            "severity": str(Severity.WARNING),
            "pointer": self.pointer,
            "kind": self.kind,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "masked": self.masked,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class SecretScan:
    hits: tuple[SecretHit, ...]  # in text order, at most one per overlapping span
    texts: int  # how many texts were read
    scanned_bytes: int  # their total length, in UTF-8 bytes

    @property
    def flagged_pointers(self) -> frozenset[str]:
        return frozenset(hit.pointer for hit in self.hits)

    def findings(
        self, limit: int = FINDINGS_LIMIT
    ) -> tuple[tuple[Finding, ...], tuple[OmittedFindings, ...]]:
        """The hits as warnings: the first ``limit`` in full, the rest counted."""
        budget = FindingBudget(limit)
        for hit in self.hits:
            if budget.full:
                budget.tally(hit.to_finding().code, Severity.WARNING, hit.pointer)
            else:
                budget.append(hit.to_finding())
        return tuple(budget.kept), budget.omitted()

    def by_pointer(self) -> dict[str, tuple[SecretHit, ...]]:
        """The hits of each text flagged, in text order."""
        found: dict[str, list[SecretHit]] = {}
        for hit in self.hits:
            found.setdefault(hit.pointer, []).append(hit)
        return {pointer: tuple(hits) for pointer, hits in found.items()}

    def summary(self) -> str:
        texts = f"{self.texts:,} text{'' if self.texts == 1 else 's'}"
        if not self.hits:
            return f"no credential found in {texts}"
        where = len(self.flagged_pointers)
        hits = len(self.hits)
        found = f"{hits:,} suspected credential{'' if hits == 1 else 's'}"
        return f"{found} in {where:,} of {texts} (values hidden)"

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "texts": self.texts,
            "bytes": self.scanned_bytes,
            "hits": [hit.to_json() for hit in self.hits],
        }


def masked_text(text: str, hits: Sequence[SecretHit]) -> str:
    """``text`` with each of its ``hits`` replaced by the hit's masked form: the one masking
    the briefing, the CLI and the window show a flagged text with."""
    for hit in sorted(hits, key=lambda h: h.start, reverse=True):
        text = text[: hit.start] + hit.masked + text[hit.end :]
    return text


# --- the scan ------------------------------------------------------------------------------


def packet_texts(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR
) -> tuple[Sequence[Path], list[str]]:
    """The texts the scan reads, as (paths, texts): see `texts` for which."""
    return gather(packet, monitor)


def scan_texts(
    paths: Sequence[Path],
    texts: Sequence[str],
    monitor: Monitor = NULL_MONITOR,
    *,
    use_engine: bool | None = None,
) -> SecretScan:
    """Scan ``texts`` (``paths[i]`` names ``texts[i]``); raises `Cancelled` if asked to.

    ``use_engine``: None takes the engine when its wheel is installed; False makes the
    standard-library scan run (the same findings: the differential test compares them);
    True insists on the engine (`RuntimeError` without its wheel)."""
    monitor.step("looking for credentials", 0.0)
    by_engine = engine.available() if use_engine is None else use_engine
    if by_engine and not engine.available():
        raise RuntimeError(f"the secret scan's engine ({engine.NAME}) is not installed here")
    pacer = Pacer(monitor)
    hits: list[SecretHit] = []
    scanned = 0
    total = len(texts)
    for first in range(0, total, CHUNK_TEXTS):
        monitor.breathe()
        part = texts[first : first + CHUNK_TEXTS]
        encoded = [b"", *map(str.encode, part, repeat("utf-8"), repeat("surrogatepass")), b""]
        data = SEPARATOR.join(encoded)  # a NUL before each text and after the last
        scanned += len(data) - len(part) - 1
        windows = engine.windows(data) if by_engine else [(0, len(data))]
        if windows:
            _scan_chunk(
                data, encoded, windows, first=first, paths=paths, texts=part, hits=hits, pacer=pacer
            )
        if total > CHUNK_TEXTS:
            monitor.step("looking for credentials", min(1.0, (first + CHUNK_TEXTS) / total))
    monitor.step("looking for credentials", 1.0)
    return SecretScan(tuple(hits), total, scanned)


def scan_packet(packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR) -> SecretScan:
    paths, texts = gather(packet, monitor)
    return scan_texts(paths, texts, monitor)


def _scan_chunk(
    data: bytes,
    encoded: list[bytes],
    windows: list[tuple[int, int]],
    *,
    first: int,
    paths: Sequence[Path],
    texts: Sequence[str],
    hits: list[SecretHit],
    pacer: Pacer,
) -> None:
    anchors = find_anchors(data, windows)
    if not anchors:
        return
    # Where each text of the chunk begins (after its NUL), made only for a chunk with
    # anchors; its end is the next NUL placed by the join.
    starts = list(itertools.accumulate((len(b) + 1 for b in encoded[1:-1]), initial=1))
    starts.pop()

    def text_end(offset: int) -> int:
        index = bisect.bisect_right(starts, offset) - 1
        return starts[index] + len(encoded[index + 1])

    raws = check(data, anchors, text_end, pacer.tick)
    by_text: dict[int, list[Raw]] = {}
    for raw in raws:
        by_text.setdefault(bisect.bisect_right(starts, raw.start) - 1, []).append(raw)
    for index in sorted(by_text):
        kept = _resolve(by_text[index])
        base = starts[index]
        text = texts[index]
        offsets = _char_offsets(data, base, kept, text.isascii())
        path = join(*paths[first + index])
        for raw, (start, end) in zip(kept, offsets, strict=True):
            hits.append(
                SecretHit(
                    path,
                    raw.kind,
                    raw.label,
                    start,
                    end,
                    d.mask(text[start:end], raw.shown_prefix),
                    raw.origin,
                )
            )


def _resolve(raws: list[Raw]) -> list[Raw]:
    """One span per place, the most specific check's (then the earliest), in text order.

    The same choice as taking the spans by (priority, start) and keeping each that
    overlaps none kept before it, made in one sweep per priority: the kept spans are
    disjoint and in order, so only the first kept one that ends after a span can overlap
    it, and within a priority only the last one kept."""
    raws.sort(key=lambda r: (_PRIORITY[r.family], r.start))
    kept: list[Raw] = []
    for _, level in itertools.groupby(raws, key=lambda r: _PRIORITY[r.family]):
        chosen: list[Raw] = []
        at = 0
        for raw in level:
            if chosen and raw.start < chosen[-1].end:
                continue
            while at < len(kept) and kept[at].end <= raw.start:
                at += 1
            if at < len(kept) and kept[at].start < raw.end:
                continue
            chosen.append(raw)
        kept = sorted(kept + chosen, key=lambda r: r.start)  # two sorted runs: linear
    return kept


def _char_offsets(
    data: bytes, base: int, kept: list[Raw], ascii_text: bool
) -> list[tuple[int, int]]:
    """Each span's (start, end) in characters of its text, counted once from the text's
    start over spans in order (disjoint): the bytes that begin a character, between one
    offset and the next."""
    if ascii_text:
        return [(raw.start - base, raw.end - base) for raw in kept]
    offsets: list[tuple[int, int]] = []
    last_byte, last_char = base, 0

    def chars(offset: int) -> int:
        nonlocal last_byte, last_char
        last_char += len(data[last_byte:offset].translate(None, _CONTINUATION))
        last_byte = offset
        return last_char

    for raw in kept:
        start = chars(raw.start)
        offsets.append((start, chars(raw.end)))
    return offsets
