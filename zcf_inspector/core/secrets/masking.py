"""The one masking step every output takes: a text scanned, and each suspected credential
in it replaced by its masked form, before it reaches a terminal, a JSON output or the
clipboard (issue 34, point 1).

`validate` and `brief` mask what the packet scan (`scan.scan_packet`) flagged, by pointer.
But a front end prints more of a document than the texts that scan reads: the values of a
`diff`, finding messages quoting a key or a value, ids, tool names, session ids,
extension values, the client's name. So the texts a front end shows are scanned again at
the point where they are shown, by the same scan (`scan.scan_texts`, its public entry)
and masked by the same rule (`scan.masked_text`): `mask_text` for one text, `mask_texts`
for many in one scan, `mask_json` for every string and member name of a JSON value (one
scan for the whole of it).

Masking what is already masked changes nothing: a masked form holds none of the value,
and a private key's masked form keeps only its header, which is set aside here (blanked
in the copy the scan reads, offsets kept) so that the header alone is not taken for a key
a second time — what follows the masked form is still read.

Left as it is: the format's own random values, which the packet scan does not read by
design either (`is_format_own`): the packet's nonce and the authentication's signature
and MAC are random by construction, and are not credentials.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.scan import masked_text, scan_texts
from zcf_inspector.core.visible_text import visible

Path = tuple[str | int, ...]
# A private key's masked form: its header, then "…(N characters, hidden)".
_MASKED_KEY_HEADER: Final = re.compile(
    r"(?:-----BEGIN [A-Z0-9 ]{0,64}-----|PuTTY-User-Key-File-\d)"
    r"(?=…\([\d,]{1,24} characters, hidden\))"
)
# What a masked form ends with (`detectors.mask`), or the start of it a cut left.
_MASKED_TAIL: Final = re.compile(r"…\((?:[\d,]{1,24}(?: characters(?:, hidden\)?)?)?)?")
# Member names whose string values are the format's own random values.
FORMAT_OWN_NAMES: Final = frozenset({"nonce", "packetNonce", "signature", "mac"})
_ONE: Final = (("text",),)
# Short texts remembered masked (`mask_text`, `prime`): a bound, not a size — what is kept
# is what an output printed, and an unmasked text is kept as itself (no copy).
CACHED: Final = 1 << 19
PRIME_SLICE: Final = 65_536  # texts scanned at once (`mask_texts`)
CACHED_CHARS: Final = 512
# Characters scanned past a cut (`masked_clip`): longer than any token the scan knows.
CUT_MARGIN: Final = 8192


def _scanned_copy(text: str) -> str:
    """``text`` as the scan reads it: masked forms (and a masked key's header) blanked,
    same length — "key = AKIA…(20 characters, hidden)" cut at a line's end must not read
    as a value assigned to a credential name."""
    if "…(" not in text:
        return text
    text = _MASKED_KEY_HEADER.sub(_blank, text)
    return _MASKED_TAIL.sub(_blank, text)


def _blank(found: re.Match[str]) -> str:
    return " " * len(found.group())


def mask_texts(texts: Sequence[str]) -> list[str]:
    """Each of ``texts`` with its suspected credentials masked, in one scan (each distinct
    text scanned once: a report repeats its member names and a packet its ids)."""
    if not texts:
        return []
    distinct = list(dict.fromkeys(texts))
    masked: dict[str, str] = {}
    # In slices: the scan joins what it reads into one buffer (and two copies of it), so a
    # large output's texts are read a slice at a time rather than all at once.
    for start in range(0, len(distinct), PRIME_SLICE):
        chunk = distinct[start : start + PRIME_SLICE]
        scan = scan_texts([(i,) for i in range(len(chunk))], [_scanned_copy(t) for t in chunk])
        for pointer, hits in scan.by_pointer().items():
            text = chunk[int(pointer[1:])]
            masked[text] = masked_text(text, hits)
    if not masked:
        return list(texts)
    return [masked.get(text, text) for text in texts]


def mask_text(text: str) -> str:
    """``text`` with its suspected credentials masked (`mask_texts` of one). Short texts
    are remembered (`CACHED` of them): a view paints the same ids and pointers again and
    again, and `prime` scans a whole output's texts at once before it is written."""
    if not text:
        return text
    if len(text) > CACHED_CHARS:
        return _mask_one(text)
    found = _CACHE.get(text)
    if found is None:
        found = _remember(text, _mask_one(text))
    return found


def prime(texts: Iterable[str]) -> None:
    """Mask ``texts`` in one scan and remember them, so that the `mask_text` calls an
    output then makes one text at a time cost a look-up (a scan has a fixed cost per call:
    one per line of a 20,000-change diff doubled its time)."""
    wanted = [t for t in dict.fromkeys(texts) if t and len(t) <= CACHED_CHARS and t not in _CACHE]
    for text, masked in zip(wanted, mask_texts(wanted), strict=True):
        _remember(text, masked)


def _remember(text: str, masked: str) -> str:
    if len(_CACHE) >= CACHED:
        _CACHE.clear()  # bounded; a later look-up scans again
    _CACHE[text] = masked
    return masked


def _mask_one(text: str) -> str:
    scan = scan_texts(_ONE, [_scanned_copy(text)])
    return masked_text(text, scan.hits) if scan.hits else text


_CACHE: dict[str, str] = {}


def masked_clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters as `visible_text.clip` cuts it (its length
    said), masked first: only the first ``limit`` + `CUT_MARGIN` characters are scanned, so
    a one-line view of a megabyte text costs what the line shows, and a credential that
    runs across the cut is still found (and never shown in part)."""
    if len(text) <= limit:
        return mask_text(text)
    head = mask_text(text[: limit + CUT_MARGIN])
    return head[:limit] + f"… ({len(text):,} characters)"


def is_format_own(path: Sequence[str | int]) -> bool:
    """Whether the value at ``path`` (a document's member names and indexes) is one of the
    format's own random values: the packet's nonce, a signature, a MAC."""
    if not path:
        return False
    return path[-1] in FORMAT_OWN_NAMES or (len(path) > 1 and path[-2] == "signature")


def mask_json(value: JsonValue, keep: Callable[[Path], bool] | None = None) -> JsonValue:
    """``value`` with every string and every member name masked, in one scan; ``keep``
    names paths (in ``value``) whose string is shown as it is. A value with nothing to mask
    is returned as it is (not copied)."""
    texts: list[str] = []
    _collect(value, (), texts, keep)
    if not texts:
        return value
    masked = mask_texts(texts)
    if masked == texts:
        return value
    return _rebuild(value, (), iter(masked), keep)


def masked_count(value: JsonValue, keep: Callable[[Path], bool] | None = None) -> int:
    """How many of the strings and member names in ``value`` (each counted where it
    stands) hold a suspected credential — the texts `mask_json` would mask, in one scan of
    them all: linear in ``value``, whatever part of it a view shows."""
    texts: list[str] = []
    _collect(value, (), texts, keep)
    return sum(1 for text, masked in zip(texts, mask_texts(texts), strict=True) if masked != text)


def _collect(
    value: JsonValue, path: Path, texts: list[str], keep: Callable[[Path], bool] | None
) -> None:
    # Recursive: a value here is a document's (nested at most `reading.MAX_DEPTH` deep)
    # inside a few levels of a report.
    if isinstance(value, str):
        if keep is None or not keep(path):
            texts.append(value)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _collect(item, (*path, index), texts, keep)
    elif isinstance(value, dict):
        for key, item in value.items():
            texts.append(key)
            _collect(item, (*path, key), texts, keep)


def _rebuild(
    value: JsonValue, path: Path, it: Iterator[str], keep: Callable[[Path], bool] | None
) -> JsonValue:
    """``value`` again, its strings taken from ``it`` (in `_collect`'s order)."""
    if isinstance(value, str):
        return value if keep is not None and keep(path) else next(it)
    if isinstance(value, list):
        return [_rebuild(item, (*path, index), it, keep) for index, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, JsonValue] = {}
        for key, item in value.items():
            name = next(it)
            if name != key and name in out:  # two keys masked alike stay two members
                name = f"{name} #{len(out) + 1}"
            out[name] = _rebuild(item, (*path, key), it, keep)
        return out
    return value


def masked_visible(text: str) -> str:
    """A document's text as every front end prints it: suspected credentials masked
    (`mask_text`), then escaped (`visible_text.visible`)."""
    return visible(mask_text(text))


def masked_shown(text: str, limit: int) -> str:
    """A document's text as a one-line display prints it: masked and cut (`masked_clip`),
    then escaped; the masked form of `visible_text.shown`."""
    return visible(masked_clip(text, limit))
