"""How the CLI prints: one verdict line per input, then findings with their pointers.

Nothing from an input reaches the terminal raw: every text taken from a document or a
file name goes through `cli.terminal_text` (escaped, and cut when very long, with its
length said); JSON output stays exact JSON, with the same characters as JSON escapes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.terminal_text import MESSAGE_CHARS, POINTER_CHARS, json_text, masked_json
from zcf_inspector.core.atomic import TargetExistsError, write_atomic
from zcf_inspector.core.claims.workspace import ClaimStatus, WorkspaceCheck, resolve_folder
from zcf_inspector.core.file_trust import ALLOW_ENV, ALLOW_FLAG
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.findings import (
    FINDINGS_LIMIT,
    Finding,
    OmittedFindings,
    merge_omitted,
    omitted_total,
)
from zcf_inspector.core.hostile.scan import TextScan
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.packet.trust import packet_trust
from zcf_inspector.core.secrets.masking import masked_shown, prime
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.core.visible_text import json_visible
from zcf_inspector.present import packet
from zcf_inspector.present.clock import fixed_clock_words
from zcf_inspector.present.vocabulary import Trust, Verdict

if TYPE_CHECKING:  # the destination model is imported only when a run uses one
    from zcf_inspector.core.packet.destination import Destination


def print_json(value: JsonValue, stream: TextIO | None = None) -> None:
    """A JSON report, its suspected credentials masked (`terminal_text.masked_json`)."""
    out = stream or sys.stdout
    out.write(json_text(masked_json(value)))
    out.write("\n")


def json_bytes(value: JsonValue) -> bytes:
    """Human-friendly JSON (2-space indent, UTF-8) for files the CLI writes."""
    return (json_text(value) + "\n").encode("utf-8")


_CHUNK_CHARS = 1 << 18


def json_chunks(value: JsonValue) -> Iterator[bytes]:
    """`json_bytes` in pieces of about 256 KiB, made as they are written: a large document
    (a sealed packet) is never held as one text, its escaped copy and its bytes at once —
    three times its indented size, which a packet dense in empty objects makes 2.7 times
    its own (issue 34). The encoder yields whole tokens, so escaping each piece is
    escaping the whole."""
    encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
    pending: list[str] = []
    size = 0
    for token in encoder.iterencode(value):
        pending.append(token)
        size += len(token)
        if size >= _CHUNK_CHARS:
            yield json_visible("".join(pending)).encode("utf-8")
            pending.clear()
            size = 0
    pending.append("\n")
    yield json_visible("".join(pending)).encode("utf-8")


def print_findings(
    findings: Iterable[Finding],
    stream: TextIO | None = None,
    omitted: Sequence[OmittedFindings] = (),
) -> None:
    out = stream or sys.stdout
    for f in findings:
        where = masked_shown(f.pointer, POINTER_CHARS) if f.pointer else "(document)"
        offset = f" at byte {f.offset}" if f.offset is not None else ""
        message = masked_shown(f.message, MESSAGE_CHARS)
        out.write(f"  {f.severity:<7} {f.code}  {where}{offset}\n      {message}\n")
    print_omitted(omitted, out)


def print_omitted(omitted: Sequence[OmittedFindings], out: TextIO) -> None:
    """Say plainly that findings were cut, how many of each code, and where each began."""
    if not omitted:
        return
    out.write(
        f"  … and {omitted_total(omitted):,} more findings, not listed "
        f"(only the first {FINDINGS_LIMIT:,} of a document are):\n"
    )
    for o in omitted:
        first = masked_shown(o.first_pointer, POINTER_CHARS) if o.first_pointer else "(document)"
        out.write(f"  {o.severity:<7} {o.code}  {o.count:,} more, the first at {first}\n")


def omitted_json(omitted: Sequence[OmittedFindings]) -> list[JsonValue]:
    """``findingsOmitted`` of a JSON result: always there, empty when nothing was cut."""
    return [o.to_json() for o in omitted]


def add_receipt_out_arguments(parser: argparse.ArgumentParser) -> None:
    """`--out RECEIPT` and `--force`, as every command that writes a receipt takes them."""
    parser.add_argument(
        "--out", metavar="RECEIPT", help="write the receipt here (never overwrites)"
    )
    parser.add_argument("--force", action="store_true", help="allow --out to replace a file")


def workspace_folder(args: argparse.Namespace) -> Path | None:
    """``--workspace`` resolved, or None: a folder that is not one is a usage error,
    whatever the packets turn out to be."""
    return None if args.workspace is None else resolve_folder(args.workspace)


def optional_destination(args: argparse.Namespace) -> Destination | None:
    """``--destination``'s file loaded, or None when not given."""
    if args.destination is None:
        return None
    # Imported only here: most runs have no destination.
    from zcf_inspector.core.packet.destination import load_destination  # noqa: PLC0415

    return load_destination(args.destination)


