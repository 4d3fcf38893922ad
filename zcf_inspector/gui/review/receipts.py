"""Receipts on disk: the name an export suggests, and a receipt opened later (verified,
matched to the open packet). What an export says is `present.review.export`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zcf_inspector.core.crypto import public_key_fingerprint
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.receipt import verify_receipt
from zcf_inspector.core.reading import ReadError, read_json
from zcf_inspector.core.review.decisions import ReviewTarget, match_receipt
from zcf_inspector.gui.file_names import free_name, safe_part
from zcf_inspector.present.receipt import verdict as receipt_verdict

RECEIPT_MAX_BYTES = 64 * 1024 * 1024


def suggested_receipt_path(packet_path: str, packet_id: str = "") -> str:
    """Beside the packet, named after it and its packet id, never a name already there:
    ``NAME.json`` with id ``pkt-1`` → ``NAME.pkt-1.receipt.json`` (``-2``, ``-3``… if taken).
    """
    path = Path(packet_path)
    stem = path.name.removesuffix(".json") if path.name.endswith(".json") else path.name
    safe_id = safe_part(packet_id)
    base = stem if not safe_id or safe_id in stem else f"{stem}.{safe_id}"
    return str(free_name(path.parent, f"{base}.receipt", ".json"))


@dataclass(frozen=True, slots=True)
class ReceiptCheck:
    valid: bool  # digest (and signature, when checkable) verified, and it matches the packet
    lines: tuple[str, ...]


def check_receipt_file(
    path: str, target: ReviewTarget | None, destination: Destination | None
) -> ReceiptCheck:
    """Verify a receipt file's digest and signature, and match it to the open packet."""
    try:
        value = read_json(read_bounded(path, RECEIPT_MAX_BYTES), max_bytes=RECEIPT_MAX_BYTES)
    except (UnreadableFileError, ReadError) as exc:
        return ReceiptCheck(False, (f"{path}: cannot be read as a receipt: {exc}",))
    key = None if destination is None else destination.signing_public_key
    signature = value.get("signature") if isinstance(value, dict) else None
    signer = signature.get("publicKeyFingerprint") if isinstance(signature, dict) else None
    # Check the signature under this destination's key only when it claims that signer;
    # a receipt from elsewhere still has its digest checked.
    own = key is not None and signer == public_key_fingerprint(key)
    report = verify_receipt(value, key if own else None)
    # The presenter's words, as the receipt's own tab and `receipt verify` say them.
    lines = [f"{path}: {receipt_verdict(report).words}"]
    if signer is not None and key is not None and not own:
        lines.append("signed by a key other than this destination's: its signature not checked")
    lines += [
        f"{f.severity} {f.code} {f.pointer or '(receipt)'}: {f.message}" for f in report.findings
    ]
    matched = True
    if target is not None and isinstance(value, dict):
        problems = match_receipt(value, target)
        matched = not problems
        lines.append(
            "belongs to the open packet"
            if matched
            else "does NOT belong to the open packet as admitted here"
        )
        lines += [f"{p.code} {p.pointer}: {p.message}" for p in problems]
    return ReceiptCheck(report.valid and matched, tuple(lines))
