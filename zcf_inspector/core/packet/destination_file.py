"""The destination file's closed schema (profile §6), as a pydantic model.

Kept apart from ``destination.py`` (and never importing it: its defaults come from
``destination_limits.py``) and imported by ``parse_destination`` only: building
the model class is part of start-up, and `validate` without a destination never needs it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from zcf_inspector.core.formats import (
    Base64UrlError,
    TimestampError,
    b64u_decode,
    is_id,
    parse_timestamp,
)
from zcf_inspector.core.packet.destination_limits import (
    DEFAULT_MAX_BELIEF_BYTES,
    DEFAULT_MAX_BELIEFS,
)
from zcf_inspector.core.packet.structure import CAPABILITIES


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
