"""What an open makes: one frozen document per file, and the one view every front end shows.

Each document holds the bytes read and the core's results of its kind's checks; its
`view` is the `DocumentView` its kind's presenter made (through
`present.registry.verdict_of`, the one dispatcher), built once and kept: the window's
header, tab icon and title, `validate`'s text, ``--json`` and exit code, `diff`'s side
lines and `api.verdict` all read it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.files import UnreadableFileError
from zcf_inspector.core.findings import FINDINGS_LIMIT, Finding, OmittedFindings, merge_omitted
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.present.registry import verdict_of

if TYPE_CHECKING:  # the results of each kind's checks, loaded only when one is opened
    from zcf_inspector.core.claims.workspace import WorkspaceCheck
    from zcf_inspector.core.continuation.outline import SessionOutline
    from zcf_inspector.core.continuation.results import InspectionResult
    from zcf_inspector.core.hostile.scan import TextScan
    from zcf_inspector.core.package.results import PackageResult
    from zcf_inspector.core.packet.admission import AdmissionNotice
    from zcf_inspector.core.packet.inspection import PacketInspection
    from zcf_inspector.core.packet.receipt import ReceiptReport
    from zcf_inspector.core.review.target import ReviewPreparation
    from zcf_inspector.core.secrets.scan import SecretScan
    from zcf_inspector.present.other import PlainResult
    from zcf_inspector.present.vocabulary import Trust, Verdict


@dataclass(frozen=True, slots=True)
class DocumentView:
    """What every front end shows of one opened document, made once by its presenter."""

    kind: DocumentKind
    paths: tuple[str, ...]  # the files shown together (a session and its report)
    verdict: Verdict  # headline words, trust level, chips, what was not checked
    findings: tuple[Finding, ...]  # every finding listed, in order (the scan's after)
    elsewhere: tuple[str, ...]  # per finding: the file it points into ("" for the first)
    omitted: tuple[OmittedFindings, ...]  # past the budget, of every file shown
    own_omitted: tuple[OmittedFindings, ...]  # … of those pointing into the first file
    admission: AdmissionNotice | None = None  # what the destination's admission changes
    parses: int = 1  # strict parses of the files shown (one per file; a test holds it so)

    @property
    def trust(self) -> Trust:
        return self.verdict.trust

    @property
    def headline(self) -> str:
        """The headline in full (the window's header shows the short form beside it)."""
        return self.verdict.words

    @property
    def tone(self) -> Trust:
        """The tab icon's and the header's colour: the trust level, from one verdict."""
        return self.verdict.trust

    @property
    def title_names(self) -> tuple[str, ...]:
        """The file names the window's tab and title show (unescaped: each front end
        applies its text rule)."""
        return tuple(Path(p).name for p in self.paths)

    @property
    def error_count(self) -> int:
        """Errors found, those counted past the budget included (`validate`'s ``— N
        error(s)`` after a refusal)."""
        listed = sum(1 for f in self.findings if f.severity == "error")
        return listed + sum(o.count for o in self.omitted if o.severity == "error")


@dataclass(frozen=True)
class PacketDocument:
    path: str
    data: bytes
    inspection: PacketInspection
    # What the review pane shows, prepared on the worker: ingest and the review target
    # of 10,000 admitted beliefs take about 0.2 s, too long for the UI thread.
    review: ReviewPreparation | None = None
    # The secret scan of its texts (None: the bytes were refused), made by the open: the
    # admission chip, the findings and the tree's masks come from it, and the Briefing
    # does not scan again.
    secrets: SecretScan | None = None
    # What admission at the destination changes (None: no destination, or refused).
    notice: AdmissionNotice | None = None
    # The packet's file claims against a workspace folder (`validate --workspace`), as
    # found (`open.masked_claims` masks them for printing); ``workspace_asked`` with no
    # check: the packet could not be read.
    workspace: WorkspaceCheck | None = None
    workspace_asked: bool = False
    parses: int = field(default=1, compare=False)
    # The hostile-text scan (hidden characters, look-alike identifiers), made beside the
    # secret scan and said likewise (None: the bytes were refused).
    hostile: TextScan | None = None

    @cached_property
    def view(self) -> DocumentView:
        inspection = self.inspection
        findings, omitted = inspection.findings, inspection.omitted
        scan, hostile = self.secrets, self.hostile
        # The scans' warnings, in what the inspection's own findings left of the one
        # budget of a document.
        if scan is not None and scan.hits:
            flagged, past = scan.findings(limit=max(0, FINDINGS_LIMIT - len(findings)))
            findings, omitted = (*findings, *flagged), merge_omitted(omitted, past)
        if hostile is not None and hostile.count:
            flagged, past = hostile.findings(limit=max(0, FINDINGS_LIMIT - len(findings)))
            findings, omitted = (*findings, *flagged), merge_omitted(omitted, past)
        verdict = verdict_of(inspection, admission=self.notice, secrets=scan, hostile=hostile)
        return DocumentView(
            DocumentKind.PACKET,
            (self.path,),
            verdict,
            findings,
            ("",) * len(findings),
            omitted,
            omitted,
            self.notice,
            self.parses,
        )


@dataclass(frozen=True)
class ReceiptDocument:
    path: str
    value: JsonValue
    report: ReceiptReport
    data: bytes = b""  # the bytes read, kept so that a re-check needs no second read
    parses: int = field(default=1, compare=False)

    @cached_property
    def view(self) -> DocumentView:
        report = self.report
        findings = report.findings
        return DocumentView(
            DocumentKind.RECEIPT,
            (self.path,),
            verdict_of(report),
            findings,
            ("",) * len(findings),
            report.omitted,
            report.omitted,
            parses=self.parses,
        )


@dataclass(frozen=True)
class ContinuationDocument:
    path: str
    value: JsonValue
    result: InspectionResult
    report_path: str | None = None  # a destination report checked against this session
    # The exact bytes checked (a report binds the session's by SHA-256), kept so that the
    # window can check them again at another "Assess at" clock without reading the files.
    data: bytes = b""
    report_data: bytes | None = None
    # The destination's current capability snapshot the user gave (ASIF 0.5 reports):
    # compared byte for byte with the one the report binds, at every check again.
    current_path: str | None = None
    current_data: bytes | None = None
    parses: int = field(default=1, compare=False)
    # An ASIF session's timeline, contexts and resources (core.continuation.outline),
    # made on the worker with the check: 100,000 events are too many for the UI thread.
    outline: SessionOutline | None = None

    @cached_property
    def view(self) -> DocumentView:
        from zcf_inspector.present.asif_listing import findings_listing  # noqa: PLC0415

        result = self.result
        report_name = Path(self.report_path).name if self.report_path else ""
        findings, elsewhere = findings_listing(result, report_name)
        omitted = merge_omitted(result.all_omitted())
        own = omitted
        paired = result.kind is not DocumentKind.CONTINUATION_REPORT and self.report_path
        if paired:  # the report's findings point into the report, not into this tree
            own = merge_omitted(result.omitted, *(p.omitted for p in result.plans))
        paths = (self.path,) if self.report_path is None else (self.path, self.report_path)
        kind = result.kind or DocumentKind.ASIF_SESSION
        return DocumentView(
            kind, paths, verdict_of(result), findings, elsewhere, omitted, own, None, self.parses
        )


@dataclass(frozen=True)
class PackageDocument:
    """An `.asif.zip` (`opener.package`): the tree is its session member."""

    path: str
    data: bytes  # the archive's bytes, as read
    result: PackageResult
    value: JsonValue  # the session member, parsed (None: it could not be had)
    outline: SessionOutline  # the session's timeline, contexts and resources
    signature_path: str | None = None  # the detached signature checked, if any
    key_problems: tuple[str, ...] = field(default=())  # trusted key files not read
    parses: int = field(default=1, compare=False)

    @cached_property
    def view(self) -> DocumentView:
        from zcf_inspector.present.asif_listing import findings_listing  # noqa: PLC0415

        result = self.result
        findings: tuple[Finding, ...] = result.findings
        if result.signature is not None:
            findings = (*findings, *result.signature.findings)
        # the tree is the session member: the other members' findings point elsewhere
        elsewhere = tuple("" if f.subject == "session.json" else f.subject or "" for f in findings)
        session = result.session
        if session is not None:
            listed, beside = findings_listing(session)
            findings, elsewhere = (*findings, *listed), (*elsewhere, *beside)
        omitted = merge_omitted(result.omitted, () if session is None else session.all_omitted())
        return DocumentView(
            DocumentKind.ASIF_PACKAGE,
            (self.path,),
            verdict_of(result),
            findings,
            elsewhere,
            omitted,
            omitted,
            parses=self.parses,
        )


@dataclass(frozen=True)
class PlainDocument:
    """A JSON document with no checks of its own: unknown, or a capability snapshot
    opened without the report that binds it."""

    path: str
    data: bytes
    value: JsonValue
    result: PlainResult
    parses: int = field(default=1, compare=False)

    @cached_property
    def view(self) -> DocumentView:
        findings = self.result.findings
        return DocumentView(
            self.result.kind,
            (self.path,),
            verdict_of(self.result),
            findings,
            ("",) * len(findings),
            (),
            (),
            parses=self.parses,
        )


@dataclass(frozen=True)
class UnreadableDocument:
    path: str
    message: str
    # What the bounded read refused (a missing file, a folder, a FIFO…), for a front end
    # whose exit code says so; None for a file read but not a document (empty, binary).
    error: UnreadableFileError | None = None


ShownDocument = (
    PacketDocument | ReceiptDocument | ContinuationDocument | PlainDocument | PackageDocument
)
Document = ShownDocument | UnreadableDocument
