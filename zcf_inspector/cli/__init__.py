"""The headless twin of the window: `zcf-inspector SUBCOMMAND ...`.

Every subcommand lives in its own module with ``register(subparsers)``; each sets
``func`` to a callable taking the parsed arguments and returning an exit code.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from zcf_inspector import __version__
from zcf_inspector.cli import exitcodes


def build_parser() -> argparse.ArgumentParser:
    from zcf_inspector.cli import commands  # noqa: PLC0415  (keeps `--help` import-light)

    parser = argparse.ArgumentParser(
        prog="zcf-inspector",
        description="Inspect Continuity Format (ZCF v1) packets, receipts and ASIF "
        "continuation plans.",
        epilog="Without a COMMAND, or given FILEs instead (zcf-inspector FILE...), it opens the "
        "inspector window.",
    )
    parser.add_argument("--version", action="version", version=f"zcf-inspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.register_all(sub)
    return parser


def subcommand_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def window_arguments(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str] | None:
    """``argv`` as `gui` arguments when it asks for the window, else None.

    No arguments opens the window; so does a first argument that is neither an option nor
    a subcommand (it is a file to open). Everything else is parsed as before.
    """
    if not argv:
        return ["gui"]
    first = argv[0]
    if first.startswith("-") or first in subcommand_names(parser):
        return None
    return ["gui", *argv]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(window_arguments(parser, arguments) or arguments)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return exitcodes.OK
    try:
        code: int = func(args)
    except BrokenPipeError:
        # The reader went away (`... | head`): nothing is wrong with the input, so no
        # traceback; stdout is pointed at /dev/null so the interpreter's final flush is
        # quiet too, and the exit code is the shell's for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exitcodes.BROKEN_PIPE
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
