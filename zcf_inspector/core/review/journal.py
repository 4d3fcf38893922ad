"""The review journal: every decision on disk as it is made, so nothing is ever lost.

One SQLite file per review (per receipt ``correlationId``) in a folder the caller names —
the window passes its user data folder. WAL mode with ``synchronous=FULL``: a committed row
survives a crash or a power cut. Every operation is one row or, for a bulk decision, several
rows in one transaction, so a crash never leaves half of a step. Undo, redo and export are
rows too: the journal is a log, replayed in order to rebuild the review.

Nothing read back is trusted: the file must pass ``PRAGMA integrity_check``, carry this
application's id and a known schema version, name the packet under review, and every row
must name it too and match its checksum. Anything else is refused, never applied.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.formats import ReviewState, is_id, is_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.decisions import (
    Decision,
    DecisionRequest,
    ReviewError,
    ReviewSession,
    ReviewTarget,
    Step,
    check_request,
    refuse,
)

SCHEMA_VERSION = 1
APPLICATION_ID = 0x5A434652  # "ZCFR": tells a review journal from any other SQLite file
FILE_PREFIX = "review-"
FILE_SUFFIX = ".sqlite3"
OPS = ("decide", "undo", "redo", "export")

SCHEMA = """
CREATE TABLE review (
    correlation_id TEXT PRIMARY KEY NOT NULL,
    packet_id TEXT NOT NULL,
    packet_nonce TEXT NOT NULL,
    manifest_root TEXT NOT NULL,
    target_digest TEXT NOT NULL
) STRICT;
CREATE TABLE entry (
    seq INTEGER PRIMARY KEY,
    correlation_id TEXT NOT NULL,
    packet_id TEXT NOT NULL,
    manifest_root TEXT NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('decide', 'undo', 'redo', 'export')),
    step INTEGER NOT NULL,
    portable_ref TEXT,
    state TEXT,
    reviewer TEXT,
    at TEXT,
    note TEXT,
    superseded_by TEXT,
    detail TEXT,
    checksum TEXT NOT NULL
) STRICT;
"""

_COLUMNS = (
    "seq, correlation_id, packet_id, manifest_root, op, step, portable_ref, state, reviewer, "
    "at, note, superseded_by, detail"
)

Row = tuple[
    int,
    str,
    str,
    str,
    str,
    int,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
]


class Entry(NamedTuple):
    """One row to write: a decision of a step, or an undo, redo or export naming a step."""

    op: str
    step: int
    decision: Decision | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class JournalIdentity:
    """What ties a journal to one packet as admitted at one destination."""

    correlation_id: str
    packet_id: str
    packet_nonce: str
    manifest_root: str
    target_digest: str

    @classmethod
    def of(cls, target: ReviewTarget) -> JournalIdentity:
        return cls(
            target.receipt_text("correlationId"),
            target.receipt_text("packetId"),
            target.receipt_text("packetNonce"),
            target.receipt_text("manifestRootHash"),
            target.receipt_text("targetDigest"),
        )

    def as_tuple(self) -> tuple[str, str, str, str, str]:
        return (
            self.correlation_id,
            self.packet_id,
            self.packet_nonce,
            self.manifest_root,
            self.target_digest,
        )


def journal_path(directory: str | Path, correlation_id: str) -> Path:
    # The correlation id is "sha256:<hex>"; the hex alone is a safe file name everywhere.
    return Path(directory) / f"{FILE_PREFIX}{correlation_id.removeprefix('sha256:')}{FILE_SUFFIX}"


def row_checksum(row: Row) -> str:
    values: list[JsonValue] = list(row)
    return sha256_digest(canonical(values))


def set_aside(path: Path) -> Path:
    """Move a refused journal (and its WAL files) out of the way, keeping it for inspection."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    kept = path.with_name(f"{path.name}.refused-{stamp}")
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(kept.with_name(kept.name + suffix))
    path.rename(kept)
    return kept


