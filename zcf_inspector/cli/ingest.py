"""`zcf-inspector ingest --destination FILE [--out RECEIPT] [--json] PACKET`"""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.output import fail, json_bytes, print_findings, print_json
from zcf_inspector.cli.validate import inspection_json, verdict_line
from zcf_inspector.core.atomic import write_atomic
from zcf_inspector.core.destination import DestinationError, load_destination
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.ingest import ingest_bytes


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "ingest",
        help="ingest a packet at a destination and emit its transfer receipt",
        description="Run every check under the destination, then admit the packet (profile §6). "
        "Exit 0 with the receipt JSON on stdout (or written atomically to --out); exit 1 with "
        "the findings when the packet is refused; 2 for a usage error or an unreadable file.",
    )
    parser.add_argument("packet", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", required=True)
    parser.add_argument(
        "--out", metavar="RECEIPT", help="write the receipt here (never overwrites)"
    )
    parser.add_argument("--force", action="store_true", help="allow --out to replace a file")
    parser.add_argument("--json", action="store_true", help="findings as JSON when refused")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        destination = load_destination(args.destination)
        data = read_bounded(args.packet)
    except (DestinationError, UnreadableFileError) as exc:
        fail(str(exc))
        return exitcodes.USAGE
    result = ingest_bytes(data, destination)
    if result.receipt is None:
        if args.json:
            print_json([inspection_json(args.packet, result.inspection)])
        else:
            sys.stdout.write(verdict_line(args.packet, result.inspection) + "\n")
            print_findings(result.findings)
        return exitcodes.REFUSED
    if args.out is None:
        print_json(result.receipt)
        return exitcodes.OK
    try:
        write_atomic(args.out, json_bytes(result.receipt), overwrite=args.force)
    except FileExistsError:
        fail(f"{args.out} already exists; use --force to replace it")
        return exitcodes.USAGE
    except OSError as exc:
        fail(f"cannot write {args.out}: {exc.strerror or exc}")
        return exitcodes.USAGE
    sys.stderr.write(f"receipt written to {args.out}\n")
    return exitcodes.OK
