"""What a library call may be given, checked at its edge (`zcf_inspector.api`).

Every public function of the API checks its arguments here before any work: a wrong type
is an `ArgumentError` (an `InputError`, code ``argument_invalid``) saying which argument
and what it must be — never a ``TypeError`` or ``AttributeError`` from deep inside. A
*source* is a document's bytes (``bytes``, ``bytearray`` or ``memoryview``) or the path
of the file holding them (``str`` or ``os.PathLike``); a ``str`` that starts with ``{``
or ``[`` is JSON text passed where a path was meant, refused in words rather than read
as a file name. A clock is an aware ``datetime`` or RFC 3339 text.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

from zcf_inspector.core.errors import ArgumentError, InputError
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from zcf_inspector.core.jsontypes import JsonValue
    from zcf_inspector.core.packet.destination import Destination

SHOWN_CHARS: Final = 40  # of a wrong value, in the message
BYTES_TYPES: Final = (bytes, bytearray, memoryview)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else f"{text[: SHOWN_CHARS - 1]}…"


def wrong(name: str, expected: str, value: object) -> ArgumentError:
    """The error for argument ``name``: what it must be, and what it was."""
    return ArgumentError(f"{name} must be {expected}, not {type(value).__name__} {_shown(value)}")


def path_of(value: object, name: str) -> Path:
    """A path argument: ``str`` or ``os.PathLike``, never JSON text or bytes."""
    if isinstance(value, str):
        if value.lstrip()[:1] in ("{", "["):
            raise ArgumentError(
                f"{name} is a str, so it is a path, but it starts like JSON text: "
                "pass bytes for JSON text (for example text.encode())"
            )
        if not value or "\x00" in value:
            raise wrong(name, "a path (a non-empty str without NUL, or os.PathLike)", value)
        return Path(value)
    if isinstance(value, os.PathLike):
        raw = os.fspath(value)
        if not isinstance(raw, str) or not raw or "\x00" in raw:
            raise wrong(name, "a path (os.PathLike of a str)", value)
        return Path(raw)
    raise wrong(name, "a path (str or os.PathLike)", value)


def source_bytes(value: object, name: str = "source", max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """A document's bytes: given as bytes-like, or read (bounded) from the path given."""
    if isinstance(value, BYTES_TYPES):
        return bytes(value)
    if isinstance(value, str | os.PathLike):
        # At most one byte over the limit: the reader then refuses with packet_too_large.
        return read_bounded(path_of(value, name), max_bytes)
    raise wrong(name, "bytes, bytearray, memoryview or a path (str or os.PathLike)", value)


def optional_source(value: object, name: str) -> bytes | None:
    return None if value is None else source_bytes(value, name)


def boolean(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise wrong(name, "True or False", value)
    return value


def optional_text(value: object, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise wrong(name, "a str or None", value)
    return value


def text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise wrong(name, "a str", value)
    return value


def positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise wrong(name, "a positive int", value)
    return value


def optional_bytes(value: object, name: str) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, BYTES_TYPES):
        raise wrong(name, "bytes or None", value)
    return bytes(value)


def monitor(value: object) -> Monitor | None:
    if value is not None and not isinstance(value, Monitor):
        raise wrong("monitor", "a Monitor or None", value)
    return value


def moment(value: object, name: str = "now") -> datetime | None:
    """A clock: None (the current time, chosen by the caller), an aware ``datetime``, or
    RFC 3339 text (``2026-09-26T12:30:00Z``)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ArgumentError(f"{name} must be an aware datetime (with a time zone), not naive")
        return value
    if isinstance(value, str):
        from zcf_inspector.core.continuation.timestamps import (  # noqa: PLC0415
            TimestampError,
            parse_datetime,
        )

        try:
            return parse_datetime(value)
        except TimestampError as exc:
            raise ArgumentError(f"{name}: {exc}") from None
    raise wrong(name, "an aware datetime, RFC 3339 text or None", value)


def mapping(value: object, name: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise wrong(name, "a mapping with str keys", value)
    return value


def destination(value: object) -> Destination | None:
    """A destination: None, a `Destination`, or the path of a destination file (loaded)."""
    from zcf_inspector.core.packet.destination import Destination, load_destination  # noqa: PLC0415

    if value is None or isinstance(value, Destination):
        return value
    return load_destination(path_of(value, "destination"))


def required_destination(value: object) -> Destination:
    resolved = destination(value)
    if resolved is None:
        # Typed as required; a None from an untyped caller is a usage error in words.
        raise InputError("a destination is required: a Destination or a destination file")
    return resolved


def decisions(value: object, max_bytes: int) -> JsonValue | bytes | None:
    """The decisions as a list, or a decisions file's bytes (parsed by the review)."""
    if value is None:
        return None
    if isinstance(value, (*BYTES_TYPES, str, os.PathLike)):
        return source_bytes(value, "decisions", max_bytes)
    if not isinstance(value, Sequence):
        raise wrong("decisions", "a list of decisions, a decisions file or None", value)
    entries = [mapping(entry, "each decision") for entry in value]
    return [dict(cast("Mapping[str, JsonValue]", entry)) for entry in entries]


def public_key(value: object) -> bytes | None:
    """A receipt signer's public key: raw bytes, a `Destination` (its ``signingKey``), or
    the path of a key file (public, private or a destination file)."""
    from zcf_inspector.core.packet.destination import Destination  # noqa: PLC0415
    from zcf_inspector.core.packet.receipt_keys import (  # noqa: PLC0415
        load_public_key,
        receipt_signer,
    )

    if value is None or isinstance(value, BYTES_TYPES):
        return None if value is None else bytes(value)
    if isinstance(value, Destination):
        return receipt_signer(value).key().public_key
    return load_public_key(path_of(value, "key")).public_key
