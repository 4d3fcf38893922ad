"""What a file is: the one place document kinds are told apart.

By content, never by name: a transfer receipt carries ``format: zephr-continuity-receipt``;
an ASIF session, a bare continuation profile and a destination report carry their
version field (the table the continuation reader checks versions with), an ASIF 0.5
capability snapshot its ``snapshot_version``; an object holding any of a packet's
top-level fields is a packet (which then says what else is wrong with it), and so is
anything the strict reader refused or that is not an object (a packet's refusal says
why); an object with none of these is *unknown*: not a document this inspector knows,
said in one finding rather than a packet's dozens of missing fields.
"""

from __future__ import annotations

from zcf_inspector.core.document_kind import RECEIPT_FORMAT_NAME, VERSION_FIELDS, DocumentKind
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.structure import TOP_LEVEL_FIELDS

CONTINUATION_KINDS = frozenset(
    {
        DocumentKind.ASIF_SESSION,
        DocumentKind.CONTINUATION_PROFILE,
        DocumentKind.CONTINUATION_REPORT,
    }
)
# The field an ASIF 0.5 destination capability snapshot declares its version in.
SNAPSHOT_VERSION_FIELD = "snapshot_version"


def recognise(value: JsonValue | None) -> DocumentKind:
    """The kind of a read document (None: the bytes were refused, so a packet's refusal)."""
    if not isinstance(value, dict):
        return DocumentKind.PACKET
    if value.get("format") == RECEIPT_FORMAT_NAME:
        return DocumentKind.RECEIPT
    for field, (kind, _version) in VERSION_FIELDS.items():
        if field in value:
            return kind
    if SNAPSHOT_VERSION_FIELD in value:
        return DocumentKind.CAPABILITY_SNAPSHOT
    if any(field in value for field in TOP_LEVEL_FIELDS):
        return DocumentKind.PACKET
    return DocumentKind.UNKNOWN
