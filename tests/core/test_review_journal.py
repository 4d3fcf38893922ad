"""The review journal: nothing lost, nothing half-applied, nothing foreign or damaged applied."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import (
    DecisionRequest,
    ReviewError,
    ReviewTarget,
)
from zcf_inspector.core.review.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    JournaledReview,
    journal_path,
    row_checksum,
    set_aside,
)

NOW = g.NOW


def target(name: str = "full-handoff", **dest: object) -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(golden_bytes(name), destination(**dest)))


def confirm(ref: str) -> list[DecisionRequest]:
    return [DecisionRequest(ref, "confirmed")]


def refused(directory: Path, t: ReviewTarget) -> ReviewCode:
    with pytest.raises(ReviewError) as caught:
        JournaledReview.open(directory, t)
    code = caught.value.code
    assert isinstance(code, ReviewCode)
    return code


def sql(path: Path, statement: str, *args: object) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        with conn:
            return conn.execute(statement, args).fetchall()
    finally:
        conn.close()


def made_journal(tmp_path: Path) -> tuple[ReviewTarget, Path]:
    t = target()
    review = JournaledReview.open(tmp_path, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    review.decide(
        [
            DecisionRequest("b-order", "rejected", "bulk"),
            DecisionRequest("b-bench", "rejected", "bulk"),
        ],
        "carol",
        NOW,
    )
    return t, journal_path(tmp_path, t.correlation_id)


def test_no_file_until_the_first_decision(tmp_path: Path) -> None:
    t = target()
    review = JournaledReview.open(tmp_path, t)
    assert list(tmp_path.iterdir()) == []
    review.decide(confirm("b-reader"), "carol", NOW)
    path = journal_path(tmp_path, t.correlation_id)
    assert path.name == "review-" + t.correlation_id.removeprefix("sha256:") + ".sqlite3"
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]
    assert sql(path, "PRAGMA application_id") == [(APPLICATION_ID,)]
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


def test_every_operation_is_replayed(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    review = JournaledReview.open(tmp_path, t)
    review.undo()  # takes back the bulk step
    review.redo()
    review.undo()
    review.decide(confirm("b-order"), "dave", NOW)
    review.mark_exported(NOW, "sha256:" + "0" * 64, "/tmp/r.json")
    review.decide(confirm("b-bench"), "dave", NOW)
    review.undo()
    review.redo()
    restored = JournaledReview.open(tmp_path, t).session
    assert restored.decisions == review.session.decisions
    assert [len(s.decisions) for s in restored.applied] == [1, 1, 1]
    assert restored.sealed == 2
    assert restored.can_undo
    assert not restored.can_redo
    ops = sql(path, "SELECT op, step, portable_ref FROM entry ORDER BY seq")
    assert ops == [
        ("decide", 1, "b-reader"),
        ("decide", 2, "b-order"),  # one row per decision; a bulk shares its step
        ("decide", 2, "b-bench"),
        ("undo", 2, None),
        ("redo", 2, None),
        ("undo", 2, None),
        ("decide", 3, "b-order"),
        ("export", 3, None),
        ("decide", 4, "b-bench"),
        ("undo", 4, None),
        ("redo", 4, None),
    ]
    every = sql(path, "SELECT correlation_id, packet_id, manifest_root FROM entry")
    assert set(every) == {
        (t.correlation_id, t.receipt_text("packetId"), t.receipt_text("manifestRootHash"))
    }


def test_undo_stops_at_the_export_after_reopening(tmp_path: Path) -> None:
    t, _ = made_journal(tmp_path)
    JournaledReview.open(tmp_path, t).mark_exported(NOW, "sha256:" + "0" * 64, "r.json")
    review = JournaledReview.open(tmp_path, t)
    with pytest.raises(ReviewError) as caught:
        review.undo()
    assert caught.value.code is ReviewCode.NOTHING_TO_UNDO


def test_a_refused_decision_writes_nothing(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    before = sql(path, "SELECT count(*) FROM entry")
    review = JournaledReview.open(tmp_path, t)
    with pytest.raises(ReviewError):
        review.decide(
            [DecisionRequest("b-reader", "confirmed"), DecisionRequest("b-x", "confirmed")],
            "carol",
            NOW,
        )
    assert sql(path, "SELECT count(*) FROM entry") == before


def test_two_writers_conflict_instead_of_interleaving(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    first = JournaledReview.open(tmp_path, t)
    second = JournaledReview.open(tmp_path, t)
    second.decide(confirm("b-order"), "dave", NOW)
    with pytest.raises(ReviewError) as caught:
        first.decide(confirm("b-bench"), "carol", NOW)
    assert caught.value.code is ReviewCode.JOURNAL_CONFLICT
    assert first.session.state_of("b-bench") is ReviewState.REJECTED  # not applied
    assert sql(path, "SELECT count(*) FROM entry") == [(4,)]


Damage = Callable[[Path], object]


def garbage(path: Path) -> None:
    path.write_bytes(b"\x00garbage" * 512)
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)


def truncated(path: Path) -> None:
    sql(path, "PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\xff" * (len(data) - len(data) // 2))


DAMAGE: dict[str, tuple[Damage, ReviewCode]] = {
    "not a database": (garbage, ReviewCode.JOURNAL_CORRUPT),
    "pages overwritten": (truncated, ReviewCode.JOURNAL_CORRUPT),
    "a note edited": (
        lambda p: sql(p, "UPDATE entry SET note = 'edited' WHERE seq = 2"),
        ReviewCode.JOURNAL_CORRUPT,
    ),
    "a row deleted": (
        lambda p: sql(p, "DELETE FROM entry WHERE seq = 2"),
        ReviewCode.JOURNAL_CORRUPT,
    ),
    "another application": (
        lambda p: sql(p, "PRAGMA application_id = 7"),
        ReviewCode.JOURNAL_CORRUPT,
    ),
    "older schema": (lambda p: sql(p, "PRAGMA user_version = 0"), ReviewCode.JOURNAL_CORRUPT),
    "newer schema": (
        lambda p: sql(p, f"PRAGMA user_version = {SCHEMA_VERSION + 1}"),
        ReviewCode.JOURNAL_UNSUPPORTED_VERSION,
    ),
    "another packet's header": (
        lambda p: sql(p, "UPDATE review SET packet_id = 'pkt-other'"),
        ReviewCode.JOURNAL_MISMATCH,
    ),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_damaged_journal_is_refused_and_left_alone(tmp_path: Path, case: str) -> None:
    t, path = made_journal(tmp_path)
    damage, code = DAMAGE[case]
    damage(path)
    before = path.read_bytes()
    assert refused(tmp_path, t) is code
    assert path.read_bytes() == before


def forge_row(path: Path, seq: int, **changes: object) -> None:
    """Insert a row with a correct checksum: only the meaning of the row is wrong."""
    columns = [
        "seq",
        "correlation_id",
        "packet_id",
        "manifest_root",
        "op",
        "step",
        "portable_ref",
        "state",
        "reviewer",
        "at",
        "note",
        "superseded_by",
        "detail",
    ]
    [last] = sql(path, f"SELECT {', '.join(columns)} FROM entry ORDER BY seq DESC LIMIT 1")
    row = dict(zip(columns, last, strict=True)) | {"seq": seq} | changes
    values = tuple(row[c] for c in columns)
    sql(
        path,
        f"INSERT INTO entry ({', '.join(columns)}, checksum) VALUES ({', '.join('?' * 14)})",
        *values,
        row_checksum(values),  # type: ignore[arg-type]
    )


FORGED: dict[str, tuple[dict[str, object], ReviewCode]] = {
    "row of another packet": (
        {"correlation_id": "sha256:" + "1" * 64},
        ReviewCode.JOURNAL_MISMATCH,
    ),
    "unknown belief": ({"portable_ref": "b-elsewhere", "step": 9}, ReviewCode.JOURNAL_MISMATCH),
    "illegal state": ({"state": "approved", "step": 9}, ReviewCode.JOURNAL_CORRUPT),
    "reject without note": ({"note": None, "step": 9}, ReviewCode.JOURNAL_CORRUPT),
    "undo out of order": ({"op": "undo", "step": 1}, ReviewCode.JOURNAL_CORRUPT),
    "redo with nothing undone": ({"op": "redo", "step": 2}, ReviewCode.JOURNAL_CORRUPT),
    "step numbers going back": ({"step": 1}, ReviewCode.JOURNAL_CORRUPT),
    "no timestamp": ({"at": "yesterday", "step": 9}, ReviewCode.JOURNAL_CORRUPT),
}


@pytest.mark.parametrize("case", sorted(FORGED))
def test_rows_that_do_not_belong_are_refused(tmp_path: Path, case: str) -> None:
    t, path = made_journal(tmp_path)
    changes, code = FORGED[case]
    forge_row(path, 4, **changes)
    assert refused(tmp_path, t) is code


def test_journal_of_another_admission_is_refused(tmp_path: Path) -> None:
    t, _ = made_journal(tmp_path)
    smaller = target(maxBeliefs=2)  # same packet and destination id: same correlationId
    assert smaller.correlation_id == t.correlation_id
    assert refused(tmp_path, smaller) is ReviewCode.JOURNAL_MISMATCH


def test_blank_file_from_a_crash_at_creation_is_a_new_journal(tmp_path: Path) -> None:
    t = target()
    path = journal_path(tmp_path, t.correlation_id)
    path.write_bytes(b"")
    review = JournaledReview.open(tmp_path, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    assert len(JournaledReview.open(tmp_path, t).session.decisions) == 1


def test_unusable_folder_is_unavailable_not_corrupt(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    review = JournaledReview.open(blocker, target())
    with pytest.raises(ReviewError) as caught:
        review.decide(confirm("b-reader"), "carol", NOW)
    assert caught.value.code is ReviewCode.JOURNAL_UNAVAILABLE
    assert review.session.decisions == ()  # journal first: nothing applied


def test_set_aside_keeps_the_refused_journal(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    garbage(path)
    kept = set_aside(path)
    assert not path.exists()
    assert kept.read_bytes().startswith(b"\x00garbage")
    assert JournaledReview.open(tmp_path, t).session.decisions == ()
