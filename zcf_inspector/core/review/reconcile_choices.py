"""The reconciler's choices file (``receipt reconcile --choices``): what the reconciled
receipt takes where the two reviewers did not agree.

    {"disagreed": "a" | "b" | "leave",        // default "leave"
     "oneSided": "take" | "leave",            // default "leave"
     "note": "why, in the reconciler's words",  // optional, put in front of every note
     "beliefs": {"PORTABLE_REF": "a" | "b" | "leave"
                               | {"state": ..., "note"?: ..., "supersededBy"?: ...}}}

``disagreed`` is the rule for every belief both reviewers decided differently: take
reviewer A's decision, B's, or leave it undecided. ``oneSided`` is the rule for a belief
only one of them decided: take that decision, or leave it. ``beliefs`` names single
beliefs and wins over both rules (and over an agreement): ``"a"``/``"b"`` takes that
reviewer's decision, ``"leave"`` leaves it undecided, an object is the reconciler's own
decision. Agreed beliefs are taken as agreed unless ``beliefs`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, TypeVar

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pointer import escape
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import DECISION_KEYS, DecisionRequest
from zcf_inspector.core.visible_text import shown

CHOICES_MAX_BYTES: Final = 64 * 1024 * 1024
_KEYS: Final = frozenset({"disagreed", "oneSided", "note", "beliefs"})
_E = TypeVar("_E", bound=StrEnum)


class Take(StrEnum):
    A = "a"
    B = "b"
    LEAVE = "leave"


class OneSided(StrEnum):
    TAKE = "take"
    LEAVE = "leave"


class ChoicesFileError(InputError):
    """A choices file that cannot be used: the message names the member at fault."""

    code = "choices_file_invalid"


@dataclass(frozen=True, slots=True)
class Choices:
    disagreed: Take = Take.LEAVE
    one_sided: OneSided = OneSided.LEAVE
    note: str | None = None
    beliefs: dict[str, Take | DecisionRequest] = field(default_factory=dict)


NO_CHOICES: Final = Choices()


def read_choices(data: bytes) -> Choices:
    """Parse a choices file's bytes (strict JSON).

    Raises:
        ChoicesFileError: not strict JSON, or a member that is not as documented above.
    """
    try:
        value = read_json(data, max_bytes=CHOICES_MAX_BYTES)
    except ReadError as exc:
        raise ChoicesFileError(f"the choices file is not strict JSON: {exc}") from exc
    return parse_choices(value)


def parse_choices(value: JsonValue) -> Choices:
    if not isinstance(value, dict):
        raise ChoicesFileError("a choices file is a JSON object")
    unknown = [k for k in value if k not in _KEYS]
    if unknown:
        raise ChoicesFileError(f"/{escape(shown(unknown[0], 60))}: unknown member")
    disagreed = _enum(value, "disagreed", Take, Take.LEAVE)
    one_sided = _enum(value, "oneSided", OneSided, OneSided.LEAVE)
    note = value.get("note")
    if note is not None and not isinstance(note, str):
        raise ChoicesFileError("/note: must be a string")
    beliefs = value.get("beliefs", {})
    if not isinstance(beliefs, dict):
        raise ChoicesFileError("/beliefs: must be an object of portableRef → choice")
    parsed: dict[str, Take | DecisionRequest] = {}
    for ref, choice in beliefs.items():
        parsed[ref] = _choice(ref, choice)
    return Choices(disagreed, one_sided, note or None, parsed)


def _enum(value: dict[str, JsonValue], name: str, kind: type[_E], default: _E) -> _E:
    given = value.get(name, str(default))
    allowed = [str(member) for member in kind]
    if not isinstance(given, str) or given not in allowed:
        raise ChoicesFileError(f"/{name}: must be one of {', '.join(allowed)}")
    return kind(given)


def _choice(ref: str, choice: JsonValue) -> Take | DecisionRequest:
    where = f"/beliefs/{escape(shown(ref, 60))}"
    if isinstance(choice, str):
        if choice not in {str(t) for t in Take}:
            raise ChoicesFileError(f"{where}: must be a, b, leave or a decision object")
        return Take(choice)
    if not isinstance(choice, dict):
        raise ChoicesFileError(f"{where}: must be a, b, leave or a decision object")
    for key in choice:
        if key not in DECISION_KEYS - {"portableRef"}:
            raise ChoicesFileError(f"{where}/{escape(shown(key, 60))}: unknown member")
    for key, item in choice.items():
        if not isinstance(item, str):
            raise ChoicesFileError(f"{where}/{escape(key)}: must be a string")
    state = choice.get("state")
    if not isinstance(state, str):
        raise ChoicesFileError(f"{where}/state: is missing")
    note, replacement = choice.get("note"), choice.get("supersededBy")
    return DecisionRequest(
        ref,
        state,
        note if isinstance(note, str) else None,
        replacement if isinstance(replacement, str) else None,
    )
