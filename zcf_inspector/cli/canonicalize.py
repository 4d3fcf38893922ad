"""`zcf-inspector canonicalize FILE`: any JSON text to its ZCF-JSON-v1 bytes."""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import MESSAGE_CHARS, field
from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.reading import ReadError, read_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "canonicalize",
        help=help_of("canonicalize"),
        description="Read FILE strictly (profile §1) and write its canonical bytes (profile §2) "
        "to stdout and nothing else. Exit 1 with the refusal code on stderr.",
    )
    parser.add_argument("file", metavar="FILE")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    data = read_bounded(args.file)
    try:
        value = read_json(data)
    except ReadError as exc:
        # Only the refusal on stderr, code first, so a script can match on it.
        where = f" at byte {exc.offset}" if exc.offset is not None else ""
        sys.stderr.write(f"{exc.code}{where}: {field(exc.message, MESSAGE_CHARS)}\n")
        return exitcodes.for_error(exc)
    sys.stdout.buffer.write(canonical(value))
    sys.stdout.buffer.flush()
    return exitcodes.OK
