"""Human review of admitted beliefs (profile §6 ``review``): one decision and its rules.

A decision sets one admitted belief's review state. What a reviewer asks for is a
`DecisionRequest`; `check_request` names every rule it breaks, and a checked request
becomes a `Decision`. The rest of a review lives beside this module: what is under review
(`review.target`), the decisions made so far with undo and redo (`review.session`), a
decisions file (`review.decisions_file`) and whether a receipt belongs to a packet
(`review.receipt_match`).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import RefusalError
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.formats import ReviewState, is_id
from zcf_inspector.core.jsontypes import JsonValue

NOTE_REQUIRED_STATES = frozenset({ReviewState.REJECTED, ReviewState.SUPERSEDED})
DECISION_KEYS = frozenset({"portableRef", "state", "note", "supersededBy"})
_STATES = frozenset(s.value for s in ReviewState)


class ReviewError(RefusalError):
    """A refused review operation; ``findings`` holds every reason, each with its code, and
    ``code`` is the first reason's `ReviewCode` (``review_refused`` only if none is given)."""

    code = "review_refused"

    def __init__(self, findings: Sequence[Finding]) -> None:
        self.findings = tuple(findings)
        super().__init__("; ".join(f"{f.code}: {f.message}" for f in self.findings))
        if self.findings:
            self.code = self.findings[0].code


def refuse(code: ReviewCode, message: str, pointer: str = "") -> ReviewError:
    return ReviewError([error(code, pointer, message)])


class AdmittedRefs(tuple[str, ...]):
    """The admitted portableRefs in packet order, with set-speed membership.

    Every decision is checked against them (``ref in refs``): a bulk step or a replayed
    journal of 10,000 decisions over 10,000 beliefs must not cost 10,000 linear scans.
    """

    _known: frozenset[str]

    def __new__(cls, refs: Iterable[str]) -> AdmittedRefs:
        made = super().__new__(cls, refs)
        made._known = frozenset(made)
        return made

    def __contains__(self, ref: object) -> bool:
        # Only strings are refs; anything else (a hostile list, say) is not one, never an error.
        return isinstance(ref, str) and ref in self._known


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """What a reviewer asks for, before the rules have seen it (``state`` may be illegal)."""

    portable_ref: str
    state: str
    note: str | None = None
    superseded_by: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    portable_ref: str
    state: ReviewState
    reviewer: str
    at: str
    note: str | None = None
    superseded_by: str | None = None

    def to_json(self) -> dict[str, JsonValue]:
        """The wire object, keys in the profile's order (the file bytes depend on it)."""
        out: dict[str, JsonValue] = {
            "portableRef": self.portable_ref,
            "state": str(self.state),
            "reviewer": self.reviewer,
            "at": self.at,
        }
        if self.note is not None:
            out["note"] = self.note
        if self.superseded_by is not None:
            out["supersededBy"] = self.superseded_by
        return out


def normal_note(note: str | None) -> str | None:
    # An empty note field means "no note": the window and the CLI must write the same bytes.
    return None if note is None or note == "" else note


def check_request(
    request: DecisionRequest, refs: Iterable[str], pointer: str = ""
) -> list[Finding]:
    """Every rule one decision breaks, whatever the belief's current state."""
    known: Container[str] = refs if isinstance(refs, AdmittedRefs | AbstractSet) else set(refs)
    problems: list[Finding] = []
    if request.portable_ref not in known:
        problems.append(
            error(
                ReviewCode.UNKNOWN_PORTABLE_REF,
                pointer + "/portableRef",
                f"{request.portable_ref!r} is not the portableRef of an admitted belief",
            )
        )
    if request.state not in _STATES:
        problems.append(
            error(
                ReviewCode.ILLEGAL_STATE,
                pointer + "/state",
                f"{request.state!r} is not a review state "
                "(unreviewed, confirmed, rejected, superseded)",
            )
        )
        return problems
    state = ReviewState(request.state)
    note = normal_note(request.note)
    if state in NOTE_REQUIRED_STATES and (note is None or not note.strip()):
        problems.append(
            error(ReviewCode.NOTE_REQUIRED, pointer + "/note", f"a {state} decision needs a note")
        )
    problems.extend(_check_replacement(request, state, known, pointer + "/supersededBy"))
    return problems


def _check_replacement(
    request: DecisionRequest, state: ReviewState, known: Container[str], pointer: str
) -> list[Finding]:
    replacement = request.superseded_by
    if state is not ReviewState.SUPERSEDED:
        if replacement is None:
            return []
        message = f"supersededBy is only given for a superseded belief, not a {state} one"
    elif replacement is None:
        message = "a superseded belief names the belief that replaces it (supersededBy)"
    elif replacement == request.portable_ref:
        message = f"{replacement!r} cannot supersede itself"
    elif replacement not in known:
        message = f"supersededBy {replacement!r} is not the portableRef of an admitted belief"
    else:
        return []
    return [error(ReviewCode.SUPERSEDED_BY_INVALID, pointer, message)]


def check_reviewer(reviewer: str) -> None:
    if not is_id(reviewer):
        raise refuse(
            ReviewCode.INVALID_REVIEWER,
            f"reviewer {reviewer!r} is not an id (1-256 characters, none below U+0020)",
        )


def make_decision(request: DecisionRequest, reviewer: str, at: str) -> Decision:
    """A checked request as a decision; call ``check_request`` first."""
    return Decision(
        request.portable_ref,
        ReviewState(request.state),
        reviewer,
        at,
        normal_note(request.note),
        request.superseded_by,
    )


def checked_text(value: JsonValue) -> str:
    assert isinstance(value, str)  # checked by structure or by the caller
    return value
