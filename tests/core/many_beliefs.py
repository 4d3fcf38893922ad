"""A packet with many beliefs, and a destination that admits them all (tests of large
reviews: the decision index, the table's filters, the window's worker steps)."""

from __future__ import annotations

import json
from typing import Any

from goldens import generate as g
from tests.core.helpers import destination
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.previous import PreviousGeneration, compare_with_previous
from zcf_inspector.core.review.previous_trust import check_previous_receipt
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget


def many_beliefs_bytes(count: int, name: str = "many") -> bytes:
    """A valid session-handoff with ``count`` beliefs: every third says "parser", every
    fifth arrives confirmed (so it is demoted), every seventh has an evidence anchor."""
    packet = g.handoff(name)
    content: dict[str, Any] = packet["content"]
    beliefs: list[dict[str, Any]] = []
    for i in range(count):
        belief: dict[str, Any] = {
            "portableRef": f"b-{i:06d}",
            "sourceId": f"mem-{i:06d}",
            "content": f"{i:06d} " + ("the parser reads it" if i % 3 == 0 else "a claim"),
        }
        if i % 5 == 0:
            belief["reviewState"] = "confirmed"
        beliefs.append(belief)
    content["beliefs"] = beliefs
    content["evidenceSources"] = [{"id": "src-1", "kind": "local", "locator": "notes.md"}]
    content["evidenceAnchors"] = [
        {"id": f"a-{i:06d}", "beliefRef": f"b-{i:06d}", "sourceRef": "src-1"}
        for i in range(0, count, 7)
    ]
    return json.dumps(g.unsigned(packet), ensure_ascii=False).encode("utf-8")


def admitting(count: int) -> Destination:
    return destination(maxBeliefs=count)


def many_target(count: int) -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(many_beliefs_bytes(count), admitting(count)))


def many_previous(current: ReviewTarget) -> PreviousGeneration:
    """An earlier generation with the same beliefs, each confirmed in its receipt: the
    carry-over can repeat every one of them on ``current``."""
    count = len(current.beliefs)
    dest = admitting(count)
    earlier = ReviewTarget.from_ingest(
        ingest_bytes(many_beliefs_bytes(count, "many-earlier"), dest)
    )
    session = ReviewSession(earlier)
    step = session.plan([DecisionRequest(ref, "confirmed") for ref in earlier.rows], "alice", g.NOW)
    session.apply(step)
    receipt = session.receipt(g.NOW, dest.signing_key)
    return compare_with_previous(earlier, receipt, check_previous_receipt(receipt, dest), current)
