"""`zcf-inspector validate [--destination FILE] [--workspace DIR] [--json] PACKET...`

Besides the verdict: the secret scan's `secret_suspected` warnings (values masked) and,
with --workspace, the packet's file claims checked against that folder. Both are
warnings: the verdict, the trust level and the exit code are the packet's alone.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    advisories,
    fail,
    inspection_json,
    optional_destination,
    print_json,
    print_packet,
    workspace_folder,
)
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.inspection import PacketInspection, inspect_bytes
from zcf_inspector.present import packet

if TYPE_CHECKING:
    from zcf_inspector.core.packet.admission import AdmissionNotice
    from zcf_inspector.core.packet.destination import Destination


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "validate",
        help=help_of("validate"),
        description="Check ZCF v1 packets. Without --destination: profile §1-§4 and the key-free "
        "part of §5. With one: everything, MAC verification and policy included. Exit 0 when "
        "every packet is valid, 1 when any is refused, 3 when none is refused but a claim one "
        "makes could not be checked (a recipient MAC without destination keys, a recipient "
        "binding without a destination), 2 for a usage error or an "
        "unreadable file or a --workspace that is not a folder. Suspected credentials "
        "(values hidden) and workspace mismatches are reported as warnings and never change "
        "the exit code.",
    )
    parser.add_argument("packets", nargs="+", metavar="PACKET")
    parser.add_argument("--destination", metavar="FILE", help="destination file (profile §6)")
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="check local evidence sources and changed files against this folder",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON array, one object per packet"
    )
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = optional_destination(args)
    folder = workspace_folder(args)
    results: list[JsonValue] = []
    unreadable: UnreadableFileError | None = None
    codes: list[int] = []
    for path in args.packets:
        try:
            data = read_bounded(path)
        except UnreadableFileError as exc:
            # Reported at once; the other packets are still checked.
            fail(str(exc))
            unreadable = exc
            continue
        inspection = inspect_bytes(data, destination)
        extra = advisories(inspection, folder)  # warnings: the exit code is the verdict's
        # What the scan flagged is on the admission chip, as in the window and the API.
        notice = _admission(inspection, destination)
        shown = packet.verdict(inspection, notice, extra.scan, extra.text)
        codes.append(exitcodes.for_trust(shown.trust))
        if args.json:
            results.append(inspection_json(path, inspection, shown, extra))
        else:
            print_packet(path, inspection, shown, extra)
    if args.json:
        print_json(results)
    if unreadable is not None:
        return exitcodes.for_error(unreadable)
    return exitcodes.worst(codes)


def _admission(
    inspection: PacketInspection, destination: Destination | None
) -> AdmissionNotice | None:
    """What the destination's admission would change (beliefs dropped, cut, demoted; tools
    not native): the window's admission chip, never hidden. Only for a packet it admits."""
    if destination is None or not inspection.valid:
        return None
    # Imported only here: most runs have no destination.
    from zcf_inspector.core.packet.admission import describe_admission  # noqa: PLC0415
    from zcf_inspector.core.packet.ingest import ingest_inspection  # noqa: PLC0415

    result = ingest_inspection(inspection, destination)
    if result.admission is None:
        return None
    return describe_admission(result.admission, result.degraded)
