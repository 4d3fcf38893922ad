"""The bulk confirm's question for beliefs whose text holds hidden characters or mixes
scripts (the hostile-text scan, `core.hostile`): confirmed only when the reviewer says so
apart from the others, as the secret scan's flagged beliefs are (`secrets`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from zcf_inspector.core.hostile.scan import text_hit
from zcf_inspector.present.review.secrets import what_no_does

HOSTILE_TITLE: Final = "Confirm text with hidden characters?"


def hostile_among(refs: Sequence[str], content: Callable[[str], str | None]) -> tuple[str, ...]:
    """The refs of ``refs`` whose admitted content holds what the hostile-text scan
    reports (bidi controls, invisible or control characters, a word mixing scripts)."""
    found: list[str] = []
    for ref in refs:
        text = content(ref)
        if text is not None and text_hit(text, "") is not None:
            found.append(ref)
    return tuple(found)


def confirm_hostile_question(flagged: int, total: int) -> tuple[str, str]:
    """The bulk confirm's question (title, text) when ``flagged`` of the ``total`` beliefs
    it would confirm hold hidden characters or mixed scripts."""
    one = flagged == 1
    if total == 1:
        head = "This belief holds hidden characters or mixed scripts — confirm it too?"
    else:
        verb, pronoun = ("holds", "it") if one else ("hold", "them")
        head = (
            f"{flagged:,} of these {total:,} beliefs {verb} hidden characters or mixed "
            f"scripts — confirm {pronoun} too?"
        )
    no = what_no_does(flagged, total)
    return (
        HOSTILE_TITLE,
        f"{head}\n\nA destination agent acts on a confirmed belief, and such a text may read "
        f"otherwise than it is (each hidden character is shown escaped in the detail; "
        f"Findings names each). {no}",
    )
