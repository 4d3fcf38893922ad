"""The CLI's exit codes, and the one place an error becomes one: scripts and CI depend on them."""

from __future__ import annotations

from zcf_inspector.core.errors import RefusalError, ZcfError

OK = 0  # every input valid / the command did what was asked
REFUSED = 1  # some input was refused (findings with severity error)
USAGE = 2  # a usage error or a file that could not be read
BROKEN_PIPE = 141  # stdout closed by the reader (`| head`), as a shell reports SIGPIPE


def for_error(error: ZcfError) -> int:
    """A refusal by a rule is REFUSED; anything the caller must change first is USAGE."""
    return REFUSED if isinstance(error, RefusalError) else USAGE
