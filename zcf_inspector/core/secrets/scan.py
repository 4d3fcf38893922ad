"""The secret scan: every text of a packet a destination agent may act on, read for
credentials (`detectors`), each finding a warning with its pointer and a masked value.

Which texts: each belief's content, every capsule string, the evidence sources' locators,
the anchors' locators and excerpts, the receipts' and verification entries' summaries,
the review events' notes, the packet's intent and the manifests' reasons. Ids, digests,
nonces and signatures are not read: they are the format's own, and a digest is random
by design.

How, in time linear in the text and with a small constant: the texts are joined once as
UTF-8 bytes, and each search runs over the whole of it in C — a literal search per
private-key and keyword literal and for "://", and one search for runs of token bytes in a
copy where each token byte is "a" — and Python only looks closer at what those find.
A finding never holds the value: only its kind, where it is, its length and a prefix that
names the kind of key (``ghp_``), so neither a report nor a receipt can carry it on.
"""

from __future__ import annotations

import bisect
import itertools
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
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

Path = tuple[str | int, ...]
SEPARATOR: Final = b"\x00"  # between texts; no pattern matches it
RUNS: Final = re.compile(b"a" * d.CANDIDATE_RUN + b"a*")
_ALNUM: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_LOWER: Final = frozenset(b"abcdefghijklmnopqrstuvwxyz")
_ASSIGNMENT_SEARCHES: Final = tuple(re.compile(re.escape(k)) for k in d.ASSIGNMENT_LITERALS)
_PRIVATE_KEY_SEARCHES: Final = tuple(re.compile(re.escape(k)) for k in d.PRIVATE_KEY_LITERALS)
_PEM_END: Final = re.compile(rb"-----END [A-Z0-9 ]{0,64}-----")
PEM_BODY_LIMIT: Final = 65_536  # bytes after a header looked at for its END line
CHECK_EVERY: Final = 64  # loop turns (texts, candidates) between two looks at the clock
FIELDS_SLICE: Final = 4096  # array items read between two looks at the clock
BREATH_S: Final = 0.010  # the longest the scan runs between two breaths (see `_Pacer`)

# Which of two overlapping findings is kept: the more specific one.
_PRIORITY: Final = {"private-key": 0, "token": 1, "url-password": 2, "keyword": 3, "entropy": 4}


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


# --- which texts ---------------------------------------------------------------------------


class _Pacer:
    """Breathes (`Monitor.breathe`: a cancellation point and, on the window's runner, a
    2 ms sleep) once `BREATH_S` has passed since the last breath. Counting candidates was
    not enough: 4,096 keyword candidates of the 200,000-belief packet took 40+ ms, and a
    window repainting its tree beside the scan waits out the GIL's switch interval on every
    Python model call (UI-thread stalls of 300-480 ms, tests/perf/bench_briefing_window).
    At most one sleep per 10 ms of work: the sleeps cost a sixth of the time or less."""

    __slots__ = ("_last", "_monitor")

    def __init__(self, monitor: Monitor) -> None:
        self._monitor = monitor
        self._last = time.perf_counter()

    def tick(self) -> None:
        now = time.perf_counter()
        if now - self._last >= BREATH_S or self._monitor.cancelled:
            self._monitor.breathe()
            self._last = time.perf_counter()


def _strings(value: JsonValue, path: Path) -> Iterator[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))


def _fields(
    value: JsonValue,
    first: str,
    second: str,
    names: Sequence[str],
    *,
    paths: list[Path],
    texts: list[str],
    pacer: _Pacer | None = None,
) -> None:
    """``names`` of each object in the array ``value`` (at /first/second), where they are
    strings. A plain loop building each path from locals: this runs once per belief, and
    it is the fastest spelling (a comprehension that unpacks a prefix is twice as slow)."""
    if not isinstance(value, list):
        return
    for name in names:
        # In slices, so the pacer is consulted between them at no cost to each turn.
        for begin in range(0, len(value), FIELDS_SLICE):
            if pacer is not None:
                pacer.tick()
            for index, item in enumerate(value[begin : begin + FIELDS_SLICE], begin):
                if type(item) is dict:
                    text = item.get(name)
                    if type(text) is str:
                        paths.append((first, second, index, name))
                        texts.append(text)


