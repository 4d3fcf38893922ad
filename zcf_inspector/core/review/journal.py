"""The review journal: every decision on disk as it is made, so nothing is ever lost.

One SQLite file per review (per receipt ``correlationId``) in a folder the caller names —
the window passes its user data folder. WAL mode with ``synchronous=FULL``: a committed row
survives a crash or a power cut. Every operation is one row or, for a bulk decision, several
rows in one transaction, so a crash never leaves half of a step. Undo, redo and export are
rows too: the journal is a log, replayed in order to rebuild the review.

Nothing read back is trusted: the file must pass ``PRAGMA integrity_check``, carry this
application's id and a known schema version, name the packet under review, and every row
must name it too and carry its checksum. Anything else is refused, never applied.

The checksums are keyed and chained: each row's is HMAC-SHA-256, under a key of this
journal alone, over the previous row's checksum (the first row's over the journal's
identity) and the row itself. The key lives outside the journal — in a key folder the
caller names, beside the user's settings (`JournalKeys`), one file per journal, 0600 —
with the number of rows last acknowledged and the last checksum (the *head*). So a row
edited or forged (even with a recomputed unkeyed checksum), deleted (the last one too),
or moved, a journal cut short, emptied or removed where one existed, are all refused as
``journal_corrupt``. A head that lags (a crash between the commit and its update) is no
fault: the rows after it are chained like the rest. Every SQLite and decoding failure is a
`ReviewError`: ``journal_unavailable`` for what says nothing about the rows (no
permission, no space, a lock held too long), ``journal_corrupt`` for the rest.

Schema version 1 journals (unkeyed checksums, written before issue 15) are refused with
``journal_unsupported_version``, not upgraded: their rows cannot be verified, and
accepting them once would make a forged journal trusted from then on. The window offers
to set such a journal aside (kept, renamed) and start over.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, NamedTuple

from zcf_inspector.core import file_trust
from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.digest import lp, sha256_digest
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.formats import (
    Base64UrlError,
    ReviewState,
    b64u_decode,
    b64u_encode,
    is_id,
    is_timestamp,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Monitor
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import (
    Decision,
    DecisionRequest,
    Prepared,
    ReviewError,
    ReviewSession,
    ReviewTarget,
    Step,
    check_request,
    refuse,
)

SCHEMA_VERSION = 2  # 2: keyed, chained checksums (1: unkeyed, refused)
UNKEYED_VERSION = 1
APPLICATION_ID = 0x5A434652  # "ZCFR": tells a review journal from any other SQLite file
FILE_PREFIX = "review-"
FILE_SUFFIX = ".sqlite3"
KEY_SUFFIX = ".key.json"
KEY_FORMAT = "zcf-review-journal-key"
KEY_FILE_MAX_BYTES = 4096
CHAIN_DOMAIN = "zcf-review-journal-chain-v2"
OPS = ("decide", "undo", "redo", "export")
# Rows between two cancellation points (and pauses for the UI thread) of a long read,
# replay or write.
_ROW_CHUNK = 2_000

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


# --- the key, kept outside the journal ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyState:
    """A journal's key, and the head: how many rows were acknowledged, the last checksum."""

    key: bytes = field(repr=False)  # the journal's HMAC key: never printed
    rows: int
    head: str  # the checksum of row ``rows``; "" while there are none


