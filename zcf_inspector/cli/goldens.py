"""`zcf-inspector check-goldens [DIR]`: the conformance run of profile §7."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.terminal_text import FIELD_CHARS, MESSAGE_CHARS
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.packet.conformance import check_goldens
from zcf_inspector.core.secrets.masking import masked_shown

# The goldens ship with the package (zcf_inspector/goldens links to the repository's
# goldens/ folder in a checkout), so a wheel install and the bundle find them too.
PROJECT_GOLDENS = Path(__file__).resolve().parents[1] / "goldens"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "check-goldens",
        help=help_of("check-goldens"),
        description="Every publication golden must validate, ingest to exactly its receipt "
        "and hold no x-zephr-* key; every negative golden must be refused with its code.",
    )
    parser.add_argument("directory", nargs="?", metavar="DIR", help=f"default: {PROJECT_GOLDENS}")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    directory = Path(args.directory) if args.directory else PROJECT_GOLDENS
    if not directory.is_dir():
        raise InputError(f"{shown_path(directory)} is not a folder of goldens")
    results = check_goldens(directory)
    for result in results:
        mark = "ok  " if result.passed else "FAIL"
        sys.stdout.write(f"{mark} {result.group}/{masked_shown(result.name, FIELD_CHARS)}\n")
        for problem in result.problems:
            sys.stdout.write(f"       {masked_shown(problem, MESSAGE_CHARS)}\n")
    passed = sum(r.passed for r in results)
    sys.stdout.write(f"goldens: {passed} passed, {len(results) - passed} failed\n")
    return exitcodes.OK if passed == len(results) else exitcodes.REFUSED