def add_trust_arguments(parser: argparse.ArgumentParser) -> None:
    """``--allow-unsafe-permissions``, as every command that reads a trust file takes it."""
    parser.add_argument(
        ALLOW_FLAG,
        dest="allow_unsafe_permissions",
        action="store_true",
        help="use destination and key files even when group or others may write them, or "
        f"another user owns them (for CI sandboxes; or set {ALLOW_ENV}=1)",
    )


def emit(
    data: bytes | Iterable[bytes], out: str | None, *, force: bool = False, what: str = "output"
) -> int:
    """``data`` (bytes, or chunks written as they come) to stdout, or written atomically
    to ``out`` (replaced only with ``force``)."""
    if out is None:
        for chunk in (data,) if isinstance(data, bytes) else data:
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        return exitcodes.OK
    try:
        write_atomic(out, data, overwrite=force)
    except TargetExistsError as exc:
        hint = "use --force to replace it" if not force else "it appeared while writing"
        raise TargetExistsError(f"{shown_path(out)} already exists; {hint}") from exc
    sys.stderr.write(f"{what} written to {shown_path(out)}\n")
    return exitcodes.OK


@dataclass(frozen=True, slots=True)
class Advisories:
    """Warnings beside a packet's verdict that never change it (nor its exit code, nor a
    receipt): the secret scan's ``secret_suspected`` findings and, when a workspace was
    given, the file claims checked against it (its locators masked as the briefing masks
    them). ``workspace_asked`` with no ``workspace``: the packet could not be read."""

    findings: tuple[Finding, ...] = ()
    omitted: tuple[OmittedFindings, ...] = ()
    workspace: WorkspaceCheck | None = None
    workspace_asked: bool = False
    # The scan itself: the verdict's admission chip says what it flagged, as the window's.
    scan: SecretScan | None = None
    text: TextScan | None = None  # the hostile-text scan's, likewise


NO_ADVISORIES = Advisories()


def advisories(inspection: PacketInspection, folder: Path | None = None) -> Advisories:
    """The scan (and the workspace check) of a packet that could be read; the findings fit
    in what the inspection's own findings left of the one budget of a document."""
    # Imported here: the opener loads every kind's checks, which most commands never run.
    from zcf_inspector.opener.open import (  # noqa: PLC0415
        masked_claims,
        packet_advisories,
        text_advisories,
    )

    scan, found = packet_advisories(inspection, folder)
    return advisories_of(
        inspection,
        scan,
        masked_claims(found, scan),
        asked=folder is not None,
        text=text_advisories(inspection),
    )


def advisories_of(
    inspection: PacketInspection,
    scan: SecretScan | None,
    workspace: WorkspaceCheck | None,
    *,
    asked: bool,
    text: TextScan | None = None,
) -> Advisories:
    """The advisories of the scans (and workspace check) already made by the opener."""
    if scan is None:
        return Advisories(workspace_asked=asked)
    findings, omitted = scan.findings(limit=max(0, FINDINGS_LIMIT - len(inspection.findings)))
    if text is not None:  # hidden characters, look-alike identifiers
        room = FINDINGS_LIMIT - len(inspection.findings) - len(findings)
        more, past = text.findings(limit=max(0, room))
        findings, omitted = (*findings, *more), merge_omitted(omitted, past)
    return Advisories(findings, omitted, workspace, asked, scan, text)


def print_refused(
    path: str, inspection: PacketInspection, *, as_json: bool, extra: Advisories = NO_ADVISORIES
) -> None:
    """A refused packet, as `validate` prints it (a one-element array with --json)."""
    if as_json:
        print_json([inspection_json(path, inspection, extra=extra)])
    else:
        print_packet(path, inspection, extra=extra)


def print_packet(
    path: str,
    inspection: PacketInspection,
    shown: Verdict | None = None,
    extra: Advisories = NO_ADVISORIES,
) -> None:
    """`validate`'s words for one packet: its verdict, its checks, its findings (the
    advisories' after the inspection's), then the workspace check when one was asked."""
    out = sys.stdout
    print_verdict(path, shown or packet.verdict(inspection), _error_count(inspection), out)
    print_findings(
        (*inspection.findings, *extra.findings), out, omitted=(*inspection.omitted, *extra.omitted)
    )
    for line in workspace_lines(extra):
        out.write(line + "\n")