class JournalKeys:
    """The folder of journal keys (beside the user's settings, never the journal folder):
    ``review-<hex>.key.json`` per journal, written 0600 in a 0700 folder."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path_for(self, correlation_id: str) -> Path:
        hex_id = correlation_id.removeprefix("sha256:")
        return self.folder / f"{FILE_PREFIX}{hex_id}{KEY_SUFFIX}"

    def load(self, correlation_id: str) -> KeyState | None:
        """The key and head, or None when there is no key file; a file that is not a
        sound key file is a damaged journal."""
        path = self.path_for(correlation_id)
        if not path.exists() and not path.is_symlink():
            return None
        # A key others could have written proves nothing about the rows; that is no
        # damage of the journal, so it is said as the fix it needs, not set aside.
        guard = file_trust.guard(shown_path(path), "review journal key", _unsafe_key)
        try:
            data = read_bounded(path, KEY_FILE_MAX_BYTES, refuse_larger=True, guard=guard)
            return _key_state(read_json(data))
        except ReviewError:
            raise
        except (ZcfError, ReadError, ValueError, Base64UrlError) as exc:
            raise _corrupt(path, f"its key file cannot be used: {exc}") from exc

    def create(self, correlation_id: str) -> KeyState:
        """A new key for a journal about to be made (or the one another writer made)."""
        state = KeyState(secrets.token_bytes(32), 0, "")
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomic(self.path_for(correlation_id), _key_bytes(state))
        except ZcfError as exc:
            existing = self.load(correlation_id)
            if existing is not None:
                return existing  # made meanwhile by another window: use that one
            raise _unavailable(self.folder, exc) from exc
        return state

    def record(self, correlation_id: str, state: KeyState) -> None:
        """Move the head on (after a commit)."""
        write_atomic(self.path_for(correlation_id), _key_bytes(state), overwrite=True)


def _unsafe_key(message: str) -> ReviewError:
    return refuse(ReviewCode.JOURNAL_UNAVAILABLE, message)


def _key_bytes(state: KeyState) -> bytes:
    value: dict[str, JsonValue] = {
        "format": KEY_FORMAT,
        "key": b64u_encode(state.key),
        "rows": state.rows,
        "head": state.head,
    }
    return canonical(value) + b"\n"


def _key_state(value: JsonValue) -> KeyState:
    if not isinstance(value, dict) or value.get("format") != KEY_FORMAT:
        raise ValueError("not a journal key file")
    key, rows, head = value.get("key"), value.get("rows"), value.get("head")
    if not isinstance(key, str) or not isinstance(head, str):
        raise ValueError("key and head must be strings")
    raw = b64u_decode(key)
    if len(raw) != 32 or type(rows) is not int or rows < 0 or (rows > 0) != bool(head):
        raise ValueError("not a 32-byte key with a row count and its head")
    return KeyState(raw, rows, head)


def _genesis(key: bytes, identity: JournalIdentity) -> str:
    """What the first row is chained to: the journal's identity, under its key."""
    values: list[JsonValue] = list(identity.as_tuple())
    return hmac.new(key, lp(CHAIN_DOMAIN) + canonical(values), hashlib.sha256).hexdigest()


def row_mac(key: bytes, previous: str, row: Row) -> str:
    """A row's checksum: HMAC-SHA-256 under the journal's key over the previous row's
    checksum and the row, so that no row can be changed, removed or moved unnoticed."""
    values: list[JsonValue] = list(row)
    return hmac.new(key, lp(previous) + canonical(values), hashlib.sha256).hexdigest()


def row_checksum(row: Row) -> str:
    """The unkeyed checksum of schema version 1 (kept to recognise and test old files)."""
    values: list[JsonValue] = list(row)
    return sha256_digest(canonical(values))


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


