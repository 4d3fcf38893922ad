"""Profile §3: every structure rule, one named mutation of a valid packet each."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.digest import is_digest
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.formats import b64u_encode, is_id
from zcf_inspector.core.packet import structure_models as models
from zcf_inspector.core.packet.structure import (
    CAPABILITIES,
    CONTENT_SECTIONS,
    CONTENT_SECTIONS_CORE,
    HIGH_RISK_TOOLS,
    REVIEW_STATES,
    TOP_LEVEL_FIELDS,
    check_structure,
    show,
)
from zcf_inspector.core.pointer import exists, join, resolve, split

C = ErrorCode
DIGEST = "sha256:" + "ab" * 32
OTHER_DIGEST = "sha256:" + "0123456789abcdef" * 4
NONCE = b64u_encode(bytes(range(16)))
SIGNATURE = b64u_encode(bytes(range(64)))
MAC = b64u_encode(bytes(range(32)))
T0 = "2026-01-02T03:04:05Z"

Packet = dict[str, Any]


def _envelope(kind: str, content: Packet) -> Packet:
    return {
        "format": "zephr-continuity",
        "formatVersion": 1,
        "artifactKind": kind,
        "canonicalizationProfile": "ZCF-JSON-v1",
        "packet": {
            "id": "pkt-0001",
            "nonce": NONCE,
            "intent": "Continue the parser refactor on another machine",
            "createdAt": T0,
            "generation": 1,
        },
        "source": {
            "installationKeyId": "inst-source",
            "scopeRefs": [],
            "client": {"kind": "claude-code", "name": "claude-code", "version": "1.2.3"},
        },
        "recipientIntent": {"kind": "unbound-local-import"},
        "content": content,
        "redactionManifest": {"policyId": "policy", "policyVersion": "1", "entries": []},
        "omissionManifest": {"entries": []},
        "retention": {"exportedAt": T0, "policyVersion": "ret-1", "reviewBy": T0},
        "manifest": {
            "algorithm": "zcf-lp-sha256-v1",
            "domain": "zephr-continuity-manifest-v1",
            "sections": {"packetIdentity": DIGEST, "sourceDescriptor": DIGEST},
            "rootHash": DIGEST,
        },
        "authentication": {"kind": "unsigned"},
        "extensions": {},
    }


def _capsule() -> Packet:
    return {
        "objective": "",
        "decisions": [],
        "constraints": [],
        "changedFiles": [],
        "risks": [],
        "questions": [],
        "nextActions": [],
        "captureQuality": "complete",
        "limitations": [],
        "lifecycleCoverage": "native",
    }


def minimal_handoff() -> Packet:
    """Every core section present and empty: the least a valid handoff carries."""
    content = {
        "capsule": _capsule(),
        "beliefs": [],
        "evidenceSources": [],
        "evidenceAnchors": [],
        "receipts": [],
        "reviewEvents": [],
        "verification": [],
        "sourceHandoff": {
            "fromSessionId": "sess-1",
            "toSessionId": None,
            "worktreeId": None,
            "checkpointBeliefIds": [],
        },
    }
    return _envelope("session-handoff", content)


def handoff() -> Packet:
    """A handoff using every section, optional field and reference kind once or more."""
    packet = minimal_handoff()
    content = packet["content"]
    content["capsule"].update(
        objective="Finish the parser refactor",
        decisions=["Keep the LL(1) grammar"],
        changedFiles=["src/parser.py", "docs/a b/ü.md"],
        captureQuality="partial",
        lifecycleCoverage="consented-manual",
    )
    content["beliefs"] = [
        {"portableRef": "b-1", "sourceId": "s-1", "content": "The parser is LL(1)."},
        {"portableRef": "b-2", "sourceId": "s-1", "content": "x", "reviewState": "confirmed"},
    ]
    content["evidenceSources"] = [
        {"id": "es-1", "kind": "local", "locator": "src/parser.py", "digest": DIGEST},
        {"id": "es-2", "kind": "external", "locator": "https://example.org/grammar"},
    ]
    content["evidenceAnchors"] = [
        {"id": "ea-1", "beliefRef": "b-1", "sourceRef": "es-1", "locator": "L1", "excerpt": "x"},
        {"id": "ea-2", "beliefRef": "b-2", "sourceRef": "es-2"},
    ]
    content["receipts"] = [{"id": "r-1", "kind": "patch", "digest": DIGEST, "summary": "diff"}]
    content["reviewEvents"] = [
        {
            "id": "re-1",
            "beliefRef": "b-2",
            "reviewer": "alice",
            "fromState": "unreviewed",
            "toState": "confirmed",
            "at": "2026-01-02T03:00:00.123456789Z",
            "note": "checked by hand",
        }
    ]
    content["verification"] = [
        {"id": "v-1", "kind": "pytest", "status": "passed", "summary": "ok", "receiptRef": "r-1"},
        {"id": "v-2", "kind": "mypy", "status": "skipped"},
    ]
    content["sourceHandoff"].update(toSessionId="sess-2", checkpointBeliefIds=["b-1", "b-2"])
    content["allowedTools"] = ["zephr_recall", "zephr_why", "zephr_admin"]
    packet["redactionManifest"]["entries"] = [
        {"section": "beliefs", "pointer": "/1/content", "reason": "credential"}
    ]
    packet["retention"]["expiresAt"] = "2026-02-02T03:04:05Z"
    return packet


def archive() -> Packet:
    refs = [{"ref": "arc-1", "digest": DIGEST, "mediaType": "application/json", "byteLength": 0}]
    return _envelope("continuity-archive", {"archiveRefs": refs})


# --- edits: pointer -> new value, applied in order -----------------------------------------


class _Drop:
    def __repr__(self) -> str:
        return "DROP"


DROP: Any = _Drop()  # as an edit's value: delete the member


@dataclass(frozen=True)
class Copy:
    """As an edit's value: a copy of what ``pointer`` names when the edit is applied."""

    pointer: str


