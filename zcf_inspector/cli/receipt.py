"""`zcf-inspector receipt verify RECEIPT [--key PUBLIC_KEY | --destination FILE] [--json]`"""

from __future__ import annotations

import argparse
import sys

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    omitted_json,
    print_findings,
    print_json,
)
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.keyfile import Ed25519Key, load_ed25519_key
from zcf_inspector.core.packet.destination import load_destination
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus, verify_receipt
from zcf_inspector.core.packet.receipt_keys import receipt_signer
from zcf_inspector.core.reading import ReadError, read_json

_VERDICTS = {
    ReceiptStatus.VALID_SIGNED: "valid — digest recomputed, signature verified",
    ReceiptStatus.VALID_SIGNATURE_NOT_CHECKED: (
        "valid digest — signed, signature NOT checked (no --key)"
    ),
    ReceiptStatus.VALID_UNSIGNED: "valid — digest recomputed, unsigned",
    ReceiptStatus.INVALID: "INVALID",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("receipt", help=help_of("receipt"))
    actions = parser.add_subparsers(dest="receipt_command", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="recompute a receipt's digest and check its signature",
        description="Exit 0 when the receipt is valid (and, with --key or --destination, signed "
        "by that key), 1 when it is not, 2 for a usage error or an unreadable file. Receipts are "
        "signed by the destination's signingKey: give its public key file (keygen --public-of "
        "DESTINATION) or the destination file itself.",
    )
    verify.add_argument("receipt", metavar="RECEIPT")
    signer = verify.add_mutually_exclusive_group()
    signer.add_argument("--key", metavar="PUBLIC_KEY", help="the signer's public key file")
    signer.add_argument(
        "--destination",
        metavar="FILE",
        help="the destination file whose signingKey signed the receipt",
    )
    verify.add_argument("--json", action="store_true")
    add_trust_arguments(verify)
    verify.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    if args.destination is not None:
        key: Ed25519Key | None = receipt_signer(load_destination(args.destination)).key()
    else:
        key = None if args.key is None else load_ed25519_key(args.key, need_seed=False)
    data = read_bounded(args.receipt)
    try:
        value = read_json(data)
    except ReadError as exc:
        report = ReceiptReport(ReceiptStatus.INVALID, None, None, (exc.to_finding(),))
    else:
        report = verify_receipt(value, None if key is None else key.public_key)
    if args.json:
        print_json(
            {
                "path": args.receipt,
                "valid": report.valid,
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
        sys.stdout.write(f"{shown_path(args.receipt)}: {_VERDICTS[report.status]}\n")
        print_findings(report.findings, omitted=report.omitted)
    return exitcodes.OK if report.valid else exitcodes.REFUSED
