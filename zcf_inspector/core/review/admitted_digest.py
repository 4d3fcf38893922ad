"""What a decision row records of the belief it decided: the digest of the belief as it
was admitted, whether admission cut or demoted it, and — for a decision carried over from
another admission (`admission_carry`) — that admission's ``targetDigest``."""

from __future__ import annotations

import hashlib
import json

from zcf_inspector.core.review.target import AdmittedBelief, ReviewTarget

ADMITTED = "admitted"  # the belief's admitted digest, in a decision row's detail
CARRIED_FROM = "carriedFrom"  # the targetDigest of the admission a decision was carried from


def admitted_digest(belief: AdmittedBelief) -> str:
    """What admission made of a belief, as one digest: its ref, source, admitted content
    and incoming state, and whether it was cut (length-prefixed: no two differ alike)."""
    h = hashlib.sha256()
    for part in (belief.portable_ref, belief.source_id, belief.content, belief.incoming_state):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    h.update(b"cut" if belief.cut is not None else b"whole")
    return h.hexdigest()


def decision_detail(target: ReviewTarget, ref: str, carried_from: str | None = None) -> str | None:
    """A decision row's detail: the digest, cut and demotion of the belief decided."""
    belief = target.belief(ref)
    if belief is None:
        return None
    value: dict[str, object] = {
        ADMITTED: admitted_digest(belief),
        "cut": belief.cut is not None,
        "demoted": belief.demoted,
    }
    if carried_from is not None:
        value[CARRIED_FROM] = carried_from
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
