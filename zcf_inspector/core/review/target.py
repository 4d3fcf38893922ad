"""What is under review: the ingest receipt and the admitted beliefs of one packet, and
the preparation that makes them from a packet on a worker (`prepare_review`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from zcf_inspector.core.codes import ReviewCode
from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.admission import AdmissionNotice, DroppedBeliefs, describe_admission
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import (
    Admission,
    BeliefCut,
    IngestResult,
    ingest_bytes,
    ingest_inspection,
)
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageStatus
from zcf_inspector.core.review.decisions import AdmittedRefs, ReviewError, checked_text, refuse


@dataclass(frozen=True, slots=True)
class AdmittedBelief:
    portable_ref: str
    source_id: str
    content: str
    incoming_state: str  # as the packet wrote it; admission made it unreviewed
    cut: BeliefCut | None = None  # admission cut its content to maxBeliefBytes

    @property
    def demoted(self) -> bool:
        return self.incoming_state != ReviewState.UNREVIEWED


@dataclass(frozen=True, slots=True)
class ReviewTarget:
    """What is under review: the ingest receipt (no decisions) and the admitted beliefs."""

    receipt: Mapping[str, JsonValue]
    beliefs: tuple[AdmittedBelief, ...]
    packet: Mapping[str, JsonValue]
    admission: Admission | None = None  # what admission dropped, cut and demoted
    degraded: tuple[tuple[str, str, str], ...] = ()  # sections and tools not native
    _refs: AdmittedRefs = field(init=False, repr=False, compare=False)
    _by_ref: Mapping[str, AdmittedBelief] = field(init=False, repr=False, compare=False)
    _rows: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen: computed once here (on the worker that prepares a review). The first
        # belief of a repeated ref is the one found.
        object.__setattr__(self, "_refs", AdmittedRefs(b.portable_ref for b in self.beliefs))
        by_ref: dict[str, AdmittedBelief] = {}
        rows: dict[str, int] = {}
        for row, b in enumerate(self.beliefs):
            if b.portable_ref not in rows:
                by_ref[b.portable_ref] = b
                rows[b.portable_ref] = row
        object.__setattr__(self, "_by_ref", by_ref)
        object.__setattr__(self, "_rows", rows)

    @classmethod
    def from_ingest(cls, result: IngestResult) -> ReviewTarget:
        packet = result.inspection.value
        if result.receipt is None or packet is None:
            raise refuse(
                ReviewCode.PACKET_REFUSED,
                "the packet was refused at ingest, so it has no admitted beliefs to review",
            )
        content = packet.get("content")
        raw = content.get("beliefs", []) if isinstance(content, dict) else []
        incoming = raw if isinstance(raw, list) else []
        beliefs = []
        cuts = {c.index: c for c in result.admission.cuts} if result.admission else {}
        # Admission keeps the first beliefs in packet order, so the i-th admitted belief is
        # the i-th belief of the packet: its incoming state is read from there.
        for index, (admitted, original) in enumerate(
            zip(result.admitted_beliefs, incoming, strict=False)
        ):
            state = original.get("reviewState", "unreviewed") if isinstance(original, dict) else ""
            beliefs.append(
                AdmittedBelief(
                    checked_text(admitted["portableRef"]),
                    checked_text(admitted["sourceId"]),
                    checked_text(admitted["content"]),
                    state if isinstance(state, str) else "",
                    cuts.get(index),
                )
            )
        return cls(result.receipt, tuple(beliefs), packet, result.admission, result.degraded)

    @property
    def notice(self) -> AdmissionNotice | None:
        """What admission changed, in words (None for a target made without an ingest)."""
        if self.admission is None:
            return None
        return describe_admission(self.admission, self.degraded)

    @property
    def dropped(self) -> DroppedBeliefs | None:
        """The beliefs admission left out, for reading only."""
        if self.admission is None or not isinstance(self.packet, dict):
            return None
        return DroppedBeliefs(self.packet, self.admission)

    @property
    def refs(self) -> AdmittedRefs:
        return self._refs

    @property
    def cut_beliefs(self) -> tuple[AdmittedBelief, ...]:
        """The admitted beliefs whose content admission cut, in packet order."""
        cuts = self.admission.cuts if self.admission is not None else ()
        return tuple(self.beliefs[c.index] for c in cuts if c.index < len(self.beliefs))

    def receipt_text(self, name: str) -> str:
        return checked_text(self.receipt[name])

    @property
    def correlation_id(self) -> str:
        return self.receipt_text("correlationId")

    def belief(self, ref: str) -> AdmittedBelief | None:
        return self._by_ref.get(ref)

    @property
    def rows(self) -> Mapping[str, int]:
        """Each admitted ref's position in ``beliefs`` (its first, when repeated)."""
        return self._rows


@dataclass(frozen=True, slots=True)
class ReviewPreparation:
    """What a review of one packet starts from: its target, or why there is none."""

    target: ReviewTarget | None
    problem: str = ""


def prepare_review(
    data: bytes, inspection: PacketInspection, destination: Destination
) -> ReviewPreparation:
    """Ingest under ``destination`` and build the review target (worker-thread work).

    A packet inspected without a destination has no policy verdict yet: it is ingested
    again under this one rather than refused.
    """
    if inspection.stage(Stage.POLICY).status is StageStatus.NOT_CHECKABLE:
        result = ingest_bytes(data, destination)
    else:
        result = ingest_inspection(inspection, destination)
    try:
        return ReviewPreparation(ReviewTarget.from_ingest(result))
    except ReviewError as exc:
        return ReviewPreparation(None, exc.findings[0].message)
