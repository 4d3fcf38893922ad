"""A journal's verified rows replayed into the review session they describe; a row the
rules refuse makes the whole journal refused."""

from __future__ import annotations

from collections.abc import Sequence

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState, is_id, is_timestamp
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.decisions import (
    Decision,
    DecisionRequest,
    ReviewError,
    check_request,
    refuse,
)
from zcf_inspector.core.review.journal_files import ROW_CHUNK, Row
from zcf_inspector.core.review.session import ReviewSession, Step
from zcf_inspector.core.review.target import ReviewTarget


def replay(
    rows: Sequence[Row], target: ReviewTarget, monitor: Monitor = NULL_MONITOR
) -> ReviewSession:
    """The session the rows describe; a row the rules refuse makes the whole journal refused."""
    session = ReviewSession(target)
    pending: list[Decision] = []
    pending_step = 0
    for number, row in enumerate(rows):
        if number % ROW_CHUNK == 0:
            monitor.breathe()
        op, step = row[4], row[5]
        if pending and (op != "decide" or step != pending_step):
            _apply(session, Step(pending_step, tuple(pending)), monitor)
            pending = []
        if op == "decide":
            pending.append(_decision(row, target))
            pending_step = step
        else:
            _replay_op(session, op, step, row[0], monitor)
    if pending:
        _apply(session, Step(pending_step, tuple(pending)), monitor)
    return session


def _replay_op(session: ReviewSession, op: str, step: int, seq: int, monitor: Monitor) -> None:
    try:
        if op == "undo":
            session.undo(step, monitor)
        elif op == "redo":
            session.redo(step, monitor)
        elif op == "export":
            session.seal()
        else:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"unknown operation {op!r}")
    except ReviewError as exc:
        raise refuse(
            ReviewCode.JOURNAL_CORRUPT, f"review journal row {seq} cannot be replayed: {exc}"
        ) from exc


def _apply(session: ReviewSession, step: Step, monitor: Monitor) -> None:
    try:
        session.apply(step, monitor)
    except ReviewError as exc:
        raise refuse(ReviewCode.JOURNAL_CORRUPT, f"review journal: {exc}") from exc


def _decision(row: Row, target: ReviewTarget) -> Decision:
    seq, ref, state, reviewer, at, note, replacement = row[0], *row[6:12]
    if ref is None or state is None or not is_id(reviewer) or not is_timestamp(at):
        raise refuse(ReviewCode.JOURNAL_CORRUPT, f"review journal row {seq} is incomplete")
    assert reviewer is not None
    assert at is not None
    problems = check_request(DecisionRequest(ref, state, note, replacement), target.refs)
    if problems:
        code = (
            ReviewCode.JOURNAL_MISMATCH
            if problems[0].code is ReviewCode.UNKNOWN_PORTABLE_REF
            else ReviewCode.JOURNAL_CORRUPT
        )
        raise refuse(code, f"review journal row {seq} is refused: {problems[0].message}")
    return Decision(ref, ReviewState(state), reviewer, at, note, replacement)