class ReviewJournal:
    """The journal file of one review. Open it with ``open_review``."""

    def __init__(self, path: Path, identity: JournalIdentity, last_seq: int) -> None:
        self.path = path
        self.identity = identity
        self.last_seq = last_seq

    @contextlib.contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection]:
        mode = "rwc" if create else "rw"
        try:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise _unavailable(self.path, exc) from exc
        try:
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA busy_timeout = 2000")
            yield conn
        finally:
            conn.close()

    def read(self) -> list[Row]:
        """Every row, after the file-level checks; raises ``ReviewError`` on any problem."""
        if not self.path.exists():
            return []
        try:
            with self._connect(create=False) as conn:
                if _is_blank(conn):
                    return []  # created, then a crash before the schema was committed
                _check_file(conn, self.path)
                _check_identity(conn, self.identity)
                rows: list[Row] = conn.execute(
                    f"SELECT {_COLUMNS}, checksum FROM entry ORDER BY seq"
                ).fetchall()
        except sqlite3.Error as exc:
            raise _sqlite_refusal(self.path, exc) from exc
        return [_checked_row(row, index + 1, self.identity) for index, row in enumerate(rows)]

    def append(self, entries: Sequence[Entry]) -> None:
        """Write ``(op, step, decision, detail)`` entries as one transaction, or refuse."""
        parent = self.path.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _unavailable(parent, exc) from exc
        try:
            with self._connect(create=True) as conn:
                if _is_blank(conn):
                    _create(conn, self.identity)
                conn.execute("BEGIN IMMEDIATE")
                try:
                    self._append_in(conn, entries)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _sqlite_refusal(self.path, exc) from exc
        self.last_seq += len(entries)

    def _append_in(
        self,
        conn: sqlite3.Connection,
        entries: Sequence[Entry],
    ) -> None:
        (last,) = conn.execute("SELECT coalesce(max(seq), 0) FROM entry").fetchone()
        if last != self.last_seq:
            # Another window (or process) wrote since this review was read: applying on
            # top of rows it has not seen would interleave two reviews.
            raise refuse(
                ReviewCode.JOURNAL_CONFLICT,
                f"the review journal {self.path} was changed elsewhere (another window?); "
                "reopen the packet to continue from what was saved",
            )
        for offset, entry in enumerate(entries, start=1):
            row = _row(self.last_seq + offset, self.identity, entry)
            conn.execute(
                f"INSERT INTO entry ({_COLUMNS}, checksum) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*row, row_checksum(row)),
            )


def _row(seq: int, identity: JournalIdentity, entry: Entry) -> Row:
    d = entry.decision
    return (
        seq,
        identity.correlation_id,
        identity.packet_id,
        identity.manifest_root,
        entry.op,
        entry.step,
        None if d is None else d.portable_ref,
        None if d is None else str(d.state),
        None if d is None else d.reviewer,
        None if d is None else d.at,
        None if d is None else d.note,
        None if d is None else d.superseded_by,
        entry.detail,
    )


def _is_blank(conn: sqlite3.Connection) -> bool:
    (tables,) = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    (app,) = conn.execute("PRAGMA application_id").fetchone()
    return bool(tables == 0 and app == 0)


def _create(conn: sqlite3.Connection, identity: JournalIdentity) -> None:
    # WAL cannot be switched on inside a transaction; the schema is then one transaction,
    # so a crash leaves either a blank file (treated as new) or a whole schema.
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("INSERT INTO review VALUES (?,?,?,?,?)", identity.as_tuple())
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _check_file(conn: sqlite3.Connection, path: Path) -> None:
    (app,) = conn.execute("PRAGMA application_id").fetchone()
    if app != APPLICATION_ID:
        raise _corrupt(path, "it is not a zcf-inspector review journal")
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise refuse(
            ReviewCode.JOURNAL_UNSUPPORTED_VERSION,
            f"the review journal {path} has schema version {version}; this version of "
            f"zcf-inspector reads version {SCHEMA_VERSION}",
        )
    if version != SCHEMA_VERSION:
        raise _corrupt(path, f"unknown schema version {version}")
    result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if result != ["ok"]:
        raise _corrupt(path, "SQLite integrity check failed: " + "; ".join(map(str, result[:3])))


def _check_identity(conn: sqlite3.Connection, identity: JournalIdentity) -> None:
    rows = conn.execute("SELECT * FROM review").fetchall()
    if rows != [identity.as_tuple()]:
        raise refuse(
            ReviewCode.JOURNAL_MISMATCH,
            "the review journal names another packet or another admission "
            f"(expected correlationId {identity.correlation_id}); it was not applied",
        )


def _checked_row(raw: tuple[object, ...], expected_seq: int, identity: JournalIdentity) -> Row:
    *values, checksum = raw
    row: Row = tuple(values)  # type: ignore[assignment]  # STRICT columns fix the types
    if row[0] != expected_seq:
        raise refuse(
            ReviewCode.JOURNAL_CORRUPT,
            f"review journal row {expected_seq} is missing: the journal was damaged",
        )
    if checksum != row_checksum(row):
        raise refuse(
            ReviewCode.JOURNAL_CORRUPT,
            f"review journal row {row[0]} does not match its checksum: the journal was damaged",
        )
    if row[1:4] != (identity.correlation_id, identity.packet_id, identity.manifest_root):
        raise refuse(
            ReviewCode.JOURNAL_MISMATCH,
            f"review journal row {row[0]} belongs to another packet ({row[2]}, {row[1]}); "
            "the journal was not applied",
        )
    return row


