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
from datetime import UTC, datetime
from decimal import Decimal
from typing import NamedTuple

from zcf_inspector.core.formats import TimestampError

__all__ = ["Instant", "TimestampError", "instant_of", "parse_datetime", "parse_instant"]

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
