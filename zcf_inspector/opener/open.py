"""Open files: read each once, recognise it, run its kind's checks once, make its view.

- a ZCF packet → `inspect_read` over the one read of the file, the admission notice and
  (asked) its review prepared when a destination is given, its texts scanned for
  credentials, and (asked) its file claims checked against a workspace folder;
- a transfer receipt → `verify_receipt`, under the key given or the destination's
  signing key;
- an ASIF session, a bare continuation profile or a destination report →
  `inspect_continuation` over the value already read (a report opened together with its
  session is checked against it, `pairing`; a current capability snapshot compared);
- an ASIF capability snapshot alone, or JSON of no known kind → a `PlainDocument`;
- an ASIF package (a ZIP archive, by content) → `inspect_package` with the detached
  signature beside it under the request's trusted package keys (`opener.package`);
- bytes the strict reader refuses → a packet refused at the byte stage.

A re-check (another destination or clock, F5, a file changed on disk) is an open:
`recheck_request` builds the request and the same `open_documents` runs over the bytes
already held (or, for a reload, the files read again). Nothing is checked by a second
path. The only calls of the secret scan and of the admission notice's builder on the way
to a verdict are here (a test holds it so).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from zcf_inspector.core.briefing.build import masked_workspace
from zcf_inspector.core.claims.workspace import WorkspaceCheck, check_workspace
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.hostile.scan import TextScan
from zcf_inspector.core.hostile.scan import scan_packet as scan_hostile_text
from zcf_inspector.core.monitor import NULL_MONITOR, Cancelled, Monitor
from zcf_inspector.core.packet.inspection import PacketInspection, inspect_read
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, fast_path_limit
from zcf_inspector.core.secrets.scan import SecretScan, scan_packet
from zcf_inspector.opener.documents import (
    ContinuationDocument,
    Document,
    PacketDocument,
    PlainDocument,
    ReceiptDocument,
    ShownDocument,
    UnreadableDocument,
)
from zcf_inspector.opener.file_checks import unreadable_message
from zcf_inspector.opener.package import open_package
from zcf_inspector.opener.pairing import pair_reports
from zcf_inspector.opener.reading import FileRead, PackageRead, read_file
from zcf_inspector.present.other import plain_result
from zcf_inspector.present.recognise import recognise

if TYPE_CHECKING:  # each kind's checks are imported when a document of it is opened
    from zcf_inspector.core.continuation.outline import SessionOutline
    from zcf_inspector.core.jsontypes import JsonValue
    from zcf_inspector.core.packet.admission import AdmissionNotice
    from zcf_inspector.core.packet.destination import Destination
    from zcf_inspector.core.packet.ingest import IngestResult
    from zcf_inspector.core.review.target import ReviewPreparation

BYTES_NAME = "(bytes)"  # the path of a document given as bytes (the API's sources)


@dataclass(frozen=True)
class OpenRequest:
    """Files to open together (one drop, one Open dialog, one command), and the settings
    they are checked under."""

    paths: tuple[str, ...]
    destination: Destination | None = None
    report_for: Mapping[str, str] | None = None  # session path -> report path (a reload)
    max_bytes: int = DEFAULT_MAX_BYTES  # larger files are refused
    # The clock continuation reports are assessed at (`plan --now`); None: the current time.
    now: datetime | None = None
    # Bytes already read (path -> bytes): checked as if read now, the file is not read
    # again. A re-check under other settings checks what is shown, not what the file may
    # have become since (a change on disk is offered as a reload instead).
    contents: Mapping[str, bytes] | None = None
    # session path -> (path, bytes) of the destination's current capability snapshot, for
    # an ASIF 0.5 report to be compared with byte for byte (CAPABILITIES.md).
    current_for: Mapping[str, tuple[str, bytes]] | None = None
    # Prepare the review of a packet (a destination given): the window's, not the CLI's.
    review: bool = True
    # The public key a receipt is checked with (`--key`); None: the destination's
    # signingKey, if any.
    receipt_key: bytes | None = field(default=None, repr=False)
    # Check a packet's file claims against this folder (`validate --workspace`).
    workspace: Path | None = None
    # Files that are empty, binary or too large get no document (the window); without
    # it the strict reader refuses them with their code, and an unreadable path raises.
    sniff: bool = True
    # Files larger than this take the exact reader instead of orjson's one GIL-holding
    # call (the window: its UI thread must get the GIL back); None: no such limit.
    fast_path_max_bytes: int | None = None
    # A failure of one file's check costs that file its document (the window: the other
    # files of a drop still open); without it the failure is raised, for the CLI's one
    # error-to-exit-code mapping (not enough memory, exit 2).
    contain: bool = True
    # The trusted package public key files (the window's Settings): a package's detached
    # signature beside it is checked under them; none: it is read and NOT CHECKED.
    package_keys: tuple[str, ...] = ()
    # Outline an ASIF session for the window's session view (its timeline, contexts and
    # resources), on the worker with the check; the CLI shows no outline.
    outline: bool = False


@dataclass(frozen=True, slots=True)
class OpenSettings:
    """What one document is checked under (`open_document`): the front ends' options."""

    destination: Destination | None = None
    receipt_key: bytes | None = field(default=None, repr=False)
    now: datetime | None = None
    workspace: Path | None = None
    report: bytes | None = None  # a destination report to check a session against
    current_capabilities: bytes | None = None  # the destination's current snapshot
    max_bytes: int = DEFAULT_MAX_BYTES
    review: bool = False
    sniff: bool = False


