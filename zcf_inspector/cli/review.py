"""`zcf-inspector review PACKET --destination FILE --reviewer NAME [--decisions DECISIONS.json]
[--previous PACKET --previous-receipt RECEIPT [--repeat-unchanged --repeat-note TEXT
[--accept-unsigned-previous]]]
[--workspace DIR] [--out RECEIPT] [--force] [--json]`: the headless twin of the window's
review pane.

The secret scan's `secret_suspected` warnings (values masked) and, with --workspace, the
packet's file claims checked against that folder are reported with a refused packet's
findings, or on stderr once the packet is admitted (stdout may be the receipt). They never
change the exit code and the receipt records nothing of them.
"""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_receipt_out_arguments,
    add_trust_arguments,
    advisories,
    emit,
    omitted_json,
    print_advisories,
    print_findings,
    print_json,
    print_refused,
    say_fixed_clock,
    workspace_folder,
)
from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.ingest import IngestResult
from zcf_inspector.core.packet.receipt import receipt_chunks
from zcf_inspector.core.review.batch import (
    DECISIONS_MAX_BYTES,
    DecisionsFileError,
    ReviewResult,
    review_packet,
)
from zcf_inspector.core.review.previous import PreviousGeneration
from zcf_inspector.core.review.previous_trust import ACCEPT_FLAG, UNSIGNED_ORIGIN
from zcf_inspector.core.secrets.masking import masked_visible


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "review",
        help=help_of("review"),
        description="Ingest PACKET at the destination, apply the decisions file "
        '([{"portableRef", "state", "note"?, "supersededBy"?}, ...], in order) as REVIEWER, '
        "and write the profile §6 receipt with review.decisions and review.completedAt, "
        "signed when the destination has a signing key: the same bytes the window writes. "
        "With --previous and --previous-receipt, PACKET is compared with the previous "
        "generation as that receipt left it (summary on stderr); --repeat-unchanged then "
        "repeats the earlier decisions on beliefs whose admitted content is byte-identical, "
        "as REVIEWER, now, in one step before the decisions file, each noted with "
        "--repeat-note and where it came from (Review → Repeat earlier decisions in the "
        "window); only when a key the destination trusts (its signingKey or a trustedKeys "
        "entry) signed that receipt, or with --accept-unsigned-previous. Exit 0 with the "
        "receipt (on stdout, or written atomically to --out); 1 when the packet, the "
        "previous generation or any decision is refused (every refusal listed with its "
        "code); 2 for a usage error, an unreadable file or a --workspace that is not a "
        "folder. Suspected credentials (values hidden) and, with --workspace, the file "
        "claims checked against that folder are warnings: they never change the exit code "
        "or the receipt.",
    )
    parser.add_argument("packet", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", required=True)
    parser.add_argument("--decisions", metavar="DECISIONS.json")
    parser.add_argument("--reviewer", metavar="NAME", required=True)
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="check local evidence sources and changed files against this folder",
    )
    previous = parser.add_argument_group("review only what changed since a previous generation")
    previous.add_argument("--previous", metavar="PACKET", help="the previous generation's packet")
    previous.add_argument(
        "--previous-receipt", metavar="RECEIPT", help="the receipt exported for it"
    )
    previous.add_argument(
        "--repeat-unchanged",
        action="store_true",
        help="repeat its decisions on unchanged beliefs, as REVIEWER (needs --repeat-note)",
    )
    previous.add_argument(
        "--repeat-note", metavar="TEXT", help="why: recorded in each repeated decision's note"
    )
    previous.add_argument(
        ACCEPT_FLAG,
        dest="accept_unsigned_previous",
        action="store_true",
        help="repeat them even when no key this destination trusts signed that receipt "
        "(each note then says they came from an unsigned receipt)",
    )
    add_receipt_out_arguments(parser)
    parser.add_argument("--json", action="store_true", help="refusals as JSON")
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def _check_usage(args: argparse.Namespace) -> None:
    if (args.previous is None) != (args.previous_receipt is None):
        raise InputError("--previous and --previous-receipt are given together")
    if args.repeat_unchanged and args.previous is None:
        raise InputError("--repeat-unchanged needs --previous and --previous-receipt")
    if args.repeat_unchanged and (args.repeat_note is None or not args.repeat_note.strip()):
        raise InputError(
            "--repeat-unchanged needs --repeat-note TEXT: the repeated decisions become "
            "yours, so say why"
        )
    if args.repeat_note is not None and not args.repeat_unchanged:
        raise InputError("--repeat-note is only used with --repeat-unchanged")
    if args.accept_unsigned_previous and not args.repeat_unchanged:
        raise InputError(f"{ACCEPT_FLAG} is only used with --repeat-unchanged")
    if args.decisions is None and not args.repeat_unchanged:
        raise InputError("give --decisions, or --repeat-unchanged, or both")


