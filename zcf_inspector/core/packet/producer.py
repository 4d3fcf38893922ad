"""The producer side: seal a packet's manifest and authenticate it with any of the three
kinds, so that anyone can make test packets (and the goldens are made this way)."""

from __future__ import annotations

from enum import StrEnum

from zcf_inspector.core.errors import InputError
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.auth import (
    make_recipient_bound_mac,
    make_source_signature,
    make_unsigned,
)
from zcf_inspector.core.packet.manifest import seal_manifest


class AuthKind(StrEnum):
    UNSIGNED = "unsigned"
    SOURCE_SIGNATURE = "source-signature"
    RECIPIENT_BOUND_MAC = "recipient-bound-mac"


class SealError(InputError):
    """The inputs cannot make the requested kind (a missing key, a wrong recipient intent)."""

    code = "seal_impossible"


def seal_packet(
    packet: dict[str, JsonValue],
    kind: AuthKind,
    *,
    signing_seed: bytes | None = None,
    source_installation_key: bytes | None = None,
    destination_installation_key: bytes | None = None,
) -> dict[str, JsonValue]:
    """A copy of ``packet`` with a fresh manifest and an ``authentication`` of ``kind``.

    Key order of the result follows the input, with ``manifest`` and ``authentication``
    replaced in place (or appended), so a sealed file reads like the one it came from.
    """
    try:
        return _sealed(
            packet, kind, signing_seed, source_installation_key, destination_installation_key
        )
    except ValueError as exc:
        # canonical() refusing a value (FormatError), a key of the wrong length, or a
        # recipient-bound MAC on a packet that is not addressed to a recipient.
        raise SealError(str(exc)) from exc


def _sealed(
    packet: dict[str, JsonValue],
    kind: AuthKind,
    signing_seed: bytes | None,
    source_installation_key: bytes | None,
    destination_installation_key: bytes | None,
) -> dict[str, JsonValue]:
    sealed = dict(packet)
    sealed["manifest"] = seal_manifest(sealed)
    if kind is AuthKind.UNSIGNED:
        sealed["authentication"] = make_unsigned()
        return sealed
    if signing_seed is None:
        raise SealError(f"{kind} needs a signing key")
    if kind is AuthKind.SOURCE_SIGNATURE:
        sealed["authentication"] = make_source_signature(sealed, signing_seed)
        return sealed
    if source_installation_key is None or destination_installation_key is None:
        raise SealError("recipient-bound-mac needs the source and destination installation keys")
    sealed["authentication"] = make_recipient_bound_mac(
        sealed, signing_seed, source_installation_key, destination_installation_key
    )
    return sealed
