"""What a document tab shows of each kind of document: one strategy per kind.

A packet, a transfer receipt, a continuation document (an ASIF session, a bare profile
or a report, with or without the report checked beside it) and a plain JSON document (a
capability snapshot alone, or one of no known kind) differ in what the tree marks and
which panes sit beside the tree; their verdict and findings are the document's view
(`zcf_inspector.opener`: made once by its kind's presenter, the same the CLI prints).
`kind_of` looks the strategy up by the document's type in `TAB_KINDS`, so the tab asks its
strategy and never tests the kind itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, Protocol, TypeVar

from PySide6.QtWidgets import QWidget

from zcf_inspector.core.continuation.timestamps import parse_datetime
from zcf_inspector.core.findings import Finding, OmittedFindings
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.ingest import Admission
from zcf_inspector.core.packet.manifest import ManifestReport
from zcf_inspector.core.secrets.scan import SecretHit
from zcf_inspector.gui.briefing_pane import BriefingPane
from zcf_inspector.gui.byte_refusal_pane import ByteRefusalPane
from zcf_inspector.gui.canonical_pane import CanonicalPane
from zcf_inspector.gui.documents import current_snapshot_work
from zcf_inspector.gui.findings_pane import FindingsPane
from zcf_inspector.gui.inventory_pane import InventoryPane
from zcf_inspector.gui.manifest_pane import ManifestPane
from zcf_inspector.gui.plangraph.pane import PlanGraphPane
from zcf_inspector.gui.review.pane import ReviewPane
from zcf_inspector.gui.session_pane import SessionPane
from zcf_inspector.gui.task_runner import Work
from zcf_inspector.opener.documents import (
    ContinuationDocument,
    DocumentView,
    PackageDocument,
    PacketDocument,
    PlainDocument,
    ReceiptDocument,
    ShownDocument,
)
from zcf_inspector.present.vocabulary import Verdict

PANE_MANIFEST: Final = "Manifest"
PANE_CANONICAL: Final = "Canonical bytes"
PANE_FINDINGS: Final = "Findings"
PANE_BYTES: Final = "Byte refusal"
PANE_REVIEW: Final = "Review"
PANE_PLAN_GRAPH: Final = "Plan graph"
PANE_BRIEFING: Final = "Briefing"
PANE_SESSION: Final = "Session"
PANE_INVENTORY: Final = "Inventory"

D = TypeVar(
    "D", PacketDocument, ReceiptDocument, ContinuationDocument, PlainDocument, PackageDocument
)
Panes = list[tuple[str, QWidget]]


class PaneHost(Protocol):
    """The panes a document tab has (those it makes only when needed, by asking)."""

    destination: Destination | None
    manifest_pane: ManifestPane
    byte_pane: ByteRefusalPane
    canonical_pane: CanonicalPane
    findings_pane: FindingsPane
    briefing_pane: BriefingPane

    def ensure_review_pane(self) -> ReviewPane: ...
    def ensure_plan_graph_pane(self) -> PlanGraphPane: ...
    def ensure_session_pane(self) -> SessionPane: ...
    def ensure_inventory_pane(self) -> InventoryPane: ...


@dataclass(frozen=True, slots=True)
class Shown:
    """What a tab shows of one document, besides its panes."""

    value: JsonValue  # the tree
    findings: tuple[Finding, ...]
    elsewhere: tuple[str, ...]  # per finding: the file it points into ("" for this one)
    verdict: Verdict
    omitted: tuple[OmittedFindings, ...]  # past the budget, of every document shown
    own_omitted: tuple[OmittedFindings, ...]  # … of those pointing into this document
    manifest: ManifestReport | None = None  # a packet's: the tree's digest marks
    admission: Admission | None = None  # what the destination admitted: cut and dropped
    changed_section: str | None = None  # the first section whose bytes changed
    masks: Mapping[str, tuple[SecretHit, ...]] | None = None  # flagged texts, by pointer


def _shown(value: JsonValue, view: DocumentView, **extra: Any) -> Shown:
    """What the tab shows: the document's view (verdict, findings) over its tree."""
    return Shown(
        value if value is not None else {},
        view.findings,
        view.elsewhere,
        view.verdict,
        view.omitted,
        view.own_omitted,
        **extra,
    )


class TabKind(ABC, Generic[D]):
    """One kind of document in a tab."""

    keeps_receipt_match = False  # a receipt's verdict adds the packet it belongs to

    def paths(self, document: D) -> tuple[str, ...]:
        return (document.path,)

    @abstractmethod
    def shown(self, document: D) -> Shown: ...

    @abstractmethod
    def panes(self, tab: PaneHost, document: D) -> tuple[Panes, str]:
        """The panes beside the tree, in order, and the one shown first."""

    def current_snapshot_work(self, document: D, path: str) -> Work | None:
        """``document`` checked again with ``path`` as the destination's current capability
        snapshot (ASIF 0.5), at the clock of its last check; None for other kinds."""
        return None


