"""Old text beside new: which characters of a belief's content changed since the previous
generation, as spans in the two texts as shown (issue 20, point 5).

Pure Python (`difflib`), so the review's detail only paints the spans it is given. Each
text is escaped by the one rule (`core.visible_text.visible_lines`, which keeps line
breaks) piece by piece — an equal run, a removed run, an inserted run — so a span covers
exactly the escaped form of the characters that changed (an invisible character that was
added shows as its escape, highlighted). Spans are in UTF-16 code units, the positions a
text widget counts (a character beyond the BMP is two).

Bounded: the common prefix and suffix are cut first (a typical edit leaves most of a
belief alone), each taken back to a word's edge so a changed word is marked whole; what
is left between them is compared word by word when it is small enough
(`SequenceMatcher` is quadratic in the worst case), else that middle is one changed span
on each side. Spaces between two changed words are marked with them: one span a phrase.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Final

from zcf_inspector.core.visible_text import visible_lines

# Tokens of each middle compared: their product bounds the matcher's work. Its worst cases
# grow faster than the product (repeated tokens make `find_longest_match` rescan): 1,000
# random words of a 150-word vocabulary a side took 25-90 ms, 199 alternating tokens a
# side 77 ms (`tests/perf/bench_review_evidence`); past this the middle is one span.
TOKEN_DIFF_LIMIT: Final = 1_000_000
# What is compared between the common prefix and suffix: words, runs of spaces, and each
# other character on its own — a changed word is marked whole, which reads better than
# the scattered letters a character diff leaves ("int" → "float" keeps no "n" or "t").
_TOKENS: Final = re.compile(r"\w+|\s+|[^\w\s]", re.DOTALL)
_WORD: Final = re.compile(r"\w")
SHOWN_LIMIT: Final = 1_000_000  # characters of each text shown (admission cuts far shorter)


@dataclass(frozen=True, slots=True)
class ShownText:
    """A text as shown (escaped) and its changed spans: (start, length) in UTF-16 units."""

    text: str
    spans: tuple[tuple[int, int], ...]

    def changed(self) -> tuple[str, ...]:
        """The shown text of each span (for tests and the accessible description)."""
        units = self.text.encode("utf-16-le", "surrogatepass")
        return tuple(
            units[2 * start : 2 * (start + length)].decode("utf-16-le", "surrogatepass")
            for start, length in self.spans
        )


@dataclass(frozen=True, slots=True)
class TextChange:
    earlier: ShownText  # what the previous generation admitted: removed runs marked
    now: ShownText  # what is admitted now: inserted runs marked

    @property
    def same(self) -> bool:
        return not self.earlier.spans and not self.now.spans


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.at = 0

    def add(self, raw: str, *, changed: bool) -> None:
        if not raw:
            return
        shown = visible_lines(raw, len(raw))  # no cut here: the caller's (`SHOWN_LIMIT`)
        length = _units(shown)
        if changed:
            if self.spans and sum(self.spans[-1]) == self.at:
                start, before = self.spans.pop()  # adjacent changed runs: one span
                self.spans.append((start, before + length))
            else:
                self.spans.append((self.at, length))
        self.parts.append(shown)
        self.at += length

    def done(self) -> ShownText:
        return ShownText("".join(self.parts), tuple(self.spans))


def _opcodes(old: list[str], new: list[str]) -> Sequence[tuple[str, int, int, int, int]]:
    """`SequenceMatcher`'s opcodes of ``old`` → ``new``, the longer side given as its
    second sequence: that is the side whose popular tokens (spaces, "the") autojunk sets
    aside, which keeps repeated tokens from making the match search rescan them."""
    if len(new) >= len(old):
        return SequenceMatcher(None, old, new, autojunk=True).get_opcodes()
    swapped = SequenceMatcher(None, new, old, autojunk=True).get_opcodes()
    inverse = {"insert": "delete", "delete": "insert"}
    return [(inverse.get(tag, tag), i1, i2, j1, j2) for tag, j1, j2, i1, i2 in swapped]


def text_change(earlier: str, now: str) -> TextChange:
    """The two texts as shown, with what was removed from ``earlier`` and what was
    inserted into ``now`` marked."""
    earlier, now = earlier[:SHOWN_LIMIT], now[:SHOWN_LIMIT]
    prefix = 0
    shortest = min(len(earlier), len(now))
    while prefix < shortest and earlier[prefix] == now[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < shortest - prefix
        and earlier[len(earlier) - 1 - suffix] == now[len(now) - 1 - suffix]
    ):
        suffix += 1
    # Back to a word's edge, so a changed word is marked whole (and compared as one token).
    while prefix and _WORD.match(earlier[prefix - 1]):
        prefix -= 1
    while suffix and _WORD.match(earlier[len(earlier) - suffix]):
        suffix -= 1
    old_middle = earlier[prefix : len(earlier) - suffix]
    new_middle = now[prefix : len(now) - suffix]
    old, new = _Builder(), _Builder()
    old.add(earlier[:prefix], changed=False)
    new.add(now[:prefix], changed=False)
    old_tokens, new_tokens = _TOKENS.findall(old_middle), _TOKENS.findall(new_middle)
    if old_tokens and new_tokens and len(old_tokens) * len(new_tokens) <= TOKEN_DIFF_LIMIT:
        codes = _opcodes(old_tokens, new_tokens)
        for k, (tag, i1, i2, j1, j2) in enumerate(codes):
            kept = "".join(old_tokens[i1:i2])
            # Spaces between two changes are marked with them: one span per changed phrase.
            between = tag == "equal" and 0 < k < len(codes) - 1 and kept.isspace()
            old.add(kept, changed=tag != "equal" or between)
            new.add("".join(new_tokens[j1:j2]), changed=tag != "equal" or between)
    else:
        old.add(old_middle, changed=True)
        new.add(new_middle, changed=True)
    old.add(earlier[len(earlier) - suffix :], changed=False)
    new.add(now[len(now) - suffix :], changed=False)
    return TextChange(old.done(), new.done())