Edits = dict[str, Any]


def edit(packet: Packet, edits: Edits) -> Packet:
    for pointer, new in edits.items():
        tokens = split(pointer)
        parent: Any = resolve(packet, join(*tokens[:-1]))
        key: Any = int(tokens[-1]) if isinstance(parent, list) else tokens[-1]
        if new is DROP:
            del parent[key]
            continue
        value = copy.deepcopy(resolve(packet, new.pointer) if isinstance(new, Copy) else new)
        if isinstance(parent, list) and key == len(parent):
            parent.append(value)  # a pointer one past the end appends
        else:
            parent[key] = value
    return packet


def run(base: Callable[[], Packet], edits: Edits) -> tuple[Finding, ...]:
    return check_structure(edit(base(), edits))


def pairs(findings: tuple[Finding, ...]) -> list[tuple[str, str]]:
    return [(str(f.code), f.pointer) for f in findings]


# --- valid packets ---------------------------------------------------------------------------

RECIPIENT_BOUND = {"kind": "recipient-bound", "destinationInstallationKeyId": "inst-dest"}
MAC_AUTH = {
    "kind": "recipient-bound-mac",
    "algorithm": "ed25519+hmac-sha256",
    "publicKeyFingerprint": DIGEST,
    "signature": SIGNATURE,
    "mac": MAC,
}
SIGNATURE_AUTH = {
    "kind": "source-signature",
    "algorithm": "ed25519",
    "publicKeyFingerprint": DIGEST,
    "signature": SIGNATURE,
}
SCOPE_PROOF = {"scheme": "s", "proof": "", "scopeRefs": ["a", "a"]}


def omitted(*sections: str, status: str = "omitted") -> list[dict[str, str]]:
    return [{"section": s, "status": status, "reason": "not captured here"} for s in sections]


VALID = [
    pytest.param(minimal_handoff, {}, id="minimal handoff"),
    pytest.param(handoff, {}, id="full handoff"),
    pytest.param(archive, {}, id="archive"),
    pytest.param(
        handoff,
        {"/recipientIntent": RECIPIENT_BOUND, "/authentication": MAC_AUTH},
        id="recipient-bound mac",
    ),
    pytest.param(handoff, {"/authentication": SIGNATURE_AUTH}, id="source signature (§5 refuses)"),
    pytest.param(handoff, {"/scopeProof": SCOPE_PROOF}, id="scopeProof, empty proof, repeats"),
    pytest.param(
        minimal_handoff,
        {
            "/content/capsule": DROP,
            "/content/beliefs": DROP,
            "/omissionManifest/entries": [
                *omitted("capsule", status="not_captured"),
                *omitted("beliefs", status="redacted"),
                *omitted("allowedTools", status="unsupported"),
            ],
        },
        id="core sections omitted with entries",
    ),
    pytest.param(
        minimal_handoff,
        {"/content": {}, "/omissionManifest/entries": omitted(*CONTENT_SECTIONS_CORE)},
        id="empty content, every core section omitted",
    ),
    pytest.param(
        handoff,
        {"/extensions": {"x-zephr-trace": {"deep": [1, None]}, "vendor": True}},
        id="open extensions",
    ),
    pytest.param(
        archive,
        {
            "/redactionManifest/entries/0": {
                "section": "archiveRefs",
                "pointer": "/0/mediaType",
                "reason": "r",
            },
            "/content/archiveRefs/1": {
                "ref": "arc-2",
                "digest": OTHER_DIGEST,
                "mediaType": "",
                "byteLength": 2**53 - 1,
            },
        },
        id="archive with a redaction and two refs",
    ),
    pytest.param(
        handoff,
        {
            "/packet/id": "é" * 256,
            "/packet/intent": "x" * 1024,
            "/packet/nonce": b64u_encode(bytes(64)),
            "/packet/createdAt": "2024-02-29T23:59:59.1Z",
            "/source/client/kind": "console",
            "/redactionManifest/entries/0/pointer": "",
            "/content/beliefs/0/content": "😀\u2028",
            "/content/sourceHandoff/toSessionId": None,
        },
        id="limits reached exactly",
    ),
]


@pytest.mark.parametrize(("base", "edits"), VALID)
def test_valid_packet_has_no_findings(base: Callable[[], Packet], edits: Edits) -> None:
    assert run(base, edits) == ()


# --- one rule, one edit, exactly one finding -------------------------------------------------


def fault(
    name: str,
    edits: Edits,
    code: ErrorCode,
    pointer: str | None = None,
    base: Callable[[], Packet] = handoff,
) -> Any:
    """A named case; the expected pointer is the last edited one unless given."""
    expected = pointer if pointer is not None else list(edits)[-1]
    return pytest.param(base, edits, code, expected, id=f"{code}: {name}")


OMIT_TOOLS = omitted("allowedTools")

