"""Which open packet a receipt belongs to: the verdict row a receipt tab adds.

The words are the receipt-against-packet presenter's (`present.receipt_match`). Runs on
a worker: a hostile receipt may list a million decisions.

A match names its packet by identity (`PacketIdentity`: packet id, nonce, correlation id
and target digest, as the packet is admitted here), never by a tab title or a display
string: two open files may have the same name, and a title is not what a receipt binds.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.target import ReviewTarget
from zcf_inspector.present import receipt_match
from zcf_inspector.present.receipt_match import CHECK, belongs_summary
from zcf_inspector.present.vocabulary import Chip

__all__ = [
    "CHECK",
    "PacketIdentity",
    "ReceiptMatch",
    "ReceiptMatchInput",
    "belongs_summary",
    "match_row",
]


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
class ReceiptMatchInput:
    receipts: tuple[JsonValue, ...]
    targets: tuple[tuple[str, ReviewTarget], ...]  # (tab title, packet as admitted here)
    have_destination: bool


@dataclass(frozen=True, slots=True)
class ReceiptMatch:
    """The verdict row a receipt tab adds, and the open packet it belongs to (if any)."""

    row: Chip
    packet: PacketIdentity | None = None


def match_row(work: ReceiptMatchInput, monitor: Monitor) -> tuple[ReceiptMatch, ...]:
    """One match per receipt of ``work``, in order."""
    rows = []
    for index, receipt in enumerate(work.receipts):
        monitor.step("matching receipts to open packets", index / max(len(work.receipts), 1))
        rows.append(_match(receipt, work))
    return tuple(rows)


def _match(receipt: JsonValue, work: ReceiptMatchInput) -> ReceiptMatch:
    found = receipt_match.match(receipt, work.targets, work.have_destination)
    if found.matched is None:
        return ReceiptMatch(found.chip)
    return ReceiptMatch(found.chip, PacketIdentity.of(work.targets[found.matched][1]))
