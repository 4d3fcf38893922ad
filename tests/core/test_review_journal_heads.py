"""The journal's key head and its creation under two writers (issue 19, defects 6 and 9).

A step is acknowledged only once the key's head names it: a head that cannot be moved on
(the key folder unusable) fails the step, and nothing of it stays. Two processes creating
one journal at once: the loser is told another window is using the review
(`journal_conflict`), never that a healthy journal is damaged.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.journal_keys import JournalKeys, KeyState
from zcf_inspector.core.review.target import ReviewTarget

NOW = g.NOW
ROUNDS = 12  # creations raced; each round is a new journal


def target() -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(golden_bytes("full-handoff"), destination()))


def confirm(ref: str) -> list[DecisionRequest]:
    return [DecisionRequest(ref, "confirmed")]


def keys_of(directory: Path) -> Path:
    return directory.parent / f"{directory.name}.keys"


def open_review(directory: Path, t: ReviewTarget) -> JournaledReview:
    return JournaledReview.open(directory, t, keys=keys_of(directory))


def unusable(folder: Path) -> Path:
    """Put a file where the key folder was (root ignores modes, so a read-only folder
    would not do): the head cannot be written. Returns where the folder was moved."""
    kept = folder.with_name(folder.name + ".moved")
    folder.rename(kept)
    folder.write_text("not a folder\n", encoding="utf-8")
    return kept


def restore(folder: Path, kept: Path) -> None:
    folder.unlink()
    kept.rename(folder)


def test_a_step_whose_head_cannot_be_recorded_fails_and_is_not_kept(tmp_path: Path) -> None:
    directory = tmp_path / "journals"
    t = target()
    review = open_review(directory, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    kept = unusable(keys_of(directory))
    with pytest.raises(ReviewError) as caught:
        review.decide(confirm("b-order"), "carol", NOW)
    assert caught.value.code is ReviewCode.JOURNAL_UNAVAILABLE
    assert "the step was not saved" in str(caught.value)
    assert "nothing of it was kept" in str(caught.value)
    # Not applied in this window either, and not in the journal.
    assert [d.portable_ref for d in review.session.decisions] == ["b-reader"]
    restore(keys_of(directory), kept)
    rows = sqlite3.connect(journal_path(directory, t.correlation_id)).execute(
        "SELECT count(*) FROM entry"
    )
    assert rows.fetchone() == (1,)
    again = open_review(directory, t)
    assert [d.portable_ref for d in again.session.decisions] == ["b-reader"]
    # The window goes on where it was: the next step is the journal's second row.
    review.decide(confirm("b-bench"), "carol", NOW)
    assert [d.portable_ref for d in open_review(directory, t).session.decisions] == [
        "b-reader",
        "b-bench",
    ]


def test_every_acknowledged_step_is_under_the_head(tmp_path: Path) -> None:
    # Deleting the last acknowledged step must be refused: on main a head that could not
    # be recorded left it deletable unnoticed (the journal then read as a lagging head).
    directory = tmp_path / "journals"
    t = target()
    review = open_review(directory, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    kept = unusable(keys_of(directory))
    acknowledged = True
    try:
        review.decide(confirm("b-order"), "carol", NOW)
    except ReviewError:
        acknowledged = False
    restore(keys_of(directory), kept)
    path = journal_path(directory, t.correlation_id)
    if not acknowledged:
        # Refused: nothing of it is in the journal, so nothing acknowledged can be lost.
        assert [d.portable_ref for d in open_review(directory, t).session.decisions] == ["b-reader"]
        return
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM entry WHERE seq = (SELECT max(seq) FROM entry)")
    conn.close()
    with pytest.raises(ReviewError) as caught:
        open_review(directory, t)
    assert caught.value.code is ReviewCode.JOURNAL_CORRUPT


Barrier = multiprocessing.synchronize.Barrier


def _race(directory: str, barrier: Barrier, ref: str) -> str:
    t = target()
    try:
        review = JournaledReview.open(directory, t, keys=keys_of(Path(directory)))
        barrier.wait(timeout=30)
        review.decide(confirm(ref), "carol", NOW)
    except ReviewError as exc:
        return str(exc)
    return "ok"


def _child(
    directory: str, barrier: multiprocessing.synchronize.Barrier, ref: str, out: str
) -> None:
    Path(out).write_text(_race(directory, barrier, ref), encoding="utf-8")


def test_two_processes_creating_one_journal_never_see_it_damaged(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    outcomes: list[str] = []
    for number in range(ROUNDS):
        directory = tmp_path / f"round{number}"
        barrier = context.Barrier(2)
        outs = [tmp_path / f"round{number}-{side}.txt" for side in "ab"]
        children = [
            context.Process(target=_child, args=(str(directory), barrier, ref, str(out)))
            for ref, out in zip(("b-reader", "b-order"), outs, strict=True)
        ]
        for child in children:
            child.start()
        for child in children:
            child.join(60)
            assert child.exitcode == 0
        results = [out.read_text(encoding="utf-8") for out in outs]
        outcomes += results
        assert results.count("ok") >= 1, results
        for result in results:
            assert result == "ok" or result.startswith(f"{ReviewCode.JOURNAL_CONFLICT}: "), result
            if result != "ok":
                assert "another window is using this review" in result
        # The journal the winner made opens, with the winner's decisions only.
        opened = open_review(directory, target())
        assert len(opened.session.decisions) == results.count("ok")
    assert all(r == "ok" or "journal_corrupt" not in r for r in outcomes)


def test_a_journal_made_while_it_was_read_is_read_again_not_called_damaged(
    tmp_path: Path,
) -> None:
    # The reader loaded no key (none yet), then found the journal another window had
    # just made with its key: on main, "its key is missing" (journal_corrupt).
    directory = tmp_path / "journals"
    t = target()
    writer = open_review(directory, t)
    writer.decide(confirm("b-reader"), "carol", NOW)
    keys = JournalKeys(keys_of(directory))
    key_file = keys.path_for(t.correlation_id)
    saved = key_file.read_bytes()
    key_file.unlink()

    class Arriving(JournalKeys):
        """The key appears right after the reader first looked for it."""

        looked = 0

        def load(self, correlation_id: str) -> KeyState | None:
            state = super().load(correlation_id)
            Arriving.looked += 1
            if Arriving.looked == 1:
                key_file.write_bytes(saved)
                os.chmod(key_file, 0o600)
            return state

    reader = JournaledReview.open(directory, t, keys=Arriving(keys_of(directory)))
    assert [d.portable_ref for d in reader.session.decisions] == ["b-reader"]


def test_a_conflict_is_never_offered_as_damage(tmp_path: Path) -> None:
    directory = tmp_path / "journals"
    t = target()
    first, second = open_review(directory, t), open_review(directory, t)
    first.decide(confirm("b-reader"), "carol", NOW)
    with pytest.raises(ReviewError) as caught:
        second.decide(confirm("b-order"), "carol", NOW)
    assert caught.value.code is ReviewCode.JOURNAL_CONFLICT
    assert "another window is using this review" in str(caught.value)
    shutil.rmtree(directory)


def test_a_recovered_step_is_put_under_the_head_when_the_review_is_opened(
    tmp_path: Path,
) -> None:
    """A crash between a commit and the head's update: the step is there on reopen and is
    acknowledged then, before anything is shown (issue 34) — deleting it afterwards is
    refused as damage, not read as a lagging head."""
    directory = tmp_path / "journals"
    t = target()
    review = open_review(directory, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    keys = JournalKeys(keys_of(directory))
    before = keys.path_for(t.correlation_id).read_bytes()
    review.decide(confirm("b-order"), "carol", NOW)
    keys.path_for(t.correlation_id).write_bytes(before)  # the head update "lost"
    lagging = keys.load(t.correlation_id)
    assert lagging is not None
    assert lagging.rows == 1
    reopened = open_review(directory, t)
    assert [d.portable_ref for d in reopened.session.decisions] == ["b-reader", "b-order"]
    head = keys.load(t.correlation_id)
    assert head is not None
    assert head.rows == 2
    conn = sqlite3.connect(journal_path(directory, t.correlation_id))
    with conn:
        conn.execute("DELETE FROM entry WHERE seq = (SELECT max(seq) FROM entry)")
    conn.close()
    with pytest.raises(ReviewError) as caught:
        open_review(directory, t)
    assert caught.value.code is ReviewCode.JOURNAL_CORRUPT


def test_the_journal_and_its_folder_are_owner_only(tmp_path: Path) -> None:
    # SQLite creates its files 0644 (less the umask): the journal holds reviewers' notes.
    directory = tmp_path / "journals"
    t = target()
    previous = os.umask(0o022)
    try:
        review = open_review(directory, t)
        review.decide(confirm("b-reader"), "carol", NOW)
    finally:
        os.umask(previous)
    path = journal_path(directory, t.correlation_id)
    assert (directory.stat().st_mode & 0o777) == 0o700
    made = [path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))]
    modes = {p.name: p.stat().st_mode & 0o777 for p in made if p.exists()}
    assert modes[path.name] == 0o600
    assert set(modes.values()) == {0o600}
