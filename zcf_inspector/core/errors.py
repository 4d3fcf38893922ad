"""The one root of every exception the program raises on purpose, and its two kinds.

Callers catch `ZcfError` (or a kind) and never a built-in: a message a person can act on is
in ``str(error)``, a stable ``code`` a program can match on is in ``error.code``, and
findings, where there are any, travel with the error. The CLI turns each kind into its exit
status in one place (`zcf_inspector.cli.exitcodes.for_error`).

Every class names its own ``code`` (snake_case, never reused by another class, and never
changed once released: `tests/core/test_errors.py` holds them); two kinds carry a finer
one per instance — a `ReadError` the §1 refusal code (``duplicate_key``…), a review
refusal the code of its first finding.
"""

from __future__ import annotations


class ZcfError(Exception):
    """The root: something the program refused to do, said in words."""

    code: str = "zcf_error"


class InputError(ZcfError):
    """An input cannot be used as given: a file that cannot be read, a key, destination or
    decisions file that is not what it must be, a bad option value, an output target that
    may not be written. Nothing was judged; the caller has to change what it handed over."""

    code = "input_unusable"


class RefusalError(ZcfError):
    """An input was read and refused by a rule of the profile or of review, with a code."""

    code = "input_refused"


class FormatError(InputError, ValueError):
    """A value the profile cannot take where it was given: not one of its small formats
    (timestamp, base64url), a key of the wrong length, a non-JSON value to canonicalize.

    Also a ``ValueError`` because pydantic validators report a ``ValueError`` raised inside
    them as a validation error of that field (and let anything else escape)."""

    code = "format_invalid"


class ArgumentError(InputError):
    """A library call was given an argument of the wrong type or shape (`zcf_inspector.api`
    checks every argument of its public functions: never a ``TypeError`` from inside)."""

    code = "argument_invalid"
