"""What every part of the review journal shares: where a journal lives (one file per
receipt ``correlationId``), what ties it to one packet (`JournalIdentity`), the shape of a
row, and how its failures are said (``journal_corrupt``, ``journal_unavailable``,
``journal_conflict``). The design is described in `review.journal`."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.review.decisions import ReviewError, refuse
from zcf_inspector.core.review.target import ReviewTarget

FILE_PREFIX = "review-"
FILE_SUFFIX = ".sqlite3"


# Rows between two cancellation points (and pauses for the UI thread) of a long read,
# replay or write.
ROW_CHUNK = 2_000


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


def corrupt(path: Path, why: str) -> ReviewError:
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


def sqlite_refusal(path: Path, exc: sqlite3.Error) -> ReviewError:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code != _SHORT_READ and code & 0xFF in _ENVIRONMENT:
        return unavailable(path, exc)
    return corrupt(path, str(exc))


_BUSY: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def write_refusal(path: Path, exc: sqlite3.Error) -> ReviewError:
    """A write that found the journal locked past the wait is another window's write."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _BUSY:
        return conflict(path)
    return sqlite_refusal(path, exc)


def conflict(path: Path) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_CONFLICT,
        f"another window is using this review: its journal {shown_path(path)} was changed "
        "elsewhere since it was read (nothing is damaged); reopen the packet to continue "
        "from what was saved",
    )


def unavailable(path: Path, exc: BaseException) -> ReviewError:
    return refuse(
        ReviewCode.JOURNAL_UNAVAILABLE,
        f"the review journal at {shown_path(path)} cannot be used: {exc}",
    )