def packet_texts(
    packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR
) -> tuple[list[Path], list[str]]:
    """The texts the scan reads, as (paths, texts): see the module for which. (Several
    names of one array are listed name by name: the scan's order is not the document's.)"""
    pacer = _Pacer(monitor)
    paths: list[Path] = []
    texts: list[str] = []
    identity = packet.get("packet")
    intent = identity.get("intent") if isinstance(identity, dict) else None
    if isinstance(intent, str):
        paths.append(("packet", "intent"))
        texts.append(intent)
    for manifest in ("redactionManifest", "omissionManifest"):
        section = packet.get(manifest)
        if isinstance(section, dict):
            _fields(
                section.get("entries"), manifest, "entries", ("reason",), paths=paths, texts=texts
            )
    content = packet.get("content")
    if not isinstance(content, dict):
        return paths, texts
    if "capsule" in content:
        for path, text in _strings(content["capsule"], ("content", "capsule")):
            paths.append(path)
            texts.append(text)
    table: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("beliefs", ("content",)),
        ("evidenceSources", ("locator",)),
        ("evidenceAnchors", ("locator", "excerpt")),
        ("receipts", ("summary",)),
        ("verification", ("summary",)),
        ("reviewEvents", ("note",)),
    )
    for name, fields in table:
        _fields(content.get(name), "content", name, fields, paths=paths, texts=texts, pacer=pacer)
    return paths, texts


# --- the scan ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Raw:
    index: int  # which text
    start: int  # byte offsets in the joined bytes
    end: int
    kind: str
    label: str
    family: str
    shown_prefix: int
    origin: str


