"""`zcf-inspector review PACKET --destination FILE --decisions DECISIONS.json --reviewer NAME
[--out RECEIPT] [--force] [--json]`: the headless twin of the window's review pane."""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_receipt_out_arguments,
    emit,
    omitted_json,
    print_findings,
    print_json,
    print_refused,
)
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.findings import FindingBudget
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import (
    ReviewError,
    ReviewSession,
    ReviewTarget,
    apply_decisions,
    parse_decision_requests,
)

DECISIONS_MAX_BYTES = 64 * 1024 * 1024


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "review",
        help=help_of("review"),
        description="Ingest PACKET at the destination, apply the decisions file "
        '([{"portableRef", "state", "note"?, "supersededBy"?}, ...], in order) as REVIEWER, '
        "and write the profile §6 receipt with review.decisions and review.completedAt, "
        "signed when the destination has a signing key: the same bytes the window writes. "
        "Exit 0 with the receipt (on stdout, or written atomically to --out); 1 when the "
        "packet or any decision is refused (every refusal listed with its code); 2 for a "
        "usage error or an unreadable file.",
    )
    parser.add_argument("packet", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", required=True)
    parser.add_argument("--decisions", metavar="DECISIONS.json", required=True)
    parser.add_argument("--reviewer", metavar="NAME", required=True)
    add_receipt_out_arguments(parser)
    parser.add_argument("--json", action="store_true", help="refusals as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = load_destination(args.destination)
    data = read_bounded(args.packet)
    decisions_data = read_bounded(args.decisions, DECISIONS_MAX_BYTES)
    try:
        decisions_value = read_json(decisions_data, max_bytes=DECISIONS_MAX_BYTES)
    except ReadError as exc:
        # The decisions file is the caller's instructions, not the input under review.
        raise InputError(f"{shown_path(args.decisions)}: {exc}") from exc
    result = ingest_bytes(data, destination)
    if result.receipt is None:
        print_refused(args.packet, result.inspection, as_json=args.json)
        return exitcodes.REFUSED
    session = ReviewSession(ReviewTarget.from_ingest(result))
    problems = FindingBudget()
    requests, _ = parse_decision_requests(decisions_value, problems)
    try:
        apply_decisions(session, requests, args.reviewer, destination.now_text, problems)
    except ReviewError as exc:
        problems.extend(exc.findings)
    if problems.kept or problems.omitted():
        _print_refusal(args, problems)
        return exitcodes.REFUSED
    receipt = session.receipt(destination.now_text(), destination.signing_key)
    return emit(receipt_bytes(receipt), args.out, force=args.force, what="receipt")


def _print_refusal(args: argparse.Namespace, problems: FindingBudget) -> None:
    if args.json:
        print_json(
            {
                "path": args.decisions,
                "refused": True,
                "findings": [f.to_json() for f in problems.kept],
                "findingsOmitted": omitted_json(problems.omitted()),
            }
        )
        return
    sys.stdout.write(f"{shown_path(args.decisions)}: refused — no receipt written\n")
    print_findings(problems.kept, omitted=problems.omitted())