SINGLE_FAULTS = [
    # unknown_field: the pointer names the unknown key itself
    fault("top level", {"/extra": 1}, C.UNKNOWN_FIELD),
    fault("packet", {"/packet/extra": 1}, C.UNKNOWN_FIELD),
    fault("escaped key", {"/packet/a~1b~0": 1}, C.UNKNOWN_FIELD),
    fault("client", {"/source/client/os": "linux"}, C.UNKNOWN_FIELD),
    fault("content key", {"/content/notes": []}, C.UNKNOWN_FIELD),
    fault("archiveRefs in a handoff's content", {"/content/archiveRefs": []}, C.UNKNOWN_FIELD),
    fault("capsule", {"/content/capsule/mood": ""}, C.UNKNOWN_FIELD),
    fault("belief", {"/content/beliefs/1/score": 1}, C.UNKNOWN_FIELD),
    fault("anchor", {"/content/evidenceAnchors/0/x": 1}, C.UNKNOWN_FIELD),
    fault("source handoff", {"/content/sourceHandoff/x": 1}, C.UNKNOWN_FIELD),
    fault("archive content", {"/content/notes": 1}, C.UNKNOWN_FIELD, base=archive),
    fault("archive ref", {"/content/archiveRefs/0/x": 1}, C.UNKNOWN_FIELD, base=archive),
    fault("unbound intent's destination", {"/recipientIntent/destinationInstallationKeyId": "d"},
          C.UNKNOWN_FIELD),
    fault("unsigned with a signature", {"/authentication/signature": SIGNATURE}, C.UNKNOWN_FIELD),
    fault("redaction entry", {"/redactionManifest/entries/0/x": 1}, C.UNKNOWN_FIELD),
    fault("omission manifest", {"/omissionManifest/x": 1}, C.UNKNOWN_FIELD),
    fault("retention", {"/retention/x": 1}, C.UNKNOWN_FIELD),
    fault("manifest", {"/manifest/x": 1}, C.UNKNOWN_FIELD),
    fault("scopeProof", {"/scopeProof": SCOPE_PROOF, "/scopeProof/x": 1}, C.UNKNOWN_FIELD),
    # missing_field: the pointer the missing member would have
    fault("format", {"/format": DROP}, C.MISSING_FIELD),
    fault("extensions", {"/extensions": DROP}, C.MISSING_FIELD),
    fault("nonce", {"/packet/nonce": DROP}, C.MISSING_FIELD),
    fault("client kind", {"/source/client/kind": DROP}, C.MISSING_FIELD),
    fault("belief sourceId", {"/content/beliefs/0/sourceId": DROP}, C.MISSING_FIELD),
    fault("nullable toSessionId", {"/content/sourceHandoff/toSessionId": DROP}, C.MISSING_FIELD),
    fault("recipient-bound destination", {"/recipientIntent/kind": "recipient-bound"},
          C.MISSING_FIELD, "/recipientIntent/destinationInstallationKeyId"),
    fault("authentication kind", {"/authentication/kind": DROP}, C.MISSING_FIELD),
    fault("mac", {"/authentication": MAC_AUTH, "/authentication/mac": DROP}, C.MISSING_FIELD),
    fault("archiveRefs", {"/content": {}}, C.MISSING_FIELD, "/content/archiveRefs", archive),
    fault("rootHash", {"/manifest/rootHash": DROP}, C.MISSING_FIELD),
    fault("reviewBy", {"/retention/reviewBy": DROP}, C.MISSING_FIELD),
    fault("receipt digest", {"/content/receipts/0/digest": DROP}, C.MISSING_FIELD),
    fault("omission entries", {"/omissionManifest/entries": DROP}, C.MISSING_FIELD),
    # invalid_value: the wrong type
    fault("id is a number", {"/packet/id": 5}, C.INVALID_VALUE),
    fault("scopeRefs is a string", {"/source/scopeRefs": "a"}, C.INVALID_VALUE),
    fault("belief content is a number", {"/content/beliefs/0/content": 1}, C.INVALID_VALUE),
    fault("capsule decision", {"/content/capsule/decisions": [1]}, C.INVALID_VALUE,
          "/content/capsule/decisions/0"),
    fault("belief is a string", {"/content/beliefs/0": "b-1"}, C.INVALID_VALUE),
    fault("content is a list", {"/content": []}, C.INVALID_VALUE),
    fault("extensions is a list", {"/extensions": []}, C.INVALID_VALUE),
    fault("manifest digest is a number", {"/manifest/sections/retention": 1}, C.INVALID_VALUE),
    fault("allowedTools is an object", {"/content/allowedTools": {}}, C.INVALID_VALUE),
    fault("a tool is a number", {"/content/allowedTools/0": 7}, C.INVALID_VALUE),
    fault("recipientIntent is a string", {"/recipientIntent": "recipient-bound"}, C.INVALID_VALUE),
    fault("beliefs is an object", {"/content/beliefs": {"b-1": {}}}, C.INVALID_VALUE),
    fault("receipts is null", {"/content/receipts": None}, C.INVALID_VALUE),
    # invalid_value: null for an optional (absent-able, not nullable) or required field
    fault("reviewState null", {"/content/beliefs/1/reviewState": None}, C.INVALID_VALUE),
    fault("anchor locator null", {"/content/evidenceAnchors/0/locator": None}, C.INVALID_VALUE),
    fault("fromSessionId null", {"/content/sourceHandoff/fromSessionId": None}, C.INVALID_VALUE),
    # invalid_value: outside an enumeration
    fault("artifactKind", {"/artifactKind": "archive"}, C.INVALID_VALUE),
    fault("client kind", {"/source/client/kind": "vscode"}, C.INVALID_VALUE),
    fault("capture quality", {"/content/capsule/captureQuality": "good"}, C.INVALID_VALUE),
    fault("lifecycle coverage", {"/content/capsule/lifecycleCoverage": "Native"}, C.INVALID_VALUE),
    fault("review state", {"/content/beliefs/0/reviewState": "pending"}, C.INVALID_VALUE),
    fault("review event toState", {"/content/reviewEvents/0/toState": "done"}, C.INVALID_VALUE),
    fault("evidence source kind", {"/content/evidenceSources/0/kind": "remote"}, C.INVALID_VALUE),
    fault("receipt kind", {"/content/receipts/0/kind": "commit"}, C.INVALID_VALUE),
    fault("verification status", {"/content/verification/0/status": "ok"}, C.INVALID_VALUE),
    fault("omission status", {"/omissionManifest/entries": OMIT_TOOLS,
          "/omissionManifest/entries/0/status": "dropped"}, C.INVALID_VALUE, base=minimal_handoff),
    fault("recipient intent kind", {"/recipientIntent/kind": "broadcast"}, C.INVALID_VALUE),
    fault("authentication kind", {"/authentication/kind": "hmac"}, C.INVALID_VALUE),
    fault("manifest algorithm", {"/manifest/algorithm": "sha256"}, C.INVALID_VALUE),
    fault("manifest domain", {"/manifest/domain": "x"}, C.INVALID_VALUE),
    fault("signature algorithm", {"/authentication": SIGNATURE_AUTH,
          "/authentication/algorithm": "ed448"}, C.INVALID_VALUE),
    fault("redaction section", {"/redactionManifest/entries/0/section": "notes"}, C.INVALID_VALUE),
    fault("a handoff omitting archiveRefs", {"/omissionManifest/entries": omitted("archiveRefs")},
          C.INVALID_VALUE, "/omissionManifest/entries/0/section"),
    fault("an archive redacting beliefs", {"/redactionManifest/entries/0": {
          "section": "beliefs", "pointer": "", "reason": ""}}, C.INVALID_VALUE,
          "/redactionManifest/entries/0/section", archive),
    # invalid_value: a format mismatch
    fault("nonce padded", {"/packet/nonce": NONCE + "=="}, C.INVALID_VALUE),
    fault("nonce of 15 bytes", {"/packet/nonce": b64u_encode(bytes(15))}, C.INVALID_VALUE),
    fault("nonce of 65 bytes", {"/packet/nonce": b64u_encode(bytes(65))}, C.INVALID_VALUE),
    fault("createdAt with a space", {"/packet/createdAt": "2026-01-02 03:04:05Z"}, C.INVALID_VALUE),
    fault("createdAt with an offset", {"/packet/createdAt": "2026-01-02T03:04:05+00:00"},
          C.INVALID_VALUE),
    fault("reviewBy on Feb 30", {"/retention/reviewBy": "2026-02-30T00:00:00Z"}, C.INVALID_VALUE),
    fault("review event at", {"/content/reviewEvents/0/at": "yesterday"}, C.INVALID_VALUE),
    fault("rootHash in upper case", {"/manifest/rootHash": DIGEST.upper()}, C.INVALID_VALUE),
    fault("evidence digest sha512", {"/content/evidenceSources/0/digest": "sha512:" + "ab" * 32},
          C.INVALID_VALUE),
    fault("id with a newline", {"/source/installationKeyId": "a\nb"}, C.INVALID_VALUE),
    fault("empty id", {"/content/beliefs/0/sourceId": ""}, C.INVALID_VALUE),
    fault("id of 257 characters", {"/packet/id": "x" * 257}, C.INVALID_VALUE),
    fault("changed file ..", {"/content/capsule/changedFiles/1": "../etc"}, C.INVALID_VALUE),
    fault("changed file absolute", {"/content/capsule/changedFiles/0": "/etc"}, C.INVALID_VALUE),
    fault("changed file backslash", {"/content/capsule/changedFiles/0": "a\\b"}, C.INVALID_VALUE),
    fault("signature of 63 bytes", {"/authentication": SIGNATURE_AUTH,
          "/authentication/signature": b64u_encode(bytes(63))}, C.INVALID_VALUE),
    fault("mac of 31 bytes", {"/authentication": MAC_AUTH,
          "/authentication/mac": b64u_encode(bytes(31))}, C.INVALID_VALUE),
    fault("fingerprint not a digest", {"/authentication": MAC_AUTH,
          "/authentication/publicKeyFingerprint": "ab" * 32}, C.INVALID_VALUE),
    fault("proof in standard base64", {"/scopeProof": SCOPE_PROOF, "/scopeProof/proof": "a+b/"},
          C.INVALID_VALUE),
    fault("redaction pointer without '/'", {"/redactionManifest/entries/0/pointer": "1/content"},
          C.INVALID_VALUE),
    fault("redaction pointer with ~2", {"/redactionManifest/entries/0/pointer": "/~2"},
          C.INVALID_VALUE),
    # invalid_value: a length
    fault("empty intent", {"/packet/intent": ""}, C.INVALID_VALUE),
    fault("intent of 1025 characters", {"/packet/intent": "é" * 1025}, C.INVALID_VALUE),
    fault("no archive refs", {"/content/archiveRefs": []}, C.INVALID_VALUE, base=archive),
    # invalid_value: numbers, where a boolean is never an integer
    fault("generation true", {"/packet/generation": True}, C.INVALID_VALUE),
    fault("generation 2", {"/packet/generation": 2}, C.INVALID_VALUE),
    fault("generation 1.5", {"/packet/generation": 1.5}, C.INVALID_VALUE),
    fault("byteLength false", {"/content/archiveRefs/0/byteLength": False}, C.INVALID_VALUE,
          base=archive),
    fault("byteLength -1", {"/content/archiveRefs/0/byteLength": -1}, C.INVALID_VALUE,
          base=archive),
    fault("byteLength 0.5", {"/content/archiveRefs/0/byteLength": 0.5}, C.INVALID_VALUE,
          base=archive),
    # invalid_value: an omission entry for a section that is present, at the entry
    fault("omission of a present section", {"/omissionManifest/entries": omitted("capsule")},
          C.INVALID_VALUE, "/omissionManifest/entries/0"),
    # the constants have codes of their own, for any other value of any type
    fault("other format", {"/format": "zephr-continuity-2"}, C.UNSUPPORTED_FORMAT),
    fault("null format", {"/format": None}, C.UNSUPPORTED_FORMAT),
    fault("version 2", {"/formatVersion": 2}, C.UNSUPPORTED_FORMAT_VERSION),
    fault("version true", {"/formatVersion": True}, C.UNSUPPORTED_FORMAT_VERSION),
    fault("version '1'", {"/formatVersion": "1"}, C.UNSUPPORTED_FORMAT_VERSION),
    fault("version 1.0, a float", {"/formatVersion": 1.0}, C.UNSUPPORTED_FORMAT_VERSION),
    fault("RFC 8785", {"/canonicalizationProfile": "RFC8785"},
          C.UNSUPPORTED_CANONICALIZATION_PROFILE),
    # artifact_content_mismatch, at artifactKind
    fault("handoff kind, archive content", {"/artifactKind": "session-handoff"},
          C.ARTIFACT_CONTENT_MISMATCH, base=archive),
    fault("archive kind, handoff content", {"/artifactKind": "continuity-archive"},
          C.ARTIFACT_CONTENT_MISMATCH, base=minimal_handoff),
    # section_missing_unaccounted
    fault("receipts", {"/content/receipts": DROP}, C.SECTION_MISSING_UNACCOUNTED),
    fault("beliefs, and no reference into it judged", {"/content/beliefs": DROP},
          C.SECTION_MISSING_UNACCOUNTED),
    fault("sourceHandoff", {"/content/sourceHandoff": DROP}, C.SECTION_MISSING_UNACCOUNTED),
    fault("another section's entry does not count",
          {"/omissionManifest/entries": OMIT_TOOLS, "/content/capsule": DROP},
          C.SECTION_MISSING_UNACCOUNTED, base=minimal_handoff),
    # duplicate_id, at the second occurrence's id field
    fault("belief portableRef", {"/content/beliefs/2": Copy("/content/beliefs/0")},
          C.DUPLICATE_ID, "/content/beliefs/2/portableRef"),
    fault("evidence source id", {"/content/evidenceSources/2": Copy("/content/evidenceSources/0")},
          C.DUPLICATE_ID, "/content/evidenceSources/2/id"),
    fault("evidence anchor id", {"/content/evidenceAnchors/1/id": "ea-1"}, C.DUPLICATE_ID),
    fault("receipt id", {"/content/receipts/1": Copy("/content/receipts/0")},
          C.DUPLICATE_ID, "/content/receipts/1/id"),
    fault("review event id", {"/content/reviewEvents/1": Copy("/content/reviewEvents/0")},
          C.DUPLICATE_ID, "/content/reviewEvents/1/id"),
    fault("verification id", {"/content/verification/1/id": "v-1"}, C.DUPLICATE_ID),
    fault("archive ref", {"/content/archiveRefs/1": Copy("/content/archiveRefs/0")},
          C.DUPLICATE_ID, "/content/archiveRefs/1/ref", archive),
    fault("tool", {"/content/allowedTools/3": "zephr_why"}, C.DUPLICATE_ID),
    fault("omission section", {"/omissionManifest/entries": OMIT_TOOLS * 2,
          "/content/allowedTools": DROP}, C.DUPLICATE_ID, "/omissionManifest/entries/1/section"),
    # dangling_reference, at the referencing field
    fault("anchor beliefRef", {"/content/evidenceAnchors/1/beliefRef": "b-9"},
          C.DANGLING_REFERENCE),
    fault("anchor sourceRef", {"/content/evidenceAnchors/0/sourceRef": "es-9"},
          C.DANGLING_REFERENCE),
    fault("review event beliefRef", {"/content/reviewEvents/0/beliefRef": "B-2"},
          C.DANGLING_REFERENCE),
    fault("verification receiptRef", {"/content/verification/1/receiptRef": "r-2"},
          C.DANGLING_REFERENCE),
    fault("checkpoint belief", {"/content/sourceHandoff/checkpointBeliefIds/2": "b-3"},
          C.DANGLING_REFERENCE),
    # unknown_capability
    fault("unpublished tool", {"/content/allowedTools/1": "zephr_teleport"}, C.UNKNOWN_CAPABILITY),
    fault("case matters", {"/content/allowedTools/0": "Zephr_Recall"}, C.UNKNOWN_CAPABILITY),
    # a broken target section is reported once, not again for each reference into it
    fault("a belief without portableRef", {"/content/beliefs/0/portableRef": DROP},
          C.MISSING_FIELD),
]  # fmt: skip


