"""Which open packet a receipt belongs to: the verdict row a receipt tab adds.

A receipt is matched against each packet open under review (the packet as admitted by
the destination in force — that is what the receipt binds), with the core's
`match_receipt`. Runs on a worker: a hostile receipt may list a million decisions.
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
class ReceiptMatchInput:
    receipts: tuple[JsonValue, ...]
    targets: tuple[tuple[str, ReviewTarget], ...]  # (tab title, packet as admitted here)
    have_destination: bool


def belongs_summary(title: str) -> str:
    """The chip of a receipt matched to the open packet ``title`` (the window reads it back
    to offer that receipt with that packet)."""
    return f"belongs to {title}"


def match_row(work: ReceiptMatchInput, monitor: Monitor) -> tuple[VerdictRow, ...]:
    """One row per receipt of ``work``, in order."""
    rows = []
    for index, receipt in enumerate(work.receipts):
        monitor.step("matching receipts to open packets", index / max(len(work.receipts), 1))
        rows.append(_row(receipt, work))
    return tuple(rows)


def _row(receipt: JsonValue, work: ReceiptMatchInput) -> VerdictRow:
    if not isinstance(receipt, dict):
        return VerdictRow(CHECK, CheckState.NOT_RUN, "not run", "the receipt is not an object")
    if not work.targets:
        why = (
            "No packet is open under review. Open the packet this receipt is for to match it."
            if work.have_destination
            else "Matching needs the packet as admitted by a destination: choose a destination "
            "file in Settings and open the packet this receipt is for."
        )
        return VerdictRow(CHECK, CheckState.NOT_CHECKABLE, "no open packet to match", why)
    misses: list[str] = []
    claimed: list[str] = []
    for title, target in work.targets:
        problems = match_receipt(receipt, target)
        if not problems:
            return VerdictRow(
                CHECK,
                CheckState.PASS,
                belongs_summary(title),
                f"Matches the open packet {title} as admitted here ({_MATCHED_FIELDS}).",
                "/packetId",
            )
        lines = [f"{p.code} {p.pointer}: {p.message}" for p in problems[:20]]
        if len(problems) > len(lines):
            lines.append(f"… and {len(problems) - len(lines):,} more differences")
        misses.append(f"{title}:\n" + "\n".join(lines))
        if receipt.get("packetId") == target.receipt.get("packetId"):
            claimed.append(title)
    if claimed:
        return VerdictRow(
            CHECK,
            CheckState.FAIL,
            f"does NOT match {claimed[0]}",
            "The receipt names the packet open as "
            + ", ".join(claimed)
            + " but does not belong to it as admitted here.\n\n"
            + "\n\n".join(misses),
            "/packetId",
        )
    return VerdictRow(
        CHECK,
        CheckState.NOT_CHECKABLE,
        "matches no open packet",
        "None of the open packets is the one this receipt is for.\n\n" + "\n\n".join(misses),
        "/packetId",
    )
