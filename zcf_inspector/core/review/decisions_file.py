"""A decisions file (the `review` command's ``--decisions``): parsed into requests, every
malformed entry reported at once."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.findings import Finding, FindingBudget, Severity, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pointer import escape, join
from zcf_inspector.core.review.decisions import DECISION_KEYS, DecisionRequest, checked_text
from zcf_inspector.core.visible_text import clip


def parse_decision_requests(
    value: JsonValue, budget: FindingBudget | None = None
) -> tuple[list[DecisionRequest | None], list[Finding]]:
    """A decisions file ``[{"portableRef", "state", "note"?, "supersededBy"?}, …]``.

    Each malformed entry is ``None`` in the list, with its findings; the rest are kept so
    that every problem in the file is reported at once — into ``budget`` when given (a
    file may hold millions of bad entries), whose kept findings are returned.
    """
    budget = FindingBudget() if budget is None else budget
    if not isinstance(value, list):
        budget.add(error(ReviewCode.INVALID_DECISION, "", "a decisions file is a JSON array"))
        return [], list(budget.kept)
    requests: list[DecisionRequest | None] = []
    for index, entry in enumerate(value):
        found = _entry_problems(entry)
        for where, message in found:
            pointer = join(index) + where
            if budget.full:
                budget.tally(ReviewCode.INVALID_DECISION, Severity.ERROR, pointer)
            else:
                budget.add(error(ReviewCode.INVALID_DECISION, pointer, message()))
        if found or not isinstance(entry, dict):
            requests.append(None)
            continue
        requests.append(
            DecisionRequest(
                checked_text(entry["portableRef"]),
                checked_text(entry["state"]),
                _optional_text(entry.get("note")),
                _optional_text(entry.get("supersededBy")),
            )
        )
    return requests, list(budget.kept)


def _entry_problems(entry: JsonValue) -> list[tuple[str, Callable[[], str]]]:
    """(pointer under the entry, its message, phrased only if kept) for each problem."""
    if not isinstance(entry, dict):
        return [("", lambda: "a decision is a JSON object")]
    problems: list[tuple[str, Callable[[], str]]] = [
        ("/" + escape(key), partial(_unknown_key, key)) for key in entry if key not in DECISION_KEYS
    ]
    for key in ("portableRef", "state"):
        if key not in entry:
            problems.append(("", partial(str, f"{key} is missing")))
    for key in DECISION_KEYS:
        if key in entry and not isinstance(entry[key], str):
            problems.append(("/" + key, partial(str, f"{key} must be a string")))
    return problems


def _unknown_key(key: str) -> str:
    return f"unknown key {clip(key, 60)!r}"


def _optional_text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None