@pytest.mark.parametrize(("base", "edits", "code", "pointer"), SINGLE_FAULTS)
def test_single_fault_gives_exactly_its_finding(
    base: Callable[[], Packet], edits: Edits, code: ErrorCode, pointer: str
) -> None:
    findings = run(base, edits)
    assert pairs(findings) == [(str(code), pointer)]
    assert findings[0].severity is Severity.ERROR
    _assert_readable(findings[0])


def _assert_readable(finding: Finding) -> None:
    message = finding.message
    assert message
    assert len(message) < 400
    # A raw pydantic error must never reach a reader.
    for raw in ("Input should", "pydantic", "errors.pydantic.dev", "validation error"):
        assert raw not in message


# --- rules that give more than one finding, or none where one might expect a cascade --------

MULTIPLE = [
    pytest.param(
        handoff,
        {"/content/allowedTools/3": "x", "/content/allowedTools/4": "x"},
        [
            ("unknown_capability", "/content/allowedTools/3"),
            ("unknown_capability", "/content/allowedTools/4"),
            ("duplicate_id", "/content/allowedTools/4"),
        ],
        id="an unknown tool, repeated",
    ),
    pytest.param(
        handoff,
        {"/authentication": {"kind": "hmac", "mac": MAC, "salt": ""}},
        [("invalid_value", "/authentication/kind"), ("unknown_field", "/authentication/salt")],
        id="unknown kind: only keys no kind's shape has are unknown",
    ),
    pytest.param(
        minimal_handoff,
        {"/artifactKind": "continuity-archive", "/content/beliefs/0": 1},
        [("artifact_content_mismatch", "/artifactKind"), ("invalid_value", "/content/beliefs/0")],
        id="a mismatched content is still judged by the shape it has",
    ),
    pytest.param(
        minimal_handoff,
        {"/artifactKind": 7, "/content/capsule": DROP},
        [("invalid_value", "/artifactKind"), ("section_missing_unaccounted", "/content/capsule")],
        id="an invalid kind: content judged by its recognisable shape",
    ),
    pytest.param(
        minimal_handoff,
        {"/artifactKind": None, "/content": {"notes": 1}},
        [("invalid_value", "/artifactKind")],
        id="an invalid kind and a shapeless content: content not judged",
    ),
    pytest.param(
        archive,
        {"/omissionManifest/entries": omitted("archiveRefs")},
        [("invalid_value", "/omissionManifest/entries/0")],
        id="an archive omitting the section it has",
    ),
    pytest.param(
        handoff,
        {"/content/beliefs/1": 5, "/redactionManifest/entries/0/pointer": "/9"},
        [("invalid_value", "/content/beliefs/1")],
        id="a redaction into a faulty section is not searched",
    ),
    pytest.param(
        handoff,
        {"/content/beliefs/0": 5},
        [("invalid_value", "/content/beliefs/0")],
        id="references into beliefs are not judged when an item has no portableRef",
    ),
    # Profile clarification 2026-12-01: a section absent and listed on omissionManifest
    # has no items, so every reference into it dangles (this was VALID before).
    pytest.param(
        handoff,
        {"/content/beliefs": DROP, "/omissionManifest/entries": omitted("beliefs")},
        [
            ("dangling_reference", "/content/evidenceAnchors/0/beliefRef"),
            ("dangling_reference", "/content/evidenceAnchors/1/beliefRef"),
            ("dangling_reference", "/content/reviewEvents/0/beliefRef"),
            ("dangling_reference", "/content/sourceHandoff/checkpointBeliefIds/0"),
            ("dangling_reference", "/content/sourceHandoff/checkpointBeliefIds/1"),
        ],
        id="references into an omitted section dangle",
    ),
    pytest.param(
        handoff,
        {"/content/receipts": DROP, "/omissionManifest/entries": omitted("receipts")},
        [("dangling_reference", "/content/verification/0/receiptRef")],
        id="a receipt reference into omitted receipts dangles",
    ),
    pytest.param(
        handoff,
        {"/content/beliefs/0/portableRef": 5, "/omissionManifest/entries": []},
        [("invalid_value", "/content/beliefs/0/portableRef")],
        id="a section present but refused is still not searched (no cascade)",
    ),
]


