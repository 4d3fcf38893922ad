"""The publication goldens (profile §7): valid packets, each showing one part of the format
(every section filled, an archive, recipient binding, omissions, demotion, truncation,
Unicode, tools), by name in ``PUBLICATION``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from goldens.fixtures import (
    SOURCE_ID,
    Packet,
    belief,
    bound,
    content,
    handoff,
    mac,
    unsigned,
)
from zcf_inspector.core.formats import b64u_encode


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
