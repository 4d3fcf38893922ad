"""The key of a review journal, kept outside it, and the keyed chain of its rows.

One key file per journal (`JournalKeys`), 0600 in a 0700 folder beside the user's
settings, holds the journal's HMAC key and its head: how many rows were acknowledged and
the last row's checksum. Each row's checksum is HMAC-SHA-256 under that key over the
previous row's checksum (the first row's over the journal's identity) and the row itself
(`row_mac`), so no row can be changed, removed or moved unnoticed."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from zcf_inspector.core import file_trust
from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.digest import lp, sha256_digest
from zcf_inspector.core.errors import ZcfError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.formats import Base64UrlError, b64u_decode, b64u_encode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import ReviewError, refuse
from zcf_inspector.core.review.journal_files import (
    FILE_PREFIX,
    JournalIdentity,
    Row,
    corrupt,
    unavailable,
)

KEY_SUFFIX = ".key.json"
KEY_FORMAT = "zcf-review-journal-key"
KEY_FILE_MAX_BYTES = 4096
CHAIN_DOMAIN = "zcf-review-journal-chain-v2"


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
        # A key others could have written (or read: it is a secret) proves nothing about
        # the rows; that is no damage of the journal, so it is said as the fix it needs,
        # not set aside.
        guard = file_trust.secret_guard(shown_path(path), "review journal key", _unsafe_key)
        try:
            data = read_bounded(path, KEY_FILE_MAX_BYTES, refuse_larger=True, guard=guard)
            return _key_state(read_json(data))
        except ReviewError:
            raise
        except (ZcfError, ReadError, ValueError, Base64UrlError) as exc:
            raise corrupt(path, f"its key file cannot be used: {exc}") from exc

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
            raise unavailable(self.folder, exc) from exc
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


def genesis(key: bytes, identity: JournalIdentity) -> str:
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
