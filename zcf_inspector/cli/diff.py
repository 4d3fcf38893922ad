"""`zcf-inspector diff A B [--destination FILE] [--key PUBLIC_KEY] [--json]`: what
changed between two packets.

Each side is opened as `validate` opens it (the headless opener, under the same
``--destination`` and ``--key``) and stated in that view's words: a recipient-bound
packet is stated as verified under its destination here exactly when `validate` says so.
Exit 0 when A and B are canonically identical, 1 when they differ, 2 for a usage
error or an input that cannot be read (a missing file, a packet refused at the byte
stage, a document that is not a packet). Packets refused at a later stage are compared
as far as they read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Final, TextIO

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import add_trust_arguments, fail, optional_destination
from zcf_inspector.cli.terminal_text import FIELD_CHARS, MESSAGE_CHARS, POINTER_CHARS, quoted
from zcf_inspector.core.compare.model import (
    Change,
    ChangeKind,
    Comparison,
    PartComparison,
    PartStatus,
    SideSummary,
)
from zcf_inspector.core.compare.packets import budget_for, compare_inspections
from zcf_inspector.core.compare.render import field_line, shown_as_is
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.secrets.masking import mask_json, masked_shown, prime
from zcf_inspector.opener.documents import DocumentView, PacketDocument, UnreadableDocument
from zcf_inspector.opener.open import OpenSettings, open_document
from zcf_inspector.present.comparison import side_json, side_words
from zcf_inspector.present.vocabulary import Verdict

VALUE_CHARS: Final = 160  # of a field's value on a detail line
DIGEST_HEX: Final = 16  # hex digits of a digest in the text output (--json has them all)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "diff",
        help=help_of("diff"),
        description="Compare packet A with packet B. Every covered section is compared by "
        "its digest, then inside each changed section every element by its identity "
        "(beliefs by portableRef, other items by id, archive refs by ref, tools by name, "
        "objects by key). Fields outside the manifest root are compared too and marked "
        "not integrity-protected. Exit 0 when A and B are canonically identical, 1 when "
        "they differ, 2 for a usage error or an unreadable input (no file, or a packet "
        "refused at the byte stage).",
    )
    parser.add_argument("a", metavar="A", help="the earlier packet")
    parser.add_argument("b", metavar="B", help="the later packet")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"a", "b", "sections", "changes"} as JSON (ASCII, escapes for the rest)',
    )
    parser.add_argument(
        "--destination",
        metavar="FILE",
        help="destination file: each side checked under it, as validate checks it",
    )
    parser.add_argument(
        "--key",
        metavar="PUBLIC_KEY",
        help="a receipt signer's public key, as validate takes it (both sides must be packets)",
    )
    add_trust_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    destination = optional_destination(args)
    if args.key is not None:
        from zcf_inspector.cli.validate import key_of  # noqa: PLC0415 - rarely asked

        key_of(args.key)  # a key that is not one is a usage error, as in validate
    result, verdicts = _compare_files(args.a, args.b, destination)
    for path, side in ((args.a, result.a), (args.b, result.b)):
        if not side.readable:
            fail(f"{masked_shown(path, FIELD_CHARS)} cannot be compared: {_refusal(side)}")
    if not result.readable:
        return exitcodes.USAGE
    if args.json:
        # ASCII: a bidi or control character in a value reaches the terminal as an escape.
        out = result.to_json(args.a, args.b)
        # each side in `validate`'s words and trust level, beside the core's facts
        out["a"] = side_json(result.a, args.a, verdicts[0])
        out["b"] = side_json(result.b, args.b, verdicts[1])
        masked = mask_json(out, keep=lambda path: _shown_as_is(result, path))
        sys.stdout.write(json.dumps(masked, indent=2) + "\n")
    else:
        write_text(result, args.a, args.b, sys.stdout, verdicts)
    if result.omitted:
        fail(
            f"{result.omitted:,} further changes are counted but not listed "
            f"(listing budget {result.budget:,}, proportional to the inputs' size)"
        )
    return exitcodes.OK if result.identical else exitcodes.REFUSED


def _shown_as_is(result: Comparison, path: tuple[str | int, ...]) -> bool:
    """Strings of the JSON output shown as they are: the digests this comparison computed
    (hex, never a credential, and most of the output's text), and a field's A or B value
    that is one of the format's own random values (`render.shown_as_is`)."""
    if len(path) == 3 and path[0] in ("a", "b", "sections") and path[-1] in ("rootHash", "a", "b"):
        return True  # a side's computed root, a section's computed digests
    if len(path) == 4 and path[0] == "changes" and path[2] == "digests":
        return True
    if len(path) < 5 or path[0] != "changes" or path[2] != "fields" or path[4] not in ("a", "b"):
        return False
    change, index = result.changes[int(path[1])], int(path[3])
    return len(path) == 5 and shown_as_is(change.pointer, change.fields[index])


def _compare_files(
    path_a: str, path_b: str, destination: Destination | None = None
) -> tuple[Comparison, tuple[Verdict, Verdict]]:
    """`compare` of two files, each opened by the opener as `validate` opens it, and each
    file's bytes let go as soon as it is checked: the values are compared, not the bytes,
    and a 64 MiB input is then 64 MiB less at the peak. Both are read first, so an
    unreadable one is reported before any work is done."""
    data = [read_bounded(path_a), read_bounded(path_b)]
    budget = budget_for(len(data[0]), len(data[1]))
    settings = OpenSettings(destination=destination)
    first, first_view = _side(data[0], path_a, settings)
    data[0] = b""
    second, second_view = _side(data[1], path_b, settings)
    data.clear()
    comparison = compare_inspections(first, second, budget=budget)
    return comparison, (first_view.verdict, second_view.verdict)


def _side(data: bytes, path: str, settings: OpenSettings) -> tuple[PacketInspection, DocumentView]:
    document = open_document(data, settings)
    if isinstance(document, UnreadableDocument):
        raise InputError(document.message)
    if not isinstance(document, PacketDocument):
        raise InputError(f"{path} is a {document.view.kind}: only packets are compared")
    return document.inspection, document.view


def _refusal(side: SideSummary) -> str:
    refusal = side.refusal
    if refusal is None:
        return "refused at the byte stage"
    where = f" at byte {refusal.offset}" if refusal.offset is not None else ""
    message = masked_shown(refusal.message, MESSAGE_CHARS)
    return f"refused at the byte stage — {refusal.code}{where}: {message}"


def _short(digest: str | None) -> str:
    if digest is None:
        return "(none)"
    algorithm, _, hexdigits = digest.partition(":")
    return f"{algorithm}:{hexdigits[:DIGEST_HEX]}…"


def _verdict(label: str, path: str, side: SideSummary, shown: Verdict | None = None) -> str:
    """``A: PATH — WORDS``: `validate`'s words for the side (the side's view, when the
    side was opened by the opener)."""
    words = masked_shown(side_words(side, shown), MESSAGE_CHARS)
    return f"{label}: {masked_shown(path, FIELD_CHARS)} — {words}"


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _summary(result: Comparison) -> str:
    if result.identical:
        return "identical: A and B are canonically the same, section by section"
    sections = sum(1 for p in result.sections if p.status is not PartStatus.SAME)
    outside = sum(1 for p in result.uncovered if p.status is not PartStatus.SAME)
    kinds = dict.fromkeys(ChangeKind, 0)
    for part in result.parts:
        kinds[ChangeKind.ADDED] += part.added
        kinds[ChangeKind.REMOVED] += part.removed
        kinds[ChangeKind.CHANGED] += part.changed
    total = sum(kinds.values())
    detail = ", ".join(f"{n:,} {kind}" for kind, n in kinds.items() if n)
    return (
        f"DIFFERENT: {sections} of {len(result.sections)} covered sections, "
        f"{_count(outside, 'field')} outside the root; {_count(total, 'change')} ({detail})"
    )


def _part_line(part: PartComparison) -> str:
    digests = (
        _short(part.digest_a)
        if part.status is PartStatus.SAME
        else f"{_short(part.digest_a)} → {_short(part.digest_b)}"
    )
    counts = ", ".join(
        f"{n:,} {kind}"
        for kind, n in (("added", part.added), ("removed", part.removed), ("changed", part.changed))
        if n
    )
    line = f"  {part.status:<8} {masked_shown(part.name, FIELD_CHARS):<24} {digests}"
    return f"{line}   {counts}" if counts else line


def _change_line(change: Change) -> str:
    where = change.section or f"{change.part} (not integrity-protected)"
    words = [f"  {change.change:<8}", masked_shown(where, FIELD_CHARS)]
    if change.id is not None:
        words.append(quoted(change.id))
    words.append(masked_shown(change.pointer, POINTER_CHARS))
    if change.occurrence is not None:
        words.append(f"(occurrence {change.occurrence} of a repeated identity)")
    if change.moved is not None:
        words.append(f"moved from {change.moved[0]} to {change.moved[1]}")
    if change.review_state is not None:
        before, after = (
            "unreviewed (absent)" if s is None else masked_shown(s, FIELD_CHARS)
            for s in change.review_state
        )
        words.append(f"review state {before} → {after}")
    return "  ".join(words)


def _detail_lines(change: Change) -> list[str]:
    lines = []
    for changed in change.fields:
        line = field_line(changed, VALUE_CHARS, masked=not shown_as_is(change.pointer, changed))
        where = masked_shown(line.path, POINTER_CHARS) if line.path else "(value)"
        note = f"  ({line.note})" if line.note else ""
        lines.append(f"      {where}  {line.a} → {line.b}{note}")
    if change.fields_omitted:
        lines.append(f"      … {_count(change.fields_omitted, 'more field')}")
    if change.change is ChangeKind.CHANGED:
        lines.append(f"      digest  {_short(change.digest_a)} → {_short(change.digest_b)}")
    else:
        digest = change.digest_b if change.change is ChangeKind.ADDED else change.digest_a
        lines.append(f"      digest  {_short(digest)}")
    return lines


def write_text(
    result: Comparison,
    path_a: str,
    path_b: str,
    out: TextIO,
    verdicts: tuple[Verdict, Verdict] | None = None,
) -> None:
    # The texts the lines quote, masked in one scan first (each line's then a look-up).
    prime(
        text
        for change in result.changes
        for text in (
            change.pointer,
            change.id or "",
            change.part,
            *(f.path for f in change.fields),
            *(v for f in change.fields for v in (f.a, f.b) if isinstance(v, str)),
        )
    )
    shown_a, shown_b = verdicts or (None, None)
    out.write(_verdict("A", path_a, result.a, shown_a) + "\n")
    out.write(_verdict("B", path_b, result.b, shown_b) + "\n")
    out.write(_summary(result) + "\n")
    out.write("\nsections (covered by the manifest root):\n")
    for part in result.sections:
        out.write(_part_line(part) + "\n")
    differing = [p for p in result.uncovered if p.status is not PartStatus.SAME]
    same = len(result.uncovered) - len(differing)
    out.write(f"\noutside the root (not integrity-protected): {same} identical\n")
    for part in differing:
        out.write(_part_line(part) + "\n")
    if result.changes:
        out.write("\nchanges:\n")
    for change in result.changes:
        out.write(_change_line(change) + "\n")
        for line in _detail_lines(change):
            out.write(line + "\n")
