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

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.pointer import join
from zcf_inspector.core.review.decisions import AdmittedBelief
from zcf_inspector.core.secrets.scan import SecretHit, SecretScan, scan_texts

Path = tuple[str | int, ...]
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
    rest = total - flagged
    if rest:
        no = f"No confirms the other {rest:,} and leaves {'that one' if one else 'those'} as"
        no += " it is." if one else " they are."
    else:
        no = "No confirms none of them."
    return (
        "Confirm suspected credentials?",
        f"{head}\n\nA destination agent acts on a confirmed belief. {no} The detail shows "
        "each value masked until you reveal it.",
    )


def scan_text(text: str) -> tuple[SecretHit, ...]:
    """The hits of one text (the earlier generation's content of a belief, shown beside
    the new one: bounded by ``maxBeliefBytes``, so scanned when shown)."""
    return scan_texts([("text",)], [text]).hits
