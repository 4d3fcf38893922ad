"""Suspected credentials in a review (issue 20, point 4): which admitted beliefs and
evidence texts the secret scan flags, those texts masked, and the words of the bulk
confirm's second question.

The scan is the core's (`core.secrets.scan.scan_texts`) over what the reviewer decides
on: each belief's content *as admitted* (cut at ``maxBeliefBytes``, which is what a
destination agent will act on), and the evidence texts the detail shows beside it —
anchors' locators and excerpts, sources' locators, receipts' and verification entries'
summaries, and the packet's review events' notes (its history). Run once per open, on
the runner. A hit holds no value (only where it is and a masked form), so nothing here
can carry a credential on: a receipt records decisions, never content, and the words
below never quote a text.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import PreviousGeneration
from zcf_inspector.core.review.target import AdmittedBelief
from zcf_inspector.core.secrets.scan import SecretHit, SecretScan, scan_texts

Path = tuple[str | int, ...]
NOTE_SCAN_CHARS: Final = 4096  # of a decision's note scanned (`masked_note`)
NOTE_CACHE: Final = 4096  # distinct notes kept masked (`masked_note`)
# The evidence texts scanned beside the beliefs: (section, fields) of ``content``.
EVIDENCE_FIELDS: Final = (
    ("evidenceSources", ("locator",)),
    ("evidenceAnchors", ("locator", "excerpt")),
    ("receipts", ("summary",)),
    ("verification", ("summary",)),
    ("reviewEvents", ("note",)),  # the detail's history shows them
)
ROW_MARK: Final = "suspected credential, masked"


def belief_pointer(row: int) -> str:
    """The i-th admitted belief is the i-th belief of the packet (admission keeps the
    first ones, in order)."""
    return join("content", "beliefs", row)


@dataclass(frozen=True, slots=True)
class ReviewSecrets:
    """The scan's hits by the pointer of the text they are in, and by belief."""

    by_pointer: Mapping[str, tuple[SecretHit, ...]] = field(default_factory=dict)
    by_ref: Mapping[str, tuple[SecretHit, ...]] = field(default_factory=dict)  # content hits
    texts: int = 0
    # The portableRefs of the beliefs whose admitted content holds a hit (made once: a
    # bulk step and the table's filter read it).
    flagged: frozenset[str] = frozenset()

    def of(self, pointer: str) -> tuple[SecretHit, ...]:
        return self.by_pointer.get(pointer, ())


NO_SECRETS: Final = ReviewSecrets()


def review_texts(
    packet: Mapping[str, JsonValue], beliefs: Sequence[AdmittedBelief]
) -> tuple[list[Path], list[str]]:
    paths: list[Path] = []
    texts: list[str] = []
    for row, belief in enumerate(beliefs):
        paths.append(("content", "beliefs", row, "content"))
        texts.append(belief.content)
    content = packet.get("content")
    for section, names in EVIDENCE_FIELDS:
        items = content.get(section) if isinstance(content, dict) else None
        for index, item in enumerate(items if isinstance(items, list) else ()):
            if not isinstance(item, dict):
                continue
            for name in names:
                text = item.get(name)
                if isinstance(text, str):
                    paths.append(("content", section, index, name))
                    texts.append(text)
    return paths, texts


def scan_review(
    packet: Mapping[str, JsonValue],
    beliefs: Sequence[AdmittedBelief],
    monitor: Monitor = NULL_MONITOR,
) -> ReviewSecrets:
    """Worker-thread work (the scan of 200,000 beliefs takes a few hundred milliseconds)."""
    paths, texts = review_texts(packet, beliefs)
    return from_scan(scan_texts(paths, texts, monitor), beliefs)


def from_scan(scan: SecretScan, beliefs: Sequence[AdmittedBelief]) -> ReviewSecrets:
    by_pointer: dict[str, list[SecretHit]] = {}
    for hit in scan.hits:
        by_pointer.setdefault(hit.pointer, []).append(hit)
    by_ref: dict[str, tuple[SecretHit, ...]] = {}
    # From the hits (a few), not from every belief (200,000 pointers made for nothing).
    for pointer, hits in by_pointer.items():
        row = _belief_row(pointer)
        if row is not None and row < len(beliefs):
            by_ref.setdefault(beliefs[row].portable_ref, tuple(hits))
    return ReviewSecrets(
        {k: tuple(v) for k, v in by_pointer.items()}, by_ref, scan.texts, frozenset(by_ref)
    )


def _belief_row(pointer: str) -> int | None:
    """N of ``/content/beliefs/N/content`` (the pointers `review_texts` gives them)."""
    head, tail = "/content/beliefs/", "/content"
    if not (pointer.startswith(head) and pointer.endswith(tail)):
        return None
    middle = pointer[len(head) : -len(tail)]
    return int(middle) if middle.isdigit() else None


def masked(text: str, hits: Sequence[SecretHit]) -> str:
    """``text`` with each hit's characters replaced by its masked form (not yet escaped:
    the caller escapes the result by the one rule)."""
    for hit in sorted(hits, key=lambda h: h.start, reverse=True):
        if hit.start < len(text):
            text = text[: hit.start] + hit.masked + text[hit.end :]
    return text


