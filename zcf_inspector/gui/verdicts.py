"""The header's verdict, as the presenters make it: the window derives nothing itself.

The names the window's modules use for the presentation layer's types (`Verdict`, a
`VerdictRow` per check, its `CheckState`), and one call per kind of document shown.
"""

from __future__ import annotations

from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.hostile.scan import TextScan
from zcf_inspector.core.packet.admission import AdmissionNotice
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.packet.receipt import ReceiptReport
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.present import asif, packet, receipt
from zcf_inspector.present.packet import ADMISSION_CHECK, admission_row
from zcf_inspector.present.vocabulary import CheckStatus as CheckState
from zcf_inspector.present.vocabulary import Chip as VerdictRow
from zcf_inspector.present.vocabulary import Verdict

__all__ = [
    "ADMISSION_CHECK",
    "CheckState",
    "Verdict",
    "VerdictRow",
    "admission_row",
    "continuation_verdict",
    "packet_verdict",
    "receipt_verdict",
]


def packet_verdict(
    inspection: PacketInspection,
    admission: AdmissionNotice | None = None,
    secrets: SecretScan | None = None,
    hostile: TextScan | None = None,
) -> Verdict:
    return packet.verdict(inspection, admission, secrets, hostile)


def receipt_verdict(report: ReceiptReport) -> Verdict:
    return receipt.verdict(report)


def continuation_verdict(result: InspectionResult) -> Verdict:
    return asif.verdict(result)
