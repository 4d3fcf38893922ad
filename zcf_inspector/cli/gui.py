"""`zcf-inspector gui [FILE...]` (and `zcf-inspector [FILE...]`): open the window."""

from __future__ import annotations

import argparse

from zcf_inspector.cli.commands import help_of


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "gui",
        help=help_of("gui"),
        description="Open the inspector window with FILEs (packets, receipts, ASIF sessions, "
        "continuation profiles, destination reports — recognised by content); with none, "
        "the start page. `zcf-inspector FILE...` does the same.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument(
        "--no-restore",
        action="store_true",
        help="do not reopen the last session's tabs (given no FILE)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from zcf_inspector.gui.app import run_app  # noqa: PLC0415 - Qt loads only for the window

    no_restore = bool(getattr(args, "no_restore", False) or getattr(args, "bare_no_restore", False))
    return run_app(args.files, args.qt_arguments, restore=not no_restore)
