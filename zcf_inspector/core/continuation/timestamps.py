"""RFC 3339 date-times with a required offset, as reports spell `assessed_at`/`expires_at`.

`core.formats.parse_timestamp` accepts only the ZCF `…Z` spelling; a report only has to
include a timezone, so numeric offsets are accepted here too.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from zcf_inspector.core.formats import TimestampError

__all__ = ["TimestampError", "parse_datetime"]

_RFC3339 = re.compile(
    r"(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})",
    re.ASCII,
)


def parse_datetime(value: str) -> datetime:
    """``value`` as an aware UTC datetime; fractions past microseconds are truncated."""
    match = _RFC3339.fullmatch(value)
    if match is None:
        raise TimestampError(f"not an RFC 3339 date-time with an offset: {value!r}")
    date, time, fraction, offset = match.groups()
    micro = ((fraction or "") + "000000")[:6]
    offset = "+00:00" if offset in ("Z", "z") else offset
    try:
        moment = datetime.fromisoformat(f"{date}T{time}.{micro}{offset}")
        # At the edges of datetime's range the move to UTC leaves years 1-9999.
        return moment.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise TimestampError(f"not a valid date or time: {value!r} ({exc})") from exc
