"""How the CLI prints: one verdict line per input, then findings with their pointers.

Nothing from an input reaches the terminal raw: every text taken from a document or a
file name goes through `cli.terminal_text` (escaped, and cut when very long, with its
length said); JSON output stays exact JSON, with the same characters as JSON escapes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.terminal_text import MESSAGE_CHARS, POINTER_CHARS, field, json_text
from zcf_inspector.core.atomic import TargetExistsError, write_atomic
from zcf_inspector.core.file_trust import ALLOW_ENV, ALLOW_FLAG
from zcf_inspector.core.files import shown_path
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, OmittedFindings, omitted_total
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.packet.trust import Validity, packet_trust


def print_json(value: JsonValue, stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    out.write(json_text(value))
    out.write("\n")


def json_bytes(value: JsonValue) -> bytes:
    """Human-friendly JSON (2-space indent, UTF-8) for files the CLI writes."""
    return (json_text(value) + "\n").encode("utf-8")


def print_findings(
    findings: Iterable[Finding],
    stream: TextIO | None = None,
    omitted: Sequence[OmittedFindings] = (),
) -> None:
    out = stream or sys.stdout
    for f in findings:
        where = field(f.pointer, POINTER_CHARS) if f.pointer else "(document)"
        offset = f" at byte {f.offset}" if f.offset is not None else ""
        message = field(f.message, MESSAGE_CHARS)
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
        first = field(o.first_pointer, POINTER_CHARS) if o.first_pointer else "(document)"
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


def add_trust_arguments(parser: argparse.ArgumentParser) -> None:
    """``--allow-unsafe-permissions``, as every command that reads a trust file takes it."""
    parser.add_argument(
        ALLOW_FLAG,
        dest="allow_unsafe_permissions",
        action="store_true",
        help="use destination and key files even when group or others may write them, or "
        f"another user owns them (for CI sandboxes; or set {ALLOW_ENV}=1)",
    )


def emit(data: bytes, out: str | None, *, force: bool = False, what: str = "output") -> int:
    """``data`` to stdout, or written atomically to ``out`` (replaced only with ``force``)."""
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return exitcodes.OK
    try:
        write_atomic(out, data, overwrite=force)
    except TargetExistsError as exc:
        hint = "use --force to replace it" if not force else "it appeared while writing"
        raise TargetExistsError(f"{shown_path(out)} already exists; {hint}") from exc
    sys.stderr.write(f"{what} written to {shown_path(out)}\n")
    return exitcodes.OK


def print_refused(path: str, inspection: PacketInspection, *, as_json: bool) -> None:
    """A refused packet, as `validate` prints it (a one-element array with --json)."""
    if as_json:
        print_json([inspection_json(path, inspection)])
    else:
        sys.stdout.write(verdict_line(path, inspection) + "\n")
        print_findings(inspection.findings, omitted=inspection.omitted)


def inspection_json(path: str, inspection: PacketInspection) -> dict[str, JsonValue]:
    return {
        "path": path,
        "valid": inspection.valid,
        "findings": [f.to_json() for f in inspection.findings],
        "findingsOmitted": omitted_json(inspection.omitted),
        "manifest": None if inspection.manifest is None else inspection.manifest.to_json(),
        "authenticity": packet_trust(inspection).to_json(),
    }


def verdict_line(path: str, inspection: PacketInspection) -> str:
    """``PATH: VALID · SIGNED by … (trusted)``: the window's headline words (core/packet/trust),
    the file name and the signer the packet names escaped; errors counted past the budget
    included."""
    trust = packet_trust(inspection)
    shown = shown_path(path)
    if trust.validity is Validity.REFUSED:
        errors = sum(1 for f in inspection.findings if f.severity == "error") + sum(
            o.count for o in inspection.omitted if o.severity == "error"
        )
        return f"{shown}: {trust.headline()} — {errors} error(s)"
    return f"{shown}: {trust.headline(field)}"


def fail(message: str) -> None:
    """A usage or file problem: a message on stderr, never a traceback."""
    sys.stderr.write(f"zcf-inspector: {field(message, MESSAGE_CHARS)}\n")