def open_document(
    source: bytes | str | os.PathLike[str],
    settings: OpenSettings = OpenSettings(),
    monitor: Monitor = NULL_MONITOR,
) -> Document:
    """One document — a path, or its bytes — opened under ``settings``."""
    path = BYTES_NAME if isinstance(source, bytes) else os.fspath(source)
    contents = {path: source} if isinstance(source, bytes) else {}
    report_for = None
    if settings.report is not None:
        report_for = {path: f"{path} (report)"}
        contents[report_for[path]] = settings.report
    current_for = None
    if settings.current_capabilities is not None:
        current_for = {path: ("(current snapshot)", settings.current_capabilities)}
    request = OpenRequest(
        (path, *(report_for or {}).values()),
        settings.destination,
        report_for,
        settings.max_bytes,
        settings.now,
        contents or None,
        current_for,
        review=settings.review,
        receipt_key=settings.receipt_key,
        workspace=settings.workspace,
        sniff=settings.sniff,
        contain=False,
    )
    opened = open_documents(request, monitor)
    return opened[0]


def open_documents(request: OpenRequest, monitor: Monitor) -> list[Document]:
    """Read, recognise and check every file of ``request`` (progress over all of them)."""
    limit = request.fast_path_max_bytes
    with nullcontext() if limit is None else fast_path_limit(limit):
        return _open_documents(request, monitor)


def _open_documents(request: OpenRequest, monitor: Monitor) -> list[Document]:
    reads: list[FileRead | PackageRead | UnreadableDocument] = []
    count = len(request.paths)
    for i, path in enumerate(request.paths):
        held = (request.contents or {}).get(path)
        step = _Share(monitor, i, count).step
        reads.append(read_file(path, held, request.max_bytes, step, sniff=request.sniff))
    readable = [r for r in reads if isinstance(r, FileRead)]
    pairs = pair_reports(readable, request.report_for or {})
    paired_reports = set(pairs.values())
    documents: list[Document] = []
    for i, item in enumerate(reads):
        if isinstance(item, UnreadableDocument):
            documents.append(item)
        elif isinstance(item, PackageRead) or item.path not in paired_reports:
            try:
                document = _check_any(item, readable, pairs, request, _Share(monitor, i, count))
                _ = document.view  # made here, on the worker: the UI thread only shows it
                documents.append(document)
            except Cancelled:
                raise
            except Exception as exc:
                if not request.contain:
                    raise
                # Hostile shapes the reader's limits let through (and any defect a file
                # finds in a check) must cost this file its document, not the whole open:
                # the other files still open, and this one says why it did not.
                documents.append(UnreadableDocument(item.path, _too_complex(item.path, exc)))
    return documents


def _check_any(
    item: FileRead | PackageRead,
    readable: list[FileRead],
    pairs: Mapping[str, str],
    request: OpenRequest,
    share: _Share,
) -> ShownDocument:
    if isinstance(item, PackageRead):  # the package branch: one call, kept apart
        return open_package(
            item.path,
            item.data,
            now=clock(request.now),
            key_paths=request.package_keys,
            monitor=share.as_monitor(),
        )
    report = next((r for r in readable if r.path == pairs.get(item.path)), None)
    return _check(item, report, request, share)


