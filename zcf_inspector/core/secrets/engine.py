"""The multi-pattern engine under the secret scan: Google RE2 (``google-re2``, BSD-3-Clause)
finds, in one pass over a chunk's bytes, the windows where a credential may be; only
those windows are read again, by the standard library (`anchors`), and checked (`verify`).

Why RE2 (measured on the three text mixes of issue 29, docs/benchmarks.md): its DFA runs
every family's pattern, the class-only one of random-looking pieces included, at one
speed (about 0.07 s for 40 MB); Hyperscan (Vectorscan) is faster on literals but 2-5x
slower than RE2 once the piece and keyword patterns are in its set, and calls back into
Python at every end of every match; an Aho-Corasick automaton finds literals only (no
piece pattern) and, over prose that names credentials, hands Python a candidate per word.

Why the windows are sound. RE2 reports leftmost, non-overlapping matches of the union of
the `REGIONS` patterns, one per family, each a loose form of what its checks require that
*begins at* that family's anchor (or at most `CONTEXT` bytes before it). Whatever anchor
a check could flag begins such a match; the match is reported, or an earlier reported
match covers its start (a later search resumes where the last one ended, and the leftmost
match at or after that point begins at or before the anchor). So every anchor that can be
flagged lies in a window (a match, widened by `CONTEXT`), and `find_anchors` lists every
anchor of every family in the windows: the checks see all of those the standard-library
scan would flag, and flag the same (tests/core/test_secret_scan_engine.py holds the two to
the same findings on generated texts).

Without the wheel (``re2`` not importable), `available()` is False and the scan uses the
standard library over every byte: the same findings, slower.
"""

from __future__ import annotations

import functools
from typing import Final, Protocol

NAME: Final = "google-re2"
# A window reaches this far past its match: a keyword's name may begin up to 7 bytes after
# its match (the match begins at a prefix such as "private"), and its ":" or "=" 47 bytes
# after the name ("credentials", 32 name bytes, a quote, 3 spaces).
CONTEXT: Final = 64
GAP: Final = 16  # matches this close are one window (one search instead of many)

_SPACE = rb"[\t\n\x0b\x0c\r ]"  # Python's \s over bytes (RE2's \s has no \x0b)
_PIECE = rb"[A-Za-z0-9+/_\-]"
_NAMES = rb"(?:password|passwd|passphrase|pass|pwd|secret|token|key|credentials?|auth)"
_ORDERS = (b"AaD", b"ADa", b"aAD", b"aDA", b"DAa", b"DaA")
_CLASSES = {ord("A"): rb"[A-Z]", ord("a"): rb"[a-z]", ord("D"): rb"[0-9]"}
FAMILIES: Final = {
    # A private-key header, as detectors.PRIVATE_KEY_HEADER without its tail.
    "private-key": rb"-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY|PuTTY-User-Key-File-[0-9]",
    # "://user:password@", the parts unbounded (the check bounds them).
    "url-password": rb"://[^\t\n\x0b\x0c\r /:@\x00\"'<>]+:[^\t\n\x0b\x0c\r /@\x00\"'<>]+@",
    # A credential name after a byte that is not a letter (or a compound prefix), then an
    # assignment and at least the shortest acceptable value.
    "keyword": (
        rb"(?i:(?:[^a-z]|api|access|secret|private|client|master|db)"
        + _NAMES
        + rb"[a-z0-9_.\-]{0,32}[\"']?"
        + _SPACE
        + rb"{0,3}(?:=>|:=|=|:)"
        + _SPACE
        + rb"{0,3}"
        + rb"(?:(?:bearer|basic|token)"
        + _SPACE
        + rb"{1,3})?[\"'`]?"
        + rb"[^\t\n\x0b\x0c\r \"'`\x00,;)\]}]{6})"
    ),
    # A token's literal after a byte that is not a letter or digit, and the least of its
    # body every detector of that literal requires.
    "token": (
        rb"[^A-Za-z0-9](?:(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"
        rb"|gh[pousr]_[A-Za-z0-9_]{36}|github_pat_[A-Za-z0-9_]{22}"
        rb"|(?:glpat|gldt|glrt|glsoat|glcbt|glptt|glft|glimt|glagent|gloas)-[A-Za-z0-9_\-]{20}"
        rb"|xox[abposr]-[0-9]|[sr]k_live_[0-9a-zA-Z]{24}|sk-[A-Za-z0-9_\-]{20}"
        rb"|AIza[0-9A-Za-z_\-]{35}|pypi-AgEIcHlwaS5vcmc|npm_[A-Za-z0-9]{36}"
        rb"|SG\.[A-Za-z0-9_\-]{22}\.|eyJ[A-Za-z0-9_\-]{8})"
    ),
    # A run of piece bytes holding an upper-case letter, a lower-case one and a digit.
    "high-entropy": (
        _PIECE
        + rb"*(?:"
        + b"|".join(
            (rb"%s" + _PIECE + rb"*%s" + _PIECE + rb"*%s") % tuple(_CLASSES[c] for c in order)
            for order in _ORDERS
        )
        + rb")"
        + _PIECE
        + rb"*"
    ),
}
_ANY = b"|".join(FAMILIES.values())
# Matches within GAP bytes of each other make one match: one window.
REGIONS: Final = rb"(?:" + _ANY + rb")(?:[^\x00]{0,%d}(?:" % GAP + _ANY + rb"))*"


class _Match(Protocol):
    def span(self) -> tuple[int, int]: ...


class _Compiled(Protocol):
    def search(self, text: bytes, pos: int = ...) -> _Match | None: ...


@functools.cache
def _load() -> _Compiled | None:
    """The compiled union, once per process; None without the wheel."""
    try:
        import re2  # type: ignore[import-untyped]  # noqa: PLC0415 - optional: see the module
    except ImportError:
        return None
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1  # bytes, not UTF-8 characters
    options.never_capture = True
    options.max_mem = 64 << 20  # room for the DFA of the union
    compiled: _Compiled = re2.compile(REGIONS, options)
    return compiled


def available() -> bool:
    """Whether the engine's wheel is installed here (else: the standard-library scan)."""
    return _load() is not None


def windows(data: bytes) -> list[tuple[int, int]]:
    """The windows of ``data`` (a chunk, `anchors.SEPARATOR` first and last) where an anchor that
    can be flagged may begin, disjoint and in order. Needs `available()`."""
    compiled = _load()
    assert compiled is not None
    found: list[tuple[int, int]] = []
    size = len(data)
    pos = 0
    while (match := compiled.search(data, pos)) is not None:
        start, end = match.span()
        stop = min(size, end + CONTEXT)
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], max(stop, found[-1][1]))
        else:
            found.append((start, stop))
        pos = end if end > start else end + 1  # no pattern matches empty; kept safe
    return found
