"""Generate the conformance goldens (profile §7) from fixed keys and a fixed clock.

    python goldens/generate.py           # (re)write every golden in this folder
    python goldens/generate.py --check   # fail if any golden differs from what this makes

Every key is derived from a label, so the same run always writes the same bytes
(Ed25519 signatures are deterministic). Nothing here is secret: these keys are public
test keys and must never be trusted anywhere else.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.formats import b64u_encode
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import parse_destination
from zcf_inspector.core.packet.ingest import ingest_bytes
from zcf_inspector.core.packet.manifest import seal_manifest
from zcf_inspector.core.packet.producer import AuthKind, seal_packet

HERE = Path(__file__).resolve().parent
REGENERATE = "python goldens/generate.py"
# The window's bundled example is the richest golden; the generator keeps the copy equal.
BUNDLED_EXAMPLE = HERE.parent / "zcf_inspector" / "resources" / "examples" / "full-handoff.json"
BUNDLED_FROM = "publication/full-handoff.json"

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


# --- publication goldens -----------------------------------------------------------------


def full_handoff() -> Packet:
    p = handoff("full-handoff")
    c = content(p)
    c["capsule"] = {
        "objective": "Move the strict JSON reader to the C-accelerated scanner",
        "decisions": ["Keep integral numbers as int", "Refuse lone surrogates at read time"],
        "constraints": ["No AGPL dependency on the packet path"],
        "changedFiles": ["zcf/reading.py", "tests/test_reading.py"],
        "risks": ["Offsets are character-based in the stdlib scanner"],
        "questions": ["Should leap seconds be accepted?"],
        "nextActions": ["Benchmark on the 50 MB packet", "Write the README format notes"],
        "captureQuality": "partial",
        "limitations": ["Terminal scrollback was not captured"],
        "lifecycleCoverage": "consented-manual",
    }
    c["beliefs"] = [
        belief("b-reader", "The reader returns int for every integral number."),
        belief("b-order", "Keys are sorted by code point, not by UTF-16 unit."),
        belief("b-bench", "Validation of 50 MB takes under a second on the CI machine."),
    ]
    c["evidenceSources"] = [
        {
            "id": "src-spec",
            "kind": "local",
            "locator": "spec/zcf-v1-profile.md",
            "digest": "sha256:" + hashlib.sha256(b"profile").hexdigest(),
        },
        {"id": "src-rfc", "kind": "external", "locator": "https://www.rfc-editor.org/rfc/rfc8785"},
    ]
    c["evidenceAnchors"] = [
        {
            "id": "a-1",
            "beliefRef": "b-order",
            "sourceRef": "src-spec",
            "locator": "§2",
            "excerpt": "members sorted by key comparing Unicode code points",
        },
        {"id": "a-2", "beliefRef": "b-order", "sourceRef": "src-rfc"},
    ]
    c["receipts"] = [
        {
            "id": "r-patch",
            "kind": "patch",
            "digest": "sha256:" + hashlib.sha256(b"patch").hexdigest(),
            "summary": "reader: use object_pairs_hook",
        },
        {
            "id": "r-tests",
            "kind": "verification",
            "digest": "sha256:" + hashlib.sha256(b"tests").hexdigest(),
            "summary": "412 passed",
        },
    ]
    c["reviewEvents"] = [
        {
            "id": "ev-1",
            "beliefRef": "b-reader",
            "reviewer": "alice",
            "fromState": "unreviewed",
            "toState": "unreviewed",
            "at": "2026-09-30T09:59:00Z",
            "note": "seen, not yet checked",
        },
    ]
    c["verification"] = [
        {
            "id": "v-1",
            "kind": "pytest",
            "status": "passed",
            "summary": "412 passed",
            "receiptRef": "r-tests",
        },
        {"id": "v-2", "kind": "mypy", "status": "skipped"},
    ]
    c["sourceHandoff"] = {
        "fromSessionId": "sess-a1",
        "toSessionId": "sess-b7",
        "worktreeId": "wt-main",
        "checkpointBeliefIds": ["b-reader", "b-order"],
    }
    c["allowedTools"] = ["zephr_remember", "zephr_recall", "zephr_why"]
    p["source"] = {
        "installationKeyId": SOURCE_ID,
        "scopeRefs": ["repo:zcf-inspector", "branch:main"],
        "client": {"kind": "cursor", "name": "cursor-agent", "version": "1.7.2"},
    }
    retention = p["retention"]
    assert isinstance(retention, dict)
    retention["expiresAt"] = "2027-01-01T00:00:00Z"
    p["extensions"] = {"org.example.ticket": "ZCF-42"}
    return unsigned(p)


def archive() -> Packet:
    p = handoff("archive", intent="Archive the finished session for the audit log")
    p["artifactKind"] = "continuity-archive"
    p["content"] = {
        "archiveRefs": [
            {
                "ref": "arc-transcript",
                "digest": "sha256:" + hashlib.sha256(b"transcript").hexdigest(),
                "mediaType": "application/x-ndjson",
                "byteLength": 1048576,
            },
            {
                "ref": "arc-empty",
                "digest": "sha256:" + hashlib.sha256(b"").hexdigest(),
                "mediaType": "text/plain",
                "byteLength": 0,
            },
        ]
    }
    return unsigned(p)


def recipient_bound_mac() -> Packet:
    p = bound(handoff("recipient-bound-mac"))
    content(p)["beliefs"] = [belief("b-1", "Only dest-golden-01 can check this packet's MAC.")]
    return mac(p)


def recipient_bound_unsigned() -> Packet:
    return unsigned(bound(handoff("recipient-bound-unsigned")))


def scope_proof() -> Packet:
    p = handoff("scope-proof")
    p["scopeProof"] = {
        "scheme": "example-scope-v1",
        "proof": b64u_encode(hashlib.sha256(b"scope proof").digest()),
        "scopeRefs": ["repo:zcf-inspector"],
    }
    return unsigned(p)


def omissions_redactions() -> Packet:
    p = handoff("omissions-redactions")
    c = content(p)
    for name in ("evidenceSources", "evidenceAnchors", "verification"):
        del c[name]
    c["beliefs"] = [belief("b-1", "The API token was [REDACTED] in the transcript.")]
    p["omissionManifest"] = {
        "entries": [
            {
                "section": "evidenceSources",
                "status": "not_captured",
                "reason": "browser history unavailable",
            },
            {"section": "evidenceAnchors", "status": "omitted", "reason": "no sources, no anchors"},
            {
                "section": "verification",
                "status": "unsupported",
                "reason": "host has no test runner hook",
            },
        ]
    }
    p["redactionManifest"] = {
        "policyId": "secrets-v2",
        "policyVersion": "2.0.1",
        "entries": [
            {"section": "beliefs", "pointer": "/0/content", "reason": "API token"},
            {"section": "capsule", "pointer": "/objective", "reason": "customer name"},
        ],
    }
    return unsigned(p)


def demotion() -> Packet:
    p = handoff("demotion")
    content(p)["beliefs"] = [
        belief("b-c", "Confirmed at the source: tests pass on main.", "confirmed"),
        belief("b-r", "Rejected at the source: the cache is stale.", "rejected"),
        belief("b-s", "Superseded at the source: use reader v1.", "superseded"),
        belief("b-u", "Explicitly unreviewed.", "unreviewed"),
        belief("b-n", "No state given."),
    ]
    return unsigned(p)


def truncation() -> Packet:
    p = handoff("truncation")
    long_ascii = "A belief longer than the destination's byte limit. " * 5
    # 'é' is two bytes: 159 bytes of prefix put the cut in the middle of one.
    long_multibyte = "x" * 159 + "é" * 10
    beliefs = [belief("b-long", long_ascii), belief("b-cut", long_multibyte)]
    beliefs += [belief(f"b-{i}", f"Belief number {i}.") for i in range(8)]
    content(p)["beliefs"] = beliefs
    return unsigned(p)


def unicode() -> Packet:
    p = handoff("unicode", intent="Übergabe — 引き継ぎ — 🧭")
    content(p)["beliefs"] = [
        belief("b-accents", "Crème brûlée, naïve façade, Ærø"),
        belief("b-cjk", "読み取りは厳格に行う"),
        belief("b-astral", "Emoji and astral: 😀 𝄞 𐍈 \U0010fffd"),
        belief("b-controls", "tab\there\nnewline\rcr\bbs\fff\x00nul\x1fus\x7fdel"),
        belief("b-separators", 'line\u2028separator\u2029paragraph / slash \\ backslash "quote"'),
        belief("b-bidi", "\u202eRTL override\u202c and zero\u200bwidth"),
    ]
    capsule = content(p)["capsule"]
    assert isinstance(capsule, dict)
    capsule["changedFiles"] = ["docs/ü/読む.md", "src/😀.py"]
    return unsigned(p)


def tools() -> Packet:
    p = handoff("tools")
    content(p)["allowedTools"] = [
        "zephr_remember",
        "zephr_status",
        "zephr_admin",
        "zephr_rules",
        "zephr_verify",
    ]
    return unsigned(p)


def minimal() -> Packet:
    return unsigned(handoff("minimal"))


PUBLICATION: dict[str, Callable[[], Packet]] = {
    "minimal": minimal,
    "full-handoff": full_handoff,
    "archive": archive,
    "recipient-bound-mac": recipient_bound_mac,
    "recipient-bound-unsigned": recipient_bound_unsigned,
    "scope-proof": scope_proof,
    "omissions-redactions": omissions_redactions,
    "demotion": demotion,
    "truncation": truncation,
    "unicode": unicode,
    "tools": tools,
}


# --- negative goldens: one per refusal code -----------------------------------------------


def _json(value: JsonValue) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _mutated(mutate: Callable[[Packet], None], *, reseal: bool = True) -> bytes:
    p = handoff("negative")
    mutate(p)
    return _json(unsigned(p) if reseal else p)


def _sealed_then(mutate: Callable[[Packet], None], packet: Packet | None = None) -> bytes:
    p = packet if packet is not None else unsigned(handoff("negative"))
    mutate(p)
    return _json(p)


def _set(path: tuple[str | int, ...], value: JsonValue) -> Callable[[Packet], None]:
    def apply(p: Packet) -> None:
        target: Any = p
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return apply


def _delete(path: tuple[str, ...]) -> Callable[[Packet], None]:
    def apply(p: Packet) -> None:
        target: Any = p
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return apply


def _deep(depth: int) -> JsonValue:
    value: JsonValue = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _recipient_intent_conflict() -> bytes:
    signed = mac(bound(handoff("negative")))
    p = handoff("negative")
    p["authentication"] = signed["authentication"]
    p["manifest"] = seal_manifest(p)
    return _json(p)


def _flip_signature(p: Packet) -> None:
    auth = p["authentication"]
    assert isinstance(auth, dict)
    sig = auth["signature"]
    assert isinstance(sig, str)
    auth["signature"] = ("B" if sig[0] == "A" else "A") + sig[1:]


def _with_tools(names: list[str]) -> Callable[[Packet], None]:
    return lambda p: content(p).__setitem__("allowedTools", names)


def _dup_beliefs(p: Packet) -> None:
    content(p)["beliefs"] = [belief("b-1", "one"), belief("b-1", "two")]


def _dangling_anchor(p: Packet) -> None:
    c = content(p)
    c["beliefs"] = [belief("b-1", "one")]
    c["evidenceSources"] = [{"id": "s-1", "kind": "local", "locator": "notes.md"}]
    c["evidenceAnchors"] = [{"id": "a-1", "beliefRef": "b-missing", "sourceRef": "s-1"}]


MINIMAL_BYTES = _json(minimal())
_DIGEST_X = "sha256:" + "0" * 64

NEGATIVE: dict[str, tuple[str, Callable[[], bytes], dict[str, JsonValue]]] = {
    # name: (code, bytes, extra expect/destination settings)
    "packet-too-large": ("packet_too_large", lambda: MINIMAL_BYTES, {"maxBytes": 1024}),
    "bom": ("invalid_encoding", lambda: b"\xef\xbb\xbf" + MINIMAL_BYTES, {}),
    "lone-surrogate": (
        "invalid_encoding",
        lambda: MINIMAL_BYTES.replace(b'"extensions": {}', b'"extensions": {"x": "\\ud800"}'),
        {},
    ),
    "trailing-data": ("invalid_json", lambda: MINIMAL_BYTES + b"{}", {}),
    "duplicate-key": (
        "duplicate_key",
        lambda: MINIMAL_BYTES.replace(b'"extensions": {}', b'"extensions": {"a": 1, "a": 2}'),
        {},
    ),
    "nesting-too-deep": (
        "nesting_too_deep",
        lambda: _mutated(_set(("extensions",), {"deep": _deep(128)})),
        {},
    ),
    "number-out-of-range": (
        "number_out_of_range",
        lambda: MINIMAL_BYTES.replace(
            b'"extensions": {}', b'"extensions": {"n": 9007199254740993}'
        ),
        {},
    ),
    "not-an-object": ("not_an_object", lambda: b"[" + MINIMAL_BYTES + b"]", {}),
    "unknown-field": ("unknown_field", lambda: _mutated(_set(("comment",), "not allowed")), {}),
    "missing-field": ("missing_field", lambda: _mutated(_delete(("packet", "nonce"))), {}),
    "invalid-value": (
        "invalid_value",
        lambda: _mutated(_set(("content", "capsule", "captureQuality"), "excellent")),
        {},
    ),
    "unsupported-format": (
        "unsupported_format",
        lambda: _mutated(_set(("format",), "zephr-continuity-2")),
        {},
    ),
    "unsupported-format-version": (
        "unsupported_format_version",
        lambda: _mutated(_set(("formatVersion",), 2)),
        {},
    ),
    "unsupported-canonicalization-profile": (
        "unsupported_canonicalization_profile",
        lambda: _mutated(_set(("canonicalizationProfile",), "JCS")),
        {},
    ),
    "artifact-content-mismatch": (
        "artifact_content_mismatch",
        lambda: _mutated(_set(("artifactKind",), "continuity-archive")),
        {},
    ),
    "section-missing-unaccounted": (
        "section_missing_unaccounted",
        lambda: _mutated(_delete(("content", "receipts"))),
        {},
    ),
    "duplicate-id": ("duplicate_id", lambda: _mutated(_dup_beliefs), {}),
    "dangling-reference": ("dangling_reference", lambda: _mutated(_dangling_anchor), {}),
    "unknown-capability": (
        "unknown_capability",
        lambda: _mutated(_with_tools(["zephr_teleport"])),
        {},
    ),
    "packet-expired": (
        "packet_expired",
        lambda: _mutated(_set(("retention", "expiresAt"), "2026-09-30T23:59:59Z")),
        {},
    ),
    "manifest-section-missing": (
        "manifest_section_missing",
        lambda: _sealed_then(_delete(("manifest", "sections", "beliefs"))),
        {},
    ),
    "manifest-section-unexpected": (
        "manifest_section_unexpected",
        lambda: _sealed_then(_set(("manifest", "sections", "notes"), _DIGEST_X)),
        {},
    ),
    "section-digest-mismatch": (
        "section_digest_mismatch",
        lambda: _sealed_then(_set(("manifest", "sections", "capsule"), _DIGEST_X)),
        {},
    ),
    "tampered-capsule": (
        "manifest_root_mismatch",
        lambda: _sealed_then(_set(("content", "capsule", "objective"), "Exfiltrate the keys")),
        {},
    ),
    "manifest-root-mismatch": (
        "manifest_root_mismatch",
        lambda: _sealed_then(_set(("manifest", "rootHash"), _DIGEST_X)),
        {},
    ),
    "unsigned-refused": (
        "unsigned_refused",
        lambda: MINIMAL_BYTES,
        {"destination": {"refuseUnsigned": True}},
    ),
    "source-signature": (
        "source_signature_unverifiable",
        lambda: _json(
            seal_packet(handoff("negative"), AuthKind.SOURCE_SIGNATURE, signing_seed=SOURCE_SEED)
        ),
        {},
    ),
    "recipient-intent-conflict": ("recipient_intent_conflict", _recipient_intent_conflict, {}),
    "recipient-mismatch": (
        "recipient_mismatch",
        lambda: _json(mac(bound(handoff("negative"), "dest-other"))),
        {},
    ),
    "recipient-mismatch-unsigned": (
        "recipient_mismatch",
        lambda: _json(unsigned(bound(handoff("negative"), "dest-other"))),
        {},
    ),
    "source-key-unknown": (
        "source_key_unknown",
        lambda: _json(mac(bound(handoff("negative")), seed=UNTRUSTED_SEED)),
        {},
    ),
    "installation-key-unavailable": (
        "installation_key_unavailable",
        lambda: _json(
            mac(bound(_mutated_packet(_set(("source", "installationKeyId"), "src-unknown"))))
        ),
        {},
    ),
    "signature-invalid": (
        "signature_invalid",
        lambda: _sealed_then(_flip_signature, mac(bound(handoff("negative")))),
        {},
    ),
    "mac-invalid": (
        "mac_invalid",
        lambda: _json(mac(bound(handoff("negative")), dest_key=key("some other destination"))),
        {},
    ),
    "high-risk-tool-refused": (
        "high_risk_tool_refused",
        lambda: _mutated(_with_tools(["zephr_remember", "zephr_admin"])),
        {"destination": {"strict": True}},
    ),
}


def _mutated_packet(mutate: Callable[[Packet], None]) -> Packet:
    p = handoff("negative")
    mutate(p)
    return p


# --- writing and checking -----------------------------------------------------------------


def build() -> dict[str, bytes]:
    """Every golden file, by path relative to this folder."""
    files: dict[str, bytes] = {"destination.json": _json(DESTINATION)}
    destination = parse_destination(copy.deepcopy(DESTINATION))
    for name, make_packet in PUBLICATION.items():
        data = _json(make_packet())
        result = ingest_bytes(data, destination)
        if result.receipt is None:
            problems = "; ".join(f"{f.code} {f.pointer}: {f.message}" for f in result.findings)
            raise SystemExit(f"publication golden {name} does not ingest: {problems}")
        files[f"publication/{name}.json"] = data
        files[f"publication/{name}.receipt.json"] = _json(result.receipt)
    for name, (code, make, extra) in NEGATIVE.items():
        files[f"negative/{name}.json"] = make()
        expect: dict[str, JsonValue] = {"code": code}
        if "maxBytes" in extra:
            expect["maxBytes"] = extra["maxBytes"]
        files[f"negative/{name}.expect.json"] = _json(expect)
        override = extra.get("destination")
        if isinstance(override, dict):
            files[f"negative/{name}.destination.json"] = _json({**DESTINATION, **override})
    return files


def on_disk() -> dict[str, bytes]:
    return {
        str(p.relative_to(HERE)): p.read_bytes()
        for p in [*sorted(HERE.glob("*/*.json")), HERE / "destination.json"]
        if p.is_file()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    wanted = build()
    if args.check:
        present = on_disk()
        stale = sorted(
            {name for name in wanted if present.get(name) != wanted[name]}
            | (present.keys() - wanted.keys())
        )
        if not BUNDLED_EXAMPLE.is_file() or BUNDLED_EXAMPLE.read_bytes() != wanted[BUNDLED_FROM]:
            stale.append(str(BUNDLED_EXAMPLE.relative_to(HERE.parent)))
        if stale:
            sys.stderr.write(
                "goldens are out of date with goldens/generate.py: "
                + ", ".join(stale)
                + f"\nregenerate them with `{REGENERATE}` and review the diff\n"
            )
            return 1
        sys.stdout.write(f"goldens: {len(wanted)} files up to date\n")
        return 0
    for path in set(on_disk()) - set(wanted):
        (HERE / path).unlink()
    for name, data in wanted.items():
        target = HERE / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    BUNDLED_EXAMPLE.write_bytes(wanted[BUNDLED_FROM])
    sys.stdout.write(f"goldens: wrote {len(wanted)} files\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
