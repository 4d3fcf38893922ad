"""The reviewer's identity, kept in settings per destination: a name and an optional key
file.

A destination is named by its installation key id (`identity_scope`): a change of its
limits (maxBeliefBytes…) keeps the reviewer, another destination asks again. A name set
before identities were kept per destination (the unscoped keys) still applies wherever
none was chosen. Only the key's public half is needed (to warn of self-review), so the
settings hold the path of a key file, never key bytes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from PySide6.QtCore import QSettings

from zcf_inspector.core.crypto import public_key_fingerprint
from zcf_inspector.core.formats import is_id
from zcf_inspector.core.keyfile import KeyFileError, load_ed25519_key
from zcf_inspector.core.packet.destination import Destination

NAME_KEY = "review/reviewerName"
KEY_FILE_KEY = "review/reviewerKeyFile"
SCOPED_GROUP = "review/reviewers"


@dataclass(frozen=True, slots=True)
class ReviewerIdentity:
    name: str
    key_file: str
    fingerprint: str | None  # of the key file's public key, when it could be read
    key_problem: str | None  # why the key file could not be used

    @property
    def usable(self) -> bool:
        return is_id(self.name)


def _text(settings: QSettings, key: str) -> str:
    value = settings.value(key, "")
    return value if isinstance(value, str) else ""


def identity_scope(destination: Destination | None) -> str:
    """The settings group of ``destination``'s reviewer ("" without one): a digest of its
    installation key id, so the key stays a plain settings key whatever the id holds."""
    if destination is None:
        return ""
    return hashlib.sha256(destination.installation_key_id.encode("utf-8")).hexdigest()[:32]


def _keys(scope: str) -> tuple[str, str]:
    if not scope:
        return NAME_KEY, KEY_FILE_KEY
    return f"{SCOPED_GROUP}/{scope}/name", f"{SCOPED_GROUP}/{scope}/keyFile"


def load_identity(settings: QSettings, scope: str = "") -> ReviewerIdentity:
    name_key, file_key = _keys(scope)
    if scope and not is_id(_text(settings, name_key)):
        name_key, file_key = _keys("")  # none chosen for this destination yet
    name = _text(settings, name_key)
    key_file = _text(settings, file_key)
    if not key_file:
        return ReviewerIdentity(name, "", None, None)
    try:
        key = load_ed25519_key(key_file, need_seed=False)
    except KeyFileError as exc:
        return ReviewerIdentity(name, key_file, None, str(exc))
    return ReviewerIdentity(name, key_file, public_key_fingerprint(key.public_key), None)


def save_identity(settings: QSettings, name: str, key_file: str, scope: str = "") -> None:
    name_key, file_key = _keys(scope)
    settings.setValue(name_key, name)
    settings.setValue(file_key, key_file)
    settings.sync()
