"""The journal file of one review: a SQLite file in WAL mode, read and verified whole,
written one transaction per step, its head moved on in the key file before a step is
acknowledged. The design is described in `review.journal`."""

from __future__ import annotations

import contextlib
import hmac
import os
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.review.decisions import Decision, refuse
from zcf_inspector.core.review.journal_files import (
    FILE_PREFIX,
    FILE_SUFFIX,
    ROW_CHUNK,
    JournalIdentity,
    Row,
    conflict,
    corrupt,
    sqlite_refusal,
    unavailable,
    write_refusal,
)
from zcf_inspector.core.review.journal_keys import JournalKeys, KeyState, genesis, row_mac

SCHEMA_VERSION = 2  # 2: keyed, chained checksums (1: unkeyed, refused)
UNKEYED_VERSION = 1
APPLICATION_ID = 0x5A434652  # "ZCFR": tells a review journal from any other SQLite file
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


class Entry(NamedTuple):
    """One row to write: a decision of a step, or an undo, redo or export naming a step."""

    op: str
    step: int
    decision: Decision | None = None
    detail: str | None = None


def set_aside(path: Path, keys: JournalKeys | None = None) -> Path:
    """Move a refused journal (its WAL files and its key too) out of the way, keeping it
    for inspection; the next review of the packet starts a new journal with a new key."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    kept = path.with_name(f"{path.name}.refused-{stamp}")
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(kept.with_name(kept.name + suffix))
    if path.exists() or path.is_symlink():
        path.rename(kept)
    if keys is not None:
        hex_id = path.name.removeprefix(FILE_PREFIX).removesuffix(FILE_SUFFIX)
        key = keys.path_for(hex_id)
        if key.exists():
            key.rename(key.with_name(f"{key.name}.refused-{stamp}"))
    return kept


class ReviewJournal:
    """The journal file of one review. Open it with ``JournaledReview.open``."""

    def __init__(
        self, path: Path, identity: JournalIdentity, last_seq: int, keys: JournalKeys
    ) -> None:
        self.path = path
        self.identity = identity
        self.last_seq = last_seq
        self.keys = keys
        self.state: KeyState | None = None  # the key and head, once read or made
        self.last_mac = ""

    @contextlib.contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection]:
        mode = "rwc" if create else "rw"
        try:
            conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise unavailable(self.path, exc) from exc
        try:
            # Text comes back as bytes and is decoded here: a damaged byte is a damaged
            # journal, not a UnicodeDecodeError escaping from the driver.
            conn.text_factory = bytes
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA busy_timeout = 2000")
            yield conn
        finally:
            conn.close()

    def read(self, monitor: Monitor = NULL_MONITOR) -> list[Row]:
        """Every row, after every check; raises ``ReviewError`` on any problem.

        The key (and head) is read first, then the file in one read transaction: a
        writer commits its rows before it moves the head, so the rows read are never
        fewer than the head says. A journal found made without its key having been
        seen was made meanwhile by another window (a writer makes the key first): read
        once more, key first, rather than call it damaged."""
        for _attempt in range(2):
            state = self.keys.load(self.identity.correlation_id)
            found = self._read_file(state)
            if found is not None:
                break
        else:
            raise corrupt(
                self.path,
                f"its key is missing from {shown_path(self.keys.folder)}, so its "
                "rows cannot be verified",
            )
        self.state = state
        stored, raw_rows = found
        if state is None or (not stored and not raw_rows and not state.rows):
            return []  # no journal yet (or a blank one): nothing was saved
        self._check_identity(stored, raw_rows, state)
        rows = self._verified(raw_rows, state, monitor)
        self.last_seq = len(rows)
        if len(rows) > state.rows:
            self._acknowledge_recovered(state, len(rows))
        return rows

    def _acknowledge_recovered(self, state: KeyState, rows: int) -> None:
        """Put rows committed after the head (a crash between a commit and the head's
        update) under the head now, before the review is shown: until then they could be
        deleted unnoticed, and the next step would be the first to notice them."""
        head = KeyState(state.key, rows, self.last_mac)
        try:
            self.keys.record(self.identity.correlation_id, head)
        except (ZcfError, OSError) as exc:
            key = shown_path(self.keys.path_for(self.identity.correlation_id))
            raise refuse(
                ReviewCode.JOURNAL_UNAVAILABLE,
                f"the review journal holds {rows - state.rows} step row(s) saved just before "
                f"a crash, and its key {key} could not be updated to cover them ({exc}); "
                "nothing was changed",
            ) from exc
        self.state = head

    def _read_file(
        self, state: KeyState | None
    ) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]] | None:
        """The review row and the entry rows, in one snapshot; None when the journal
        has rows but ``state`` is no key and one exists now (made meanwhile)."""
        acknowledged = 0 if state is None else state.rows
        if not self.path.exists():
            if acknowledged:
                raise corrupt(self.path, f"it is gone, but {acknowledged} rows were saved")
            return [], []
        try:
            with self._connect(create=False) as conn:
                conn.execute("BEGIN")
                try:
                    if _is_blank(conn):
                        if acknowledged:
                            raise corrupt(
                                self.path, f"it is empty, but {acknowledged} rows were saved"
                            )
                        return [], []  # created, then a crash before the schema was committed
                    _check_file(conn, self.path, keyed=state is not None)
                    if state is None:
                        if self.keys.load(self.identity.correlation_id) is not None:
                            return None
                        raise corrupt(
                            self.path,
                            f"its key is missing from {shown_path(self.keys.folder)}, so its "
                            "rows cannot be verified",
                        )
                    stored = conn.execute("SELECT * FROM review").fetchall()
                    raw_rows = conn.execute(
                        f"SELECT {_COLUMNS}, checksum FROM entry ORDER BY seq"
                    ).fetchall()
                finally:
                    conn.execute("ROLLBACK")  # a read: nothing to keep
        except sqlite3.Error as exc:
            raise sqlite_refusal(self.path, exc) from exc
        except UnicodeDecodeError as exc:
            # SQLite's own message can quote a damaged name, which the driver then fails
            # to decode: the file is damaged either way.
            raise corrupt(self.path, f"a text in it is not UTF-8 ({exc.reason})") from exc
        return stored, raw_rows

    def _check_identity(
        self, stored: list[tuple[object, ...]], raw_rows: list[tuple[object, ...]], state: KeyState
    ) -> None:
        """The journal must name this packet as admitted here. One that names another is
        refused as a mismatch when its rows verify under the identity it names (a review
        of another admission of the same packet), else as damaged."""
        found = [
            tuple(_text(v, self.path) if isinstance(v, bytes) else v for v in row) for row in stored
        ]
        if found == [self.identity.as_tuple()]:
            return
        if len(found) == 1 and len(found[0]) == len(self.identity.as_tuple()):
            other = JournalIdentity(*(str(v) for v in found[0]))
            if not raw_rows or _first_row_verifies(raw_rows[0], state.key, other, self.path):
                raise refuse(
                    ReviewCode.JOURNAL_MISMATCH,
                    "the review journal names another packet or another admission "
                    f"(expected correlationId {self.identity.correlation_id}); it was not "
                    "applied",
                )
        raise corrupt(self.path, "the packet it names does not match its rows")

    def _verified(
        self, raw_rows: list[tuple[object, ...]], state: KeyState, monitor: Monitor
    ) -> list[Row]:
        previous = genesis(state.key, self.identity)
        rows: list[Row] = []
        for index, raw in enumerate(raw_rows):
            if index % ROW_CHUNK == 0:
                monitor.breathe()
            row, checksum = _decoded_row(raw, self.path)
            if row[0] != index + 1:
                raise refuse(
                    ReviewCode.JOURNAL_CORRUPT,
                    f"review journal row {index + 1} is missing (or rows were moved): the "
                    "journal was damaged",
                )
            expected = row_mac(state.key, previous, row)
            if not hmac.compare_digest(checksum, expected):
                raise refuse(
                    ReviewCode.JOURNAL_CORRUPT,
                    f"review journal row {row[0]} does not match its keyed checksum: the "
                    "journal was changed outside zcf-inspector, or damaged",
                )
            _check_row(row, self.identity)
            if row[0] == state.rows and checksum != state.head:
                raise corrupt(self.path, f"row {row[0]} is not the one that was saved")
            rows.append(row)
            previous = expected
        if len(rows) < state.rows:
            missing = state.rows - len(rows)
            raise corrupt(self.path, f"its last {missing} of {state.rows} saved rows are gone")
        self.last_mac = previous if rows else ""
        return rows

    def append(self, entries: Sequence[Entry], monitor: Monitor = NULL_MONITOR) -> None:
        """Write ``(op, step, decision, detail)`` entries as one transaction, or refuse.

        ``monitor`` may stop a long write (`Cancelled`) until the commit: the transaction
        is then rolled back and nothing of it is in the journal. Once committed, the
        entries are durable and this returns normally, whatever ``monitor`` says.

        A step is acknowledged only once the key's head names it: were the head left
        behind, the step's rows could be deleted unnoticed (a head that lags is read as
        a crash between the commit and its update). So when the head cannot be moved on
        (the key folder read-only or full), the rows just committed are taken out again
        and the step fails; should even that fail, they stay, unacknowledged, and come
        back when the review is opened again.

        The journal is created in the same transaction as its first rows, after the
        write lock is taken: two windows starting one review at once cannot both create
        it, and the one that comes second is told another window is using the review.
        """
        parent = self.path.parent
        try:
            # Owner-only: the journal holds the reviewers' notes (its key's folder is too).
            parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            _create_owner_only(self.path)
        except OSError as exc:
            raise unavailable(parent, exc) from exc
        state = self.state or self.keys.load(self.identity.correlation_id)
        if state is None:
            state = self.keys.create(self.identity.correlation_id)
        self.state = state
        try:
            with self._connect(create=True) as conn:
                # WAL cannot be switched on inside a transaction; on a journal that has
                # it already (every one but a new file) this changes nothing.
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("BEGIN IMMEDIATE")
                try:
                    if _is_blank(conn):
                        _create(conn, self.identity)
                    last_mac = self._append_in(conn, entries, state, monitor)
                    monitor.breathe()  # the last point at which the step may be dropped
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                head = KeyState(state.key, self.last_seq + len(entries), last_mac)
                self._record_head(conn, head)
        except sqlite3.Error as exc:
            raise write_refusal(self.path, exc) from exc
        except UnicodeDecodeError as exc:
            # SQLite's own message can quote a damaged name, which the driver then fails
            # to decode: the file is damaged either way.
            raise corrupt(self.path, f"a text in it is not UTF-8 ({exc.reason})") from exc
        self.last_seq = head.rows
        self.last_mac = last_mac
        self.state = head

    def _record_head(self, conn: sqlite3.Connection, head: KeyState) -> None:
        """Move the key's head on to the rows just committed, or take them out again and
        refuse the step."""
        try:
            self.keys.record(self.identity.correlation_id, head)
        except (ZcfError, OSError) as exc:
            # The new head may be in place already (the rename done, the folder's fsync
            # failed): then the step is acknowledged, and taking it out would cut the
            # journal short of its head.
            with contextlib.suppress(ZcfError):
                if self.keys.load(self.identity.correlation_id) == head:
                    return
            key = shown_path(self.keys.path_for(self.identity.correlation_id))
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DELETE FROM entry WHERE seq > ?", (self.last_seq,))
                conn.execute("COMMIT")
                kept = "nothing of it was kept"
            except sqlite3.Error:
                kept = (
                    "its rows could not be taken out of the journal either, so it may come "
                    "back when the review is opened again"
                )
            raise refuse(
                ReviewCode.JOURNAL_UNAVAILABLE,
                f"the step was not saved: the journal key {key} could not be updated "
                f"({exc}), and without it the step could be removed unnoticed; {kept}",
            ) from exc

    def _append_in(
        self,
        conn: sqlite3.Connection,
        entries: Sequence[Entry],
        state: KeyState,
        monitor: Monitor,
    ) -> str:
        (last,) = conn.execute("SELECT coalesce(max(seq), 0) FROM entry").fetchone()
        if last != self.last_seq:
            # Another window (or process) wrote since this review was read: applying on
            # top of rows it has not seen would interleave two reviews.
            raise conflict(self.path)
        previous = self.last_mac if self.last_seq else genesis(state.key, self.identity)
        for offset, entry in enumerate(entries, start=1):
            if offset % ROW_CHUNK == 0:
                monitor.breathe()
            row = _row(self.last_seq + offset, self.identity, entry)
            previous = row_mac(state.key, previous, row)
            conn.execute(
                f"INSERT INTO entry ({_COLUMNS}, checksum) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (*row, previous),
            )
        return previous


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


def _create_owner_only(path: Path) -> None:
    """Make the journal file, empty and 0600, unless it exists: SQLite creates its files
    0644 (less the umask), and gives its -wal and -shm files the mode of the database
    file. An empty file is a blank journal (`_is_blank`), created in the transaction of
    its first rows as before."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, flags, 0o600))


