"""`zcf-inspector receipt verify RECEIPT [--key PUBLIC_KEY | --destination FILE | --digest-only]
[--json]`

The words are the receipt presenter's, as the window shows them. A signed receipt checked
without its key is INTACT, not VALID, and exits 3 (`exitcodes.UNCHECKED`): a script that
reads 0 as "verified" is never told so when the signature was not checked. ``--digest-only``
asks for the shape and digest alone and exits 0 when they hold (the words still say the
signature was not checked).
"""

from __future__ import annotations

import argparse

from zcf_inspector import api
from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    omitted_json,
    print_findings,
    print_json,
    print_verdict,
    verdict_json,
)
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.keyfile import load_ed25519_key
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.receipt_keys import receipt_signer
from zcf_inspector.present import receipt
from zcf_inspector.present.vocabulary import Trust


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("receipt", help=help_of("receipt"))
    actions = parser.add_subparsers(dest="receipt_command", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="recompute a receipt's digest and check its signature",
        description="Exit 0 when the receipt is VALID (unsigned, or signed and verified with "
        "--key or --destination), 1 when it is REFUSED, 3 when it is signed but no key was "
        "given (INTACT: the signature was not checked; --digest-only accepts that), 2 for a "
        "usage error or an unreadable file. Receipts are signed by the destination's "
        "signingKey: give its public key file (keygen --public-of DESTINATION) or the "
        "destination file itself.",
    )
    verify.add_argument("receipt", metavar="RECEIPT")
    signer = verify.add_mutually_exclusive_group()
    signer.add_argument("--key", metavar="PUBLIC_KEY", help="the signer's public key file")
    signer.add_argument(
        "--destination",
        metavar="FILE",
        help="the destination file whose signingKey signed the receipt",
    )
    signer.add_argument(
        "--digest-only",
        action="store_true",
        help="check the shape and the digest only: a signature is not checked, and exit 0 "
        "says only that the receipt is intact",
    )
    verify.add_argument("--json", action="store_true")
    add_trust_arguments(verify)
    verify.set_defaults(func=run_verify)
    # issue 32: imported here, not at the top: `receipt verify` needs neither
    from zcf_inspector.cli import receipt_reconcile, receipt_report  # noqa: PLC0415

    receipt_report.register(actions)
    receipt_reconcile.register(actions)


def run_verify(args: argparse.Namespace) -> int:
    # The key first (a bad key is a usage error whatever the receipt), then the receipt;
    # the check itself is the library's (`api.verify_receipt`).
    key: bytes | None = None
    if args.destination is not None:
        key = receipt_signer(load_destination(args.destination)).key().public_key
    elif args.key is not None:
        key = load_ed25519_key(args.key, need_seed=False).public_key
    report = api.verify_receipt(read_bounded(args.receipt), key)
    shown = receipt.verdict(report)
    if args.json:
        print_json(
            {
                "path": args.receipt,
                "valid": report.valid,
                **verdict_json(shown),
                "digestOnly": args.digest_only,
                "status": str(report.status),
                "receiptDigest": {
                    "computed": report.computed_digest,
                    "listed": report.listed_digest,
                },
                "findings": [f.to_json() for f in report.findings],
                "findingsOmitted": omitted_json(report.omitted),
            }
        )
    else:
        print_verdict(args.receipt, shown)
        print_findings(report.findings, omitted=report.omitted)
    if args.digest_only and shown.trust is Trust.UNCHECKED:
        return exitcodes.OK  # asked for the digest alone: the signature was not wanted
    return exitcodes.for_trust(shown.trust)
