"""`zcf-inspector canonicalize FILE`: any JSON text to its ZCF-JSON-v1 bytes."""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.terminal_text import MESSAGE_CHARS
from zcf_inspector.core.canonical import iter_canonical
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.secrets.masking import masked_shown
from zcf_inspector.core.visible_text import json_visible


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "canonicalize",
        help=help_of("canonicalize"),
        description="Read FILE strictly (profile §1) and write its canonical bytes (profile §2) "
        "to stdout and nothing else. Exit 1 with the refusal code on stderr. To a terminal, "
        "characters it could act on are written as JSON escapes (and stderr says so).",
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
        sys.stderr.write(f"{exc.code}{where}: {masked_shown(exc.message, MESSAGE_CHARS)}\n")
        return exitcodes.for_error(exc)
    del data  # only the value is needed now: its bytes need not stay in memory
    # The bytes are written as they are made, a bounded piece at a time. To a terminal,
    # characters it could act on are written as JSON escapes (the same JSON value, not
    # the exact canonical bytes, and stderr says so); to a file or a pipe, exact bytes.
    terminal = sys.stdout.isatty()
    out = sys.stdout.buffer
    escaped = False
    for piece in iter_canonical(value):
        if terminal:
            text = piece.decode("utf-8")
            printed = json_visible(text)
            escaped |= printed != text
            out.write(printed.encode("utf-8"))
        else:
            out.write(piece)
    out.flush()
    if escaped:
        sys.stderr.write(
            "zcf-inspector: characters a terminal could act on were written as \\u escapes; "
            "redirect the output for the exact canonical bytes\n"
        )
    return exitcodes.OK
