"""What a file is: the one place document kinds are told apart.

By content, never by name: a transfer receipt carries ``format: zephr-continuity-receipt``;
an ASIF session, a bare continuation profile and a destination report carry their
version field (the table the continuation reader checks versions with); anything else,
bytes the strict reader refused included, is read as a packet (which then says why it
is not one).
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import VERSION_FIELDS
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.receipt import RECEIPT_FORMAT
from zcf_inspector.present.vocabulary import DocumentKind

CONTINUATION_KINDS = frozenset(
    {
        DocumentKind.ASIF_SESSION,
        DocumentKind.CONTINUATION_PROFILE,
        DocumentKind.CONTINUATION_REPORT,
    }
)


def recognise(value: JsonValue | None) -> DocumentKind:
    """The kind of a read document (None: the bytes were refused, so a packet's refusal)."""
    if isinstance(value, dict):
        if value.get("format") == RECEIPT_FORMAT:
            return DocumentKind.RECEIPT
        for field, (kind, _version) in VERSION_FIELDS.items():
            if field in value:
                return DocumentKind(kind.value)
    return DocumentKind.PACKET
