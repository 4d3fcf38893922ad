"""Key files written by `zcf-inspector keygen` and read by `seal` and `receipt verify`.

An Ed25519 key file: ``{"kind": "ed25519", "seed": b64u(32), "publicKey": b64u(32),
"fingerprint": digest}``; a public key file has no ``seed``. An installation key file:
``{"kind": "installation-key", "installationKeyId": id, "key": b64u(32)}``. A bare
b64u string of 32 bytes is also accepted where a public key is expected.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from zcf_inspector.core import file_trust
from zcf_inspector.core.crypto import ed25519_public_key, generate_seed, public_key_fingerprint
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import Unreadable, UnreadableFileError, read_bounded, shown_path
from zcf_inspector.core.formats import Base64UrlError, b64u_decode, b64u_encode, is_id
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.visible_text import shown

# A key file is about 200 bytes; anything much larger was picked by mistake (or is hostile).
KEY_FILE_MAX_BYTES = 8 * 1024


class KeyFileError(InputError):
    """A key file that cannot be used: unreadable, too large, or not the kind of key asked for."""

    code = "key_file_invalid"


@dataclass(frozen=True, slots=True)
class Ed25519Key:
    public_key: bytes
    seed: bytes | None = field(default=None, repr=False)  # the private half: never printed

    def to_json(self, *, include_seed: bool = True) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {"kind": "ed25519"}
        if include_seed and self.seed is not None:
            out["seed"] = b64u_encode(self.seed)
        out["publicKey"] = b64u_encode(self.public_key)
        out["fingerprint"] = public_key_fingerprint(self.public_key)
        return out


@dataclass(frozen=True, slots=True)
class InstallationKey:
    key_id: str
    key: bytes = field(repr=False)  # a shared secret: never printed

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "kind": "installation-key",
            "installationKeyId": self.key_id,
            "key": b64u_encode(self.key),
        }


def new_ed25519_key(seed: bytes | None = None) -> Ed25519Key:
    seed = generate_seed() if seed is None else seed
    return Ed25519Key(ed25519_public_key(seed), seed)


def new_installation_key(key_id: str, key: bytes | None = None) -> InstallationKey:
    if not is_id(key_id):
        raise KeyFileError(f"not an installation key id: {shown(repr(key_id), 100)}")
    return InstallationKey(key_id, generate_seed() if key is None else key)


def status_kept(
    check: Callable[[os.stat_result], None], kept: list[os.stat_result]
) -> Callable[[os.stat_result], None]:
    """A ``read_bounded`` guard that runs ``check`` and keeps the status it checked, for
    `check_key_secret` once the file's content says whether it is a secret."""

    def guard(info: os.stat_result) -> None:
        check(info)
        kept.append(info)

    return guard


def holds_secret(value: JsonValue) -> bool:
    """Whether a parsed key file holds a secret: a private seed, or an installation key."""
    return isinstance(value, dict) and ("seed" in value or value.get("kind") == "installation-key")


def check_key_secret(value: JsonValue, kept: list[os.stat_result], path: str | Path) -> None:
    """A key file holding a secret is refused when its group or others may read it (as
    OpenSSH refuses a private key); a public key file may be read by anyone."""
    if kept and holds_secret(value):
        file_trust.check_secret(kept[-1], shown_path(path), "key file", KeyFileError)


def _load(path: str | Path) -> JsonValue:
    # A key file is a secret or a trust anchor: refused when others could have written it,
    # and when it holds a secret, when they could read it.
    kept: list[os.stat_result] = []
    check = file_trust.guard(shown_path(path), "key file", KeyFileError)
    guard = status_kept(check, kept)
    try:
        data = read_bounded(path, KEY_FILE_MAX_BYTES, refuse_larger=True, guard=guard)
    except UnreadableFileError as exc:
        if exc.reason is Unreadable.TOO_LARGE:
            raise KeyFileError(
                f"{shown_path(path)} is not a key file: it is {exc.size:,} bytes, and key files "
                f"are at most {KEY_FILE_MAX_BYTES:,}"
            ) from exc
        raise KeyFileError(f"cannot read key file: {exc}") from exc
    try:
        value = read_json(data, max_bytes=KEY_FILE_MAX_BYTES)
    except ReadError as exc:
        raise KeyFileError(f"key file {shown_path(path)}: {exc.code}: {exc.message}") from exc
    check_key_secret(value, kept, path)
    return value


def _b64u32(value: JsonValue, what: str) -> bytes:
    if not isinstance(value, str):
        raise KeyFileError(f"{what} must be a base64url string")
    try:
        raw = b64u_decode(value)
    except Base64UrlError as exc:
        raise KeyFileError(f"{what}: {exc}") from exc
    if len(raw) != 32:
        raise KeyFileError(f"{what} must decode to 32 bytes, not {len(raw)}")
    return raw


def load_ed25519_key(path: str | Path, *, need_seed: bool) -> Ed25519Key:
    return ed25519_key_of(_load(path), path, need_seed=need_seed)


def ed25519_key_of(value: JsonValue, path: str | Path, *, need_seed: bool) -> Ed25519Key:
    """The key a parsed key file holds; ``path`` names it in messages."""
    if isinstance(value, str) and not need_seed:
        return Ed25519Key(_b64u32(value, "public key"))
    if not isinstance(value, dict) or value.get("kind") != "ed25519":
        raise KeyFileError(f"{shown_path(path)} is not an Ed25519 key file (kind 'ed25519')")
    if "seed" in value:
        seed = _b64u32(value["seed"], "seed")
        key = Ed25519Key(ed25519_public_key(seed), seed)
        if "publicKey" in value and _b64u32(value["publicKey"], "publicKey") != key.public_key:
            raise KeyFileError(f"{shown_path(path)}: publicKey does not belong to seed")
        return key
    if need_seed:
        raise KeyFileError(f"{shown_path(path)} holds no private seed")
    return Ed25519Key(_b64u32(value.get("publicKey"), "publicKey"))


def load_installation_key(path: str | Path) -> InstallationKey:
    value = _load(path)
    if not isinstance(value, dict) or value.get("kind") != "installation-key":
        raise KeyFileError(
            f"{shown_path(path)} is not an installation key file (kind 'installation-key')"
        )
    key_id = value.get("installationKeyId")
    if not is_id(key_id) or not isinstance(key_id, str):
        raise KeyFileError(f"{shown_path(path)}: installationKeyId is not an id")
    return InstallationKey(key_id, _b64u32(value.get("key"), "key"))
