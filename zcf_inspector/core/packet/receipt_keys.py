"""Which key signs a destination's receipts, and its public half as a key file.

A receipt is signed by the destination's ``signingKey`` (profile §6), never by the
reviewer. Whoever checks a receipt (`receipt verify --key`, or `--destination`) needs
that key's public half: `public_key_file` writes it in the key-file format `keygen`
uses, and `load_public_key` reads one back from a public key file, a private key file
or a destination file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core import file_trust
from zcf_inspector.core.crypto import public_key_fingerprint
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import UnreadableFileError, read_bounded, shown_path
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.keyfile import (
    Ed25519Key,
    KeyFileError,
    check_key_secret,
    ed25519_key_of,
    status_kept,
)
from zcf_inspector.core.packet.destination import (
    DESTINATION_FILE_MAX_BYTES,
    Destination,
    parse_destination,
)
from zcf_inspector.core.reading import ReadError, read_json


@dataclass(frozen=True, slots=True)
class ReceiptSigner:
    """The key that signs receipts at one destination (``public_key`` None: unsigned)."""

    destination_id: str
    public_key: bytes | None

    @property
    def fingerprint(self) -> str | None:
        return None if self.public_key is None else public_key_fingerprint(self.public_key)

    def describe(self) -> str:
        if self.fingerprint is None:
            return (
                f"receipts are UNSIGNED: destination {self.destination_id} has no signingKey "
                "(anyone could have written them)"
            )
        return (
            f"receipts are signed by destination {self.destination_id}'s signingKey "
            f"{self.fingerprint}"
        )

    def key(self) -> Ed25519Key:
        if self.public_key is None:
            raise InputError(
                f"destination {self.destination_id} has no signingKey: its receipts are unsigned"
            )
        return Ed25519Key(self.public_key)


def receipt_signer(destination: Destination) -> ReceiptSigner:
    return ReceiptSigner(destination.installation_key_id, destination.signing_public_key)


def public_key_file(destination: Destination) -> dict[str, JsonValue]:
    """The public key file of the destination's signingKey (for `receipt verify --key`)."""
    return receipt_signer(destination).key().to_json(include_seed=False)


def key_file_bytes(value: dict[str, JsonValue]) -> bytes:
    """A key file as `keygen` writes it (2-space indent, UTF-8, final newline)."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def load_public_key(path: str | Path) -> Ed25519Key:
    """The public key in a key file (public or private) or a destination file's signingKey."""
    # The key a receipt is checked against is a trust anchor, whichever file holds it; a
    # private key file is a secret too (a destination file is refused as a trust file).
    kept: list[os.stat_result] = []
    guard = status_kept(file_trust.guard(shown_path(path), "key file", KeyFileError), kept)
    try:
        data = read_bounded(path, DESTINATION_FILE_MAX_BYTES, refuse_larger=True, guard=guard)
    except UnreadableFileError as exc:
        raise KeyFileError(f"cannot read key file: {exc}") from exc
    try:
        value = read_json(data, max_bytes=DESTINATION_FILE_MAX_BYTES)
    except ReadError as exc:
        raise KeyFileError(f"{shown_path(path)}: {exc.code}: {exc.message}") from exc
    if isinstance(value, dict) and "installationKeyId" in value:
        return receipt_signer(parse_destination(value)).key()
    check_key_secret(value, kept, path)
    return Ed25519Key(ed25519_key_of(value, path, need_seed=False).public_key)
