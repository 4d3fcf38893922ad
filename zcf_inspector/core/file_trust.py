"""Trust and secret files are used only when nobody else could have written them.

A destination file holds the trust anchors (``trustedKeys``, installation keys) and the
key that signs receipts; a key file holds a seed or the public key a receipt is checked
against; a journal key holds the key of a review's checksums. Anyone who can write one of
them can make a forged packet read "VALID · SIGNED (trusted)" or a cut journal read
sound, so — as OpenSSH does with its keys and ``authorized_keys`` — such a file is
refused when it is writable by its group or by others, or owned by another user (root
excepted: a file root installed is as trusted as the system it runs on). A file that holds
a secret — a private signing seed (a signing key, the reviewer's key), an installation
key, a journal key, a destination file with an ``installationKey`` or a ``signingKey``
(the profile's clarification of 2026-12-07) — is refused when its group or others may
even read it, as OpenSSH refuses a private key (`secret_guard`, `check_secret`); a
destination file without a secret and a public key file only when others could have
written them. The message names the fix
(``chmod 600 FILE``).

The check is made on the descriptor the file is read through (`files.read_bounded`'s
``guard``), so the file cannot be swapped between the check and the read.

A CI sandbox may run as one user over files another made (a checkout owned by the
runner, a mounted volume): there the check can be switched off for the process, by the
commands' ``--allow-unsafe-permissions`` or the environment variable
``ZCF_INSPECTOR_ALLOW_UNSAFE_PERMISSIONS=1`` (the window reads only the variable). What
it lets through is noted (`take_overridden`) and a command warns of it on stderr.
On Windows, where modes and owners do not mean this, nothing is checked.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from typing import Final

from zcf_inspector.core.codes import FileCode
from zcf_inspector.core.errors import ZcfError

ALLOW_ENV: Final = "ZCF_INSPECTOR_ALLOW_UNSAFE_PERMISSIONS"
ALLOW_FLAG: Final = "--allow-unsafe-permissions"
_GROUP_OR_OTHERS_WRITE: Final = stat.S_IWGRP | stat.S_IWOTH
_GROUP_OR_OTHERS_READ: Final = stat.S_IRGRP | stat.S_IROTH

# Set for one command by its --allow-unsafe-permissions (see `allowing_unsafe`).
_allowed_by_flag = False


def unsafe_allowed() -> bool:
    """Whether the check is switched off for this process (flag or environment)."""
    return _allowed_by_flag or os.environ.get(ALLOW_ENV, "") == "1"


@contextlib.contextmanager
def allowing_unsafe(enabled: bool) -> Iterator[None]:
    """Switch the check off while a command runs (its ``--allow-unsafe-permissions``)."""
    global _allowed_by_flag  # noqa: PLW0603 - one process-wide switch, set by one flag
    previous = _allowed_by_flag
    _allowed_by_flag = previous or enabled
    try:
        yield
    finally:
        _allowed_by_flag = previous


def _uid() -> int | None:
    geteuid = getattr(os, "geteuid", None)
    return None if geteuid is None else int(geteuid())


def problem(info: os.stat_result) -> str | None:
    """Why a file of this status may not be trusted, or None."""
    uid = _uid()
    if uid is None or os.name == "nt":
        return None
    if info.st_uid not in (uid, 0):
        return f"it is owned by another user (uid {info.st_uid})"
    if info.st_mode & _GROUP_OR_OTHERS_WRITE:
        who = (
            "its group and others"
            if info.st_mode & _GROUP_OR_OTHERS_WRITE == _GROUP_OR_OTHERS_WRITE
            else ("others" if info.st_mode & stat.S_IWOTH else "its group")
        )
        return f"it is writable by {who} (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def secret_problem(info: os.stat_result) -> str | None:
    """Why a file holding a secret, of this status, may not be used, or None: as
    `problem`, and readable by its group or others too."""
    found = problem(info)
    if found is not None or _uid() is None or os.name == "nt":
        return found
    mode = info.st_mode
    if mode & _GROUP_OR_OTHERS_READ:
        who = (
            "its group and others"
            if mode & _GROUP_OR_OTHERS_READ == _GROUP_OR_OTHERS_READ
            else ("others" if mode & stat.S_IROTH else "its group")
        )
        return f"it is readable by {who} (mode {stat.S_IMODE(mode):04o})"
    return None


def message(path: str, what: str, why: str) -> str:
    """The refusal, code first, with the fix and the opt-out."""
    owned = "owned by another user" in why
    fix = f"chown $USER {path} and chmod 600 {path}" if owned else f"chmod 600 {path}"
    harm = "read the secret in it" if why.startswith("it is readable") else "changed it"
    return (
        f"{FileCode.TRUST_FILE_UNSAFE}: {what} {path} is not used: {why}, so someone else "
        f"could have {harm}. Fix: {fix} (in a CI sandbox, {ALLOW_FLAG} or "
        f"{ALLOW_ENV}=1 skips this check)"
    )


def guard(
    shown: str, what: str, error: Callable[[str], ZcfError]
) -> Callable[[os.stat_result], None]:
    """A ``read_bounded`` guard refusing the file, with ``error(message)``, when others
    could have written it. ``shown`` is the file's name as messages show it. The error is
    the loader's own (a `DestinationError`, a `KeyFileError`…), so its callers catch what
    they always did; the message starts with ``trust_file_unsafe``."""

    def check(info: os.stat_result) -> None:
        why = problem(info)
        if why is not None:
            _refuse_or_note(shown, what, why, error)

    return check


def secret_guard(
    shown: str, what: str, error: Callable[[str], ZcfError]
) -> Callable[[os.stat_result], None]:
    """`guard` for a file that is a secret whatever it holds (a journal key): refused also
    when its group or others may read it."""

    def check(info: os.stat_result) -> None:
        check_secret(info, shown, what, error)

    return check


def check_secret(
    info: os.stat_result, shown: str, what: str, error: Callable[[str], ZcfError]
) -> None:
    """Refuse, with ``error(message)``, a file found to hold a secret (a key file with a
    seed) whose group or others may read it; ``info`` is the status `guard` checked on the
    descriptor it was read through."""
    why = secret_problem(info)
    if why is not None:
        _refuse_or_note(shown, what, why, error)


# What the opt-out let through, for the front end to warn of (a CLI command prints each
# on stderr once it has run): switched off is never silent. Kept to a few.
_overridden: list[str] = []
_OVERRIDDEN_KEPT: Final = 20


def _refuse_or_note(shown: str, what: str, why: str, error: Callable[[str], ZcfError]) -> None:
    if not unsafe_allowed():
        raise error(message(shown, what, why))
    note = (
        f"{FileCode.TRUST_FILE_UNSAFE} overridden: {what} {shown} is used although {why} "
        f"({ALLOW_FLAG} or {ALLOW_ENV}=1)"
    )
    if note not in _overridden and len(_overridden) < _OVERRIDDEN_KEPT:
        _overridden.append(note)


def take_overridden() -> tuple[str, ...]:
    """The refusals the opt-out let through since the last call, in words (then cleared)."""
    taken = tuple(_overridden)
    _overridden.clear()
    return taken