@pytest.mark.parametrize(("base", "edits", "expected"), MULTIPLE)
def test_exact_findings(base: Callable[[], Packet], edits: Edits, expected: list[Any]) -> None:
    assert pairs(run(base, edits)) == expected


def test_a_missing_omission_manifest_accounts_for_nothing() -> None:
    findings = run(minimal_handoff, {"/content/capsule": DROP, "/omissionManifest": DROP})
    assert pairs(findings) == [
        ("missing_field", "/omissionManifest"),
        ("section_missing_unaccounted", "/content/capsule"),
    ]


def test_an_unreadable_omission_manifest_leaves_missing_sections_unjudged() -> None:
    findings = run(minimal_handoff, {"/content/capsule": DROP, "/omissionManifest": []})
    assert pairs(findings) == [("invalid_value", "/omissionManifest")]


def test_an_unresolvable_redaction_pointer_is_only_a_warning() -> None:
    findings = run(handoff, {"/redactionManifest/entries/0/pointer": "/7/content"})
    assert pairs(findings) == [("dangling_reference", "/redactionManifest/entries/0/pointer")]
    assert findings[0].severity is Severity.WARNING
    assert "content.beliefs" in findings[0].message


def test_messages_name_the_field_the_expectation_and_a_short_found_value() -> None:
    (finding,) = run(handoff, {"/content/beliefs/1/sourceId": "x" * 5000})
    assert finding.message.startswith("content.beliefs[1].sourceId must be an id (1-256")
    assert "found 'xxxx" in finding.message
    assert "(5000 characters)" in finding.message
    assert len(finding.message) < 200
    (finding,) = run(handoff, {"/packet/nonce": b64u_encode(bytes(8))})
    assert "16-64 bytes" in finding.message
    assert "decodes to 8 bytes" in finding.message
    (finding,) = run(handoff, {"/content/beliefs": {"a": 1}})
    assert finding.message == "content.beliefs must be an array; found an object with 1 member(s)"
    (finding,) = run(handoff, {"/packet/unexpected": 1})
    assert "'unexpected'" in finding.message
    assert "closed" in finding.message
    (finding,) = run(handoff, {"/packet/nonce": DROP})
    assert finding.message == "packet lacks its required field 'nonce'"
    (finding,) = run(handoff, {"/content/beliefs/2": Copy("/content/beliefs/0")})
    assert "'b-1'" in finding.message
    assert "content.beliefs[0]" in finding.message
    (finding,) = run(handoff, {"/manifest/sections/a~1b" + "x" * 100: 1})
    assert finding.message.startswith("manifest.sections['a/bxxx")
    assert len(finding.message) < 200


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (True, "true"),
        (3, "3"),
        (2.5, "2.5"),
        (2**200, "an integer of 201 bits"),
        ("a\x01", "'a\\x01'"),
        ([1, 2], "an array of 2 item(s)"),
        ({}, "an object with 0 member(s)"),
    ],
)
def test_found_values_are_shown_briefly(value: Any, shown: str) -> None:
    assert show(value) == shown


