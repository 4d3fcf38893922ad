"""What a tab shows, and how files become it: kinds are recognised by content.

Runs on a worker thread: every function here may take long and reports through the
`Monitor` (which raises `Cancelled` when the user cancels).

- a ZCF packet → `inspect_read` over the one read of the file (exactly what `validate` runs),
  its review prepared (a destination given) and its texts scanned for credentials;
- a transfer receipt (``format: zephr-continuity-receipt``) → `verify_receipt`;
- an ASIF session, a bare continuation profile or a destination report →
  `inspect_continuation` (a report dropped together with its session is checked
  against it);
- bytes the strict reader refuses are shown as a packet refused at the byte stage.

A re-check (another destination or "Assess at" clock, F5, a file changed on disk) is
an open: the window builds a `recheck_request` and the same `open_documents` runs — the
same kind recognition, checks and review preparation — over the bytes the tab holds (or,
for a reload, the file read again). Nothing is checked by a second path.

Files that are not documents at all — folders, devices, FIFOs, dangling or looping
symbolic links, unreadable, empty, binary or oversized files — become an
`UnreadableDocument` with one specific, plain message: no tab is made for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.files import UnreadableFileError, read_bounded
from zcf_inspector.core.hostile.scan import TextScan
from zcf_inspector.core.hostile.scan import scan_packet as scan_hostile_text
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.packet.destination import Destination
from zcf_inspector.core.packet.inspection import PacketInspection, inspect_read
from zcf_inspector.core.packet.receipt import ReceiptReport, verify_receipt
from zcf_inspector.core.reading import (
    DEFAULT_MAX_BYTES,
    ReadDocument,
    ReadError,
    fast_path_limit,
    read_document,
)
from zcf_inspector.core.review.target import ReviewPreparation, prepare_review
from zcf_inspector.core.secrets.scan import SecretScan, scan_packet
from zcf_inspector.gui.file_checks import content_problem, unreadable_message
from zcf_inspector.present.recognise import CONTINUATION_KINDS, recognise
from zcf_inspector.present.vocabulary import DocumentKind

# The reader's fast path parses in one call that holds the GIL (about 3 ms per MB): on a
# larger file that would freeze the UI thread past its 100 ms budget, so such files are
# read by the exact reader, which lets the UI thread in between objects.
FAST_READ_MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class PacketDocument:
    path: str
    data: bytes
    inspection: PacketInspection
    # What the review pane shows, prepared on the worker: ingest and the review target
    # of 10,000 admitted beliefs take about 0.2 s, too long for the UI thread.
    review: ReviewPreparation | None = None
    # The secret scan of its texts (None: the bytes were refused), made by the open on the
    # worker: the header's admission chip, the findings and the tree's masks come from it,
    # and the Briefing does not scan again.
    secrets: SecretScan | None = None
    hostile: TextScan | None = None  # the hostile-text scan, made beside it, used likewise


@dataclass(frozen=True)
class ReceiptDocument:
    path: str
    value: JsonValue
    report: ReceiptReport
    data: bytes = b""  # the bytes read, kept so that a re-check needs no second read


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


@dataclass(frozen=True)
class UnreadableDocument:
    path: str
    message: str


ShownDocument = PacketDocument | ReceiptDocument | ContinuationDocument  # what a tab shows
Document = ShownDocument | UnreadableDocument


@dataclass(frozen=True)
class OpenRequest:
    """Files to open together (one drop, one Open dialog), and what to verify with."""

    paths: tuple[str, ...]
    destination: Destination | None = None
    report_for: dict[str, str] | None = None  # session path -> report path (a reload)
    max_bytes: int = DEFAULT_MAX_BYTES  # larger files are refused before they are read
    # The clock continuation reports are assessed at (`plan --now`); None: the current time.
    now: datetime | None = None
    # Bytes already read (path -> bytes): checked as if read now, the file is not read
    # again. A re-check under other settings checks what is shown, not what the file may
    # have become since (a change on disk is offered as a reload instead).
    contents: Mapping[str, bytes] | None = None
    # session path -> (path, bytes) of the destination's current capability snapshot, for
    # an ASIF 0.5 report to be compared with byte for byte (CAPABILITIES.md).
    current_for: Mapping[str, tuple[str, bytes]] | None = None
    # Prepare the review of a packet (a destination given): not for side A of a
    # comparison checked again, which shows no review.
    review: bool = True


@dataclass
class FileRead:
    path: str
    data: bytes
    read: ReadDocument | ReadError  # the one strict read of the file

    @property
    def value(self) -> JsonValue | None:  # None when refused at the byte stage
        return self.read.value if isinstance(self.read, ReadDocument) else None


def _kind(value: JsonValue | None) -> str:
    """ "packet", "receipt", "report" or "session" (a bare profile too), as recognised by
    the presentation layer: the one place kinds are told apart."""
    kind = recognise(value)
    if kind is DocumentKind.CONTINUATION_REPORT:
        return "report"
    if kind in CONTINUATION_KINDS:
        return "session"
    return str(kind)


def strict_read(data: bytes, max_bytes: int) -> ReadDocument | ReadError:
    """The one strict read of a file, in the mode its kind needs.

    ZCF packets and receipts are read under the profile's ±2^53 rule, continuation
    documents with exact numbers (as `inspect_continuation` reads them). The kind is known
    only once the bytes are read, so they are read under the profile's rule first (a
    packet, the common case, is read once) and again exactly only when that can change
    what is shown: a continuation document holding a number that is not a plain int
    literal within ±2^53 (27.999999999999999999 read as a double is 28), or bytes refused
    only for a number out of range (the exact mode has no such rule, ASIF no such bound).
    """
    try:
        read = read_document(data, max_bytes=max_bytes)
    except ReadError as refused:
        if refused.code is not ErrorCode.NUMBER_OUT_OF_RANGE:
            return refused  # the exact mode refuses such bytes too
        try:
            exact = read_document(data, max_bytes=max_bytes, exact=True)
        except ReadError:
            return refused
        return exact if _kind(exact.value) in ("session", "report") else refused
    if (read.has_fractions or read.decimal_literals) and _kind(read.value) in ("session", "report"):
        return read_document(data, max_bytes=max_bytes, exact=True)  # accepted again
    return read


def read_file(
    path: str, held: bytes | None, max_bytes: int, step: Callable[[str, float], None]
) -> FileRead | UnreadableDocument:
    """The one read of a file the window shows (an open, a re-check, a comparison's B):
    bounded and non-blocking (a FIFO never blocks the worker), ``held`` bytes instead when
    given, the content checked, then one strict read. ``step`` reports progress."""
    name = Path(path).name
    step(f"reading {name}", 0.0)
    try:
        data = held if held is not None else read_bounded(path, max_bytes, refuse_larger=True)
    except UnreadableFileError as exc:
        return UnreadableDocument(path, unreadable_message(exc, max_bytes))
    problem = content_problem(path, data, max_bytes)
    if problem is not None:
        return UnreadableDocument(path, problem)
    step(f"parsing {name}", 0.05)
    # On the runner a large file takes the exact reader, which lets the UI thread in
    # between objects (orjson parses in one call that holds the GIL).
    with fast_path_limit(FAST_READ_MAX_BYTES):
        return FileRead(path, data, strict_read(data, max_bytes))


def open_documents(request: OpenRequest, monitor: Monitor) -> list[Document]:
    """Read, recognise and check every file of ``request`` (progress over all of them)."""
    with fast_path_limit(FAST_READ_MAX_BYTES):
        return _open_documents(request, monitor)


def _open_documents(request: OpenRequest, monitor: Monitor) -> list[Document]:
    reads: list[FileRead | UnreadableDocument] = []
    count = len(request.paths)
    for i, path in enumerate(request.paths):
        held = (request.contents or {}).get(path)
        reads.append(read_file(path, held, request.max_bytes, _Share(monitor, i, count).step))
    readable = [r for r in reads if isinstance(r, FileRead)]
    pairs = _pair_reports(readable, request.report_for or {})
    paired_reports = set(pairs.values())
    documents: list[Document] = []
    for i, item in enumerate(reads):
        if isinstance(item, UnreadableDocument):
            documents.append(item)
        elif item.path not in paired_reports:
            report = next((r for r in readable if r.path == pairs.get(item.path)), None)
            share = _Share(monitor, i, count)
            try:
                current = (request.current_for or {}).get(item.path)
                documents.append(
                    _check(
                        item,
                        report,
                        request.destination,
                        share,
                        request.now,
                        current=current,
                        review=request.review,
                    )
                )
            except Cancelled:
                raise
            except Exception as exc:  # noqa: BLE001 - one file's failure, reported as such
                # Hostile shapes the reader's limits let through (and any defect a file
                # finds in a check) must cost this file its tab, not the whole drop: the
                # other files still open, and this one says why it did not.
                documents.append(UnreadableDocument(item.path, _too_complex(item.path, exc)))
    return documents


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
    )


def with_current_snapshot(
    document: ContinuationDocument, path: str, monitor: Monitor, now: datetime | None = None
) -> ContinuationDocument | UnreadableDocument:
    """``document`` checked again with the file at ``path`` as the destination's current
    capability snapshot (read up to one byte past the format's 1 MiB limit)."""
    monitor.step(f"reading {Path(path).name}", 0.1)
    try:
        current = read_bounded(Path(path), MAX_SNAPSHOT_BYTES)
    except UnreadableFileError as exc:
        return UnreadableDocument(path, unreadable_message(exc, MAX_SNAPSHOT_BYTES))
    monitor.step("comparing the current snapshot", 0.5)
    changed = replace(document, current_path=path, current_data=current)
    # A check with a current snapshot is one more open of the same bytes: the same call
    # as opening the files, as every re-check is.
    (result,) = open_documents(recheck_request(changed, None, now), monitor)
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
    item: FileRead,
    report: FileRead | None,
    destination: Destination | None,
    share: _Share,
    now: datetime | None = None,
    *,
    current: tuple[str, bytes] | None = None,
    review: bool = True,
) -> Document:
    kind = _kind(item.value)
    if kind == "packet":
        monitor = share.as_monitor()
        # Refused at the byte stage, or not an object: the read already says why.
        inspection = inspect_read(item.read, item.data, destination, monitor=monitor)
        prepared = None
        if destination is not None and review:
            prepared = prepare_review(item.data, inspection, destination)
        value = inspection.value
        secrets = None if value is None else scan_packet(value, monitor)
        hostile = None if value is None else scan_hostile_text(value, monitor)
        return PacketDocument(item.path, item.data, inspection, prepared, secrets, hostile)
    share.step(f"checking {Path(item.path).name}", 0.5)
    if kind == "receipt":
        return ReceiptDocument(
            item.path, item.value, verify_receipt(item.value, _receipt_key(destination)), item.data
        )
    report_data = None if report is None else report.data
    result = inspect_continuation(
        item.data,
        now=clock(now),
        report=report_data,
        monitor=share.as_monitor(),
        current_capabilities=None if current is None else current[1],
    )
    return ContinuationDocument(
        item.path,
        item.value,
        result,
        None if report is None else report.path,
        item.data,
        report_data,
        None if current is None else current[0],
        None if current is None else current[1],
    )


def clock(now: datetime | None) -> datetime:
    """The assessment clock: the one chosen in Settings, or the current UTC time."""
    return now if now is not None else datetime.now(UTC)


def _receipt_key(destination: Destination | None) -> bytes | None:
    return None if destination is None else destination.signing_public_key


def _pair_reports(reads: list[FileRead], known: dict[str, str]) -> dict[str, str]:
    """session path -> report path, for reports opened together with their session.

    A report names the SHA-256 of the session bytes it binds; failing that, the session
    id. A lone session and a lone report opened together are paired as well, so the core
    reports any binding mismatch.
    """
    sessions = [r for r in reads if _kind(r.value) == "session"]
    reports = [r for r in reads if _kind(r.value) == "report"]
    pairs = {s: r for s, r in known.items() if any(x.path == r for x in reports)}
    digests = {hashlib.sha256(s.data).hexdigest(): s for s in sessions}
    ids = {_session_id(s.value): s for s in sessions}
    for report in reports:
        source = report.value.get("source") if isinstance(report.value, dict) else None
        source = source if isinstance(source, dict) else {}
        session = digests.get(str(source.get("document_sha256"))) or ids.get(
            str(source.get("session_id"))
        )
        if session is not None and session.path not in pairs:
            pairs[session.path] = report.path
    free_sessions = [s for s in sessions if s.path not in pairs]
    free_reports = [r for r in reports if r.path not in pairs.values()]
    if len(free_sessions) == 1 and len(free_reports) == 1:
        pairs[free_sessions[0].path] = free_reports[0].path
    return pairs


def _session_id(value: JsonValue | None) -> str | None:
    if isinstance(value, dict):
        session = value.get("session")
        if isinstance(session, dict) and isinstance(session.get("id"), str):
            return str(session["id"])
    return None