class _Joined:
    """The texts as one byte string, and where each begins."""

    def __init__(self, texts: Sequence[str]) -> None:
        # One join and one encoding, not one per text; byte lengths differ from character
        # lengths only for texts that are not ASCII.
        whole = "\x00".join(texts)
        self.data = whole.encode("utf-8", "surrogatepass")
        if whole.isascii():
            self.lengths = [len(t) for t in texts]
        else:
            self.lengths = [
                len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass")) for t in texts
            ]
        self.starts = [0, *itertools.accumulate(n + 1 for n in self.lengths)][: len(texts)]

    def which(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def bounds(self, index: int) -> tuple[int, int]:
        start = self.starts[index]
        return start, start + self.lengths[index]


def scan_texts(
    paths: Sequence[Path], texts: Sequence[str], monitor: Monitor = NULL_MONITOR
) -> SecretScan:
    """Scan ``texts`` (``paths[i]`` names ``texts[i]``); raises `Cancelled` if asked to."""
    monitor.step("looking for credentials", 0.0)
    joined = _Joined(texts)
    raws: list[_Raw] = []
    _private_keys(joined, raws)
    monitor.breathe()
    _url_passwords(joined, raws)
    monitor.breathe()
    _keywords(joined, raws, monitor)
    monitor.step("looking for credentials", 0.5)
    _token_runs(joined, raws, monitor)
    monitor.step("looking for credentials", 1.0)
    hits = _resolve(joined, paths, texts, raws)
    return SecretScan(hits, len(texts), sum(joined.lengths))


def scan_packet(packet: dict[str, JsonValue], monitor: Monitor = NULL_MONITOR) -> SecretScan:
    paths, texts = packet_texts(packet, monitor)
    return scan_texts(paths, texts, monitor)


def _private_keys(joined: _Joined, raws: list[_Raw]) -> None:
    data = joined.data
    seen: set[int] = set()
    for search in _PRIVATE_KEY_SEARCHES:
        for found in search.finditer(data):
            index = joined.which(found.start())
            low, high = joined.bounds(index)
            header = d.PRIVATE_KEY_HEADER.search(
                data, max(low, found.start() - 48), min(high, found.end() + 24)
            )
            if header is None or header.start() in seen:
                continue
            seen.add(header.start())
            footer = _PEM_END.search(data, header.end(), min(high, header.end() + PEM_BODY_LIMIT))
            end = footer.end() if footer is not None else min(high, header.end() + PEM_BODY_LIMIT)
            raws.append(
                _Raw(
                    index,
                    header.start(),
                    end,
                    "private-key",
                    "a private key",
                    "private-key",
                    header.end() - header.start(),
                    d.PRIVATE_KEY_ORIGIN,
                )
            )


def _url_passwords(joined: _Joined, raws: list[_Raw]) -> None:
    data = joined.data
    for found in d.URL_CREDENTIALS.finditer(data):
        index = joined.which(found.start())
        low, _ = joined.bounds(index)
        if d.URL_SCHEME_BEFORE.search(data, max(low, found.start() - 32), found.start()) is None:
            continue
        value = found.group("v")
        if d.PLACEHOLDER.match(value):
            continue
        raws.append(
            _Raw(
                index,
                found.start("v"),
                found.end("v"),
                "url-password",
                "a password in a URL",
                "url-password",
                0,
                "detect-secrets BasicAuthDetector",
            )
        )


def _keywords(joined: _Joined, raws: list[_Raw], monitor: Monitor) -> None:
    data = joined.data
    lowered = data.lower()  # ASCII only: offsets stay the same
    pacer = _Pacer(monitor)
    for search in _ASSIGNMENT_SEARCHES:
        for count, found in enumerate(search.finditer(lowered)):
            if count % CHECK_EVERY == 0:
                pacer.tick()
            at = found.start()
            index = joined.which(at)
            low, high = joined.bounds(index)
            name = d.KEYWORD_BEFORE.search(lowered, max(low, at - d.KEYWORD_LOOK_BACK), at)
            if name is None:
                continue
            begin = name.start()
            if begin > low and lowered[begin - 1] in _LOWER:
                before = lowered[max(low, begin - 8) : begin]
                if not before.endswith(d.KEYWORD_PREFIXES):
                    continue
            assignment = d.KEYWORD_VALUE.match(lowered, at, high)
            if assignment is None:
                continue
            start, end = assignment.span("v")
            quote = assignment.group("q")
            quoted = bool(quote) and data[end : end + 1] == quote
            if not d.acceptable_keyword_value(data[start:end], quoted):
                continue
            raws.append(
                _Raw(
                    index,
                    start,
                    end,
                    "keyword",
                    "a value assigned to a credential name",
                    "keyword",
                    0,
                    "detect-secrets KeywordDetector",
                )
            )


def _token_runs(joined: _Joined, raws: list[_Raw], monitor: Monitor) -> None:
    data = joined.data
    classes = data.translate(d.TOKEN_CLASS_TABLE)
    pacer = _Pacer(monitor)
    for count, run in enumerate(RUNS.finditer(classes)):
        if count % CHECK_EVERY == 0:
            pacer.tick()
        start, end = run.span()
        index = -1
        for begin in d.TOKEN_STARTS.finditer(data, start, end):
            at = begin.start()
            if at > start and data[at - 1] in _ALNUM:
                continue
            for detector in d.TOKEN_DETECTORS:
                found = detector.pattern.match(data, at, end)
                if found is None or (found.end() < end and data[found.end()] in _ALNUM):
                    continue
                if detector.kind == "jwt" and not d.is_jwt(found.group("v")):
                    continue
                index = joined.which(at) if index < 0 else index
                raws.append(
                    _Raw(
                        index,
                        found.start(),
                        found.end(),
                        detector.kind,
                        detector.label,
                        "token",
                        detector.shown_prefix,
                        detector.origin,
                    )
                )
                break
        offset = start
        for piece in data[start:end].replace(b"=", b".").split(b"."):
            if len(piece) >= d.ENTROPY_MIN_LENGTH and d.looks_random(piece):
                index = joined.which(offset) if index < 0 else index
                raws.append(
                    _Raw(
                        index,
                        offset,
                        offset + len(piece),
                        "high-entropy",
                        "a random-looking key (high entropy)",
                        "entropy",
                        0,
                        "detect-secrets Base64HighEntropyString",
                    )
                )
            offset += len(piece) + 1


def _resolve(
    joined: _Joined, paths: Sequence[Path], texts: Sequence[str], raws: list[_Raw]
) -> tuple[SecretHit, ...]:
    """One hit per span (the most specific detector wins), in text order, in characters."""
    raws.sort(key=lambda r: (r.index, _PRIORITY[r.family], r.start))
    kept: list[_Raw] = []
    for _, group in itertools.groupby(raws, key=lambda r: r.index):
        chosen: list[_Raw] = []
        for raw in group:
            if all(raw.end <= c.start or raw.start >= c.end for c in chosen):
                chosen.append(raw)
        kept.extend(sorted(chosen, key=lambda r: r.start))
    data = joined.data
    hits: list[SecretHit] = []
    for raw in kept:
        base = joined.starts[raw.index]
        text = texts[raw.index]
        char = _chars if not text.isascii() else _bytes_as_chars
        start = char(data, base, raw.start)
        end = char(data, base, raw.end)
        value = text[start:end]
        hits.append(
            SecretHit(
                join(*paths[raw.index]),
                raw.kind,
                raw.label,
                start,
                end,
                d.mask(value, raw.shown_prefix),
                raw.origin,
            )
        )
    return tuple(hits)


def _bytes_as_chars(data: bytes, base: int, offset: int) -> int:
    return offset - base


def _chars(data: bytes, base: int, offset: int) -> int:
    return len(data[base:offset].decode("utf-8", "surrogatepass"))
