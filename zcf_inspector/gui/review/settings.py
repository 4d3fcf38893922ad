"""The reviewer's identity, set once in settings: a name and an optional key file.

Only the key's public half is needed (to warn of self-review), so the settings hold the
path of a key file, never key bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSettings

from zcf_inspector.core.crypto import public_key_fingerprint
from zcf_inspector.core.formats import is_id
from zcf_inspector.core.keyfile import KeyFileError, load_ed25519_key

NAME_KEY = "review/reviewerName"
KEY_FILE_KEY = "review/reviewerKeyFile"


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


def load_identity(settings: QSettings) -> ReviewerIdentity:
    name = _text(settings, NAME_KEY)
    key_file = _text(settings, KEY_FILE_KEY)
    if not key_file:
        return ReviewerIdentity(name, "", None, None)
    try:
        key = load_ed25519_key(key_file, need_seed=False)
    except KeyFileError as exc:
        return ReviewerIdentity(name, key_file, None, str(exc))
    return ReviewerIdentity(name, key_file, public_key_fingerprint(key.public_key), None)


def save_identity(settings: QSettings, name: str, key_file: str) -> None:
    settings.setValue(NAME_KEY, name)
    settings.setValue(KEY_FILE_KEY, key_file)
    settings.sync()
