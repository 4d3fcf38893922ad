"""The headless twin of the window: `zcf-inspector SUBCOMMAND ...`.

Every subcommand lives in its own module with ``register(subparsers)``; each sets
``func`` to a callable taking the parsed arguments and returning an exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from zcf_inspector import __version__
from zcf_inspector.cli import exitcodes


def build_parser() -> argparse.ArgumentParser:
    from zcf_inspector.cli import commands  # noqa: PLC0415  (keeps `--help` import-light)

    parser = argparse.ArgumentParser(
        prog="zcf-inspector",
        description="Inspect Continuity Format (ZCF v1) packets, receipts and ASIF continuation plans.",
    )
    parser.add_argument("--version", action="version", version=f"zcf-inspector {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.register_all(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return exitcodes.OK
    code: int = func(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
