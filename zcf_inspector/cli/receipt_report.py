"""`zcf-inspector receipt report RECEIPT --packet PACKET --destination FILE [--key PUBLIC_KEY]
[--workspace DIR] [--out FILE.html [--force]]`: the audit report as one self-contained
HTML page (`api.audit_report`, `present.audit_html`), on stdout or written atomically.

Exit 0 when the packet and the receipt are both verified or unsigned (the report's trust
level), 3 when something they claim was not checked, 1 when the receipt does not belong
to the packet, the packet is refused here or the receipt does not verify (the report is
still written: it says so and stops), 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import argparse

from zcf_inspector import api
from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.output import add_trust_arguments, emit
from zcf_inspector.present.audit_html import html_chunks


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    report = actions.add_parser(
        "report",
        help="an audit report of a reviewed packet: one self-contained HTML page",
        description="Write the audit report of RECEIPT for PACKET as admitted at the "
        "destination: the verdicts and trust levels, the receipt's digest and signer, the "
        "reviewers and times, the counts, every decision with its note, each belief's "
        "evidence and workspace statuses, suspected credentials (masked) and hostile text, "
        "and what was carried over from a previous generation. One HTML page with inline "
        "CSS, no script and nothing remote, printable. Exit 0 when the packet and the "
        "receipt are verified or unsigned, 3 when something they claim was not checked, 1 "
        "when the receipt does not belong to the packet (the report says so and stops) or "
        "either is refused, 2 for a usage error or an unreadable file.",
    )
    report.add_argument("receipt", metavar="RECEIPT")
    report.add_argument("--packet", metavar="PACKET", required=True)
    report.add_argument(
        "--destination",
        metavar="FILE",
        required=True,
        help="the destination the packet was admitted at (its signingKey checks the receipt)",
    )
    report.add_argument(
        "--key", metavar="PUBLIC_KEY", help="check the receipt's signature under this key instead"
    )
    report.add_argument(
        "--workspace", metavar="DIR", help="check the packet's file claims against this folder"
    )
    report.add_argument(
        "--out", metavar="FILE.html", help="write the page here, atomically (never overwrites)"
    )
    report.add_argument("--force", action="store_true", help="allow --out to replace a file")
    add_trust_arguments(report)
    report.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    made = api.audit_report(
        args.packet, args.receipt, args.destination, key=args.key, workspace=args.workspace
    )
    written = emit(
        (chunk.encode("utf-8") for chunk in html_chunks(made)),
        args.out,
        force=args.force,
        what="report",
    )
    if written != exitcodes.OK:
        return written
    return exitcodes.REFUSED if made.stopped else exitcodes.for_trust(made.trust)
