"""Which open packet a receipt belongs to: the verdict row a receipt tab adds.

The words are the receipt-against-packet presenter's (`present.receipt_match`). Runs on
a worker: a hostile receipt may list a million decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Monitor
from zcf_inspector.core.review.decisions import ReviewTarget
from zcf_inspector.present import receipt_match
from zcf_inspector.present.receipt_match import CHECK, belongs_summary
from zcf_inspector.present.vocabulary import Chip as VerdictRow

__all__ = ["CHECK", "ReceiptMatchInput", "belongs_summary", "match_row"]


@dataclass(frozen=True, slots=True)
class ReceiptMatchInput:
    receipts: tuple[JsonValue, ...]
    targets: tuple[tuple[str, ReviewTarget], ...]  # (tab title, packet as admitted here)
    have_destination: bool


def match_row(work: ReceiptMatchInput, monitor: Monitor) -> tuple[VerdictRow, ...]:
    """One row per receipt of ``work``, in order."""
    rows = []
    for index, receipt in enumerate(work.receipts):
        monitor.step("matching receipts to open packets", index / max(len(work.receipts), 1))
        rows.append(_row(receipt, work))
    return tuple(rows)


def _row(receipt: JsonValue, work: ReceiptMatchInput) -> VerdictRow:
    return receipt_match.match(receipt, work.targets, work.have_destination).chip
