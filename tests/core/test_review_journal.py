"""The review journal: nothing lost, nothing half-applied, nothing foreign or damaged applied."""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from goldens import generate as g
from tests.core.helpers import destination, golden_bytes
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import DecisionRequest, ReviewError
from zcf_inspector.core.review.journal import JournaledReview
from zcf_inspector.core.review.journal_files import journal_path
from zcf_inspector.core.review.journal_keys import JournalKeys, row_checksum, row_mac
from zcf_inspector.core.review.journal_store import APPLICATION_ID, SCHEMA_VERSION, set_aside
from zcf_inspector.core.review.target import ReviewTarget

NOW = g.NOW


def keys_of(directory: Path) -> Path:
    """The key folder of a test's journals: beside it, never inside it."""
    return directory.parent / f"{directory.name}.keys"


def open_review(directory: Path, t: ReviewTarget) -> JournaledReview:
    return JournaledReview.open(directory, t, keys=keys_of(directory))


def target(name: str = "full-handoff", **dest: object) -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(golden_bytes(name), destination(**dest)))


def confirm(ref: str) -> list[DecisionRequest]:
    return [DecisionRequest(ref, "confirmed")]


def refused(directory: Path, t: ReviewTarget) -> ReviewCode:
    with pytest.raises(ReviewError) as caught:
        open_review(directory, t)
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
    review = open_review(tmp_path, t)
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
    review = open_review(tmp_path, t)
    assert list(tmp_path.iterdir()) == []
    review.decide(confirm("b-reader"), "carol", NOW)
    path = journal_path(tmp_path, t.correlation_id)
    assert path.name == "review-" + t.correlation_id.removeprefix("sha256:") + ".sqlite3"
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]
    assert sql(path, "PRAGMA application_id") == [(APPLICATION_ID,)]
    assert sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