def hit_words(hits: Sequence[SecretHit]) -> str:
    """ "may hold a GitHub token and a password in a URL (masked)" — kinds only."""
    labels = list(dict.fromkeys(hit.label for hit in hits))
    listed = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    return f"may hold {listed}; shown masked"


def flagged_among(refs: Sequence[str], flagged: Collection[str]) -> tuple[str, ...]:
    """The refs of ``refs`` the scan flags, in order."""
    if not flagged:
        return ()
    return tuple(ref for ref in refs if ref in flagged)


COPY_TITLE: Final = "Copy a suspected credential?"


def copy_secret_question(what: str, it: str) -> tuple[str, str]:
    """The question (title, text) before a copy puts a flagged text on the clipboard as
    the packet holds it — the review detail's Copy raw value and the tree's Copy Value
    and Copy Canonical JSON alike: ``what`` holds it ("This belief's content"), ``it``
    is what is copied ("the content")."""
    return (
        COPY_TITLE,
        f"{what} holds a suspected credential, shown masked. Copy {it} to the clipboard as "
        "the packet holds it, the credential included?",
    )


FLAGGED_TITLE: Final = "Confirm suspected credentials?"
_FLAGGED_TAIL: Final = "The detail shows each value masked until you reveal it."


def confirm_flagged_question(flagged: int, total: int) -> tuple[str, str]:
    """The bulk confirm's second question (title, text) when ``flagged`` of the ``total``
    beliefs it would confirm may hold a credential: "3 of these beliefs may contain a
    credential — confirm them too?"."""
    one = flagged == 1
    if total == 1:
        head = "This belief may contain a credential — confirm it too?"
    else:
        head = f"{flagged:,} of these {total:,} beliefs may contain a credential — " + (
            "confirm it too?" if one else "confirm them too?"
        )
    no = what_no_does(flagged, total)
    return (
        FLAGGED_TITLE,
        f"{head}\n\nA destination agent acts on a confirmed belief. {no} {_FLAGGED_TAIL}",
    )


def what_no_does(flagged: int, total: int) -> str:
    """What No does in a bulk confirm's question (this one's, and the hostile text's)."""
    rest = total - flagged
    if not rest:
        return "No confirms none of them."
    one = flagged == 1
    return f"No confirms the other {rest:,} and leaves {'that one' if one else 'those'} as" + (
        " it is." if one else " they are."
    )


def repeat_flagged_question(flagged: int, total: int) -> tuple[str, str]:
    """The same second question before repeating earlier decisions (the carry-over),
    when ``flagged`` of the ``total`` decisions it repeats confirm a belief that may hold
    a credential: the earlier reviewer's confirm is no answer to it (the scan is this
    destination's, now)."""
    one = flagged == 1
    them = "it" if one else "them"
    head = (
        f"{flagged:,} of the {total:,} earlier decisions to repeat "
        + ("confirms a belief that" if one else "confirm beliefs that")
        + f" may contain a credential — confirm {them} too?"
    )
    rest = total - flagged
    left = "that belief" if one else "those beliefs"
    if rest:
        no = f"No repeats the other {rest:,} and leaves {left} as {'it is' if one else 'they are'}."
    else:
        no = "No repeats none of them."
    return (
        FLAGGED_TITLE,
        f"{head}\n\nA destination agent acts on a confirmed belief. {no} {_FLAGGED_TAIL}",
    )


def flagged_repeats(
    previous: PreviousGeneration, last: Mapping[str, Decision], flagged: Collection[str]
) -> tuple[str, ...]:
    """The flagged beliefs the carry-over would confirm: candidates (unchanged, so their
    content is the one the scan flags) this review has not decided yet whose earlier
    state is confirmed — `core.review.previous.repeatable`'s rule. Nothing to read when
    the scan flags nothing, the common case; else one pass over the candidates."""
    if not flagged:
        return ()
    found = []
    for candidate in previous.candidates:
        ref = candidate.portable_ref
        if ref not in flagged or candidate.earlier.state is not ReviewState.CONFIRMED:
            continue
        mine = last.get(ref)
        if mine is None or mine.state is ReviewState.UNREVIEWED:
            found.append(ref)
    return tuple(found)


@functools.lru_cache(maxsize=NOTE_CACHE)
def masked_note(note: str) -> str:
    """A decision's note with any suspected credential masked, as every front of the review
    reads it (its cell, the detail's history, the text filter). A note is the reviewer's,
    or an earlier receipt's carried over with its decision, and the scan at open read
    neither; its first `NOTE_SCAN_CHARS` characters are scanned (what is shown, and past
    it: a credential that starts inside runs on). Cached: a bulk step gives thousands of
    decisions one note, and rows are painted and filtered again and again."""
    text = note[:NOTE_SCAN_CHARS]
    hits = scan_text(text)
    return masked(text, hits) if hits else note


def scan_text(text: str) -> tuple[SecretHit, ...]:
    """The hits of one text (the earlier generation's content of a belief, shown beside
    the new one: bounded by ``maxBeliefBytes``, so scanned when shown)."""
    return scan_texts([("text",)], [text]).hits