def _is_blank(conn: sqlite3.Connection) -> bool:
    (tables,) = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    (app,) = conn.execute("PRAGMA application_id").fetchone()
    return bool(tables == 0 and app == 0)


def _create(conn: sqlite3.Connection, identity: JournalIdentity) -> None:
    """The schema, inside the caller's write transaction (with the first rows): a crash
    leaves either a blank file (treated as new) or a whole journal."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO review VALUES (?,?,?,?,?)", identity.as_tuple())
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _check_file(conn: sqlite3.Connection, path: Path, *, keyed: bool) -> None:
    """``keyed``: this journal has a key, so no older version wrote it: an older version
    number is damage (a newer one may be a newer program's, after a downgrade)."""
    (app,) = conn.execute("PRAGMA application_id").fetchone()
    if app != APPLICATION_ID:
        raise corrupt(path, "it is not a zcf-inspector review journal")
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if keyed and version < SCHEMA_VERSION:
        raise corrupt(path, f"its schema version reads {version}, not {SCHEMA_VERSION}")
    if version > SCHEMA_VERSION:
        raise refuse(
            ReviewCode.JOURNAL_UNSUPPORTED_VERSION,
            f"the review journal {shown_path(path)} has schema version {version}; this "
            f"version of zcf-inspector reads version {SCHEMA_VERSION}",
        )
    if version == UNKEYED_VERSION:
        raise refuse(
            ReviewCode.JOURNAL_UNSUPPORTED_VERSION,
            f"the review journal {shown_path(path)} was written by an earlier version of "
            "zcf-inspector, without keyed checksums: its rows cannot be verified, so they "
            "were not applied. Set it aside (it is kept) and start the review over",
        )
    if version != SCHEMA_VERSION:
        raise corrupt(path, f"unknown schema version {version}")
    result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if result != [b"ok"]:
        found = "; ".join(_text(r, path) if isinstance(r, bytes) else str(r) for r in result[:3])
        raise corrupt(path, "SQLite integrity check failed: " + found)


def _first_row_verifies(
    raw: tuple[object, ...], key: bytes, identity: JournalIdentity, path: Path
) -> bool:
    row, checksum = _decoded_row(raw, path)
    return hmac.compare_digest(checksum, row_mac(key, genesis(key, identity), row))


def _text(value: bytes, path: Path) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise corrupt(path, f"a text is not UTF-8 ({exc.reason})") from exc


def _decoded_row(raw: tuple[object, ...], path: Path) -> tuple[Row, str]:
    """The columns as the STRICT schema types them, text decoded strictly."""
    *values, checksum = raw
    decoded: list[object] = []
    for value in values:
        decoded.append(_text(value, path) if isinstance(value, bytes) else value)
    if not isinstance(checksum, bytes):
        raise corrupt(path, "a row has no checksum")
    row: Row = tuple(decoded)  # type: ignore[assignment]  # STRICT columns fix the types
    return row, _text(checksum, path)


def _check_row(row: Row, identity: JournalIdentity) -> None:
    if row[1:4] != (identity.correlation_id, identity.packet_id, identity.manifest_root):
        raise refuse(
            ReviewCode.JOURNAL_MISMATCH,
            f"review journal row {row[0]} belongs to another packet; the journal was not applied",
        )