def test_every_operation_is_replayed(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    review = open_review(tmp_path, t)
    review.undo()  # takes back the bulk step
    review.redo()
    review.undo()
    review.decide(confirm("b-order"), "dave", NOW)
    review.mark_exported(NOW, "sha256:" + "0" * 64, "/tmp/r.json")
    review.decide(confirm("b-bench"), "dave", NOW)
    review.undo()
    review.redo()
    restored = open_review(tmp_path, t).session
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
    open_review(tmp_path, t).mark_exported(NOW, "sha256:" + "0" * 64, "r.json")
    review = open_review(tmp_path, t)
    with pytest.raises(ReviewError) as caught:
        review.undo()
    assert caught.value.code is ReviewCode.NOTHING_TO_UNDO


def test_a_refused_decision_writes_nothing(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    before = sql(path, "SELECT count(*) FROM entry")
    review = open_review(tmp_path, t)
    with pytest.raises(ReviewError):
        review.decide(
            [DecisionRequest("b-reader", "confirmed"), DecisionRequest("b-x", "confirmed")],
            "carol",
            NOW,
        )
    assert sql(path, "SELECT count(*) FROM entry") == before


def test_two_writers_conflict_instead_of_interleaving(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    first = open_review(tmp_path, t)
    second = open_review(tmp_path, t)
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
    "version 1 with a key": (
        lambda p: sql(p, "PRAGMA user_version = 1"),
        ReviewCode.JOURNAL_CORRUPT,
    ),
    "newer schema": (
        lambda p: sql(p, f"PRAGMA user_version = {SCHEMA_VERSION + 1}"),
        ReviewCode.JOURNAL_UNSUPPORTED_VERSION,
    ),
    # The header edited to name another packet: its rows do not verify under what it
    # names, so it is damage, not another packet's journal (that case is a mismatch).
    "another packet's header": (
        lambda p: sql(p, "UPDATE review SET packet_id = 'pkt-other'"),
        ReviewCode.JOURNAL_CORRUPT,
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


COLUMNS = [
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


def forge_row(path: Path, seq: int, changes: dict[str, object], *, keyed: bool = True) -> None:
    """Insert a row made from the last one. ``keyed``: with the right keyed, chained
    checksum (a writer holding the key: only the meaning of the row is wrong); else with
    the unkeyed checksum version 1 used, as anyone could recompute it."""
    [last] = sql(
        path, f"SELECT {', '.join(COLUMNS)}, checksum FROM entry ORDER BY seq DESC LIMIT 1"
    )
    *last_values, last_checksum = last
    row = dict(zip(COLUMNS, last_values, strict=True)) | {"seq": seq} | changes
    values = tuple(row[c] for c in COLUMNS)
    key = key_of(path)
    checksum = row_mac(key, str(last_checksum), values) if keyed else row_checksum(values)  # type: ignore[arg-type]
    sql(
        path,
        f"INSERT INTO entry ({', '.join(COLUMNS)}, checksum) VALUES ({', '.join('?' * 14)})",
        *values,
        checksum,
    )


def key_of(path: Path) -> bytes:
    state = JournalKeys(keys_of(path.parent)).load("sha256:" + path.name[7:-8])
    assert state is not None
    return state.key


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
    forge_row(path, 4, changes)
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
    review = open_review(tmp_path, t)
    review.decide(confirm("b-reader"), "carol", NOW)
    assert len(open_review(tmp_path, t).session.decisions) == 1


def test_unusable_folder_is_unavailable_not_corrupt(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    review = JournaledReview.open(blocker, target(), keys=keys_of(tmp_path))
    with pytest.raises(ReviewError) as caught:
        review.decide(confirm("b-reader"), "carol", NOW)
    assert caught.value.code is ReviewCode.JOURNAL_UNAVAILABLE
    assert review.session.decisions == ()  # journal first: nothing applied


def test_set_aside_keeps_the_refused_journal(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    garbage(path)
    keys = JournalKeys(keys_of(tmp_path))
    old_key = keys.path_for(t.correlation_id).read_bytes()
    kept = set_aside(path, keys)
    assert not path.exists()
    assert kept.read_bytes().startswith(b"\x00garbage")
    assert not keys.path_for(t.correlation_id).exists()  # the key went aside with it
    assert [p.read_bytes() for p in keys.folder.glob("*.refused-*")] == [old_key]
    review = open_review(tmp_path, t)
    assert review.session.decisions == ()
    review.decide(confirm("b-reader"), "carol", NOW)  # a new journal, with a new key
    assert keys.path_for(t.correlation_id).read_bytes() != old_key
    assert len(open_review(tmp_path, t).session.decisions) == 1


# --- tampering: a keyed, chained checksum (issue 15) --------------------------------------


def swap_rows(path: Path) -> None:
    """Rows 2 and 3 trade places: each keeps its own checksum, the order changes."""
    sql(path, "UPDATE entry SET seq = -2 WHERE seq = 2")
    sql(path, "UPDATE entry SET seq = 2 WHERE seq = 3")
    sql(path, "UPDATE entry SET seq = 3 WHERE seq = -2")


def swap_contents(path: Path) -> None:
    """Rows 2 and 3 trade everything but their numbers (and checksums)."""
    [two] = sql(path, "SELECT portable_ref FROM entry WHERE seq = 2")
    [three] = sql(path, "SELECT portable_ref FROM entry WHERE seq = 3")
    sql(path, "UPDATE entry SET portable_ref = ? WHERE seq = 2", *three)
    sql(path, "UPDATE entry SET portable_ref = ? WHERE seq = 3", *two)


def forged_with_recomputed_checksum(path: Path) -> None:
    """What version 1 accepted: a changed row whose unkeyed checksum was recomputed."""
    [row] = sql(path, f"SELECT {', '.join(COLUMNS)} FROM entry WHERE seq = 3")
    changed = (*row[:7], "confirmed", *row[8:10], None, *row[11:])
    sql(path, "DELETE FROM entry WHERE seq = 3")
    sql(
        path,
        f"INSERT INTO entry ({', '.join(COLUMNS)}, checksum) VALUES ({', '.join('?' * 14)})",
        *changed,
        row_checksum(changed),  # type: ignore[arg-type]
    )


def zero_length(path: Path) -> None:
    path.write_bytes(b"")
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)


def removed(path: Path) -> None:
    zero_length(path)
    path.unlink()


def key_removed(path: Path) -> None:
    JournalKeys(keys_of(path.parent)).path_for("sha256:" + path.name[7:-8]).unlink()


TAMPERING: dict[str, Damage] = {
    "the last row deleted": lambda p: sql(p, "DELETE FROM entry WHERE seq = 3"),
    "the last two rows deleted": lambda p: sql(p, "DELETE FROM entry WHERE seq >= 2"),
    "every row deleted": lambda p: sql(p, "DELETE FROM entry"),
    "a middle row deleted, the rest renumbered": lambda p: (
        sql(p, "DELETE FROM entry WHERE seq = 2"),
        sql(p, "UPDATE entry SET seq = 2 WHERE seq = 3"),
    ),
    "rows reordered": swap_rows,
    "row contents swapped": swap_contents,
    "a row forged with a recomputed unkeyed checksum": forged_with_recomputed_checksum,
    "a row appended with an unkeyed checksum": lambda p: forge_row(p, 4, {"step": 9}, keyed=False),
    "zero-length journal": zero_length,
    "journal removed": removed,
    "truncated to its header": lambda p: (
        sql(p, "PRAGMA wal_checkpoint(TRUNCATE)"),
        p.write_bytes(p.read_bytes()[:100]),
    ),
    "key removed": key_removed,
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_tampering_is_refused_as_corrupt(tmp_path: Path, case: str) -> None:
    t, path = made_journal(tmp_path)
    TAMPERING[case](path)
    with pytest.raises(ReviewError) as caught:
        open_review(tmp_path, t)
    assert caught.value.code is ReviewCode.JOURNAL_CORRUPT, caught.value
    assert "damaged" in str(caught.value)
    assert "Traceback" not in str(caught.value)


EXPORT_TAMPERING: dict[str, Damage] = {
    # The record of the last export says whether a receipt is out of date (the window's
    # stale-receipt warning): moving it to another file, or dropping it so that no
    # warning is given, must be caught like any other change.
    "export record pointed elsewhere": lambda p: sql(
        p, "UPDATE entry SET detail = replace(detail, 'r.json', 'x.json') WHERE op = 'export'"
    ),
    "export record emptied": lambda p: sql(p, "UPDATE entry SET detail = NULL WHERE op = 'export'"),
    "export row deleted": lambda p: sql(p, "DELETE FROM entry WHERE op = 'export'"),
}


@pytest.mark.parametrize("case", sorted(EXPORT_TAMPERING))
def test_the_export_record_is_under_the_checksums_too(tmp_path: Path, case: str) -> None:
    t, path = made_journal(tmp_path)
    review = open_review(tmp_path, t)
    review.mark_exported(NOW, "sha256:" + "0" * 64, "r.json")
    review.decide(confirm("b-bench"), "carol", NOW)  # after the export: its receipt is stale
    reopened = open_review(tmp_path, t)
    assert reopened.stale_export is not None
    assert reopened.stale_export.path == "r.json"
    EXPORT_TAMPERING[case](path)
    with pytest.raises(ReviewError) as caught:
        open_review(tmp_path, t)
    assert caught.value.code is ReviewCode.JOURNAL_CORRUPT, caught.value


def test_the_key_lives_outside_the_journal_and_only_its_owner_reads_it(tmp_path: Path) -> None:
    t, path = made_journal(tmp_path)
    key_file = JournalKeys(keys_of(tmp_path)).path_for(t.correlation_id)
    assert key_file.parent != path.parent
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert key_file.parent.stat().st_mode & 0o777 == 0o700
    key = key_of(path)
    assert key not in path.read_bytes()
    with pytest.raises(ReviewError):  # and never beside the journal
        JournaledReview.open(tmp_path, t, keys=tmp_path)


def test_a_head_that_lags_is_no_fault(tmp_path: Path) -> None:
    """A crash between the commit and the head's update leaves more rows than the head
    says: they are chained like the rest and accepted."""
    t, _ = made_journal(tmp_path)
    keys = JournalKeys(keys_of(tmp_path))
    before = keys.path_for(t.correlation_id).read_bytes()
    review = open_review(tmp_path, t)
    review.decide(confirm("b-order"), "dave", NOW)
    keys.path_for(t.correlation_id).write_bytes(before)  # the head update "lost"
    restored = open_review(tmp_path, t)
    assert restored.session.decisions == review.session.decisions


def test_a_version_1_journal_is_refused_as_unsupported_and_can_be_set_aside(
    tmp_path: Path,
) -> None:
    t, path = made_journal(tmp_path)
    sql(path, "PRAGMA user_version = 1")  # and, as version 1 never made one, no key:
    key_removed(path)
    with pytest.raises(ReviewError) as caught:
        open_review(tmp_path, t)
    assert caught.value.code is ReviewCode.JOURNAL_UNSUPPORTED_VERSION
    assert "earlier version" in str(caught.value)
    set_aside(path, JournalKeys(keys_of(tmp_path)))
    assert open_review(tmp_path, t).session.decisions == ()


def test_a_new_review_needs_no_key_until_its_first_decision(tmp_path: Path) -> None:
    t = target()
    review = open_review(tmp_path, t)
    assert not keys_of(tmp_path).exists()
    review.decide(confirm("b-reader"), "carol", NOW)
    assert JournalKeys(keys_of(tmp_path)).path_for(t.correlation_id).is_file()


def _damaged(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    kind = rng.choice(["flip", "cut", "overwrite"])
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            where = rng.randrange(len(out))
            out[where] ^= 1 << rng.randrange(8)
    elif kind == "cut":
        del out[rng.randrange(len(out)) :]
    else:
        where = rng.randrange(len(out))
        out[where : where + 16] = rng.randbytes(16)
    return bytes(out)


@pytest.mark.parametrize("checkpointed", [True, False], ids=["main-file", "wal"])
def test_random_damage_is_refused_as_corrupt_or_does_no_harm(
    tmp_path: Path, checkpointed: bool
) -> None:
    """Bit flips, cuts and overwritten spans anywhere in the journal's files: each copy is
    refused as journal_corrupt, or (damage in unused space) reads back the same review —
    never journal_unavailable, never another exception (the attack run found both)."""
    source = tmp_path / "source"
    t, path = made_journal(source)
    review = open_review(source, t)
    for _ in range(4):
        review.decide(confirm("b-reader"), "carol", NOW)
        review.undo()
        review.redo()
    if checkpointed:
        sql(path, "PRAGMA wal_checkpoint(TRUNCATE)")
    expected = open_review(source, t).session.decisions
    files = {p.name: p.read_bytes() for p in source.iterdir() if p.stat().st_size}
    rng = random.Random(15)
    outcomes: dict[str, int] = {}
    for attempt in range(120):
        folder = tmp_path / f"copy-{attempt}"
        folder.mkdir()
        shutil.copytree(keys_of(source), keys_of(folder))
        victim = rng.choice(sorted(files))
        for name, data in files.items():
            (folder / name).write_bytes(_damaged(data, rng) if name == victim else data)
        code: object = None
        try:
            restored = open_review(folder, t).session.decisions
        except ReviewError as exc:
            code = exc.code
        if code is None:
            assert restored == expected
            outcomes["harmless"] = outcomes.get("harmless", 0) + 1
        else:
            assert code is ReviewCode.JOURNAL_CORRUPT, (attempt, code)
            outcomes["refused"] = outcomes.get("refused", 0) + 1
    assert outcomes.get("refused", 0) > 30  # most damage is found