# --- the journal file -----------------------------------------------------------------------


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
            raise _unavailable(self.path, exc) from exc
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
            raise _corrupt(
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
        return rows

    def _read_file(
        self, state: KeyState | None
    ) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]] | None:
        """The review row and the entry rows, in one snapshot; None when the journal
        has rows but ``state`` is no key and one exists now (made meanwhile)."""
        acknowledged = 0 if state is None else state.rows
        if not self.path.exists():
            if acknowledged:
                raise _corrupt(self.path, f"it is gone, but {acknowledged} rows were saved")
            return [], []
        try:
            with self._connect(create=False) as conn:
                conn.execute("BEGIN")
                try:
                    if _is_blank(conn):
                        if acknowledged:
                            raise _corrupt(
                                self.path, f"it is empty, but {acknowledged} rows were saved"
                            )
                        return [], []  # created, then a crash before the schema was committed
                    _check_file(conn, self.path, keyed=state is not None)
                    if state is None:
                        if self.keys.load(self.identity.correlation_id) is not None:
                            return None
                        raise _corrupt(
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
            raise _sqlite_refusal(self.path, exc) from exc
        except UnicodeDecodeError as exc:
            # SQLite's own message can quote a damaged name, which the driver then fails
            # to decode: the file is damaged either way.
            raise _corrupt(self.path, f"a text in it is not UTF-8 ({exc.reason})") from exc
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
        raise _corrupt(self.path, "the packet it names does not match its rows")

    def _verified(
        self, raw_rows: list[tuple[object, ...]], state: KeyState, monitor: Monitor
    ) -> list[Row]:
        previous = _genesis(state.key, self.identity)
        rows: list[Row] = []
        for index, raw in enumerate(raw_rows):
            if index % _ROW_CHUNK == 0:
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
                raise _corrupt(self.path, f"row {row[0]} is not the one that was saved")
            rows.append(row)
            previous = expected
        if len(rows) < state.rows:
            missing = state.rows - len(rows)
            raise _corrupt(self.path, f"its last {missing} of {state.rows} saved rows are gone")
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
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _unavailable(parent, exc) from exc
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
            raise _write_refusal(self.path, exc) from exc
        except UnicodeDecodeError as exc:
            # SQLite's own message can quote a damaged name, which the driver then fails
            # to decode: the file is damaged either way.
            raise _corrupt(self.path, f"a text in it is not UTF-8 ({exc.reason})") from exc
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
            raise _conflict(self.path)
        previous = self.last_mac if self.last_seq else _genesis(state.key, self.identity)
        for offset, entry in enumerate(entries, start=1):
            if offset % _ROW_CHUNK == 0:
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
        raise _corrupt(path, "it is not a zcf-inspector review journal")
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if keyed and version < SCHEMA_VERSION:
        raise _corrupt(path, f"its schema version reads {version}, not {SCHEMA_VERSION}")
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
        raise _corrupt(path, f"unknown schema version {version}")
    result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if result != [b"ok"]:
        found = "; ".join(_text(r, path) if isinstance(r, bytes) else str(r) for r in result[:3])
        raise _corrupt(path, "SQLite integrity check failed: " + found)


def _first_row_verifies(
    raw: tuple[object, ...], key: bytes, identity: JournalIdentity, path: Path
) -> bool:
    row, checksum = _decoded_row(raw, path)
    return hmac.compare_digest(checksum, row_mac(key, _genesis(key, identity), row))


def _text(value: bytes, path: Path) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _corrupt(path, f"a text is not UTF-8 ({exc.reason})") from exc


def _decoded_row(raw: tuple[object, ...], path: Path) -> tuple[Row, str]:
    """The columns as the STRICT schema types them, text decoded strictly."""
    *values, checksum = raw
    decoded: list[object] = []
    for value in values:
        decoded.append(_text(value, path) if isinstance(value, bytes) else value)
    if not isinstance(checksum, bytes):
        raise _corrupt(path, "a row has no checksum")
    row: Row = tuple(decoded)  # type: ignore[assignment]  # STRICT columns fix the types
    return row, _text(checksum, path)


def _check_row(row: Row, identity: JournalIdentity) -> None:
    if row[1:4] != (identity.correlation_id, identity.packet_id, identity.manifest_root):
        raise refuse(
            ReviewCode.JOURNAL_MISMATCH,
            f"review journal row {row[0]} belongs to another packet; the journal was not applied",
        )


def replay(
    rows: Sequence[Row], target: ReviewTarget, monitor: Monitor = NULL_MONITOR
) -> ReviewSession:
    """The session the rows describe; a row the rules refuse makes the whole journal refused."""
    session = ReviewSession(target)
    pending: list[Decision] = []
    pending_step = 0
    for number, row in enumerate(rows):
        if number % _ROW_CHUNK == 0:
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


def _corrupt(path: Path, why: str) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_CORRUPT,
        f"the review journal {shown_path(path)} is damaged ({why}); it was not applied",
    )


# SQLite results that say something about the environment, not the rows: no permission,
# no space, no memory, a lock held too long, an I/O error of the device. Anything else met
# while reading a journal (not a database, malformed, a type or constraint broken, a
# table missing, a page cut short) says the file is damaged.
_ENVIRONMENT: Final = frozenset(
    {
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_INTERRUPT,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_AUTH,
    }
)
_SHORT_READ: Final = sqlite3.SQLITE_IOERR | (2 << 8)  # SQLITE_IOERR_SHORT_READ: cut short


