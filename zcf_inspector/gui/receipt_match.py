"""Which open packet a receipt belongs to: the verdict row a receipt tab adds.

A receipt is matched against each packet open under review (the packet as admitted by
the destination in force — that is what the receipt binds), with the core's
`match_receipt`. Runs on a worker: a hostile receipt may list a million decisions.

A match names its packet by identity (`PacketIdentity`: packet id, nonce, correlation id
and target digest, as the packet is admitted here), never by a tab title or a display
string: two open files may have the same name, and a title is not what a receipt binds.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.decisions import ReviewTarget, match_receipt
from zcf_inspector.gui.verdicts import CheckState, VerdictRow

CHECK = "packet"
_MATCHED_FIELDS = (
    "correlationId, packetId, packetNonce, manifestRootHash, destinationInstallationKeyId, "
    "targetDigest and every decision's portableRef"
)


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

    row: VerdictRow
    packet: PacketIdentity | None = None


def match_row(work: ReceiptMatchInput, monitor: Monitor) -> tuple[ReceiptMatch, ...]:
    """One match per receipt of ``work``, in order."""
    rows = []
    for index, receipt in enumerate(work.receipts):
        monitor.step("matching receipts to open packets", index / max(len(work.receipts), 1))
        rows.append(_match(receipt, work))
    return tuple(rows)


def _match(receipt: JsonValue, work: ReceiptMatchInput) -> ReceiptMatch:
    if not isinstance(receipt, dict):
        row = VerdictRow(CHECK, CheckState.NOT_RUN, "not run", "the receipt is not an object")
        return ReceiptMatch(row)
    if not work.targets:
        why = (
            "No packet is open under review. Open the packet this receipt is for to match it."
            if work.have_destination
            else "Matching needs the packet as admitted by a destination: choose a destination "
            "file in Settings and open the packet this receipt is for."
        )
        return ReceiptMatch(
            VerdictRow(CHECK, CheckState.NOT_CHECKABLE, "no open packet to match", why)
        )
    misses: list[str] = []
    claimed: list[str] = []
    for title, target in work.targets:
        problems = match_receipt(receipt, target)
        if not problems:
            row = VerdictRow(
                CHECK,
                CheckState.PASS,
                f"belongs to {title}",
                f"Matches the open packet {title} as admitted here ({_MATCHED_FIELDS}).",
                "/packetId",
            )
            return ReceiptMatch(row, PacketIdentity.of(target))
        lines = [f"{p.code} {p.pointer}: {p.message}" for p in problems[:20]]
        if len(problems) > len(lines):
            lines.append(f"… and {len(problems) - len(lines):,} more differences")
        misses.append(f"{title}:\n" + "\n".join(lines))
        if receipt.get("packetId") == target.receipt.get("packetId"):
            claimed.append(title)
    if claimed:
        claim = VerdictRow(
            CHECK,
            CheckState.FAIL,
            f"does NOT match {claimed[0]}",
            "The receipt names the packet open as "
            + ", ".join(claimed)
            + " but does not belong to it as admitted here.\n\n"
            + "\n\n".join(misses),
            "/packetId",
        )
        return ReceiptMatch(claim)
    none = VerdictRow(
        CHECK,
        CheckState.NOT_CHECKABLE,
        "matches no open packet",
        "None of the open packets is the one this receipt is for.\n\n" + "\n\n".join(misses),
        "/packetId",
    )
    return ReceiptMatch(none)
