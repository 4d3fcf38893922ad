"""RFC 3339 date-times with a required offset, as reports spell `assessed_at`/`expires_at`.

`core.formats.parse_timestamp` accepts only the ZCF `…Z` spelling (and 1-9 fraction
digits, the ZCF rule); a report only has to be RFC 3339, whose ``time-secfrac = "."
1*DIGIT`` has no upper bound, so numeric offsets and fractions of any length are accepted
here. `parse_instant` keeps every digit of the fraction, so two report times are compared
as instants exactly, however fine; `parse_datetime` gives a `datetime` (microseconds,
the rest truncated) for a clock and for display.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import NamedTuple

from zcf_inspector.core.formats import TimestampError

__all__ = [
    "Instant",
    "TimestampError",
    "instant_of",
    "parse_datetime",
    "parse_instant",
    "parse_snapshot_time",
]

_RFC3339 = re.compile(
    r"(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})",
    re.ASCII,
)


class Instant(NamedTuple):
    """A moment exactly: the whole second (UTC) and the fraction of it, all digits kept.
    Instants compare as moments (the second first, then the fraction)."""

    second: datetime
    fraction: Decimal


def parse_instant(value: str) -> Instant:
    """``value`` as an exact `Instant`; `TimestampError` unless RFC 3339 with an offset."""
    match = _RFC3339.fullmatch(value)
    if match is None:
        raise TimestampError(f"not an RFC 3339 date-time with an offset: {value!r}")
    date, time, fraction, offset = match.groups()
    offset = "+00:00" if offset in ("Z", "z") else offset
    try:
        moment = datetime.fromisoformat(f"{date}T{time}{offset}")
        # At the edges of datetime's range the move to UTC leaves years 1-9999.
        second = moment.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise TimestampError(f"not a valid date or time: {value!r} ({exc})") from exc
    return Instant(second, Decimal("0." + fraction) if fraction else Decimal(0))


def instant_of(moment: datetime) -> Instant:
    """An aware ``datetime`` (a clock) as an `Instant`."""
    second = moment.astimezone(UTC).replace(microsecond=0)
    return Instant(second, Decimal(moment.microsecond).scaleb(-6))


def parse_datetime(value: str) -> datetime:
    """``value`` as an aware UTC datetime; fractions past microseconds are truncated."""
    second, fraction = parse_instant(value)
    return second.replace(microsecond=int(fraction.scaleb(6)))


# CAPABILITIES.md step 4: seconds, at most millisecond precision, `Z` or `±hh:mm`.
_INSTANT = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|([+-])(\d{2}):(\d{2}))",
    re.ASCII,
)


def parse_snapshot_time(value: str) -> datetime:
    """An ASIF 0.5 snapshot/report timestamp as an aware UTC datetime, or TimestampError.

    Stricter than `parse_datetime`: an uppercase `T` and `Z`, at most three fraction
    digits, a real calendar date, an offset within ±23:59 and no leap second (60).
    """
    match = _INSTANT.fullmatch(value)
    if match is None:
        raise TimestampError(
            f"{value!r} is not an ISO 8601 timestamp with seconds, at most millisecond "
            "precision and Z or a ±hh:mm offset"
        )
    year, month, day, hour, minute, second, fraction = match.groups()[:7]
    sign, off_hours, off_minutes = match.groups()[8:]
    if off_hours is not None and (int(off_hours) > 23 or int(off_minutes) > 59):
        raise TimestampError(f"{value!r} has an invalid offset {sign}{off_hours}:{off_minutes}")
    if second == "60":
        raise TimestampError(f"{value!r} is a leap second, which this contract refuses")
    try:
        moment = datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second),
            int(((fraction or "") + "000")[:3]) * 1000,
            tzinfo=UTC,
        )
    except ValueError as exc:
        raise TimestampError(f"{value!r} is not a real date and time ({exc})") from exc
    if sign is not None:
        delta = timedelta(hours=int(off_hours), minutes=int(off_minutes))
        try:
            moment = moment - delta if sign == "+" else moment + delta
        except OverflowError as exc:
            raise TimestampError(f"{value!r} is outside the representable range") from exc
    return moment