def say_fixed_clock(destination: Destination) -> None:
    """Beside a receipt the command writes: that its times are a fixed clock's, when the
    destination sets one (`present.clock`), on stderr (stdout may be the receipt)."""
    words = fixed_clock_words(destination)
    if words is not None:
        sys.stderr.write(f"note: {words}\n")


def print_advisories(extra: Advisories, out: TextIO | None = None) -> None:
    """The advisories alone (on stderr where stdout carries a receipt)."""
    stream = out or sys.stderr
    print_findings(extra.findings, stream, omitted=extra.omitted)
    for line in workspace_lines(extra):
        stream.write(line + "\n")


def workspace_lines(extra: Advisories) -> Iterator[str]:
    """The check's summary and every entry that does not match, escaped for the terminal."""
    if not extra.workspace_asked:
        return
    check = extra.workspace
    if check is None:
        yield "  claims vs workspace: not checked: the packet could not be read"
        return
    yield f"  {check.summary()}  (folder {masked_shown(check.folder, MESSAGE_CHARS)})"
    listed = [
        e for e in (*check.sources, *check.changed_files) if e.status is not ClaimStatus.MATCHES
    ]
    prime(t for e in listed for t in (e.subject, e.locator, e.words, e.pointer))  # one scan
    for entry in listed:
        subject, locator, words = (
            masked_shown(t, MESSAGE_CHARS) for t in (entry.subject, entry.locator, entry.words)
        )
        where = masked_shown(entry.pointer, POINTER_CHARS)
        yield f"  - {subject} ({locator}): {words}  {where}"


def verdict_json(verdict: Verdict) -> dict[str, JsonValue]:
    """The presenter's words beside a document's own JSON result: ``verdict`` (the
    headline), ``trust`` (verified | unsigned | unchecked | refused), ``notChecked`` and
    ``checks`` (one per chip, as the window shows them)."""
    return verdict.to_json()


def inspection_json(
    path: str,
    inspection: PacketInspection,
    shown: Verdict | None = None,
    extra: Advisories = NO_ADVISORIES,
) -> dict[str, JsonValue]:
    result: dict[str, JsonValue] = {
        "path": path,
        "valid": inspection.valid,
        **verdict_json(shown or packet.verdict(inspection)),
        "findings": [f.to_json() for f in (*inspection.findings, *extra.findings)],
        "findingsOmitted": omitted_json((*inspection.omitted, *extra.omitted)),
        "manifest": None if inspection.manifest is None else inspection.manifest.to_json(),
        "authenticity": packet.authenticity_json(packet_trust(inspection)),
    }
    if extra.workspace_asked:
        result["workspace"] = None if extra.workspace is None else extra.workspace.to_json()
    return result


def _error_count(inspection: PacketInspection) -> str:
    """`` — N error(s)`` after a refusal's words, errors counted past the budget included."""
    if packet.trust_level(packet_trust(inspection)) is not Trust.REFUSED:
        return ""
    errors = sum(1 for f in inspection.findings if f.severity == "error") + sum(
        o.count for o in inspection.omitted if o.severity == "error"
    )
    return f" — {errors} error(s)"


def verdict_line(path: str, inspection: PacketInspection) -> str:
    """``PATH: VALID · SIGNED by … (trusted)``: the window's headline words (the packet
    presenter's), the file name and the signer the packet names escaped."""
    return (
        f"{shown_path(path)}: {masked_shown(packet.verdict(inspection).words, MESSAGE_CHARS)}"
        + (_error_count(inspection))
    )


def checks_line(verdict: Verdict) -> str:
    """The line under a verdict: its trust level and every chip, as the window shows them."""
    return "  " + masked_shown(verdict.checks_line(), MESSAGE_CHARS)


def print_verdict(path: str, verdict: Verdict, suffix: str = "", out: TextIO | None = None) -> None:
    """``PATH: WORDS`` and the checks line: every command that checks a document."""
    stream = out or sys.stdout
    stream.write(f"{shown_path(path)}: {masked_shown(verdict.words, MESSAGE_CHARS)}{suffix}\n")
    stream.write(checks_line(verdict) + "\n")


def fail(message: str) -> None:
    """A usage or file problem: a message on stderr, never a traceback."""
    sys.stderr.write(f"zcf-inspector: {masked_shown(message, MESSAGE_CHARS)}\n")
