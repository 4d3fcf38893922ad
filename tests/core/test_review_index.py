"""The decision index kept beside a review's steps, and a large step made off the UI
thread: prepared on a copy, journalled (cancellable until the commit), then installed."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.many_beliefs import many_target
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.review.decisions import Decision, DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget

NOW = g.NOW
STATES = (ReviewState.CONFIRMED, ReviewState.UNREVIEWED, ReviewState.REJECTED)


class StopAfter(Monitor):
    """A real monitor, cancelled once its work has passed ``points`` cancellation points."""

    def __init__(self, points: int) -> None:
        super().__init__()
        self.points = points
        self.passed = 0

    def breathe(self) -> None:
        self.passed += 1
        if self.passed > self.points:
            self.cancel()
        super().breathe()


def walked(session: ReviewSession) -> tuple[dict[str, Decision], dict[ReviewState, int]]:
    """Each belief's last decision and the counts, by walking every decision (as before
    the index existed)."""
    last = {d.portable_ref: d for d in session.decisions}
    counts = dict.fromkeys(ReviewState, 0)
    for ref in session.target.refs:
        counts[last[ref].state if ref in last else ReviewState.UNREVIEWED] += 1
    return last, counts


def requests(target: ReviewTarget, rng: random.Random, size: int) -> list[DecisionRequest]:
    refs = rng.sample(list(target.rows), size)
    out = []
    for ref in refs:
        state = rng.choice(STATES)
        note = "stale" if state is ReviewState.REJECTED else None
        out.append(DecisionRequest(ref, state, note))
    return out


def test_the_index_agrees_with_walking_every_decision() -> None:
    target = many_target(300)
    session = ReviewSession(target)
    rng = random.Random(7)
    for _ in range(60):
        move = rng.random()
        if move < 0.2 and session.can_undo:
            session.undo(session.undo_candidate().number)
        elif move < 0.3 and session.can_redo:
            session.redo(session.redo_candidate().number)
        else:
            session.apply(session.plan(requests(target, rng, rng.randint(1, 40)), "carol", NOW))
        last, counts = walked(session)
        assert dict(session.last_decisions()) == last
        assert session.summary().counts == counts
        assert session.summary().total == len(target.refs)
        for ref in rng.sample(list(target.rows), 20):
            assert session.history_of(ref) == tuple(
                d for d in session.decisions if d.portable_ref == ref
            )
            assert session.state_of(ref) is (
                last[ref].state if ref in last else ReviewState.UNREVIEWED
            )


def test_a_ref_admitted_twice_counts_twice() -> None:
    base = many_target(4)
    twice = ReviewTarget(base.receipt, (*base.beliefs, base.beliefs[0]), base.packet)
    session = ReviewSession(twice)
    assert session.summary().counts[ReviewState.UNREVIEWED] == 5
    session.apply(session.plan([DecisionRequest("b-000000", "confirmed")], "carol", NOW))
    assert session.summary().counts[ReviewState.CONFIRMED] == 2
    assert twice.rows["b-000000"] == 0  # its first row
    session.undo(1)
    assert session.summary().counts[ReviewState.UNREVIEWED] == 5


def test_prepare_leaves_the_session_and_commit_installs_the_same_state() -> None:
    target = many_target(200)
    rng = random.Random(3)
    plain, staged = ReviewSession(target), ReviewSession(target)
    for _ in range(12):
        batch = requests(target, rng, 50)
        for session in (plain, staged):
            step = session.plan(batch, "carol", NOW)
            if session is plain:
                session.apply(step)
                continue
            before = dict(session.last_decisions())
            prepared = session.prepare("apply", step)
            assert dict(session.last_decisions()) == before  # untouched until commit
            session.commit(prepared)
        assert dict(staged.last_decisions()) == dict(plain.last_decisions())
    plain.undo(plain.undo_candidate().number)
    staged.commit(staged.prepare("undo", staged.undo_candidate()))
    assert staged.summary() == plain.summary()
    plain.redo(plain.redo_candidate().number)
    staged.commit(staged.prepare("redo", staged.redo_candidate()))
    assert staged.decisions == plain.decisions
    assert staged.summary() == plain.summary()


def test_a_prepared_step_is_refused_when_the_session_moved_on() -> None:
    target = many_target(20)
    session = ReviewSession(target)
    step = session.plan([DecisionRequest("b-000001", "confirmed")], "carol", NOW)
    prepared = session.prepare("apply", step)
    session.apply(session.plan([DecisionRequest("b-000002", "confirmed")], "carol", NOW))
    with pytest.raises(ReviewError) as caught:
        session.commit(prepared)
    assert caught.value.code is ReviewCode.JOURNAL_CONFLICT
    assert session.state_of("b-000001") is ReviewState.UNREVIEWED


def journal_rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT * FROM entry ORDER BY seq").fetchall()


def everything(target: ReviewTarget) -> list[DecisionRequest]:
    return [DecisionRequest(ref, "confirmed") for ref in target.rows]


# Cancellation points: 1 (progress) and 2-4 checking the requests, 5 and 6-8 the index
# after them, 9 and 10-11 writing rows, 12 the last before the commit.
@pytest.mark.parametrize("points", [0, 5, 9, 11])
def test_cancelled_before_the_commit_writes_nothing(tmp_path: Path, points: int) -> None:
    """Cancelled anywhere up to the commit: no row, the session as it was."""
    target = many_target(5_000)
    keys = tmp_path / "keys"
    review = JournaledReview.open(tmp_path / "j", target, keys=keys)
    review.decide([DecisionRequest("b-000003", "confirmed")], "carol", NOW)
    path = journal_path(tmp_path / "j", target.correlation_id)
    before = journal_rows(path)
    with pytest.raises(Cancelled):
        review.write_decision(everything(target), "carol", NOW, StopAfter(points))
    assert journal_rows(path) == before
    assert review.session.summary().counts[ReviewState.CONFIRMED] == 1
    # The journal is still in step with the session: the next step is written after it.
    review.decide([DecisionRequest("b-000004", "confirmed")], "carol", NOW)
    again = JournaledReview.open(tmp_path / "j", target, keys=keys)
    assert again.session.decisions == review.session.decisions


def test_a_written_step_is_durable_and_installed_whole(tmp_path: Path) -> None:
    target = many_target(3_000)
    keys = tmp_path / "keys"
    review = JournaledReview.open(tmp_path / "j", target, keys=keys)
    prepared = review.write_decision(everything(target), "carol", NOW, Monitor())
    # Written, not yet installed: a restore already has it.
    assert review.session.decisions == ()
    restored = JournaledReview.open(tmp_path / "j", target, keys=keys)
    assert restored.session.summary().counts[ReviewState.CONFIRMED] == 3_000
    review.install(prepared)
    assert review.session.summary().counts[ReviewState.CONFIRMED] == 3_000
    review.install(review.write_undo(Monitor()))
    assert review.session.summary().counts[ReviewState.CONFIRMED] == 0
    review.install(review.write_redo(Monitor()))
    assert JournaledReview.open(tmp_path / "j", target, keys=keys).session.decisions == (
        review.session.decisions
    )


KILLED_MID_STEP = """
import os, sys
from pathlib import Path
from goldens import generate as g
from tests.core.many_beliefs import many_target
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.journal import JournaledReview

