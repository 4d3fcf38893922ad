"""`zcf-inspector validate [--destination FILE] [--key PUBLIC_KEY] [--workspace DIR]
[--now TIMESTAMP] [--current-capabilities SNAPSHOT] [--json] FILE...`

Every document the window opens, opened as the window opens it (the headless opener,
`zcf_inspector.opener`): a packet, a transfer receipt, an ASIF session, bare profile or
destination report (a session and its report given together are checked together), an
ASIF capability snapshot, or JSON of no known kind — each answered with its kind's
verdict and exit code. Beside a packet's verdict: the secret scan's `secret_suspected`
warnings (values masked) and, with --workspace, its file claims checked against that
folder; both are warnings and never change the verdict, the trust level or the exit code.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    Advisories,
    add_trust_arguments,
    advisories_of,
    fail,
    inspection_json,
    omitted_json,
    optional_destination,
    print_findings,
    print_json,
    print_packet,
    print_verdict,
    verdict_json,
    workspace_folder,
)
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR
from zcf_inspector.opener.documents import (
    ContinuationDocument,
    Document,
    PacketDocument,
    ReceiptDocument,
    UnreadableDocument,
)
from zcf_inspector.opener.open import OpenRequest, open_documents


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "validate",
        help=help_of("validate"),
        description="Check every document the window opens: ZCF v1 packets (without "
        "--destination profile §1-§4 and the key-free part of §5; with one everything, MAC "
        "verification and policy included), transfer receipts (signature checked with --key "
        "or the destination's signingKey), ASIF sessions, profiles and reports (a session "
        "and its report given together are checked together, as `plan --report` does), "
        "capability snapshots, and JSON of no known kind (one finding, "
        "unrecognised_document). Exit 0 when every document is valid, 1 when any is "
        "refused, 3 when none is refused but a claim one makes could not be checked (a "
        "recipient MAC without destination keys, a signed receipt without its key, a "
        "report without its session), 2 for a usage error or an unreadable file or a "
        "--workspace that is not a folder. Suspected credentials (values hidden) and "
        "workspace mismatches are reported as warnings and never change the exit code.",
    )
    parser.add_argument("packets", nargs="+", metavar="FILE")
    parser.add_argument("--destination", metavar="FILE", help="destination file (profile §6)")
    parser.add_argument(
        "--key", metavar="PUBLIC_KEY", help="the public key a receipt's signature is checked with"
    )
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="check local evidence sources and changed files against this folder",
    )
    parser.add_argument(
        "--now",
        metavar="TIMESTAMP",
        help="the clock for report expiry (RFC 3339; default: the current time)",
    )
    parser.add_argument(
        "--current-capabilities",
        metavar="SNAPSHOT",
        type=Path,
        help="the destination's current capability snapshot, compared byte for byte with "
        "the one an ASIF 0.5 report binds",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON array, one object per document"
    )
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def _now(text: str | None) -> datetime | None:
    if text is None:
        return None
    from zcf_inspector.core.continuation.timestamps import (  # noqa: PLC0415 - rarely asked
        TimestampError,
        parse_datetime,
    )

    try:
        return parse_datetime(text)
    except TimestampError as exc:
        raise InputError(f"--now: {exc}") from exc


def key_of(path: str | None) -> bytes | None:
    if path is None:
        return None
    from zcf_inspector.core.keyfile import load_ed25519_key  # noqa: PLC0415 - rarely asked

    return load_ed25519_key(path, need_seed=False).public_key


def run(args: argparse.Namespace) -> int:
    destination = optional_destination(args)
    key = key_of(args.key)
    folder = workspace_folder(args)
    now = _now(args.now)
    current = None
    if args.current_capabilities is not None:
        from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES  # noqa: PLC0415

        # One byte past the format's limit: a larger file cannot be the bound snapshot.
        snapshot = read_bounded(args.current_capabilities, MAX_SNAPSHOT_BYTES)
        current = (str(args.current_capabilities), snapshot)
    request = OpenRequest(
        tuple(args.packets),
        destination,
        now=now,
        current_for=None if current is None else dict.fromkeys(args.packets, current),
        review=False,
        receipt_key=key,
        workspace=folder,
        sniff=False,
        contain=False,
    )
    results: list[JsonValue] = []
    codes: list[int] = []
    unreadable: UnreadableFileError | None = None
    for document in open_documents(request, NULL_MONITOR):
        if isinstance(document, UnreadableDocument):
            fail(document.message)  # the other files are still checked
            if document.error is not None:
                unreadable = document.error
            codes.append(exitcodes.USAGE)
            continue
        codes.append(exitcodes.for_trust(document.view.trust))
        if args.json:
            results.append(_json(document))
        else:
            _print(document)
    if args.json:
        print_json(results)
    if unreadable is not None:
        return exitcodes.for_error(unreadable)
    return exitcodes.worst(codes)


def _advisories(document: PacketDocument) -> Advisories:
    """The scan's warnings (in the findings of the view) and the workspace check."""
    from zcf_inspector.opener.open import masked_claims  # noqa: PLC0415

    workspace = masked_claims(document.workspace, document.secrets)
    return advisories_of(
        document.inspection,
        document.secrets,
        workspace,
        asked=document.workspace_asked,
        text=document.hostile,
    )


def _print(document: Document) -> None:
    assert not isinstance(document, UnreadableDocument)
    view = document.view
    if isinstance(document, PacketDocument):
        print_packet(document.path, document.inspection, view.verdict, _advisories(document))
    elif isinstance(document, ContinuationDocument):
        from zcf_inspector.cli.plan import print_human  # noqa: PLC0415 - plan's own words

        print_human(document.result, view.verdict, Path(document.path), sys.stdout)
    else:
        print_verdict(document.path, view.verdict)
        print_findings(view.findings, omitted=view.omitted)


def _json(document: Document) -> JsonValue:
    assert not isinstance(document, UnreadableDocument)
    view = document.view
    if isinstance(document, PacketDocument):
        return inspection_json(
            document.path, document.inspection, view.verdict, _advisories(document)
        )
    if isinstance(document, ContinuationDocument):
        from zcf_inspector.core.continuation.export.to_json import (  # noqa: PLC0415
            continuation_json,
        )

        return {
            "path": document.path,
            **verdict_json(view.verdict),
            **continuation_json(document.result),
        }
    out: dict[str, JsonValue] = {
        "path": document.path,
        "valid": view.verdict.ok,
        **verdict_json(view.verdict),
    }
    if isinstance(document, ReceiptDocument):
        report = document.report
        out["status"] = str(report.status)
        out["receiptDigest"] = {"computed": report.computed_digest, "listed": report.listed_digest}
    out["findings"] = [f.to_json() for f in view.findings]
    out["findingsOmitted"] = omitted_json(view.omitted)
    return out
