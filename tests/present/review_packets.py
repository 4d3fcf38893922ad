"""A packet for the review's evidence (issue 20): beliefs citing a source that matches the
workspace, one that differs, a patch whose bytes are a cited source (so its receipt and
verification entry show under the belief), a planted credential and a hostile excerpt,
and a belief with no evidence; and the workspace folder with one mismatch."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from goldens import generate as g

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
HOSTILE = "zero\u200bwidth and \u202eevil"
SPEC = b"the spec\n"
PATCH = b"--- a/zcf/reading.py\n+++ b/zcf/reading.py\n"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def evidence_packet() -> dict[str, Any]:
    packet = g.handoff("review-evidence")
    c = packet["content"]
    c["capsule"]["changedFiles"] = ["spec/a.md", "zcf/reading.py"]
    c["beliefs"] = [
        g.belief("b-spec", "The spec says keys sort by code point."),
        g.belief("b-reader", "The reader patch keeps duplicate keys out."),
        g.belief("b-key", f"Deploy with aws_access_key_id = {AWS_KEY} from the vault."),
        g.belief("b-bare", "Nobody cited anything for this one."),
    ]
    c["evidenceSources"] = [
        {"id": "s-spec", "kind": "local", "locator": "spec/a.md", "digest": sha(SPEC)},
        {"id": "s-reader", "kind": "local", "locator": "zcf/reading.py", "digest": sha(b"old\n")},
        {"id": "s-patch", "kind": "local", "locator": "patches/reader.diff", "digest": sha(PATCH)},
        {"id": "s-rfc", "kind": "external", "locator": "https://www.rfc-editor.org/rfc/rfc8785"},
    ]
    c["evidenceAnchors"] = [
        {"id": "a-1", "beliefRef": "b-spec", "sourceRef": "s-spec", "locator": "§2",
         "excerpt": "members sorted by key comparing Unicode code points"},
        {"id": "a-2", "beliefRef": "b-reader", "sourceRef": "s-reader", "excerpt": HOSTILE},
        {"id": "a-3", "beliefRef": "b-reader", "sourceRef": "s-patch"},
        {"id": "a-4", "beliefRef": "b-key", "sourceRef": "s-rfc"},
    ]  # fmt: skip
    c["receipts"] = [
        {"id": "r-patch", "kind": "patch", "digest": sha(PATCH), "summary": "the reader patch"},
    ]
    c["verification"] = [
        {"id": "v-1", "kind": "pytest", "status": "passed", "summary": "412 passed",
         "receiptRef": "r-patch"},
    ]  # fmt: skip
    c["reviewEvents"] = [
        {"id": "ev-1", "beliefRef": "b-spec", "reviewer": "alice", "fromState": "unreviewed",
         "toState": "unreviewed", "at": "2026-09-30T09:59:00Z",
         "note": f"checked with aws_secret_access_key = {SECRET_KEY}"},
    ]  # fmt: skip
    return g.unsigned(packet)


def make_workspace(root: Path) -> Path:
    """spec/a.md and the patch as the packet claims them; zcf/reading.py with other bytes:
    one mismatch."""
    (root / "spec").mkdir(parents=True)
    (root / "zcf").mkdir()
    (root / "patches").mkdir()
    (root / "spec" / "a.md").write_bytes(SPEC)
    (root / "zcf" / "reading.py").write_bytes(b"new\n")
    (root / "patches" / "reader.diff").write_bytes(PATCH)
    return root
