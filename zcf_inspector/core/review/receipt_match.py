"""Whether a receipt belongs to the packet under review, as admitted here."""

from __future__ import annotations

from collections.abc import Mapping

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.pointer import join
from zcf_inspector.core.review.target import ReviewTarget


def match_receipt(receipt: Mapping[str, JsonValue], target: ReviewTarget) -> list[Finding]:
    """Whether a receipt belongs to this packet as admitted here; a finding per difference."""
    problems = [
        error(
            ReviewCode.RECEIPT_MISMATCH,
            join(name),
            f"{name} is {receipt.get(name)!r}, but the open packet's is {target.receipt[name]!r}",
        )
        for name in (
            "correlationId",
            "packetId",
            "packetNonce",
            "manifestRootHash",
            "destinationInstallationKeyId",
            "targetDigest",
        )
        if receipt.get(name) != target.receipt.get(name)
    ]
    review = receipt.get("review")
    decisions = review.get("decisions") if isinstance(review, dict) else None
    refs = target.refs
    for index, decision in enumerate(decisions if isinstance(decisions, list) else []):
        ref = decision.get("portableRef") if isinstance(decision, dict) else None
        if ref not in refs:
            problems.append(
                error(
                    ReviewCode.RECEIPT_MISMATCH,
                    join("review", "decisions", index, "portableRef"),
                    f"{ref!r} is not a belief admitted from the open packet",
                )
            )
    return problems
