"""A `Briefing` as the lines the Briefing pane shows: plain text, one block per line.

Pure Python (no Qt), run on the worker with the briefing itself, so the pane only sets
the text it is given. Every document string passes through the one escaping rule
(`core.visible_text`); a text of several lines keeps its line breaks as U+2028 (a line
break *inside* one text block), so each item's text is exactly one block and a reveal
replaces one block without moving any other. All the words are core/briefing's, the
workspace check's and the secret scan's; the pane adds none of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from zcf_inspector.core.briefing.model import INTEGRITY_WORDS, Briefing, BriefItem, Integrity
from zcf_inspector.core.claims.workspace import (
    ROLL_UP_WORDS,
    ClaimCheck,
    ClaimStatus,
    RollUp,
    WorkspaceCheck,
)
from zcf_inspector.core.secrets.masking import masked_clip, prime
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.core.visible_text import clip, visible

ITEM_CHARS: Final = 2_000  # of one document text in the pane (the tree shows the rest)
# Items of one section listed before "… and N more (in the tree)": setting the text costs
# the UI thread about 25 ms a thousand lines, and a capsule rarely lists more than dozens.
ITEMS_LISTED: Final = 200
HITS_LISTED: Final = 200  # suspected credentials listed
BELIEFS_LISTED: Final = 200  # beliefs citing a mismatch or a missing file, listed
LINE_BREAK: Final = "\u2028"  # a line break inside one QTextDocument block
INDENT: Final = "      "  # lines under an item (QPlainTextEdit has no block margins)
REVEALED: Final = "  (revealed: shown as the packet holds it)"


class Style(StrEnum):
    PLAIN = "plain"
    TITLE = "title"  # the verdict line
    HEADING = "heading"
    ITEM = "item"  # an item's text (its first line)
    DETAIL = "detail"  # its note, pointer and integrity
    GOOD = "good"  # a claim that matches
    CAUTION = "caution"  # differs, missing, not checkable, a suspected credential
    BAD = "bad"  # a text whose manifest does not match


@dataclass(frozen=True, slots=True)
class Line:
    text: str  # as shown: already escaped
    style: Style = Style.PLAIN
    pointer: str | None = None  # the tree node Enter selects
    group: int = -1  # lines of one item share a group (highlighted together)
    # When the line shows a masked text: the pointer of the text to reveal, and what
    # goes before the revealed text on the line.
    reveal: str | None = None
    reveal_prefix: str = ""


@dataclass(frozen=True, slots=True)
class ReceiptRef:
    """A receipt a file can be checked against (the pane's "Check a receipt's file")."""

    receipt_id: str
    pointer: str  # of the receipt entry
    label: str  # shown, escaped


@dataclass(frozen=True, slots=True)
class BriefingText:
    lines: tuple[Line, ...]
    receipts: tuple[ReceiptRef, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def flowing(text: str, limit: int = ITEM_CHARS, *, masked: bool = True) -> str:
    """A document text on one block: masked (the one masking step: a text the packet
    scan does not read — an id, a tool name, a session id — may hold a credential too),
    cut, escaped, its own line breaks kept as U+2028."""
    cut = masked_clip(text, limit) if masked else clip(text, limit)
    return LINE_BREAK.join(visible(part) for part in cut.split("\n"))


def revealed_text(line: Line, raw: str) -> str:
    """The line with the text as the packet holds it (escaped, never interpreted)."""
    return line.reveal_prefix + flowing(raw, masked=False) + REVEALED


def claim_style(status: ClaimStatus) -> Style:
    # Matches is the only status that says something was checked and held; differs and
    # missing are the amber, present / not checkable are unchecked (amber too).
    return Style.GOOD if status is ClaimStatus.MATCHES else Style.CAUTION


INTEGRITY_STYLE: Final = {
    Integrity.COVERED: Style.DETAIL,
    Integrity.CHANGED: Style.BAD,
    Integrity.NOT_COVERED: Style.DETAIL,
}


class _Lines:
    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.groups = 0

    def add(self, text: str, style: Style = Style.PLAIN, pointer: str | None = None) -> None:
        self.lines.append(Line(text, style, pointer))

    def group(self) -> int:
        self.groups += 1
        return self.groups


def briefing_text(
    briefing: Briefing,
    *,
    receipts: tuple[ReceiptRef, ...] = (),
    receipt_checks: Mapping[str, ClaimCheck] | None = None,
    workspace_note: str = "",
) -> BriefingText:
    """``receipt_checks``: the files checked against receipts, by receipt pointer;
    ``workspace_note``: why the named workspace could not be checked, if it could not."""
    out = _Lines()
    out.add(visible(briefing.verdict), Style.TITLE)
    for note in briefing.notes:
        out.add("note: " + flowing(note))
    used = [
        i for i in Integrity if any(it.integrity is i for s in briefing.sections for it in s.items)
    ]
    if used:
        out.add("")
        out.add("Integrity, as each item is marked", Style.HEADING)
        for integrity in used:
            out.add(f"{_integrity_word(integrity)}: {INTEGRITY_WORDS[integrity]}", Style.DETAIL)
    checks = receipt_checks or {}
    for section in briefing.sections:
        out.add("")
        count = f" ({len(section.items):,})" if len(section.items) > 1 else ""
        out.add(section.heading + count, Style.HEADING, section.pointer)
        if section.summary:
            out.add(flowing(section.summary), Style.PLAIN, section.pointer)
        if not section.items and not section.summary:
            out.add(section.empty, Style.DETAIL, section.pointer)
        for item in section.items[:ITEMS_LISTED]:
            _item(out, item, _receipt_check(item, checks))
        if len(section.items) > ITEMS_LISTED:
            more = len(section.items) - ITEMS_LISTED
            out.add(f"… and {more:,} more (in the tree)", Style.DETAIL, section.pointer)
    _secrets(out, briefing.secrets)
    _workspace(out, briefing.workspace, workspace_note)
    return BriefingText(tuple(out.lines), receipts)


def _integrity_word(integrity: Integrity) -> str:
    return str(integrity).replace("_", " ")


def _receipt_check(item: BriefItem, checks: Mapping[str, ClaimCheck]) -> ClaimCheck | None:
    return next(
        (c for p, c in checks.items() if item.pointer == p or item.pointer.startswith(p + "/")),
        None,
    )


def _item(out: _Lines, item: BriefItem, receipt: ClaimCheck | None) -> None:
    group = out.group()
    pointer = item.pointer
    lead = f"• {flowing(item.label, 200)}: " if item.label and item.text else "• "
    if item.text:
        text = lead + flowing(item.text)
    else:
        text = f"• {flowing(item.label, 200)}" if item.label else "• (empty)"
    reveal = pointer if item.secrets else None
    out.lines.append(Line(text, Style.ITEM, pointer, group, reveal, lead))
    for line in _details(item, receipt):
        out.lines.append(Line(INDENT + line[0], line[1], pointer, group))


def _details(item: BriefItem, receipt: ClaimCheck | None) -> Iterator[tuple[str, Style]]:
    if item.note:
        yield flowing(item.note), Style.DETAIL
    yield (
        f"{_integrity_word(item.integrity)} · {visible(item.pointer)}",
        INTEGRITY_STYLE[item.integrity],
    )
    for hit in item.secrets:
        yield f"suspected credential (secret_suspected): {flowing(hit.message)}", Style.CAUTION
    if item.claim is not None:
        yield f"workspace: {flowing(item.claim.words)}", claim_style(item.claim.status)
    if receipt is not None:
        yield (
            f"file {flowing(receipt.locator, 400)}: {flowing(receipt.words)}",
            claim_style(receipt.status),
        )


def _secrets(out: _Lines, scan: SecretScan | None) -> None:
    out.add("")
    out.add("Suspected credentials (values hidden)", Style.HEADING)
    if scan is None:
        out.add("not scanned: the packet could not be read", Style.DETAIL)
        return
    out.add(visible(scan.summary()), Style.CAUTION if scan.hits else Style.PLAIN)
    for hit in scan.hits[:HITS_LISTED]:
        group = out.group()
        lead = f"• {visible(hit.label)} at {visible(hit.pointer)}: "
        out.lines.append(
            Line(lead + flowing(hit.message), Style.CAUTION, hit.pointer, group, hit.pointer, lead)
        )
    if len(scan.hits) > HITS_LISTED:
        out.add(f"… and {len(scan.hits) - HITS_LISTED:,} more, not listed here", Style.DETAIL)


def _workspace(out: _Lines, workspace: WorkspaceCheck | None, note: str) -> None:
    out.add("")
    out.add("Claims vs workspace", Style.HEADING)
    if note:
        out.add(flowing(note), Style.CAUTION)
    if workspace is None and not note:
        out.add(
            "not checked: no workspace named (nothing here says a claimed file exists)",
            Style.DETAIL,
        )
    if workspace is None:
        return
    out.add(f"folder: {flowing(workspace.folder, 400)}", Style.DETAIL)
    out.add(visible(workspace.summary()), Style.CAUTION if workspace.mismatched else Style.PLAIN)
    prime(t for c in workspace.sources for t in (c.subject, c.locator, c.words))  # one scan
    for check in workspace.sources:
        group = out.group()
        line = f"• {flowing(check.subject, 200)} ({flowing(check.locator, 400)}): "
        out.lines.append(
            Line(line + flowing(check.words), claim_style(check.status), check.pointer, group)
        )
    flagged = [b for b in workspace.beliefs if b.flagged]
    if flagged:
        out.add(f"Beliefs citing a mismatch or a missing file: {len(flagged):,}", Style.CAUTION)
        for belief in flagged[:BELIEFS_LISTED]:
            group = out.group()
            text = f"• {flowing(belief.portable_ref, 200)}: {belief.words}"
            out.lines.append(Line(text, Style.CAUTION, belief.pointer, group))
        if len(flagged) > BELIEFS_LISTED:
            out.add(f"… and {len(flagged) - BELIEFS_LISTED:,} more", Style.DETAIL)
    counts = dict.fromkeys(RollUp, 0)
    for belief in workspace.beliefs:
        counts[belief.roll_up] += 1
    counts[RollUp.NO_EVIDENCE] = workspace.beliefs_without_evidence
    out.add(f"Beliefs ({workspace.belief_count:,}), by what their cited sources say:")
    for roll_up, n in counts.items():
        if n:
            out.add(f"{INDENT}{ROLL_UP_WORDS[roll_up]}: {n:,}", Style.DETAIL)
    out.add(
        f"read {workspace.files_opened:,} file(s), {workspace.bytes_read:,} bytes", Style.DETAIL
    )