# --- several faults at once ------------------------------------------------------------------

INDEPENDENT_FAULTS: list[tuple[str, Any, ErrorCode, str | None]] = [
    ("/format", "zcf", C.UNSUPPORTED_FORMAT, None),
    ("/formatVersion", 2, C.UNSUPPORTED_FORMAT_VERSION, None),
    ("/canonicalizationProfile", "x", C.UNSUPPORTED_CANONICALIZATION_PROFILE, None),
    ("/bogus", 1, C.UNKNOWN_FIELD, None),
    ("/packet/nonce", DROP, C.MISSING_FIELD, None),
    ("/packet/generation", True, C.INVALID_VALUE, None),
    ("/source/client/kind", "emacs", C.INVALID_VALUE, None),
    ("/content/receipts", DROP, C.SECTION_MISSING_UNACCOUNTED, None),
    ("/content/beliefs/2", Copy("/content/beliefs/1"), C.DUPLICATE_ID,
     "/content/beliefs/2/portableRef"),
    ("/content/evidenceAnchors/0/sourceRef", "nope", C.DANGLING_REFERENCE, None),
    ("/content/allowedTools/0", "rm_rf", C.UNKNOWN_CAPABILITY, None),
    ("/content/beliefs/0/reviewState", "maybe", C.INVALID_VALUE, None),
    ("/retention/expiresAt", "soon", C.INVALID_VALUE, None),
    ("/authentication/kind", None, C.INVALID_VALUE, None),
    ("/extensions", None, C.INVALID_VALUE, None),
]  # fmt: skip


