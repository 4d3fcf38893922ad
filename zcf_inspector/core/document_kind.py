"""What a document is: the one enumeration every layer names kinds with.

In the core's top level so that `core.continuation` (its results name the three
continuation kinds) and `present` (which tells every kind apart, `present.recognise`)
share one type: a value means the same in a result, a verdict and ``--json``.
"""

from __future__ import annotations

from enum import StrEnum


class DocumentKind(StrEnum):
    """What a document is (`zcf_inspector.present.recognise` tells them apart)."""

    PACKET = "packet"  # a ZCF v1 packet (or bytes refused before a kind could be told)
    RECEIPT = "receipt"  # a transfer receipt (``format: zephr-continuity-receipt``)
    ASIF_SESSION = "asif-session"  # the continuation kinds, as core.continuation reads them
    CONTINUATION_PROFILE = "continuation-profile"
    CONTINUATION_REPORT = "continuation-report"
    CAPABILITY_SNAPSHOT = "capability-snapshot"  # an ASIF 0.5 destination snapshot
    UNKNOWN = "unknown"  # a JSON document that is none of these
    COMPARISON = "comparison"  # two packets compared (made, never read from a file)
    ASIF_PACKAGE = "asif-package"  # an .asif.zip: a session with its members (core.package)


# The ``format`` a transfer receipt declares (`core.packet.receipt` writes and checks it).
RECEIPT_FORMAT_NAME = "zephr-continuity-receipt"

# The field that names each kind (the first one a document holds wins), and the version read.
VERSION_FIELDS = {
    "asif_version": (DocumentKind.ASIF_SESSION, "0.4"),
    "report_version": (DocumentKind.CONTINUATION_REPORT, "0.2"),
    "profile_version": (DocumentKind.CONTINUATION_PROFILE, "0.2"),
}
