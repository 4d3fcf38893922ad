"""The one root of every exception the program raises on purpose, and its two kinds.

Callers catch `ZcfError` (or a kind) and never a built-in: a message a person can act on is
in ``str(error)``; findings, where there are any, travel with the error. The CLI turns each
kind into its exit status in one place (`zcf_inspector.cli.exitcodes.for_error`).
"""

from __future__ import annotations


class ZcfError(Exception):
    """The root: something the program refused to do, said in words."""


class InputError(ZcfError):
    """An input cannot be used as given: a file that cannot be read, a key, destination or
    decisions file that is not what it must be, a bad option value, an output target that
    may not be written. Nothing was judged; the caller has to change what it handed over."""


class RefusalError(ZcfError):
    """An input was read and refused by a rule of the profile or of review, with a code."""


class FormatError(InputError, ValueError):
    """A value the profile cannot take where it was given: not one of its small formats
    (timestamp, base64url), a key of the wrong length, a non-JSON value to canonicalize.

    Also a ``ValueError`` because pydantic validators report a ``ValueError`` raised inside
    them as a validation error of that field (and let anything else escape)."""