def replay(rows: Sequence[Row], target: ReviewTarget) -> ReviewSession:
    """The session the rows describe; a row the rules refuse makes the whole journal refused."""
    session = ReviewSession(target)
    pending: list[Decision] = []
    pending_step = 0
    for row in rows:
        op, step = row[4], row[5]
        if pending and (op != "decide" or step != pending_step):
            _apply(session, Step(pending_step, tuple(pending)))
            pending = []
        if op == "decide":
            pending.append(_decision(row, target))
            pending_step = step
        else:
            _replay_op(session, op, step, row[0])
    if pending:
        _apply(session, Step(pending_step, tuple(pending)))
    return session


def _replay_op(session: ReviewSession, op: str, step: int, seq: int) -> None:
    try:
        if op == "undo":
            session.undo(step)
        elif op == "redo":
            session.redo(step)
        elif op == "export":
            session.seal()
        else:
            raise refuse(ReviewCode.JOURNAL_CORRUPT, f"unknown operation {op!r}")
    except ReviewError as exc:
        raise refuse(
            ReviewCode.JOURNAL_CORRUPT, f"review journal row {seq} cannot be replayed: {exc}"
        ) from exc


def _apply(session: ReviewSession, step: Step) -> None:
    try:
        session.apply(step)
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


def _corrupt(path: Path, why: str) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_CORRUPT,
        f"the review journal {path} is damaged ({why}); it was not applied",
    )


_DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT})


def _sqlite_refusal(path: Path, exc: sqlite3.Error) -> ReviewError:
    # A damaged file is refused as corrupt; anything else (no permission, disk full, a
    # lock held too long) is the journal being unavailable, which says nothing of its rows.
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGED:
        return _corrupt(path, str(exc))
    return _unavailable(path, exc)


def _unavailable(path: Path, exc: BaseException) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_UNAVAILABLE,
        f"the review journal at {path} cannot be used: {exc}",
    )


@dataclass(frozen=True, slots=True)
class ExportRecord:
    """The last receipt exported: when (its completedAt), where, and its digest."""

    completed_at: str
    path: str
    receipt_digest: str


def _export_record(detail: str | None) -> ExportRecord | None:
    """An export row's detail, for display only (the replay does not depend on it)."""
    try:
        value = json.loads(detail or "")
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    fields = [value.get(k) for k in ("completedAt", "path", "receiptDigest")]
    if not all(isinstance(f, str) for f in fields):
        return None
    return ExportRecord(*(str(f) for f in fields))


class JournaledReview:
    """A review session whose every change is journalled before it is applied."""

    def __init__(
        self,
        session: ReviewSession,
        journal: ReviewJournal,
        last_export: ExportRecord | None = None,
    ) -> None:
        self.session = session
        self.journal = journal
        self.last_export = last_export

    @property
    def stale_export(self) -> ExportRecord | None:
        """The last export, when decisions were taken after it (its receipt is out of date)."""
        if self.last_export is None or len(self.session.applied) <= self.session.sealed:
            return None
        return self.last_export

    @classmethod
    def open(cls, directory: str | Path, target: ReviewTarget) -> JournaledReview:
        """Restore the review of ``target`` from its journal (or start one); may refuse."""
        identity = JournalIdentity.of(target)
        journal = ReviewJournal(journal_path(directory, identity.correlation_id), identity, 0)
        rows = journal.read()
        session = replay(rows, target)
        journal.last_seq = len(rows)
        exports = [row for row in rows if row[4] == "export"]
        return cls(session, journal, _export_record(exports[-1][12]) if exports else None)

    def decide(self, requests: Sequence[DecisionRequest], reviewer: str, at: str) -> Step:
        step = self.session.plan(requests, reviewer, at)
        self.journal.append([Entry("decide", step.number, d) for d in step.decisions])
        self.session.apply(step)
        return step

    def undo(self) -> Step:
        step = self.session.undo_candidate()
        self.journal.append([Entry("undo", step.number)])
        return self.session.undo(step.number)

    def redo(self) -> Step:
        step = self.session.redo_candidate()
        self.journal.append([Entry("redo", step.number)])
        return self.session.redo(step.number)

    def mark_exported(self, completed_at: str, receipt_digest: str, path: str) -> None:
        detail = canonical(
            {"completedAt": completed_at, "receiptDigest": receipt_digest, "path": path}
        ).decode("utf-8")
        last = self.session.applied[-1].number if self.session.applied else 0
        self.journal.append([Entry("export", last, None, detail)])
        self.session.seal()
        self.last_export = ExportRecord(completed_at, path, receipt_digest)
