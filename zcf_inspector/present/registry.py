"""The registry of presenters: which presenter makes the verdict of which result.

`verdict_of` is the one dispatcher every front end's verdict goes through (the opener's
views, `api.verdict`). Each presenter is named by the result type it presents, as a
dotted path, and imported only when a result of that type is presented: `validate` of a
packet never loads the continuation checks (start-up time).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from zcf_inspector.core.document_kind import DocumentKind

if TYPE_CHECKING:
    from zcf_inspector.core.compare.model import Comparison
    from zcf_inspector.core.continuation.results import InspectionResult
    from zcf_inspector.core.hostile.scan import TextScan
    from zcf_inspector.core.package.results import PackageResult
    from zcf_inspector.core.packet.admission import AdmissionNotice
    from zcf_inspector.core.packet.ingest import IngestResult
    from zcf_inspector.core.packet.inspection import PacketInspection
    from zcf_inspector.core.packet.receipt import ReceiptReport
    from zcf_inspector.core.secrets.scan import SecretScan
    from zcf_inspector.present.other import PlainResult
    from zcf_inspector.present.vocabulary import Verdict

    Result = (
        PacketInspection
        | IngestResult
        | ReceiptReport
        | InspectionResult
        | Comparison
        | PlainResult
        | PackageResult
    )


@dataclass(frozen=True, slots=True)
class Presenter:
    """One kind of result, and the module whose ``verdict`` presents it."""

    result_type: str  # "module.Type" of the result
    kinds: tuple[DocumentKind, ...]  # the document kinds whose checks give this result
    module: str  # the presenter's module (its ``verdict(result, …)``)


PRESENTERS: tuple[Presenter, ...] = (
    Presenter(
        "zcf_inspector.core.packet.inspection.PacketInspection",
        (DocumentKind.PACKET,),
        "zcf_inspector.present.packet",
    ),
    Presenter(
        "zcf_inspector.core.packet.receipt.ReceiptReport",
        (DocumentKind.RECEIPT,),
        "zcf_inspector.present.receipt",
    ),
    Presenter(
        "zcf_inspector.core.continuation.results.InspectionResult",
        (
            DocumentKind.ASIF_SESSION,
            DocumentKind.CONTINUATION_PROFILE,
            DocumentKind.CONTINUATION_REPORT,
        ),
        "zcf_inspector.present.asif",
    ),
    Presenter(
        "zcf_inspector.core.compare.model.Comparison",
        (DocumentKind.COMPARISON,),
        "zcf_inspector.present.comparison",
    ),
    Presenter(
        "zcf_inspector.present.other.PlainResult",
        (DocumentKind.CAPABILITY_SNAPSHOT, DocumentKind.UNKNOWN),
        "zcf_inspector.present.other",
    ),
    Presenter(
        "zcf_inspector.core.package.results.PackageResult",
        (DocumentKind.ASIF_PACKAGE,),
        "zcf_inspector.present.asif_package",
    ),
)
_BY_TYPE = {p.result_type: p for p in PRESENTERS}
INGEST_RESULT = "zcf_inspector.core.packet.ingest.IngestResult"


def _name(result: object) -> str:
    return f"{type(result).__module__}.{type(result).__qualname__}"


def verdict_of(
    result: Result,
    *,
    admission: AdmissionNotice | None = None,
    secrets: SecretScan | None = None,
    hostile: TextScan | None = None,
) -> Verdict:
    """The verdict of any checked document; a packet's ``admission`` (what admission at
    the destination changed), ``secrets`` (its scan) and ``hostile`` (the hostile-text
    scan) add the chip saying so. An ingest result is presented as its inspection: its
    admission notice is the opener's to give (`opener.open.admission_notice`), never
    built here."""
    name = _name(result)
    packet: Any = import_module("zcf_inspector.present.packet")
    shown: Verdict
    if name == INGEST_RESULT:
        inspection = getattr(result, "inspection")  # noqa: B009
        shown = packet.verdict(inspection, admission, secrets, hostile)
        return shown
    presenter = _BY_TYPE.get(name)
    if presenter is None:
        raise TypeError(f"no presenter for {type(result).__name__}")
    module: Any = import_module(presenter.module)
    shown = (
        packet.verdict(result, admission, secrets, hostile)
        if module is packet
        else module.verdict(result)
    )
    return shown
