"""Two generations of one handoff stream and the receipt of the first, for the carry-over.

Built with the goldens generator's builders (fixed keys, fixed clock), both
recipient-bound to the golden destination and MAC-authenticated. ZCF v1 has no in-band
link between them (``packet.generation`` is always 1): the second is "later" because a
reviewer says so — it is the same work (same source installation), created later.

Generation 1 admits eight beliefs; its receipt decides on them in this order:

    b-keep    confirmed
    b-reject  confirmed, then rejected ("stale: the reader changed")  (the last one wins)
    b-old     superseded by b-keep ("b-keep says it better")
    b-edit    confirmed
    b-src     confirmed
    b-gone    confirmed
    b-sup2    superseded by b-edit ("merged into b-edit")
    b-open    confirmed, then back to unreviewed

Generation 2 lists its beliefs in another order; b-keep arrives claiming ``confirmed``
(demoted at admission: not a content change); b-edit's content and b-src's sourceId
changed; b-gone is gone; b-new is new. So: unchanged b-keep, b-reject, b-old, b-open,
b-sup2; changed b-edit, b-src; new b-new; removed b-gone. Repeatable: b-old (its
replacement b-keep is unchanged), b-reject, b-keep. Withheld: b-sup2, whose replacement
b-edit changed. b-open stays unreviewed: its last earlier decision was "unreviewed".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from goldens import generate as g
from tests.core.helpers import destination, to_bytes
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.receipt import receipt_bytes
from zcf_inspector.core.review.decisions import DecisionRequest
from zcf_inspector.core.review.session import ReviewSession
from zcf_inspector.core.review.target import ReviewTarget

Packet = dict[str, Any]
EARLIER_REVIEWER = "alice"
EARLIER_AT = "2026-09-30T16:00:00Z"
EARLIER_COMPLETED = "2026-09-30T17:00:00Z"

GEN1_BELIEFS = [
    g.belief("b-keep", "The reader returns int for every integral number."),
    g.belief("b-reject", "The stdlib scanner reports offsets in UTF-8 bytes."),
    g.belief("b-old", "Integral numbers come back as int, mostly."),
    g.belief("b-edit", "Validation of 50 MB takes about two seconds."),
    g.belief("b-src", "Keys are sorted by code point."),
    g.belief("b-gone", "The bench script lives in tools/."),
    g.belief("b-open", "Leap seconds are refused."),
    g.belief("b-sup2", "Validation is slow on big packets."),
]
EARLIER_DECISIONS = [
    DecisionRequest("b-keep", "confirmed"),
    DecisionRequest("b-reject", "confirmed"),
    DecisionRequest("b-old", "superseded", "b-keep says it better", "b-keep"),
    DecisionRequest("b-edit", "confirmed", "measured on CI"),
    DecisionRequest("b-src", "confirmed"),
    DecisionRequest("b-gone", "confirmed"),
    DecisionRequest("b-sup2", "superseded", "merged into b-edit", "b-edit"),
    DecisionRequest("b-reject", "rejected", "stale: the reader changed"),
    DecisionRequest("b-open", "confirmed"),
    DecisionRequest("b-open", "unreviewed"),
]


def gen1_beliefs() -> list[Packet]:
    return copy.deepcopy(GEN1_BELIEFS)


def gen2_beliefs() -> list[Packet]:
    by_ref = {b["portableRef"]: b for b in gen1_beliefs()}
    keep = dict(by_ref["b-keep"], reviewState="confirmed")  # a claim admission demotes
    edit = dict(by_ref["b-edit"], content="Validation of 50 MB takes under a second.")
    src = dict(by_ref["b-src"], sourceId="mem-other")
    new = g.belief("b-new", "The reader now keeps duplicate keys out.")
    order = ["b-sup2", "b-open"]
    return [
        *(by_ref[r] for r in order),
        new,
        edit,
        src,
        by_ref["b-old"],
        by_ref["b-reject"],
        keep,
    ]


def packet(name: str, beliefs: list[Packet], *, created: str, expires: str | None = None) -> Packet:
    p = g.bound(g.handoff(name))
    p["packet"]["createdAt"] = created
    p["retention"]["exportedAt"] = created
    if expires is not None:
        p["retention"]["expiresAt"] = expires
    g.content(p)["beliefs"] = beliefs
    return g.mac(p)


def generation_1(**kwargs: Any) -> Packet:
    return packet("stream-gen1", gen1_beliefs(), created="2026-09-29T10:00:00Z", **kwargs)


def generation_2(beliefs: list[Packet] | None = None) -> Packet:
    chosen = gen2_beliefs() if beliefs is None else beliefs
    return packet("stream-gen2", chosen, created="2026-09-30T18:00:00Z")


def target_of(value: Packet, dest: Destination | None = None) -> ReviewTarget:
    return ReviewTarget.from_ingest(ingest_bytes(to_bytes(value), dest or destination()))


def earlier_receipt(
    value: Packet | None = None,
    dest: Destination | None = None,
    requests: list[DecisionRequest] | None = None,
) -> dict[str, Any]:
    """Generation 1's receipt, as the window or the CLI would have exported it."""
    chosen = dest or destination()
    session = ReviewSession(target_of(value or generation_1(), chosen))
    for request in EARLIER_DECISIONS if requests is None else requests:
        session.apply(session.plan([request], EARLIER_REVIEWER, EARLIER_AT))
    return session.receipt(EARLIER_COMPLETED, chosen.signing_key)


def write_generations(folder: Path) -> tuple[Path, Path, Path]:
    """gen1.json, its receipt gen1.receipt.json, and gen2.json in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    gen1 = folder / "gen1.json"
    gen1.write_bytes(to_bytes(generation_1()))
    receipt = folder / "gen1.receipt.json"
    receipt.write_bytes(receipt_bytes(earlier_receipt()))
    gen2 = folder / "gen2.json"
    gen2.write_bytes(to_bytes(generation_2()))
    return gen1, receipt, gen2


def read(path: Path) -> Any:
    return json.loads(path.read_bytes())