class Killed(Monitor):
    calls = 0
    def breathe(self):
        self.calls += 1
        if self.calls == int(sys.argv[2]):
            os._exit(9)  # as a kill: no rollback, no close, no cleanup

target = many_target(5_000)
folder = Path(sys.argv[1])
review = JournaledReview.open(folder / "j", target, keys=folder / "keys")
review.decide([DecisionRequest("b-000001", "rejected", "first")], "carol", g.NOW)
requests = [DecisionRequest(ref, "confirmed") for ref in target.rows]
review.write_decision(requests, "carol", g.NOW, Killed())
"""


@pytest.mark.parametrize("at", [10, 11, 12])  # see the points above
def test_a_process_killed_mid_step_leaves_the_journal_as_before(tmp_path: Path, at: int) -> None:
    """Killed while writing the step's rows (no rollback runs): the journal opens, its
    chain verifies, and it holds the steps before it only."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_STEP, str(tmp_path), str(at)],
        cwd=root,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 9, done.stderr.decode()
    target = many_target(5_000)
    review = JournaledReview.open(tmp_path / "j", target, keys=tmp_path / "keys")
    assert [(d.portable_ref, d.state) for d in review.session.decisions] == [
        ("b-000001", ReviewState.REJECTED)
    ]
    review.decide([DecisionRequest("b-000002", "confirmed")], "carol", NOW)
    assert (
        len(JournaledReview.open(tmp_path / "j", target, keys=tmp_path / "keys").session.decisions)
        == 2
    )


def _allocated_by(work: Callable[[], object]) -> int:
    """Peak bytes allocated while ``work`` runs, above what was allocated before it."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        work()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_a_decision_costs_the_same_on_a_long_history() -> None:
    """Issue 19: a belief's history was rebuilt (a tuple of all its decisions) on every
    decision, so 80,000 decisions on one belief were quadratic. The cost of one more
    decision must not depend on how many that belief already has."""
    target = many_target(2)
    session = ReviewSession(target)
    states = (ReviewState.CONFIRMED, ReviewState.UNREVIEWED)
    for n in range(5_000):
        session.apply(session.plan([DecisionRequest("b-000000", states[n % 2])], "carol", NOW))
    step = session.plan([DecisionRequest("b-000000", ReviewState.CONFIRMED)], "carol", NOW)
    index = session.index.copy()
    # A tuple of 5,001 decisions is 40 KB; one link is a few dozen bytes.
    assert _allocated_by(lambda: index.add(step)) < 2_000
    assert _allocated_by(lambda: index.remove(step)) < 2_000
    # The history still reads whole and in order, and the copy left the session alone.
    history = session.history_of("b-000000")
    assert len(history) == 5_000
    assert history == tuple(d for d in session.decisions if d.portable_ref == "b-000000")
    assert session.index.history_of("b-000000") == history
    session.undo(session.undo_candidate().number)
    assert session.history_of("b-000000") == history[:-1]
    assert session.state_of("b-000000") is history[-2].state
