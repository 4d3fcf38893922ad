"""`zcf-inspector brief PACKET [--workspace DIR] [--destination FILE] [--json]`

The packet's capsule as a briefing (core/briefing), with the secret scan's findings and,
given a workspace, the claims checked against it. Every document string goes through the
terminal escaping (cli/terminal_text) and is cut when very long; `--json` is exact JSON.

The exit code is `validate`'s, from the same verdict: 0 when the packet is valid, 1 when
it is refused (its briefing is still printed from what it holds), 3 when it is intact but
something it claims could not be checked (a recipient MAC without destination keys), 2
for a usage error, an unreadable file or a workspace that is not a folder. Suspected
credentials and workspace mismatches are warnings: they never change the exit code, which
speaks of the packet's verdict only.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from typing import Final, TextIO

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    add_trust_arguments,
    optional_destination,
    print_findings,
    print_json,
    workspace_folder,
)
from zcf_inspector.cli.terminal_text import FIELD_CHARS, MESSAGE_CHARS, POINTER_CHARS
from zcf_inspector.core.briefing.build import build_briefing
from zcf_inspector.core.briefing.model import INTEGRITY_WORDS, Briefing, BriefItem, Integrity
from zcf_inspector.core.claims.workspace import RollUp, WorkspaceCheck
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import masked_shown, prime
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.opener.documents import PacketDocument
from zcf_inspector.opener.open import OpenSettings, open_document

TEXT_CHARS: Final = MESSAGE_CHARS  # of one document text on a line
BELIEFS_LISTED: Final = 20  # beliefs flagged by the workspace check named before "and N more"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "brief",
        help=help_of("brief"),
        description="Print a packet's capsule as a briefing: objective, decisions, "
        "constraints, changed files, risks, questions, next actions, capture, the source "
        "handoff, allowed tools, verification, receipts, redactions and omissions, each with "
        "its JSON pointer and integrity; then suspected credentials (values hidden) and, with "
        "--workspace, the packet's file claims checked against that folder. Exits as validate "
        "does: 0 valid, 1 refused, 3 intact but not everything checked, 2 for a usage "
        "error or an unreadable file.",
    )
    parser.add_argument("packet", metavar="PACKET")
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="check local evidence sources and changed files against this folder",
    )
    parser.add_argument(
        "--destination", metavar="FILE", help="destination file: tool statuses and policy"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = optional_destination(args)
    folder = workspace_folder(args)
    # Opened as `validate` opens it (the opener: the read, the checks, the scan and the
    # workspace check once), so the words and the exit code are validate's.
    document = open_document(
        read_bounded(args.packet), OpenSettings(destination=destination, workspace=folder)
    )
    if not isinstance(document, PacketDocument):
        raise InputError(f"{args.packet} is not a packet: brief reads a packet's capsule")
    inspection, secrets, workspace = document.inspection, document.secrets, document.workspace
    shown = document.view.verdict
    briefing = build_briefing(
        inspection, secrets=secrets, workspace=workspace, destination=destination
    )
    if args.json:
        out: dict[str, JsonValue] = {
            "path": args.packet,
            "valid": inspection.valid,
            "trust": str(shown.trust),
            **briefing.to_json(),
        }
        print_json(out)
    else:
        suffix = f" — {document.view.error_count} error(s)" if not shown.ok else ""
        words = masked_shown(shown.words, MESSAGE_CHARS)
        sys.stdout.write(f"{shown_path(args.packet)}: {words}{suffix}\n")
        write_briefing(briefing, sys.stdout, workspace_asked=args.workspace is not None)
    return exitcodes.for_trust(shown.trust)


def write_briefing(briefing: Briefing, out: TextIO, *, workspace_asked: bool) -> None:
    for line in briefing_lines(briefing, workspace_asked=workspace_asked):
        out.write(line + "\n")


def _t(text: str) -> str:
    return masked_shown(text, TEXT_CHARS)


def briefing_lines(briefing: Briefing, *, workspace_asked: bool) -> Iterator[str]:
    for note in briefing.notes:
        yield f"  note: {_t(note)}"
    used = {item.integrity for s in briefing.sections for item in s.items}
    if used:
        yield "Integrity, as each item is marked:"
        for integrity in Integrity:
            if integrity in used:
                yield f"  [{integrity}] {INTEGRITY_WORDS[integrity]}"
    for section in briefing.sections:
        yield ""
        count = f" ({len(section.items):,})" if len(section.items) > 1 else ""
        yield f"{section.heading}{count}  {masked_shown(section.pointer, POINTER_CHARS)}"
        if section.summary:
            yield f"  {_t(section.summary)}"
        if not section.items and not section.summary:
            yield f"  {section.empty}"
        for item in section.items:
            yield from _item_lines(item)
    yield from _secret_lines(briefing.secrets)
    yield from _workspace_lines(briefing.workspace, asked=workspace_asked)


def _item_lines(item: BriefItem) -> Iterator[str]:
    if item.text:
        yield f"  - {_t(item.label)}: {_t(item.text)}" if item.label else f"  - {_t(item.text)}"
    else:
        yield f"  - {_t(item.label)}" if item.label else "  - (empty)"
    if item.note:
        yield f"      {_t(item.note)}"
    yield f"      {masked_shown(item.pointer, POINTER_CHARS)} [{item.integrity}]"
    for hit in item.secrets:
        yield f"      warning secret_suspected: {_t(hit.message)}"
    if item.claim is not None:
        yield f"      workspace: {_t(item.claim.words)}"


def _secret_lines(secrets: SecretScan | None) -> Iterator[str]:
    yield ""
    yield "Suspected credentials (values hidden)"
    if secrets is None:
        yield "  not scanned: the packet could not be read"
        return
    yield f"  {secrets.summary()}"
    if secrets.hits:
        findings, omitted = secrets.findings()
        lines = io.StringIO()
        print_findings(findings, lines, omitted)  # the validate format, one per finding
        yield from lines.getvalue().rstrip("\n").split("\n")


def _workspace_lines(workspace: WorkspaceCheck | None, *, asked: bool) -> Iterator[str]:
    yield ""
    yield "Claims vs workspace"
    if workspace is None:
        yield (
            "  not checked: the packet could not be read"
            if asked
            else "  not checked: no --workspace given (nothing here says a claimed file exists)"
        )
        return
    yield f"  folder: {_t(workspace.folder)}"
    yield f"  {workspace.summary()}"
    entries = (*workspace.sources, *workspace.changed_files)
    prime(t for c in entries for t in (c.subject, c.locator, c.words, c.pointer))  # one scan
    for check in (*workspace.sources, *workspace.changed_files):
        yield f"  - {_t(check.subject)} ({_t(check.locator)}): {_t(check.words)}"
        yield f"      {masked_shown(check.pointer, POINTER_CHARS)}"
    flagged = [b for b in workspace.beliefs if b.flagged]
    if flagged:
        yield f"  beliefs citing a mismatch or a missing file: {len(flagged):,}"
        for belief in flagged[:BELIEFS_LISTED]:
            where = masked_shown(belief.pointer, FIELD_CHARS)
            yield f"  - {_t(belief.portable_ref)}: {belief.words}  {where}"
        if len(flagged) > BELIEFS_LISTED:
            yield f"  … and {len(flagged) - BELIEFS_LISTED:,} more (see --json)"
    matched = sum(1 for b in workspace.beliefs if b.roll_up is RollUp.ALL_MATCH)
    yield (
        f"  beliefs whose cited sources all match: {matched:,} of {workspace.belief_count:,} "
        f"({workspace.beliefs_without_evidence:,} cite no evidence)"
    )
    yield f"  read {workspace.files_opened:,} file(s), {workspace.bytes_read:,} bytes"