class PacketKind(TabKind[PacketDocument]):
    def shown(self, document: PacketDocument) -> Shown:
        inspection = document.inspection
        target = document.review.target if document.review is not None else None
        scan = document.secrets
        manifest = inspection.manifest
        changed = [s for s in manifest.sections if not s.match and s.pointer] if manifest else []
        return _shown(
            inspection.value,
            document.view,
            manifest=manifest,
            admission=target.admission if target is not None else None,
            changed_section=changed[0].pointer if changed else None,
            masks=scan.by_pointer() if scan is not None and scan.hits else None,
        )

    def panes(self, tab: PaneHost, document: PacketDocument) -> tuple[Panes, str]:
        inspection = document.inspection
        wanted: Panes = []
        if inspection.read_error is not None:
            tab.byte_pane.set_error(inspection.read_error, document.data)
            wanted.append((PANE_BYTES, tab.byte_pane))
        else:
            tab.manifest_pane.set_report(inspection.manifest)
            wanted.append((PANE_MANIFEST, tab.manifest_pane))
        wanted.append((PANE_CANONICAL, tab.canonical_pane))
        wanted.append((PANE_FINDINGS, tab.findings_pane))
        tab.briefing_pane.set_packet(document, tab.destination)
        wanted.append((PANE_BRIEFING, tab.briefing_pane))
        review = tab.ensure_review_pane()
        review.set_packet(
            document.path, document.data, inspection, tab.destination, document.review
        )
        wanted.append((PANE_REVIEW, review))
        return wanted, wanted[0][0]  # a packet is read by its manifest first


class ReceiptKind(TabKind[ReceiptDocument]):
    keeps_receipt_match = True

    def shown(self, document: ReceiptDocument) -> Shown:
        return _shown(document.value, document.view)

    def panes(self, tab: PaneHost, document: ReceiptDocument) -> tuple[Panes, str]:
        return [(PANE_CANONICAL, tab.canonical_pane), (PANE_FINDINGS, tab.findings_pane)], (
            PANE_CANONICAL
        )


class ContinuationKind(TabKind[ContinuationDocument]):
    def paths(self, document: ContinuationDocument) -> tuple[str, ...]:
        if document.report_path is not None:
            return (document.path, document.report_path)
        return (document.path,)

    def shown(self, document: ContinuationDocument) -> Shown:
        return _shown(document.value, document.view)

    def current_snapshot_work(self, document: ContinuationDocument, path: str) -> Work | None:
        times = None if document.result.report is None else document.result.report.times
        now = None if times is None else parse_datetime(times.checked_at)
        return current_snapshot_work(document, path, now)

    def panes(self, tab: PaneHost, document: ContinuationDocument) -> tuple[Panes, str]:
        graph = tab.ensure_plan_graph_pane()
        graph.document_path = document.path
        graph.show_result(document.result, document.value)
        wanted: Panes = [
            (PANE_FINDINGS, tab.findings_pane),
            (PANE_PLAN_GRAPH, graph),
            (PANE_CANONICAL, tab.canonical_pane),
        ]
        if document.outline is None:
            return wanted, PANE_PLAN_GRAPH  # a plan is read as a graph first
        session = tab.ensure_session_pane()
        session.set_outline(document.outline)
        wanted.insert(1, (PANE_SESSION, session))
        # a session with a plan is read as a graph first; a core session as a timeline
        return wanted, PANE_SESSION if document.result.core_only else PANE_PLAN_GRAPH


class PackageKind(TabKind[PackageDocument]):
    """An `.asif.zip`: the package's verdict, its inventory, then its session as a
    session opened alone (the tree is the session member)."""

    def shown(self, document: PackageDocument) -> Shown:
        return _shown(document.value, document.view)

    def panes(self, tab: PaneHost, document: PackageDocument) -> tuple[Panes, str]:
        inventory = tab.ensure_inventory_pane()
        inventory.set_result(document.result)
        session = tab.ensure_session_pane()
        session.set_outline(document.outline)
        wanted: Panes = [
            (PANE_INVENTORY, inventory),
            (PANE_SESSION, session),
            (PANE_FINDINGS, tab.findings_pane),
        ]
        if document.result.session is not None and document.result.session.plans:
            graph = tab.ensure_plan_graph_pane()
            graph.document_path = document.path
            graph.show_result(document.result.session, document.value)
            wanted.append((PANE_PLAN_GRAPH, graph))
        return wanted, PANE_INVENTORY  # a package is read by its inventory first


class PlainKind(TabKind[PlainDocument]):
    """A document with no checks of its own: its tree, its one finding, its bytes."""

    def shown(self, document: PlainDocument) -> Shown:
        return _shown(document.value, document.view)

    def panes(self, tab: PaneHost, document: PlainDocument) -> tuple[Panes, str]:
        return [(PANE_FINDINGS, tab.findings_pane), (PANE_CANONICAL, tab.canonical_pane)], (
            PANE_FINDINGS
        )


TAB_KINDS: Final[Mapping[type, TabKind[Any]]] = {
    PacketDocument: PacketKind(),
    ReceiptDocument: ReceiptKind(),
    ContinuationDocument: ContinuationKind(),
    PlainDocument: PlainKind(),
    PackageDocument: PackageKind(),
}


def kind_of(document: ShownDocument) -> TabKind[Any]:
    return TAB_KINDS[type(document)]
