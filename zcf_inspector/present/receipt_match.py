"""The receipt-against-packet presenter: which open packet a receipt belongs to, as a chip.

A receipt is matched against each packet open under review (the packet as admitted by
the destination in force — that is what the receipt binds) by identity, with the core's
`match_receipt`: correlation id, packet id and nonce, manifest root, installation key,
target digest and every decision's portableRef. The chip says which packet it belongs
to (``matched``: its index among the targets, and ``packet``: that packet's identity),
or why none — the one module that matches receipts to open packets (the rule itself is
the core's). `match_row` runs on the window's worker: a hostile receipt may list a
million decisions.

A match names its packet by identity (`PacketIdentity`: packet id, nonce, correlation id
and target digest, as the packet is admitted here), never by a tab title or a display
string: two open files may have the same name, and a title is not what a receipt binds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.receipt_match import match_receipt
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.present.vocabulary import CheckStatus, Chip

CHECK = "packet"
MATCHED_FIELDS = (
    "correlationId, packetId, packetNonce, manifestRootHash, destinationInstallationKeyId, "
    "targetDigest and every decision's portableRef"
)
SHOWN_PROBLEMS = 20  # differences listed per packet in the chip's detail


@dataclass(frozen=True, slots=True)
class PacketIdentity:
    """Which packet, as admitted at which destination, a receipt is for: what the
    receipt binds (its correlation id is made from the packet and the destination)."""

    packet_id: str
    packet_nonce: str
    correlation_id: str
    target_digest: str

    @classmethod
    def of(cls, target: ReviewTarget) -> PacketIdentity:
        return cls(
            target.receipt_text("packetId"),
            target.receipt_text("packetNonce"),
            target.correlation_id,
            target.receipt_text("targetDigest"),
        )


@dataclass(frozen=True, slots=True)
class ReceiptMatch:
    """The chip a receipt's verdict adds, and the open packet it belongs to (if any)."""

    chip: Chip
    matched: int | None = None  # the index of the target the receipt belongs to
    packet: PacketIdentity | None = None  # … and that packet's identity


@dataclass(frozen=True, slots=True)
class ReceiptMatchInput:
    receipts: tuple[JsonValue, ...]
    targets: tuple[tuple[str, ReviewTarget], ...]  # (tab title, packet as admitted here)
    have_destination: bool


def match_row(work: ReceiptMatchInput, monitor: Monitor) -> tuple[ReceiptMatch, ...]:
    """One match per receipt of ``work``, in order."""
    rows = []
    for index, receipt in enumerate(work.receipts):
        monitor.step("matching receipts to open packets", index / max(len(work.receipts), 1))
        found = match(receipt, work.targets, work.have_destination)
        if found.matched is not None:
            found = ReceiptMatch(
                found.chip, found.matched, PacketIdentity.of(work.targets[found.matched][1])
            )
        rows.append(found)
    return tuple(rows)


def belongs_summary(title: str) -> str:
    return f"belongs to {title}"


def match(
    receipt: JsonValue, targets: Sequence[tuple[str, ReviewTarget]], have_destination: bool
) -> ReceiptMatch:
    """``targets``: (the packet's title, the packet as admitted here), in the window's order."""
    if not isinstance(receipt, dict):
        return ReceiptMatch(
            Chip(CHECK, CheckStatus.NOT_RUN, "not run", "the receipt is not an object")
        )
    if not targets:
        why = (
            "No packet is open under review. Open the packet this receipt is for to match it."
            if have_destination
            else "Matching needs the packet as admitted by a destination: choose a destination "
            "file in Settings and open the packet this receipt is for."
        )
        return ReceiptMatch(Chip(CHECK, CheckStatus.NOT_CHECKABLE, "no open packet to match", why))
    misses: list[str] = []
    claimed: list[str] = []
    for index, (title, target) in enumerate(targets):
        problems = match_receipt(receipt, target)
        if not problems:
            detail = f"Matches the open packet {title} as admitted here ({MATCHED_FIELDS})."
            chip = Chip(CHECK, CheckStatus.PASS, belongs_summary(title), detail, "/packetId")
            return ReceiptMatch(chip, index)
        lines = [f"{p.code} {p.pointer}: {p.message}" for p in problems[:SHOWN_PROBLEMS]]
        if len(problems) > len(lines):
            lines.append(f"… and {len(problems) - len(lines):,} more differences")
        misses.append(f"{title}:\n" + "\n".join(lines))
        if receipt.get("packetId") == target.receipt.get("packetId"):
            claimed.append(title)
    if claimed:
        detail = (
            "The receipt names the packet open as "
            + ", ".join(claimed)
            + " but does not belong to it as admitted here.\n\n"
            + "\n\n".join(misses)
        )
        return ReceiptMatch(
            Chip(CHECK, CheckStatus.FAIL, f"does NOT match {claimed[0]}", detail, "/packetId")
        )
    detail = "None of the open packets is the one this receipt is for.\n\n" + "\n\n".join(misses)
    return ReceiptMatch(
        Chip(CHECK, CheckStatus.NOT_CHECKABLE, "matches no open packet", detail, "/packetId")
    )
