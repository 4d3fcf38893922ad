"""`zcf-inspector receipt reconcile A.json B.json --packet PACKET --destination FILE
[--accept-unsigned] [--json] [--choices CHOICES.json --reconciler NAME --out RECEIPT
[--force]]`: two reviewers' receipts of one packet side by side (`api.reconcile`).

Exit 0 when both receipts verify and belong to the packet (and the reconciled receipt, if
asked for, was written), 1 when the packet or a receipt is refused (an unsigned one
without --accept-unsigned, one that does not verify or belongs to another packet) or a
reconciled decision is, 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import argparse
import sys

from zcf_inspector import api
from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.output import add_trust_arguments, emit, print_findings, print_json
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.packet.receipt import receipt_chunks
from zcf_inspector.core.review.reconcile_choices import CHOICES_MAX_BYTES, NO_CHOICES, read_choices
from zcf_inspector.core.secrets.masking import masked_visible
from zcf_inspector.present.reconcile import result_json, text_lines


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "reconcile",
        help="two reviewers' receipts of one packet: agreement, kappa, disagreements",
        description="Verify both receipts and match them to PACKET as admitted at the "
        "destination, then compare their decisions belief by belief: agreement per state "
        "and overall, Cohen's kappa over the labels given, every disagreement with both "
        "decisions and notes, and the beliefs one reviewer left undecided. With --out, "
        "also write a third receipt: the agreed decisions plus the reconciler's choices "
        "(--choices; without it, disagreements and one-sided beliefs stay undecided), made "
        "by --reconciler and signed by the destination, each note naming both earlier "
        "receipts by digest. An unsigned receipt, or one signed by no key the destination "
        "trusts, is refused unless --accept-unsigned. Exit 0 when both verify and belong "
        "to the packet, 1 when anything is refused, 2 for a usage error.",
    )
    parser.add_argument("a", metavar="A.json")
    parser.add_argument("b", metavar="B.json")
    parser.add_argument("--packet", metavar="PACKET", required=True)
    parser.add_argument("--destination", metavar="FILE", required=True)
    parser.add_argument(
        "--accept-unsigned",
        action="store_true",
        help="reconcile receipts no key this destination trusts signed (said in every note)",
    )
    parser.add_argument("--json", action="store_true", help="the comparison as JSON")
    made = parser.add_argument_group("the reconciled receipt")
    made.add_argument(
        "--choices", metavar="CHOICES.json", help="what to take where they did not agree"
    )
    made.add_argument(
        "--reconciler", metavar="NAME", help="who reconciled (the decisions' reviewer)"
    )
    made.add_argument(
        "--out", metavar="RECEIPT", help="write the reconciled receipt here (never overwrites)"
    )
    made.add_argument("--force", action="store_true", help="allow --out to replace a file")
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.out is None and (args.choices is not None or args.reconciler is not None):
        raise InputError("--choices and --reconciler are used with --out RECEIPT")
    if args.out is not None and not args.reconciler:
        raise InputError("--out needs --reconciler NAME: the reconciled decisions are yours")
    choices = None
    if args.out is not None:
        choices = (
            NO_CHOICES
            if args.choices is None
            else read_choices(read_bounded(args.choices, CHOICES_MAX_BYTES))
        )
    result = api.reconcile(
        args.packet,
        args.a,
        args.b,
        args.destination,
        accept_unsigned=args.accept_unsigned,
        choices=choices,
        reconciler=args.reconciler,
    )
    if args.json:
        print_json(result_json(result))
    else:
        for line in text_lines(result):
            sys.stdout.write(line + "\n")
        if result.findings:
            sys.stdout.write("refused:\n")
            print_findings(result.findings)
    if result.refused:
        return exitcodes.REFUSED
    if result.receipt is not None:
        review = result.receipt.get("review")
        listed = review.get("decisions") if isinstance(review, dict) else None
        count = len(listed) if isinstance(listed, list) else 0
        written = emit(
            receipt_chunks(result.receipt), args.out, force=args.force, what="reconciled receipt"
        )
        sys.stderr.write(f"{count:,} decisions, by {masked_visible(args.reconciler)}\n")
        return written
    return exitcodes.OK