def _sqlite_refusal(path: Path, exc: sqlite3.Error) -> ReviewError:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code != _SHORT_READ and code & 0xFF in _ENVIRONMENT:
        return _unavailable(path, exc)
    return _corrupt(path, str(exc))


_BUSY: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _write_refusal(path: Path, exc: sqlite3.Error) -> ReviewError:
    """A write that found the journal locked past the wait is another window's write."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _BUSY:
        return _conflict(path)
    return _sqlite_refusal(path, exc)


def _conflict(path: Path) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_CONFLICT,
        f"another window is using this review: its journal {shown_path(path)} was changed "
        "elsewhere since it was read (nothing is damaged); reopen the packet to continue "
        "from what was saved",
    )


def _unavailable(path: Path, exc: BaseException) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_UNAVAILABLE,
        f"the review journal at {shown_path(path)} cannot be used: {exc}",
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
    def open(
        cls,
        directory: str | Path,
        target: ReviewTarget,
        *,
        keys: str | Path | JournalKeys,
        monitor: Monitor = NULL_MONITOR,
    ) -> JournaledReview:
        """Restore the review of ``target`` from its journal in ``directory`` (or start
        one), verified with its key in ``keys`` (a folder outside ``directory``, beside
        the user's settings); may refuse. A worker may run it (``monitor`` can stop it:
        nothing is written)."""
        identity = JournalIdentity.of(target)
        key_folder = keys if isinstance(keys, JournalKeys) else JournalKeys(keys)
        path = journal_path(directory, identity.correlation_id)
        if Path(os.path.abspath(key_folder.folder)) == Path(os.path.abspath(path.parent)):
            raise _unavailable(path, ValueError("its key may not be kept beside it"))
        journal = ReviewJournal(path, identity, 0, key_folder)
        rows = journal.read(monitor)
        session = replay(rows, target, monitor)
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

    # -- a large step, journalled off the UI thread ------------------------------------
    #
    # A worker calls `write_decision`, `write_undo` or `write_redo`: the step is checked,
    # the index after it made on a copy, and the step journalled (one transaction). The
    # session is not touched, so the window may keep reading it; `install` then applies
    # the journalled step at once, on the window's thread. Until the commit ``monitor``
    # may stop it all, and nothing is written; after it the step is durable and must be
    # installed (it is in the journal either way: a restore replays it).

    def write_decision(
        self,
        requests: Sequence[DecisionRequest],
        reviewer: str,
        at: str,
        monitor: Monitor = NULL_MONITOR,
    ) -> Prepared:
        monitor.step("checking the decisions", 0.0)
        step = self.session.plan(requests, reviewer, at, monitor)
        monitor.step("the review after them", 0.4)
        prepared = self.session.prepare("apply", step, monitor)
        monitor.step("journalling", 0.7)
        self.journal.append([Entry("decide", step.number, d) for d in step.decisions], monitor)
        return prepared

    def write_undo(self, monitor: Monitor = NULL_MONITOR) -> Prepared:
        return self._write_history("undo", self.session.undo_candidate(), monitor)

    def write_redo(self, monitor: Monitor = NULL_MONITOR) -> Prepared:
        return self._write_history("redo", self.session.redo_candidate(), monitor)

    def _write_history(self, kind: str, step: Step, monitor: Monitor) -> Prepared:
        monitor.step("the review after it", 0.0)
        prepared = self.session.prepare(kind, step, monitor)
        monitor.step("journalling", 0.9)
        self.journal.append([Entry(kind, step.number)], monitor)
        return prepared

    def install(self, prepared: Prepared) -> Step:
        """Apply a step a worker journalled (constant time)."""
        return self.session.commit(prepared)

    def mark_exported(self, completed_at: str, receipt_digest: str, path: str) -> None:
        detail = canonical(
            {"completedAt": completed_at, "receiptDigest": receipt_digest, "path": path}
        ).decode("utf-8")
        last = self.session.applied[-1].number if self.session.applied else 0
        self.journal.append([Entry("export", last, None, detail)])
        self.session.seal()
        self.last_export = ExportRecord(completed_at, path, receipt_digest)
