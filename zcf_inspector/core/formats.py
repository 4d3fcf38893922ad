"""The profile's small formats: ids, timestamps, base64url, digests and portable paths."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from zcf_inspector.core.errors import FormatError

_TIMESTAMP_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z", re.ASCII
)
_B64U_RE = re.compile(r"[A-Za-z0-9_-]*", re.ASCII)
ID_MAX_CHARS = 256


class ReviewState(StrEnum):
    """A belief's review state (profile §3 ``reviewState``, §6 ``review.decisions``)."""

    UNREVIEWED = "unreviewed"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"


# The same four, as the schemas spell them (a test keeps the two equal): pydantic's strict
# mode takes an enum member only, and packets hold strings.
ReviewStateName = Literal["unreviewed", "confirmed", "rejected", "superseded"]


def is_id(value: object) -> bool:
    """An id: a string of 1-256 code points, none below U+0020."""
    return (
        isinstance(value, str)
        and 1 <= len(value) <= ID_MAX_CHARS
        and all(ch >= " " for ch in value)
    )


class TimestampError(FormatError):
    """A key file that cannot be used: unreadable, too large, or not the kind of key asked for."""

    code = "timestamp_invalid"


def parse_timestamp(value: str) -> datetime:
    """An RFC 3339 UTC ``YYYY-MM-DDTHH:MM:SS[.fraction]Z`` as an aware datetime.

    The fraction keeps microsecond precision for comparisons; digits past the sixth are
    truncated (they cannot change an ordering against a clock with microsecond resolution
    except at equality, where truncation errs towards "not yet expired"). A leap second
    (``:60``) is refused: no clock the destination runs on can produce or compare it.
    """
    match = _TIMESTAMP_RE.fullmatch(value)
    if match is None:
        raise TimestampError(f"not a timestamp YYYY-MM-DDTHH:MM:SS[.fraction]Z: {value!r}")
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction = match.group(7) or ""
    micro = int((fraction + "000000")[:6])
    try:
        return datetime(year, month, day, hour, minute, second, micro, tzinfo=UTC)
    except ValueError as exc:
        raise TimestampError(f"not a valid date or time: {value!r} ({exc})") from exc


def is_timestamp(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parse_timestamp(value)
    except TimestampError:
        return False
    return True


def format_timestamp(moment: datetime) -> str:
    """The profile spelling of ``moment`` (in UTC), with a fraction only when non-zero."""
    utc = moment.astimezone(UTC)
    text = utc.strftime("%Y-%m-%dT%H:%M:%S")
    if utc.microsecond:
        text += "." + f"{utc.microsecond:06d}".rstrip("0")
    return text + "Z"


class Base64UrlError(FormatError):
    """A key file that cannot be used: unreadable, too large, or not the kind of key asked for."""

    code = "base64url_invalid"


def b64u_decode(value: str) -> bytes:
    """Strict base64url without padding: no ``=``, no whitespace, no other alphabet."""
    if not isinstance(value, str) or _B64U_RE.fullmatch(value) is None:
        raise Base64UrlError("not base64url: only A-Z a-z 0-9 - _ are allowed, without padding")
    if len(value) % 4 == 1:
        raise Base64UrlError("not base64url: impossible length")
    padded = value + "=" * (-len(value) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded)
    except binascii.Error as exc:  # pragma: no cover - the regex already rules this out
        raise Base64UrlError(f"not base64url: {exc}") from exc
    # Refuse non-canonical encodings (stray bits in the last character), so that one byte
    # string has exactly one spelling and a signature cannot be re-spelled.
    if b64u_encode(raw) != value:
        raise Base64UrlError("not base64url: non-canonical trailing bits")
    return raw


def b64u_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def is_b64u(value: object, *, min_len: int = 0, max_len: int | None = None) -> bool:
    if not isinstance(value, str):
        return False
    try:
        raw = b64u_decode(value)
    except Base64UrlError:
        return False
    return len(raw) >= min_len and (max_len is None or len(raw) <= max_len)


def is_portable_path(value: object) -> bool:
    """A `/`-separated relative path: not absolute, no `.`/`..`/empty segment, no `\\`, no NUL."""
    if not isinstance(value, str) or value == "" or "\\" in value or "\x00" in value:
        return False
    if value.startswith("/") or re.match(r"[A-Za-z]:", value):
        return False
    return all(seg not in ("", ".", "..") for seg in value.split("/"))
