"""The destination of profile §6: who is importing, with which keys, limits and clock."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from pydantic import ValidationError

from zcf_inspector.core import file_trust
from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import Unreadable, UnreadableFileError, read_bounded, shown_path
from zcf_inspector.core.formats import b64u_decode, format_timestamp, parse_timestamp
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.keyfile import status_kept
from zcf_inspector.core.packet.destination_limits import (
    DEFAULT_MAX_BELIEF_BYTES,
    DEFAULT_MAX_BELIEFS,
)
from zcf_inspector.core.pydantic_findings import issue_message, validation_issues
from zcf_inspector.core.reading import ReadError, read_packet

if TYPE_CHECKING:
    from zcf_inspector.core.packet.destination_file import DestinationFile

DESTINATION_FILE_MAX_BYTES = 1024 * 1024


class DestinationError(InputError):
    """A destination file that cannot be used; the message says which field and why."""

    code = "destination_invalid"


@dataclass(frozen=True)
class Destination:
    """A destination ready to use: keys decoded, trusted keys indexed by fingerprint.

    The three secrets (its installation key, the sources' installation keys and the key that
    signs its receipts) are left out of ``repr``: a destination in a log or a traceback
    must not hand them over. Trusted keys are public and shown."""

    installation_key_id: str
    installation_key: bytes | None = field(default=None, repr=False)
    source_installation_keys: dict[str, bytes] = field(default_factory=dict, repr=False)
    trusted_keys: dict[str, bytes] = field(default_factory=dict)  # fingerprint -> raw key
    capabilities: frozenset[str] = frozenset()
    strict: bool = False
    refuse_unsigned: bool = False
    max_beliefs: int = DEFAULT_MAX_BELIEFS
    max_belief_bytes: int = DEFAULT_MAX_BELIEF_BYTES
    fixed_now: datetime | None = None
    signing_key: bytes | None = field(default=None, repr=False)

    def now(self) -> datetime:
        """The destination's clock: the file's fixed ``now`` if set, else the system clock."""
        return self.fixed_now if self.fixed_now is not None else datetime.now(UTC)

    def now_text(self) -> str:
        return format_timestamp(self.now())

    @property
    def signing_public_key(self) -> bytes | None:
        return None if self.signing_key is None else ed25519_public_key(self.signing_key)

    @classmethod
    def from_file_model(cls, model: DestinationFile) -> Destination:
        trusted = [b64u_decode(k) for k in model.trustedKeys]
        return cls(
            installation_key_id=model.installationKeyId,
            installation_key=None
            if model.installationKey is None
            else b64u_decode(model.installationKey),
            source_installation_keys={
                k: b64u_decode(v) for k, v in model.sourceInstallationKeys.items()
            },
            trusted_keys={public_key_fingerprint(k): k for k in trusted},
            capabilities=frozenset(model.capabilities),
            strict=model.strict,
            refuse_unsigned=model.refuseUnsigned,
            max_beliefs=model.maxBeliefs,
            max_belief_bytes=model.maxBeliefBytes,
            fixed_now=None if model.now is None else parse_timestamp(model.now),
            signing_key=None if model.signingKey is None else b64u_decode(model.signingKey),
        )


def parse_destination(value: JsonValue) -> Destination:
    """A destination from the parsed JSON of a destination file.

    Raises:
        DestinationError: the value is not a valid destination file (the message names
            every field at fault).
    """
    # The file's pydantic model is built only here: `validate` without a destination never
    # needs it, and creating the class is a measurable part of a small run's start-up.
    from zcf_inspector.core.packet.destination_file import DestinationFile  # noqa: PLC0415

    try:
        model = DestinationFile.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{issue.pointer or '(top level)'}: {issue_message(issue)}"
            for issue in validation_issues(exc)
        )
        raise DestinationError(f"invalid destination file: {problems}") from None
    return Destination.from_file_model(model)


def load_destination(path: str | Path, *, trust_file: bool = True) -> Destination:
    """Read a destination file strictly (profile §1 reader) and check it. It holds trust
    anchors: refused when others could have written it (`core.file_trust`), unless
    ``trust_file`` is False (a conformance vector's, whose keys are published).

    Raises:
        DestinationError: the file cannot be read, is larger than 1 MiB, is not strict
            JSON or is not a valid destination file (the message names the field), or
            group or others may write it, or another user owns it (``trust_file_unsafe``
            in the message).
    """
    kept: list[os.stat_result] = []  # the status the guard checked, for the secret check
    guard = (
        status_kept(file_trust.guard(shown_path(path), "destination file", DestinationError), kept)
        if trust_file
        else None
    )
    try:
        # Bounded: a packet picked by mistake must not be read whole on the UI thread.
        data = read_bounded(path, DESTINATION_FILE_MAX_BYTES, refuse_larger=True, guard=guard)
    except UnreadableFileError as exc:
        if exc.reason is Unreadable.TOO_LARGE:
            raise DestinationError(
                f"destination file {shown_path(path)} is larger than 1 MiB; it was not read"
            ) from exc
        raise DestinationError(f"cannot read destination file: {exc}") from exc
    try:
        value = read_packet(data, max_bytes=DESTINATION_FILE_MAX_BYTES)
    except ReadError as exc:
        raise DestinationError(
            f"destination file {shown_path(path)}: {exc.code}: {exc.message}"
        ) from exc
    if kept and _holds_secret(value):
        # A destination file holding a secret is a secret file (clarification of
        # 2026-12-07): refused, as a key file with that secret is, when others may read it.
        file_trust.check_secret(kept[-1], shown_path(path), "destination file", DestinationError)
    return parse_destination(value)


# The members of a destination file that are secrets: the installation key (the MAC key
# of recipient-bound packets) and the seed that signs receipts.
SECRET_MEMBERS: Final = ("installationKey", "signingKey")


def _holds_secret(value: JsonValue) -> bool:
    return isinstance(value, dict) and any(value.get(name) is not None for name in SECRET_MEMBERS)
