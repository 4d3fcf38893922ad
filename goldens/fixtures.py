"""The fixed keys, identities and clock of the goldens, and the builders every golden packet
(and many tests) start from: a minimal valid handoff, a belief, recipient binding, sealing.

Every key is derived from a label, so the same run always writes the same bytes
(Ed25519 signatures are deterministic). Nothing here is secret: these keys are public
test keys and must never be trusted anywhere else.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.producer import AuthKind, seal_packet

# Packets are built and mutated freely here; the core checks them, so Any is honest.
Packet = dict[str, Any]


def key(label: str) -> bytes:
    return hashlib.sha256(b"zcf-inspector golden key: " + label.encode()).digest()


SOURCE_SEED = key("source signing")
UNTRUSTED_SEED = key("untrusted signing")
RECEIPT_SEED = key("destination receipt signing")
SOURCE_ID = "src-golden-01"
DEST_ID = "dest-golden-01"
SOURCE_INSTALLATION = key("source installation")
DEST_INSTALLATION = key("destination installation")
NOW = "2026-10-01T12:00:00Z"

DESTINATION: Packet = {
    "installationKeyId": DEST_ID,
    "installationKey": b64u_encode(DEST_INSTALLATION),
    "sourceInstallationKeys": {SOURCE_ID: b64u_encode(SOURCE_INSTALLATION)},
    "trustedKeys": [b64u_encode(ed25519_public_key(SOURCE_SEED))],
    "capabilities": [
        "zephr_remember",
        "zephr_recall",
        "zephr_why",
        "zephr_verify",
        "zephr_session",
    ],
    "strict": False,
    "refuseUnsigned": False,
    "maxBeliefs": 8,
    "maxBeliefBytes": 160,
    "now": NOW,
    "signingKey": b64u_encode(RECEIPT_SEED),
}


def nonce(name: str) -> str:
    return b64u_encode(hashlib.sha256(b"nonce " + name.encode()).digest()[:16])


def belief(ref: str, content: str, state: str | None = None) -> Packet:
    out: Packet = {"portableRef": ref, "sourceId": f"mem-{ref}", "content": content}
    if state is not None:
        out["reviewState"] = state
    return out


def handoff(
    name: str, *, intent: str = "Continue the parser refactor on another machine"
) -> Packet:
    """A minimal valid session-handoff: every core section present and empty."""
    return {
        "format": "zephr-continuity",
        "formatVersion": 1,
        "artifactKind": "session-handoff",
        "canonicalizationProfile": "ZCF-JSON-v1",
        "packet": {
            "id": f"pkt-{name}",
            "nonce": nonce(name),
            "intent": intent,
            "createdAt": "2026-09-30T10:00:00Z",
            "generation": 1,
        },
        "source": {
            "installationKeyId": SOURCE_ID,
            "scopeRefs": [],
            "client": {"kind": "claude-code", "name": "claude-code", "version": "2.1.0"},
        },
        "recipientIntent": {"kind": "unbound-local-import"},
        "content": {
            "capsule": {
                "objective": "Refactor the JSON reader",
                "decisions": [],
                "constraints": [],
                "changedFiles": [],
                "risks": [],
                "questions": [],
                "nextActions": [],
                "captureQuality": "complete",
                "limitations": [],
                "lifecycleCoverage": "native",
            },
            "beliefs": [],
            "evidenceSources": [],
            "evidenceAnchors": [],
            "receipts": [],
            "reviewEvents": [],
            "verification": [],
            "sourceHandoff": {
                "fromSessionId": "sess-a1",
                "toSessionId": None,
                "worktreeId": None,
                "checkpointBeliefIds": [],
            },
        },
        "redactionManifest": {"policyId": "no-redaction", "policyVersion": "1", "entries": []},
        "omissionManifest": {"entries": []},
        "retention": {
            "exportedAt": "2026-09-30T10:00:05Z",
            "policyVersion": "retention-1",
            "reviewBy": "2026-10-30T00:00:00Z",
        },
        "manifest": {},
        "authentication": {"kind": "unsigned"},
        "extensions": {},
    }


def content(packet: Packet) -> dict[str, Any]:
    value = packet["content"]
    assert isinstance(value, dict)
    return value


def bound(packet: Packet, destination_id: str = DEST_ID) -> Packet:
    packet["recipientIntent"] = {
        "kind": "recipient-bound",
        "destinationInstallationKeyId": destination_id,
    }
    return packet


def unsigned(packet: Packet) -> Packet:
    return seal_packet(packet, AuthKind.UNSIGNED)


def mac(
    packet: Packet,
    *,
    seed: bytes = SOURCE_SEED,
    source_key: bytes = SOURCE_INSTALLATION,
    dest_key: bytes = DEST_INSTALLATION,
) -> Packet:
    return seal_packet(
        packet,
        AuthKind.RECIPIENT_BOUND_MAC,
        signing_seed=seed,
        source_installation_key=source_key,
        destination_installation_key=dest_key,
    )


def json_bytes(value: JsonValue) -> bytes:
    """A golden file's spelling: indented, UTF-8 as is, one newline at the end."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
