"""The CLI's exit codes, and the one place an error or a verdict becomes one: scripts and
CI depend on them. 0 only when everything the words call checked was checked."""

from __future__ import annotations

from collections.abc import Iterable

from zcf_inspector.core.errors import RefusalError, ZcfError
from zcf_inspector.present.vocabulary import Trust

OK = 0  # every input valid (verified, or unsigned: it claims no identity) / done as asked
REFUSED = 1  # some input was refused (or, for `plan`, its report says BLOCKED or expired)
USAGE = 2  # a usage error or a file that could not be read
UNCHECKED = 3  # nothing refused, but something an input claims was not checked (INTACT:
# a signed receipt without its key, a recipient MAC without destination keys, a report
# without its session, a bare profile), or a plan that needs adaptation
BROKEN_PIPE = 141  # stdout closed by the reader (`| head`), as a shell reports SIGPIPE

_BY_TRUST = {
    Trust.VERIFIED: OK,
    Trust.UNSIGNED: OK,
    Trust.UNCHECKED: UNCHECKED,
    Trust.REFUSED: REFUSED,
}
_WORST_FIRST = (USAGE, REFUSED, UNCHECKED, OK)


def for_error(error: ZcfError) -> int:
    """A refusal by a rule is REFUSED; anything the caller must change first is USAGE."""
    return REFUSED if isinstance(error, RefusalError) else USAGE


def for_trust(trust: Trust) -> int:
    """The exit code a verdict's trust level gives: the words and the code agree."""
    return _BY_TRUST[trust]


def worst(codes: Iterable[int]) -> int:
    """Of several inputs' codes, the one a script must see (a usage error first)."""
    seen = set(codes)
    return next((c for c in _WORST_FIRST if c in seen), OK)
