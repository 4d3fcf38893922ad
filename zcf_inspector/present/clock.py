"""What the window and the CLI say when a destination's fixed clock is in force.

A destination file may set ``now`` (profile §6: a fixed clock, for tests). Every time the
destination then stamps — a receipt's ``importedAt``, each decision's time, the review's
completion — is that clock's, not the machine's; nothing in a receipt says so. So every
front end that shows a destination's verdict or writes its receipt says it in these
words: the window's header, the export's summary, the CLI beside a receipt it writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zcf_inspector.core.formats import format_timestamp

if TYPE_CHECKING:  # a destination is loaded only when a run uses one (start-up time)
    from zcf_inspector.core.packet.destination import Destination


def fixed_clock_words(destination: Destination | None) -> str | None:
    """``FIXED CLOCK 2026-10-01T12:00:00Z (the destination file's "now") …``, or None when
    the destination keeps the system clock (or there is none)."""
    if destination is None or destination.fixed_now is None:
        return None
    at = format_timestamp(destination.fixed_now)
    return (
        f'FIXED CLOCK {at} (the destination file\'s "now", for tests): its receipts are '
        "stamped with it — imported, decided, completed — not with the present time"
    )