def _too_complex(path: str, exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return f"{path}: the document is too deeply nested to inspect here"
    if isinstance(exc, MemoryError):
        return f"{path}: the document is too large for memory to inspect here"
    detail = str(exc)[:200]  # shown escaped, like every message of an open
    return f"{path}: an internal error stopped its check ({type(exc).__name__}: {detail})"


def recheck_request(
    document: ShownDocument,
    destination: Destination | None,
    now: datetime | None = None,
    *,
    from_disk: bool = False,
    fast_path_max_bytes: int | None = None,
    package_keys: tuple[str, ...] = (),
    outline: bool = False,
) -> OpenRequest:
    """The open that checks ``document`` again — under ``destination`` and ``now`` —
    over the bytes it was read from, or (``from_disk``: F5, a change on disk) over its
    files read again. A session keeps the report it was checked against."""
    paths: tuple[str, ...] = (document.path,)
    report_for = None
    contents: dict[str, bytes] = {document.path: document.data}
    if isinstance(document, ContinuationDocument) and document.report_path is not None:
        paths = (document.path, document.report_path)
        report_for = {document.path: document.report_path}
        if document.report_data is not None:
            contents[document.report_path] = document.report_data
    held = not from_disk and all(contents.get(p) for p in paths)
    current_for = None
    if isinstance(document, ContinuationDocument) and document.current_path is not None:
        # The destination's current snapshot the reviewer gave is checked again with it:
        # the bytes given, not the file as it may be now (it is a statement of that moment).
        current_for = {document.path: (document.current_path, document.current_data or b"")}
    return OpenRequest(
        paths,
        destination,
        report_for,
        now=now,
        contents=contents if held else None,
        current_for=current_for,
        fast_path_max_bytes=fast_path_max_bytes,
        package_keys=package_keys,
        outline=outline,
    )


def with_current_snapshot(
    document: ContinuationDocument,
    path: str,
    monitor: Monitor,
    now: datetime | None = None,
    *,
    fast_path_max_bytes: int | None = None,
    outline: bool = False,
) -> ContinuationDocument | UnreadableDocument:
    """``document`` checked again with the file at ``path`` as the destination's current
    capability snapshot (read up to one byte past the format's 1 MiB limit)."""
    from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES  # noqa: PLC0415

    monitor.step(f"reading {Path(path).name}", 0.1)
    try:
        current = read_bounded(Path(path), MAX_SNAPSHOT_BYTES)
    except UnreadableFileError as exc:
        return UnreadableDocument(path, unreadable_message(exc, MAX_SNAPSHOT_BYTES))
    monitor.step("comparing the current snapshot", 0.5)
    changed = replace(document, current_path=path, current_data=current)
    # A check with a current snapshot is one more open of the same bytes: the same call
    # as opening the files, as every re-check is.
    request = recheck_request(
        changed, None, now, fast_path_max_bytes=fast_path_max_bytes, outline=outline
    )
    (result,) = open_documents(request, monitor)
    assert isinstance(result, ContinuationDocument | UnreadableDocument)
    return result


class _Share:
    """One file's part of the progress of a multi-file open."""

    def __init__(self, monitor: Monitor, index: int, count: int) -> None:
        self._monitor = monitor
        self._index = index
        self._count = count

    def step(self, what: str, fraction: float) -> None:
        self._monitor.step(what, (self._index + fraction) / self._count)

    def as_monitor(self) -> Monitor:
        """A monitor for one core call: it reports into this share, and its cancellation
        points are the outer monitor's too, so a cancel of the whole open stops the call
        at its next one (not only at its next progress step)."""
        return _ShareMonitor(self)

    def breathe(self) -> None:
        self._monitor.breathe()


class _ShareMonitor(Monitor):
    def __init__(self, share: _Share) -> None:
        super().__init__(lambda what, fraction: share.step(what, 0.1 + 0.9 * fraction))
        self._share = share

    def breathe(self) -> None:
        self._share.breathe()
        super().breathe()


def _check(
    item: FileRead, report: FileRead | None, request: OpenRequest, share: _Share
) -> ShownDocument:
    kind = recognise(item.value)
    if kind is DocumentKind.PACKET:
        return _check_packet(item, request, share)
    share.step(f"checking {Path(item.path).name}", 0.5)
    if kind is DocumentKind.RECEIPT:
        from zcf_inspector.core.packet.receipt import verify_receipt  # noqa: PLC0415

        report_ = verify_receipt(item.value, _receipt_key(request))
        return ReceiptDocument(item.path, item.value, report_, item.data, item.parses)
    if kind in (DocumentKind.CAPABILITY_SNAPSHOT, DocumentKind.UNKNOWN):
        return PlainDocument(item.path, item.data, item.value, plain_result(kind), item.parses)
    # Imported here: `validate` of a packet never loads the continuation checks.
    from zcf_inspector.core.continuation.inspection import inspect_continuation  # noqa: PLC0415

    current = (request.current_for or {}).get(item.path)
    session = DocumentKind.ASIF_SESSION
    result = inspect_continuation(
        item.data,
        now=clock(request.now),
        report=None if report is None else report.data,
        monitor=share.as_monitor(),
        current_capabilities=None if current is None else current[1],
        parsed=item.value,
        report_parsed=None if report is None else report.value,
    )
    return ContinuationDocument(
        item.path,
        item.value,
        result,
        None if report is None else report.path,
        item.data,
        None if report is None else report.data,
        None if current is None else current[0],
        None if current is None else current[1],
        item.parses + (0 if report is None else report.parses),
        _outline(item.value) if request.outline and result.kind is session else None,
    )


def _outline(value: JsonValue) -> SessionOutline:
    """An ASIF session's outline for the window's session view (its timeline, contexts
    and resources), made on the worker: 100,000 events are too many for the UI thread."""
    from zcf_inspector.core.continuation.outline import session_outline  # noqa: PLC0415

    return session_outline(value)


def _check_packet(item: FileRead, request: OpenRequest, share: _Share) -> PacketDocument:
    monitor = share.as_monitor()
    destination = request.destination
    # Refused at the byte stage, or not an object: the read already says why.
    inspection = inspect_read(item.read, item.data, destination, monitor=monitor)
    prepared = None
    if destination is not None and request.review:
        from zcf_inspector.core.review.target import prepare_review  # noqa: PLC0415 - the window's

        prepared = prepare_review(item.data, inspection, destination)
    secrets, workspace = packet_advisories(inspection, request.workspace, monitor)
    hostile = text_advisories(inspection, monitor)
    return PacketDocument(
        item.path,
        item.data,
        inspection,
        prepared,
        secrets,
        admission_notice(inspection, destination, prepared),
        workspace,
        request.workspace is not None,
        item.parses,
        hostile=hostile,
    )


def packet_advisories(
    inspection: PacketInspection, folder: Path | None = None, monitor: Monitor = NULL_MONITOR
) -> tuple[SecretScan | None, WorkspaceCheck | None]:
    """What is said beside a packet's verdict and never changes it: the secret scan of its
    texts (None: the bytes were refused) and, given a ``folder``, its file claims checked
    against it (as found: `masked_claims` masks them for printing, and the briefing masks
    its own). The one call of the scan on the way to a verdict (`ingest` and `review`
    print these too)."""
    value = inspection.value
    if value is None:
        return None, None
    secrets = scan_packet(value, monitor)
    workspace = None if folder is None else check_workspace(value, folder)
    return secrets, workspace


def text_advisories(
    inspection: PacketInspection, monitor: Monitor = NULL_MONITOR
) -> TextScan | None:
    """The hostile-text scan of a packet's texts (hidden characters, look-alike
    identifiers; None: the bytes were refused): said beside the verdict like the secret
    scan, counted on the admission chip, never changing it. Its one call on the way to a
    verdict."""
    if inspection.value is None:
        return None
    return scan_hostile_text(inspection.value, monitor)


def masked_claims(
    workspace: WorkspaceCheck | None, secrets: SecretScan | None
) -> WorkspaceCheck | None:
    """The workspace check with every locator holding a suspected credential masked, as
    `validate --workspace` prints it (the briefing's one masking rule)."""
    if workspace is None or secrets is None:
        return workspace
    return masked_workspace(workspace, secrets.by_pointer())


def admission_notice(
    inspection: PacketInspection,
    destination: Destination | None,
    prepared: ReviewPreparation | None = None,
) -> AdmissionNotice | None:
    """What the destination's admission changes (beliefs dropped, cut, demoted; tools not
    native): the admission chip, never hidden. Only for a packet it admits; the review's
    target already holds it when one was prepared."""
    if destination is None or not inspection.valid:
        return None
    if prepared is not None:
        return None if prepared.target is None else prepared.target.notice
    # Imported here: most runs have no destination.
    from zcf_inspector.core.packet.ingest import ingest_inspection  # noqa: PLC0415

    return ingest_notice(ingest_inspection(inspection, destination))


def ingest_notice(result: IngestResult) -> AdmissionNotice | None:
    """What an ingest's admission changed, in words (None: refused, nothing admitted)."""
    if result.admission is None:
        return None
    from zcf_inspector.core.packet.admission import describe_admission  # noqa: PLC0415

    return describe_admission(result.admission, result.degraded)


def clock(now: datetime | None) -> datetime:
    """The assessment clock: the one chosen (Settings, ``--now``), or the current UTC time."""
    return now if now is not None else datetime.now(UTC)


def _receipt_key(request: OpenRequest) -> bytes | None:
    if request.receipt_key is not None:
        return request.receipt_key
    destination = request.destination
    return None if destination is None else destination.signing_public_key