def run(args: argparse.Namespace) -> int:
    _check_usage(args)
    destination = load_destination(args.destination)
    folder = workspace_folder(args)

    def warn(admitted: IngestResult) -> None:
        # On stderr, as soon as the packet is admitted: stdout may be the receipt.
        print_advisories(advisories(admitted.inspection, folder))

    try:
        result = review_packet(
            read_bounded(args.packet),
            destination,
            _read_decisions(args.decisions),
            reviewer=args.reviewer,
            previous=args.previous,
            previous_receipt=args.previous_receipt,
            repeat_unchanged=args.repeat_unchanged,
            repeat_note=args.repeat_note,
            accept_unsigned_previous=args.accept_unsigned_previous,
            on_admitted=warn,
        )
    except DecisionsFileError as exc:
        # The decisions file is the caller's instructions, not the input under review.
        raise InputError(f"{shown_path(args.decisions)}: {exc.reason}") from exc
    if result.ingest.receipt is None:
        extra = advisories(result.ingest.inspection, folder)  # nothing of them is in a receipt
        print_refused(args.packet, result.ingest.inspection, as_json=args.json, extra=extra)
        return exitcodes.REFUSED
    if args.previous is not None and result.previous is None:
        # The previous generation was refused: nothing else was applied.
        refused = (
            bool(result.findings) and result.findings[0].code is ReviewCode.PREVIOUS_PACKET_REFUSED
        )
        _print_refusal(args, args.previous if refused else args.previous_receipt, result)
        return exitcodes.REFUSED
    if result.previous is not None:
        _describe_previous(args, result.previous)
        if result.carried_over:
            _say_repeated(args, result.previous, result.repeated)
    if result.receipt is None:
        _print_refusal(args, args.decisions or args.previous_receipt, result)
        return exitcodes.REFUSED
    chunks = receipt_chunks(result.receipt)
    code = emit(chunks, args.out, force=args.force, what="receipt")
    say_fixed_clock(destination)  # once the receipt is written: its times are that clock's
    return code


def _read_decisions(path: str | None) -> bytes | None:
    """The decisions file's bytes (parsed by the review, before the packet is ingested)."""
    return None if path is None else read_bounded(path, DECISIONS_MAX_BYTES)


def _say_repeated(args: argparse.Namespace, previous: PreviousGeneration, count: int) -> None:
    origin = "" if previous.trusted else f" ({UNSIGNED_ORIGIN}, as {ACCEPT_FLAG} accepted)"
    sys.stderr.write(
        f"repeated {count} earlier decision{'s' if count != 1 else ''} as "
        f"{masked_visible(args.reviewer)}{origin}\n"
    )


def _describe_previous(args: argparse.Namespace, previous: PreviousGeneration) -> None:
    """What was compared, and with what trust, on stderr (stdout may be the receipt)."""
    out = sys.stderr
    needs = [] if args.repeat_unchanged else ["--repeat-unchanged"]
    if not previous.trusted and not args.accept_unsigned_previous:
        needs.append(ACCEPT_FLAG)  # no key this destination trusts signed that receipt
    asked = f" ({' '.join(needs)})" if needs else ""
    out.write(
        f"previous generation: {masked_visible(args.previous)} (packet "
        f"{masked_visible(previous.packet_id)}), receipt {masked_visible(args.previous_receipt)}\n"
        f"  receipt {previous.receipt_digest}: {previous.trust_text()}\n"
        f"  admitted at {previous.imported_at}; now {previous.summary()}\n"
        f"  {len(previous.candidates)} earlier decision"
        f"{'s' if len(previous.candidates) != 1 else ''} on unchanged beliefs can be repeated"
        f"{asked}\n"
    )
    for withheld in previous.withheld:
        out.write(
            f"  not repeated: {masked_visible(withheld.portable_ref)} "
            f"({withheld.earlier.state}): {masked_visible(withheld.reason)}\n"
        )
    for note in previous.notes:
        out.write(f"  note: {masked_visible(note)}\n")


def _print_refusal(args: argparse.Namespace, path: str, result: ReviewResult) -> None:
    if args.json:
        print_json(
            {
                "path": path,
                "refused": True,
                "findings": [f.to_json() for f in result.findings],
                "findingsOmitted": omitted_json(result.omitted),
            }
        )
        return
    sys.stdout.write(f"{shown_path(path)}: refused — no receipt written\n")
    print_findings(result.findings, omitted=result.omitted)