def test_every_independent_fault_is_reported() -> None:
    findings = run(handoff, {at: value for at, value, _code, _pointer in INDEPENDENT_FAULTS})
    # `receipts` is gone, so `receiptRef` cannot be judged: no dangling finding for it.
    expected = [(str(code), pointer or at) for at, _value, code, pointer in INDEPENDENT_FAULTS]
    assert sorted(pairs(findings)) == sorted(expected)


def test_findings_come_in_envelope_order() -> None:
    edits = {"/extensions": 1, "/format": 1, "/content/beliefs/0/sourceId": 1}
    assert [f.pointer for f in run(handoff, edits)] == [
        "/format",
        "/content/beliefs/0/sourceId",
        "/extensions",
    ]


# --- large arrays are validated in chunks: indices must survive ------------------------------


def test_findings_in_a_large_beliefs_array_point_at_the_right_item() -> None:
    packet = minimal_handoff()
    beliefs = [{"portableRef": f"b-{i}", "sourceId": "s", "content": ""} for i in range(9000)]
    bad = [0, 4095, 4096, 4097, 8191, 8192, 8999]
    for i in bad:
        beliefs[i]["sourceId"] = ""
    beliefs[8500]["portableRef"] = "b-4096"
    packet["content"]["beliefs"] = beliefs
    expected = [("invalid_value", f"/content/beliefs/{i}/sourceId") for i in bad]
    expected.append(("duplicate_id", "/content/beliefs/8500/portableRef"))
    assert pairs(check_structure(packet)) == expected


# --- hostile shapes never raise --------------------------------------------------------------


def _every_value_replaced(value: Any, replacement: Any) -> Any:
    if isinstance(value, dict):
        return {k: _every_value_replaced(v, replacement) for k, v in value.items()}
    if isinstance(value, list):
        return [_every_value_replaced(v, replacement) for v in value]
    return replacement


HOSTILE = [
    pytest.param(lambda: dict.fromkeys(TOP_LEVEL_FIELDS), id="every top-level field null"),
    pytest.param(lambda: _every_value_replaced(handoff(), None), id="every leaf null"),
    pytest.param(lambda: _every_value_replaced(handoff(), True), id="every leaf true"),
    pytest.param(lambda: _every_value_replaced(archive(), [[]]), id="every leaf a nested list"),
    pytest.param(lambda: {k: [] for k in TOP_LEVEL_FIELDS}, id="every section a list"),
    pytest.param(lambda: {k: {} for k in TOP_LEVEL_FIELDS}, id="every section empty"),
    pytest.param(lambda: {"content": [1, 2]}, id="content a list"),
    pytest.param(
        lambda: {**handoff(), "content": {"beliefs": {"portableRef": "b"}}}, id="beliefs a dict"
    ),
    pytest.param(
        lambda: {**handoff(), "content": dict.fromkeys(CONTENT_SECTIONS, "x")}, id="strings"
    ),
    pytest.param(
        lambda: {**handoff(), "content": {n: [None, 1, "x", [], {}] for n in CONTENT_SECTIONS}},
        id="section items of every type",
    ),
    pytest.param(
        lambda: {**archive(), "content": {"archiveRefs": None, "beliefs": 2**80}},
        id="both shapes, wrong types",
    ),
    pytest.param(
        lambda: {**handoff(), "content": {**handoff()["content"], "beliefs": [7] * 50_000}},
        id="50 000 non-object beliefs",
    ),
    pytest.param(
        lambda: {**handoff(), "packet": {"id": "\ud800", "nonce": "\udc00", "intent": "\ud800"}},
        id="lone surrogates (the reader refuses them; this must still not raise)",
    ),
    pytest.param(
        lambda: {**handoff(), "manifest": {"sections": {"a/b": None, "": [], "~": 2**70}}},
        id="odd manifest section names",
    ),
    pytest.param(lambda: {"": 1, "/": 2, "~1": 3}, id="odd top-level keys"),
]


@pytest.mark.parametrize("build", HOSTILE)
def test_hostile_shapes_never_raise(build: Callable[[], Any]) -> None:
    findings = check_structure(build())
    assert findings
    for finding in findings:
        assert isinstance(finding.code, ErrorCode)
        split(finding.pointer)  # every pointer is a well-formed RFC 6901 pointer
        _assert_readable(finding)


@pytest.mark.parametrize("value", [None, [], "packet", 1, True], ids=repr)
def test_a_non_object_packet_is_one_finding(value: Any) -> None:
    assert pairs(check_structure(value)) == [("not_an_object", "")]


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


