"""The destination of profile §6: who is importing, with which keys, limits and clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from zcf_inspector.core.crypto import ed25519_public_key, public_key_fingerprint
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import Unreadable, UnreadableFileError, read_bounded, shown_path
from zcf_inspector.core.formats import (
    Base64UrlError,
    TimestampError,
    b64u_decode,
    format_timestamp,
    is_id,
    parse_timestamp,
)
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.structure import CAPABILITIES
from zcf_inspector.core.pydantic_findings import issue_message, validation_issues
from zcf_inspector.core.reading import ReadError, read_packet

DEFAULT_MAX_BELIEFS = 10_000
DEFAULT_MAX_BELIEF_BYTES = 16_384
DESTINATION_FILE_MAX_BYTES = 1024 * 1024


class DestinationError(InputError):
    """A destination file that cannot be used; the message says which field and why."""


def _key32(value: str) -> str:
    try:
        raw = b64u_decode(value)
    except Base64UrlError as exc:
        raise ValueError(str(exc)) from exc
    if len(raw) != 32:
        raise ValueError(f"must decode to 32 bytes, not {len(raw)}")
    return value


def _id(value: str) -> str:
    if not is_id(value):
        raise ValueError("must be an id: 1-256 characters, none below U+0020")
    return value


NonNegative = Annotated[int, Field(ge=0)]


class DestinationFile(BaseModel):
    """The JSON destination file: a closed object; only ``installationKeyId`` is required."""

    # Built on first use: `validate` without a destination never reads one.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    installationKeyId: str  # noqa: N815 - the file's own spelling
    installationKey: str | None = None  # noqa: N815
    sourceInstallationKeys: dict[str, str] = {}  # noqa: N815 - pydantic copies defaults
    trustedKeys: list[str] = []  # noqa: N815
    capabilities: list[str] = []
    strict: bool = False
    refuseUnsigned: bool = False  # noqa: N815
    maxBeliefs: NonNegative = DEFAULT_MAX_BELIEFS  # noqa: N815
    maxBeliefBytes: NonNegative = DEFAULT_MAX_BELIEF_BYTES  # noqa: N815
    now: str | None = None
    signingKey: str | None = None  # noqa: N815

    @field_validator("installationKeyId")
    @classmethod
    def _check_id(cls, value: str) -> str:
        return _id(value)

    @field_validator("installationKey", "signingKey")
    @classmethod
    def _check_key(cls, value: str | None) -> str | None:
        return None if value is None else _key32(value)

    @field_validator("sourceInstallationKeys")
    @classmethod
    def _check_source_keys(cls, value: dict[str, str]) -> dict[str, str]:
        for key_id, key in value.items():
            _id(key_id)
            _key32(key)
        return value

    @field_validator("trustedKeys")
    @classmethod
    def _check_trusted(cls, value: list[str]) -> list[str]:
        for key in value:
            _key32(key)
        return value

    @field_validator("capabilities")
    @classmethod
    def _check_capabilities(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in CAPABILITIES:
                raise ValueError(f"{name!r} is not a published capability")
        if len(set(value)) != len(value):
            raise ValueError("capabilities must be unique")
        return value

    @field_validator("now")
    @classmethod
    def _check_now(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse_timestamp(value)
            except TimestampError as exc:
                raise ValueError(str(exc)) from exc
        return value


@dataclass(frozen=True)
class Destination:
    """A destination ready to use: keys decoded, trusted keys indexed by fingerprint."""

    installation_key_id: str
    installation_key: bytes | None = None
    source_installation_keys: dict[str, bytes] = field(default_factory=dict)
    trusted_keys: dict[str, bytes] = field(default_factory=dict)  # fingerprint -> raw key
    capabilities: frozenset[str] = frozenset()
    strict: bool = False
    refuse_unsigned: bool = False
    max_beliefs: int = DEFAULT_MAX_BELIEFS
    max_belief_bytes: int = DEFAULT_MAX_BELIEF_BYTES
    fixed_now: datetime | None = None
    signing_key: bytes | None = None

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
    """A destination from the parsed JSON of a destination file; raises ``DestinationError``."""
    try:
        model = DestinationFile.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{issue.pointer or '(top level)'}: {issue_message(issue)}"
            for issue in validation_issues(exc)
        )
        raise DestinationError(f"invalid destination file: {problems}") from None
    return Destination.from_file_model(model)


def load_destination(path: str | Path) -> Destination:
    """Read a destination file strictly (profile §1 reader) and check it."""
    try:
        # Bounded: a packet picked by mistake must not be read whole on the UI thread.
        data = read_bounded(path, DESTINATION_FILE_MAX_BYTES, refuse_larger=True)
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
    return parse_destination(value)
