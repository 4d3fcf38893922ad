"""Ingest of profile §6: admit beliefs, dispose of tools and sections, make the receipt."""

from __future__ import annotations

from dataclasses import dataclass

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.digest import sha256_digest
from zcf_inspector.core.findings import Finding
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.auth import recipient_of
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection, Stage, StageStatus, inspect_bytes
from zcf_inspector.core.packet.receipt import RECEIPT_FORMAT, correlation_id, finish_receipt
from zcf_inspector.core.packet.structure import HIGH_RISK_TOOLS
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES

DEGRADED = frozenset({"narrated", "dropped", "unsupported"})


@dataclass(frozen=True, slots=True)
class BeliefCut:
    """One admitted belief whose content admission cut to ``maxBeliefBytes``: how much
    of it was kept and how long it was (UTF-8 bytes). The cut keeps whole code points,
    so ``kept`` may be a few bytes under the limit."""

    index: int  # in content.beliefs (admission keeps the first beliefs, in order)
    kept: int
    original: int
    limit: int  # the destination's maxBeliefBytes

    @property
    def text(self) -> str:
        """How every front end says it (the review row, its detail, the tree node)."""
        return f"cut to {self.kept:,} of {self.original:,} bytes by maxBeliefBytes"


@dataclass(frozen=True, slots=True)
class Admission:
    """What admission did to the packet's beliefs (profile §6): which it kept, which it
    dropped past ``maxBeliefs``, whose content it cut to ``maxBeliefBytes``, and which it
    demoted to unreviewed. Nothing here may be hidden from a reviewer."""

    beliefs: list[JsonValue]
    demotions: int
    truncations: int  # the receipt's truncatedBeliefCount: dropped + cut
    offered: int = 0  # beliefs in the packet
    max_beliefs: int = 0
    max_belief_bytes: int = 0
    cuts: tuple[BeliefCut, ...] = ()  # the admitted beliefs whose content was cut
    demoted: tuple[int, ...] = ()  # indices of admitted beliefs that arrived reviewed

    @property
    def cut(self) -> tuple[int, ...]:
        """Indices of the admitted beliefs whose content was cut."""
        return tuple(c.index for c in self.cuts)

    @property
    def admitted(self) -> int:
        return len(self.beliefs)

    @property
    def dropped(self) -> range:
        """Indices (into ``content.beliefs``) of the beliefs not admitted: the tail."""
        return range(self.admitted, self.offered)


@dataclass(frozen=True, slots=True)
class IngestResult:
    inspection: PacketInspection
    receipt: dict[str, JsonValue] | None  # None when the packet was refused
    admitted_beliefs: tuple[dict[str, JsonValue], ...] = ()
    admission: Admission | None = None  # None when the packet was refused
    degraded: tuple[tuple[str, str, str], ...] = ()  # (group, name, status) not native

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.inspection.findings


def admit_beliefs(beliefs: list[JsonValue], max_beliefs: int, max_bytes: int) -> Admission:
    """The first ``max_beliefs`` beliefs, as written: unreviewed, content cut to fit."""
    admitted: list[JsonValue] = []
    demotions = 0
    truncations = max(0, len(beliefs) - max_beliefs)
    cuts: list[BeliefCut] = []
    demoted: list[int] = []
    for index, belief in enumerate(beliefs[:max_beliefs]):
        assert isinstance(belief, dict)  # structure has checked every belief
        content = belief["content"]
        assert isinstance(content, str)
        encoded = content.encode("utf-8")
        if len(encoded) > max_bytes:
            # The reader refused lone surrogates, so only the cut itself can split a code
            # point: dropping the partial tail keeps the last whole one that fits.
            content = encoded[:max_bytes].decode("utf-8", errors="ignore")
            truncations += 1
            cuts.append(BeliefCut(index, len(content.encode("utf-8")), len(encoded), max_bytes))
        if belief.get("reviewState", "unreviewed") != "unreviewed":
            demotions += 1
            demoted.append(index)
        admitted.append(
            {
                "portableRef": belief["portableRef"],
                "sourceId": belief["sourceId"],
                "content": content,
                "reviewState": "unreviewed",
            }
        )
    return Admission(
        admitted,
        demotions,
        truncations,
        len(beliefs),
        max_beliefs,
        max_bytes,
        tuple(cuts),
        tuple(demoted),
    )


