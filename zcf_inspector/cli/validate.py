"""`zcf-inspector validate [--destination FILE] [--json] PACKET...`"""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    fail,
    inspection_json,
    print_findings,
    print_json,
    verdict_line,
)
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.inspection import inspect_bytes


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "validate",
        help=help_of("validate"),
        description="Check ZCF v1 packets. Without --destination: profile §1-§4 and the key-free "
        "part of §5. With one: everything, MAC verification and policy included. Exit 0 when "
        "every packet is valid, 1 when any is refused, 2 for a usage error or an unreadable file.",
    )
    parser.add_argument("packets", nargs="+", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", help="destination file (profile §6)")
    parser.add_argument(
        "--json", action="store_true", help="print a JSON array, one object per packet"
    )
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = None
    if args.destination is not None:
        # Imported only here: most runs have no destination.
        from zcf_inspector.core.packet.destination import load_destination  # noqa: PLC0415

        destination = load_destination(args.destination)
    results: list[JsonValue] = []
    unreadable: UnreadableFileError | None = None
    refused = False
    for path in args.packets:
        try:
            data = read_bounded(path)
        except UnreadableFileError as exc:
            # Reported at once; the other packets are still checked.
            fail(str(exc))
            unreadable = exc
            continue
        inspection = inspect_bytes(data, destination)
        refused |= not inspection.valid
        if args.json:
            results.append(inspection_json(path, inspection))
        else:
            sys.stdout.write(verdict_line(path, inspection) + "\n")
            print_findings(inspection.findings, omitted=inspection.omitted)
    if args.json:
        print_json(results)
    if unreadable is not None:
        return exitcodes.for_error(unreadable)
    return exitcodes.REFUSED if refused else exitcodes.OK
