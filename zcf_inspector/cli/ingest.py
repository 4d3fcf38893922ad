"""`zcf-inspector ingest --destination FILE [--out RECEIPT] [--json] PACKET`

The secret scan's `secret_suspected` warnings (values masked) are reported with the
findings of a refused packet, or on stderr beside an admitted packet's receipt. They never
change the exit code and the receipt records nothing of them.
"""

from __future__ import annotations

import argparse

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_receipt_out_arguments,
    add_trust_arguments,
    advisories,
    emit,
    print_advisories,
    print_refused,
    say_fixed_clock,
)
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "ingest",
        help=help_of("ingest"),
        description="Run every check under the destination, then admit the packet (profile §6). "
        "Exit 0 with the receipt JSON on stdout (or written atomically to --out); exit 1 with "
        "the findings when the packet is refused; 2 for a usage error or an unreadable file.",
    )
    parser.add_argument("packet", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", required=True)
    add_receipt_out_arguments(parser)
    parser.add_argument("--json", action="store_true", help="findings as JSON when refused")
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = load_destination(args.destination)
    data = read_bounded(args.packet)
    result = ingest_bytes(data, destination)
    extra = advisories(result.inspection)  # warnings: nothing of them goes into the receipt
    if result.receipt is None:
        print_refused(args.packet, result.inspection, as_json=args.json, extra=extra)
        return exitcodes.REFUSED
    print_advisories(extra)  # on stderr: stdout may be the receipt
    code = emit(receipt_bytes(result.receipt), args.out, force=args.force, what="receipt")
    say_fixed_clock(destination)  # once the receipt is written: its times are that clock's
    return code
