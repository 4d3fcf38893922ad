"""Journals move from the old (doubled) folder to the new one, and none is lost."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.journal_move import move_journals
from zcf_inspector.core.review.target import ReviewTarget


def target(name: str) -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(golden_bytes(name), destination()))


def review_in(folder: Path, name: str, keys: Path) -> Path:
    t = target(name)
    review = JournaledReview.open(folder, t, keys=keys)
    review.decide([DecisionRequest(t.refs[0], "confirmed")], "carol", g.NOW)
    return journal_path(folder, t.correlation_id)


def test_reviews_in_progress_move_and_restore(tmp_path: Path) -> None:
    old = tmp_path / "zcf-inspector" / "zcf-inspector" / "review-journals"
    new = tmp_path / "zcf-inspector" / "review-journals"
    keys = tmp_path / "settings" / "review-journal-keys"  # beside the settings: not moved
    first = review_in(old, "full-handoff", keys)
    second = review_in(old, "demotion", keys)
    # a WAL sidecar left by a crash travels with its database
    (old / (first.name + "-wal")).write_bytes(b"")
    result = move_journals(old, new)
    assert sorted(result.moved) == sorted([first.name, second.name])
    assert result.kept == ()
    assert result.message == "moved 2 saved reviews to the new folder"
    assert (new / (first.name + "-wal")).exists()
    for name in ("full-handoff", "demotion"):
        # Each journal's key (found by its name) verifies it in its new folder.
        restored = JournaledReview.open(new, target(name), keys=keys)
        assert [d.state for d in restored.session.decisions] == ["confirmed"]
    assert not old.exists()  # emptied, so removed (with the doubled folder above it)
    assert not old.parent.exists()
    assert move_journals(old, new).moved == ()  # nothing left to do


def test_a_name_taken_in_the_new_folder_is_never_overwritten(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    moved = review_in(old, "full-handoff", tmp_path / "keys")
    new.mkdir()
    (new / moved.name).write_bytes(b"the newer review")
    set_aside = old / (moved.name + ".refused-20260101T000000000000Z")
    set_aside.write_bytes(b"kept for inspection")
    result = move_journals(old, new)
    assert result.kept == ((moved.name, f"{new / moved.name} already exists"),)
    assert result.moved == (set_aside.name,)  # a set-aside journal moves too
    assert (new / moved.name).read_bytes() == b"the newer review"
    assert moved.exists()  # still in the old folder, and said so
    with contextlib.closing(sqlite3.connect(moved)) as conn:
        assert conn.execute("SELECT count(*) FROM entry").fetchone() == (1,)
    assert old.exists()


def test_nothing_to_move(tmp_path: Path) -> None:
    assert move_journals(tmp_path / "missing", tmp_path / "new").moved == ()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("not a journal")
    assert move_journals(tmp_path / "other", tmp_path / "new").moved == ()
    assert not (tmp_path / "new").exists()
    assert move_journals(tmp_path, tmp_path).moved == ()