def dispositions(packet: dict[str, JsonValue], destination: Destination) -> dict[str, JsonValue]:
    """Section and tool statuses; call only after policy passed (strict high-risk refused)."""
    content = packet["content"]
    assert isinstance(content, dict)
    sections: dict[str, JsonValue] = {}
    omission = packet["omissionManifest"]
    assert isinstance(omission, dict)
    entries = omission["entries"]
    assert isinstance(entries, list)
    for entry in entries:
        assert isinstance(entry, dict)
        name = entry["section"]
        assert isinstance(name, str)
        sections[name] = entry["status"]
    for name in content:
        sections[name] = "native"
    tools: dict[str, JsonValue] = {}
    allowed = content.get("allowedTools", [])
    assert isinstance(allowed, list)
    for tool in allowed:
        assert isinstance(tool, str)
        if tool in HIGH_RISK_TOOLS:
            tools[tool] = "narrated"
        elif tool in destination.capabilities:
            tools[tool] = "native"
        else:
            tools[tool] = "unsupported"
    return {"sections": sections, "tools": tools}


def ingest_inspection(inspection: PacketInspection, destination: Destination) -> IngestResult:
    """The receipt for a packet inspected under ``destination``; refused unless it is valid."""
    packet = inspection.value
    policy = inspection.stage(Stage.POLICY)
    if packet is None or not inspection.valid or policy.status is not StageStatus.PASSED:
        return IngestResult(inspection, None)
    content = packet["content"]
    assert isinstance(content, dict)
    raw_beliefs = content.get("beliefs", [])
    assert isinstance(raw_beliefs, list)
    admission = admit_beliefs(raw_beliefs, destination.max_beliefs, destination.max_belief_bytes)
    disposed = dispositions(packet, destination)
    degraded = tuple(
        (group, name, status)
        for group in ("sections", "tools")
        for name, status in _items(disposed[group])
        if isinstance(status, str) and status in DEGRADED
    )
    degradation = len(degraded)
    identity = packet["packet"]
    source = packet["source"]
    manifest = packet["manifest"]
    auth = packet["authentication"]
    assert isinstance(identity, dict)
    assert isinstance(source, dict)
    assert isinstance(manifest, dict)
    assert isinstance(auth, dict)
    packet_id = _str(identity["id"])
    nonce = _str(identity["nonce"])
    root = _str(manifest["rootHash"])
    bound = recipient_of(packet)  # "unbound" for an unbound import, as in the signed message
    draft: dict[str, JsonValue] = {
        "format": RECEIPT_FORMAT,
        "formatVersion": 1,
        "packetId": packet_id,
        "packetNonce": nonce,
        "sourceInstallationKeyId": source["installationKeyId"],
        "destinationInstallationKeyId": bound,
        "authentication": auth["kind"],
        "manifestRootHash": root,
        "targetDigest": sha256_digest(
            canonical({"beliefs": admission.beliefs, "dispositions": disposed})
        ),
        "correlationId": correlation_id(bound, packet_id, nonce, root),
        "importedAt": destination.now_text(),
        "demotionCount": admission.demotions,
        "degradationCount": degradation,
        "truncatedBeliefCount": admission.truncations,
        "dispositions": disposed,
        "review": {"decisions": []},
    }
    receipt = finish_receipt(draft, destination.signing_key)
    beliefs = tuple(b for b in admission.beliefs if isinstance(b, dict))
    return IngestResult(inspection, receipt, beliefs, admission, degraded)


def ingest_bytes(
    data: bytes, destination: Destination, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> IngestResult:
    return ingest_inspection(inspect_bytes(data, destination, max_bytes=max_bytes), destination)


def _items(value: JsonValue) -> list[tuple[str, JsonValue]]:
    return list(value.items()) if isinstance(value, dict) else []


def _str(value: JsonValue) -> str:
    assert isinstance(value, str)
    return value