HANDOFF_PATHS = _paths(handoff())[1:]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(HANDOFF_PATHS), JSON_VALUES), min_size=1, max_size=4),
)
def test_random_replacements_never_raise_and_point_into_the_packet(
    replacements: list[tuple[tuple[str | int, ...], Any]],
) -> None:
    packet = handoff()
    for path, value in replacements:
        try:
            edit(packet, {join(*path): value})
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an earlier replacement removed this path's parent
    for finding in check_structure(packet):
        tokens = split(finding.pointer)
        # A finding points at a member that exists, or (for an absent member) at a
        # member whose parent exists.
        assert exists(packet, finding.pointer) or exists(packet, join(*tokens[:-1]))
        _assert_readable(finding)


# --- the schemas agree with the shared format helpers and with the profile text --------------


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=300) | st.text(max_size=5))
def test_the_id_schema_accepts_exactly_the_ids_of_formats(value: str) -> None:
    assert _accepts(TypeAdapter(models.Id), value) == is_id(value)


@settings(max_examples=300, deadline=None)
@given(
    st.from_regex(r"sha256:[0-9a-fA-F]{62,66}\n?", fullmatch=True)
    | st.text(alphabet="sha256:0123456789abcdefABCDEF\n", max_size=75)
)
def test_the_digest_schema_accepts_exactly_the_digests_of_digest(value: str) -> None:
    assert _accepts(TypeAdapter(models.Digest), value) == is_digest(value)


def _is_rfc6901(value: str) -> bool:
    """The pointer grammar of RFC 6901 §3, written out independently of the schema."""
    if value == "":
        return True
    if not value.startswith("/"):
        return False
    for token in value[1:].split("/"):
        rest = token
        while "~" in rest:
            after = rest[rest.index("~") + 1 : rest.index("~") + 2]
            if after not in ("0", "1"):
                return False
            rest = rest[rest.index("~") + 2 :]
    return True


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="/~01a\n", max_size=12))
def test_the_pointer_schema_accepts_exactly_rfc6901_pointers(value: str) -> None:
    assert _accepts(TypeAdapter(models.JsonPointer), value) == _is_rfc6901(value)
    assert (models.POINTER_RE.fullmatch(value) is not None) == _is_rfc6901(value)


def _accepts(adapter: TypeAdapter[Any], value: object) -> bool:
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


BELIEF_KEYS = ("portableRef", "sourceId", "content", "reviewState")
ID_LIKE = st.one_of(
    st.text(max_size=3),
    st.text(alphabet=st.characters(max_codepoint=0x7F), min_size=250, max_size=260),
    st.sampled_from(["b-1", "b-2", "b-1"]),
    JSON_LEAVES,
)
BELIEF_VALUES = {
    "portableRef": ID_LIKE,
    "sourceId": ID_LIKE,
    "content": st.one_of(st.text(max_size=5), JSON_LEAVES),
    "reviewState": st.one_of(st.sampled_from(REVIEW_STATES), JSON_LEAVES),
}


@st.composite
def beliefs_strategy(draw: st.DrawFn) -> Any:
    item = st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                **BELIEF_VALUES,
                "extra": JSON_LEAVES,
            },
        ),
        JSON_LEAVES,
    )
    return draw(st.lists(item, max_size=6))


def _belief_oracle(beliefs: list[Any]) -> list[tuple[str, str]]:
    """The belief rules of profile §3, applied by hand, one finding per broken rule."""
    expected: list[tuple[str, str]] = []
    seen: set[str] = set()
    for index, belief in enumerate(beliefs):
        at = f"/content/beliefs/{index}"
        if not isinstance(belief, dict):
            expected.append(("invalid_value", at))
            continue
        for key in belief:
            if key not in BELIEF_KEYS:
                expected.append(("unknown_field", f"{at}/{key}"))
        for key in BELIEF_KEYS[:3]:
            if key not in belief:
                expected.append(("missing_field", f"{at}/{key}"))
        for key in ("portableRef", "sourceId"):
            if key in belief and not is_id(belief[key]):
                expected.append(("invalid_value", f"{at}/{key}"))
        if "content" in belief and not isinstance(belief["content"], str):
            expected.append(("invalid_value", f"{at}/content"))
        if "reviewState" in belief and belief["reviewState"] not in REVIEW_STATES:
            expected.append(("invalid_value", f"{at}/reviewState"))
        ref = belief.get("portableRef")
        if isinstance(ref, str):
            if ref in seen:
                expected.append(("duplicate_id", f"{at}/portableRef"))
            seen.add(ref)
    return expected


@settings(max_examples=400, deadline=None)
@given(beliefs_strategy())
def test_beliefs_are_judged_exactly_as_the_profile_text_says(beliefs: list[Any]) -> None:
    packet = minimal_handoff()
    packet["content"]["beliefs"] = beliefs
    assert sorted(pairs(check_structure(packet))) == sorted(_belief_oracle(beliefs))


# --- the published constants ---------------------------------------------------------------


def test_published_constants() -> None:
    assert CONTENT_SECTIONS_CORE == (
        "capsule",
        "beliefs",
        "evidenceSources",
        "evidenceAnchors",
        "receipts",
        "reviewEvents",
        "verification",
        "sourceHandoff",
    )
    assert (*CONTENT_SECTIONS_CORE, "allowedTools") == CONTENT_SECTIONS
    assert CAPABILITIES == (
        "zephr_remember",
        "zephr_recall",
        "zephr_why",
        "zephr_verify",
        "zephr_session",
        "zephr_rules",
        "zephr_status",
        "zephr_admin",
    )
    assert frozenset({"zephr_admin", "zephr_rules"}) == HIGH_RISK_TOOLS
    assert REVIEW_STATES == ("unreviewed", "confirmed", "rejected", "superseded")
    assert set(CAPABILITIES) >= HIGH_RISK_TOOLS
