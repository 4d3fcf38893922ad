"""The registry of presenters: which presenter makes the verdict of which result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zcf_inspector.core.compare.model import Comparison
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.package.results import PackageResult
from zcf_inspector.core.packet.admission import AdmissionNotice, describe_admission
from zcf_inspector.core.packet.ingest import IngestResult
from zcf_inspector.core.packet.inspection import PacketInspection
from zcf_inspector.core.packet.receipt import ReceiptReport
from zcf_inspector.core.secrets.scan import SecretScan
from zcf_inspector.present import asif, asif_package, comparison, packet, receipt
from zcf_inspector.present.vocabulary import DocumentKind, Verdict

Result = (
    PacketInspection | IngestResult | ReceiptReport | InspectionResult | Comparison | PackageResult
)


@dataclass(frozen=True, slots=True)
class Presenter:
    """One kind of result, and how its verdict is made."""

    result_type: type[Any]
    kinds: tuple[DocumentKind, ...]  # the document kinds whose checks give this result
    verdict: Callable[[Any], Verdict]


PRESENTERS: tuple[Presenter, ...] = (
    Presenter(PacketInspection, (DocumentKind.PACKET,), packet.verdict),
    Presenter(ReceiptReport, (DocumentKind.RECEIPT,), receipt.verdict),
    Presenter(
        InspectionResult,
        (
            DocumentKind.ASIF_SESSION,
            DocumentKind.CONTINUATION_PROFILE,
            DocumentKind.CONTINUATION_REPORT,
        ),
        asif.verdict,
    ),
    Presenter(Comparison, (DocumentKind.COMPARISON,), comparison.verdict),
    Presenter(PackageResult, (DocumentKind.ASIF_PACKAGE,), asif_package.verdict),
)


def verdict_of(
    result: Result,
    *,
    admission: AdmissionNotice | None = None,
    secrets: SecretScan | None = None,
) -> Verdict:
    """The verdict of any checked document; a packet ingested at a destination (or
    ``admission``) adds the chip saying what admission changed, and a packet's ``secrets``
    (its scan) what the scan flagged."""
    if isinstance(result, IngestResult):
        if result.admission is not None and admission is None:
            admission = describe_admission(result.admission, result.degraded)
        return packet.verdict(result.inspection, admission, secrets)
    if isinstance(result, PacketInspection):
        return packet.verdict(result, admission, secrets)
    for presenter in PRESENTERS:
        if isinstance(result, presenter.result_type):
            return presenter.verdict(result)
    raise TypeError(f"no presenter for {type(result).__name__}")
