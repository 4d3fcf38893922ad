"""The library interface of zcf-inspector: everything a program needs, in one import.

Everything else in the package (``zcf_inspector.core``, ``.cli``, ``.gui``) is internal and
may change between releases; this module and the names it exports are the stable surface.

    >>> from zcf_inspector import api
    >>> inspection = api.inspect_packet("goldens/publication/full-handoff.json")
    >>> inspection.valid, inspection.auth.status if inspection.auth else None
    (True, <AuthStatus.UNSIGNED: 'unsigned'>)
    >>> [f.code for f in api.inspect_packet(b'{"a": 1, "a": 2}').findings]
    [<ErrorCode.DUPLICATE_KEY: 'duplicate_key'>]

A *source* is the packet's bytes, or the path of a file holding them (read without
trusting it: at most the size limit, regular files only). Results are frozen dataclasses
whose findings each carry a stable ``code``, a ``severity``, a JSON ``pointer`` and a
``message``; nothing here prints or exits. What the rules refuse is a result, never an
exception: an invalid packet is an inspection with error findings, a refused review a
result without a receipt. Problems with the inputs themselves (a file that cannot be read,
a destination file that is not one, arguments that do not go together) raise `InputError`;
every exception raised on purpose derives from `ZcfError` and carries a stable ``code``.
Each function below says what it raises.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from enum import StrEnum

from zcf_inspector.core import file_trust as _file_trust
from zcf_inspector.core.canonical import canonical as _canonical
from zcf_inspector.core.code_registry import describe as _describe
from zcf_inspector.core.codes import CodeInfo, ErrorCode, PlanCode, ReviewCode
from zcf_inspector.core.compare.model import Change, ChangeKind, Comparison, PartStatus
from zcf_inspector.core.compare.packets import compare as _compare
from zcf_inspector.core.continuation.inspection import inspect_continuation as _continuation
from zcf_inspector.core.continuation.inspection import require_plan as _require_plan
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.errors import ArgumentError, FormatError, InputError, RefusalError, ZcfError
from zcf_inspector.core.files import UnreadableFileError
from zcf_inspector.core.files import read_bounded as _read_bounded
from zcf_inspector.core.files import shown_path as _shown_path
from zcf_inspector.core.findings import Finding, OmittedFindings, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.keyfile import KeyFileError
from zcf_inspector.core.monitor import NULL_MONITOR as _NULL_MONITOR
from zcf_inspector.core.monitor import Cancelled, Monitor
from zcf_inspector.core.package import limits as _package_limits
from zcf_inspector.core.package import signature as _package_signature
from zcf_inspector.core.package import verify as _package_verify
from zcf_inspector.core.package import writer as _package_writer
from zcf_inspector.core.package.results import PackageResult
from zcf_inspector.core.packet.destination import Destination, DestinationError
from zcf_inspector.core.packet.destination import load_destination as _load_destination
from zcf_inspector.core.packet.destination import parse_destination as _parse_destination
from zcf_inspector.core.packet.ingest import IngestResult
from zcf_inspector.core.packet.ingest import ingest_inspection as _ingest_inspection
from zcf_inspector.core.packet.inspection import (
    PacketInspection,
    Stage,
    StageResult,
    StageStatus,
)
from zcf_inspector.core.packet.inspection import inspect_bytes as _inspect_bytes
from zcf_inspector.core.packet.producer import AuthKind, SealError
from zcf_inspector.core.packet.producer import seal_packet as _seal_packet
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus
from zcf_inspector.core.packet.receipt import unreadable_receipt as _unreadable_receipt
from zcf_inspector.core.packet.receipt import verify_receipt as _verify_receipt
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, ReadError
from zcf_inspector.core.reading import packet_refusal as _packet_refusal
from zcf_inspector.core.reading import read_json as _read_json
from zcf_inspector.core.reading import read_packet as _read_packet
from zcf_inspector.core.review.batch import DECISIONS_MAX_BYTES as _DECISIONS_MAX_BYTES
from zcf_inspector.core.review.batch import ReviewResult
from zcf_inspector.core.review.batch import review_packet as _review_packet
from zcf_inspector.core.review.decisions import ReviewError
from zcf_inspector.opener import arguments as _args
from zcf_inspector.opener.documents import DocumentView
from zcf_inspector.opener.documents import UnreadableDocument as _UnreadableDocument
from zcf_inspector.opener.open import OpenSettings as _OpenSettings
from zcf_inspector.opener.open import ingest_notice as _ingest_notice
from zcf_inspector.opener.open import open_document as _open_document
from zcf_inspector.opener.open import packet_advisories as _packet_advisories
from zcf_inspector.opener.open import text_advisories as _text_advisories
from zcf_inspector.present.registry import verdict_of as _verdict_of
from zcf_inspector.present.vocabulary import CheckStatus, Chip, Trust, Verdict

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ArgumentError",
    "AuthKind",
    "Cancelled",
    "Change",
    "ChangeKind",
    "CheckStatus",
    "Chip",
    "CodeInfo",
    "Comparison",
    "Destination",
    "DestinationError",
    "DocumentView",
    "ErrorCode",
    "Finding",
    "FormatError",
    "IngestResult",
    "InputError",
    "InspectionResult",
    "JsonValue",
    "KeyFileError",
    "Monitor",
    "OmittedFindings",
    "PacketInspection",
    "PartStatus",
    "PlanCode",
    "ReadError",
    "ReceiptReport",
    "ReceiptStatus",
    "RefusalError",
    "ReviewCode",
    "ReviewError",
    "ReviewResult",
    "SealError",
    "Severity",
    "Source",
    "Stage",
    "StageResult",
    "StageStatus",
    "Trust",
    "UnreadableFileError",
    "Verdict",
    "ZcfError",
    "canonicalize",
    "compare",
    "describe",
    "ingest",
    "inspect_continuation",
    "inspect_packet",
    "load_destination",
    "open_document",
    "parse_destination",
    "read_json",
    "review",
    "seal",
    "verdict",
    "verify_receipt",
]

Result = (
    PacketInspection | IngestResult | ReceiptReport | InspectionResult | Comparison | PackageResult
)
"""What `verdict` presents: a result of this module's checks."""

Source = bytes | bytearray | memoryview | str | os.PathLike[str]
"""A document's bytes, or the path of the file that holds them (a ``str`` is always a
path: JSON text is passed as bytes)."""


def _bytes(source: object, max_bytes: int = DEFAULT_MAX_BYTES, name: str = "source") -> bytes:
    return _args.source_bytes(source, name, max_bytes)


def inspect_packet(
    source: Source,
    destination: Destination | str | os.PathLike[str] | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    monitor: Monitor | None = None,
) -> PacketInspection:
    """Every check of a ZCF v1 packet: bytes, structure, manifest, authentication, and
    with a ``destination`` (a `Destination` or the path of a destination file) the MAC and
    policy too. ``inspection.valid`` says whether any finding is an error; ``auth`` says
    what was (and was not) verified. ``monitor`` reports progress and can cancel.

    A packet the rules refuse is an inspection with error findings, never an exception.

    Raises:
        UnreadableFileError: ``source`` is a path that cannot be read (an `InputError`).
        DestinationError: the destination file cannot be read or is not one.
        Cancelled: ``monitor`` was cancelled.
        ArgumentError: an argument of the wrong type (an `InputError`).
    """
    limit = _args.positive_int(max_bytes, "max_bytes")
    watch = _args.monitor(monitor)
    return _inspect_bytes(
        _bytes(source, limit),
        _args.destination(destination),
        max_bytes=limit,
        monitor=watch or _NULL_MONITOR,
    )


def ingest(source: Source, destination: Destination | str | os.PathLike[str]) -> IngestResult:
    """Admit a packet at a destination (profile §6): ``result.receipt`` is the transfer
    receipt (signed when the destination has a signing key), or None when refused.

    Raises:
        InputError: no destination was given (None).
        UnreadableFileError: ``source`` is a path that cannot be read.
        DestinationError: the destination file cannot be read or is not one.
    """
    resolved = _args.required_destination(destination)
    inspection = _inspect_bytes(_bytes(source), resolved)
    return _ingest_inspection(inspection, resolved)


def review(
    source: Source,
    destination: Destination | str | os.PathLike[str],
    decisions: Sequence[Mapping[str, JsonValue]] | Source | None = None,
    *,
    reviewer: str,
    previous: str | os.PathLike[str] | None = None,
    previous_receipt: str | os.PathLike[str] | None = None,
    repeat_unchanged: bool = False,
    repeat_note: str | None = None,
    accept_unsigned_previous: bool = False,
) -> ReviewResult:
    """The library twin of ``zcf-inspector review``: ingest the packet at the destination,
    apply ``decisions`` (``[{"portableRef", "state", "note"?, "supersededBy"?}, …]`` in
    order — given as a list, or as a decisions file's bytes or path) as ``reviewer``, and
    make the receipt with the review in it: the same bytes the command and the window write.

    With ``previous`` and ``previous_receipt`` (the previous generation's packet and the
    receipt exported for it, as paths) the packet is compared with that generation first;
    ``repeat_unchanged`` then repeats its decisions on beliefs whose admitted content is
    byte-identical, as ``reviewer``, now, in one step before ``decisions``, each noted with
    ``repeat_note`` — only when a key the destination trusts (its ``signingKey`` or a
    ``trustedKeys`` entry) signed that receipt, or with ``accept_unsigned_previous`` (the
    command's ``--accept-unsigned-previous``; the notes then say so); otherwise that is a
    refusal (``previous_receipt_untrusted``). ``result.receipt`` is None when the packet,
    the previous generation or any decision was refused; ``result.findings`` (and
    ``result.ingest.findings`` for the packet) say why.

    Raises:
        InputError: options that do not go together (``previous`` without
            ``previous_receipt``, ``repeat_unchanged`` without a ``repeat_note``, neither
            ``decisions`` nor ``repeat_unchanged``…), a decisions file that is not strict
            JSON, or no destination.
        UnreadableFileError: a path that cannot be read.
        DestinationError: the destination file cannot be read or is not one.
    """
    resolved = _args.required_destination(destination)
    return _review_packet(
        _bytes(source),
        resolved,
        _args.decisions(decisions, _DECISIONS_MAX_BYTES),
        reviewer=_args.text(reviewer, "reviewer"),
        previous=None if previous is None else _args.path_of(previous, "previous"),
        previous_receipt=None
        if previous_receipt is None
        else _args.path_of(previous_receipt, "previous_receipt"),
        repeat_unchanged=_args.boolean(repeat_unchanged, "repeat_unchanged"),
        repeat_note=_args.optional_text(repeat_note, "repeat_note"),
        accept_unsigned_previous=_args.boolean(
            accept_unsigned_previous, "accept_unsigned_previous"
        ),
    )


def verify_receipt(
    source: Source, key: Destination | bytes | str | os.PathLike[str] | None = None
) -> ReceiptReport:
    """Recompute a receipt's digest and, given its signer's key, check its signature.

    ``key`` is what signed it, in any of the forms the `receipt verify` command takes: a
    `Destination` (its ``signingKey`` signs its receipts), the path of a public key file
    (``keygen --public-of``; a private key file or a destination file works too), or the
    raw 32-byte Ed25519 public key. Without one a signed receipt is
    ``VALID_SIGNATURE_NOT_CHECKED``. A receipt that is not strict JSON is reported
    invalid, not raised.

    Raises:
        UnreadableFileError: ``source`` is a path that cannot be read.
        KeyFileError: the key file cannot be read or holds no Ed25519 key.
        DestinationError: the key file is a destination file that is not a valid one.
        InputError: the destination has no ``signingKey`` (its receipts are unsigned).
        FormatError: raw key bytes that are not 32 bytes long.
    """
    public_key = _args.public_key(key)
    data = _bytes(source)
    try:
        value = _read_json(data)
    except ReadError as exc:
        # A receipt is a JSON object: a top level that is not one comes first (§1).
        return _unreadable_receipt(_packet_refusal(exc, data).to_finding())
    del data  # only the value is held while it is checked
    return _verify_receipt(value, public_key)


def seal(
    packet: Source | Mapping[str, JsonValue],
    kind: AuthKind | str = AuthKind.UNSIGNED,
    *,
    signing_seed: bytes | None = None,
    source_installation_key: bytes | None = None,
    destination_installation_key: bytes | None = None,
) -> dict[str, JsonValue]:
    """A draft packet (a parsed object, its bytes or its path) with a fresh manifest and an
    authentication of ``kind`` (an `AuthKind` or its value: ``"unsigned"``,
    ``"source-signature"``, ``"recipient-bound-mac"``).

    Raises:
        SealError: ``kind`` is not one of the three, or the keys do not fit it (a missing
            or wrongly sized key, a recipient-bound MAC on a packet not addressed to a
            recipient), or the draft holds a value canonical JSON cannot take.
        ReadError: the draft's bytes are not strict JSON or not an object (a `RefusalError`).
        UnreadableFileError: ``packet`` is a path that cannot be read.
    """
    if not isinstance(kind, str):
        raise _args.wrong("kind", "an AuthKind or its value (a str)", kind)
    keys = {
        name: _args.optional_bytes(value, name)
        for name, value in (
            ("signing_seed", signing_seed),
            ("source_installation_key", source_installation_key),
            ("destination_installation_key", destination_installation_key),
        )
    }
    try:
        auth_kind = AuthKind(kind)
    except ValueError:
        known = ", ".join(k.value for k in AuthKind)
        raise SealError(
            f"not an authentication kind: {str(kind)[:80]!r} (one of {known})"
        ) from None
    draft = (
        dict(_args.mapping(packet, "packet"))
        if isinstance(packet, Mapping)
        else _read_packet(_bytes(packet, name="packet"))
    )
    return _seal_packet(
        draft,  # type: ignore[arg-type]
        auth_kind,
        signing_seed=keys["signing_seed"],
        source_installation_key=keys["source_installation_key"],
        destination_installation_key=keys["destination_installation_key"],
    )


def canonicalize(value: JsonValue | bytes) -> bytes:
    """The ZCF-JSON-v1 bytes (profile §2) of a value, or of a JSON text read strictly.

    Raises:
        ReadError: ``value`` is bytes that are not strict JSON (profile §1).
        FormatError: ``value`` holds something JSON cannot (a set, NaN, a non-string key).
    """
    if isinstance(value, bytes | bytearray | memoryview):
        return _canonical(_read_json(bytes(value)))
    return _canonical(value)


def compare(a: Source, b: Source, *, monitor: Monitor | None = None) -> Comparison:
    """What changed from packet ``a`` to packet ``b``: every covered section by digest, then
    inside each changed one every element by its identity (beliefs by ``portableRef``,
    other items by ``id``…), and the fields outside the root, marked so. Either packet may
    be refused at a later stage; one refused at the byte stage leaves nothing to compare
    (``comparison.readable`` is False).

    Raises:
        UnreadableFileError: a path that cannot be read.
        Cancelled: ``monitor`` was cancelled.
    """
    watch = _args.monitor(monitor)
    return _compare(_bytes(a, name="a"), _bytes(b, name="b"), monitor=watch or _NULL_MONITOR)


def describe(code: StrEnum) -> CodeInfo:
    """The registry entry of a finding code (an `ErrorCode`, `PlanCode` or `ReviewCode`):
    its family, the severity it is usually reported with, and its meaning in one line —
    the entry of the code list (docs/codes.md).

    Raises:
        InputError: ``code`` is not a member of one of the three code enums (a bare string
            is not: ``duplicate_id`` is both a packet and a continuation code).
    """
    try:
        return _describe(code)
    except (KeyError, TypeError):
        raise InputError(f"not a finding code: {str(code)[:80]!r}") from None


def inspect_continuation(
    session: Source,
    *,
    now: datetime | str | None = None,
    plan_id: str | None = None,
    report: Source | None = None,
    current_capabilities: Source | None = None,
) -> InspectionResult:
    """An ASIF 0.4 or 0.5 session, bare continuation profile or destination report: each
    plan's prerequisite closure and required flags, its findings, and with ``report``
    (checked against the session's exact bytes) the report's verdict at the clock ``now``
    (default: the current UTC time). ``current_capabilities``: the destination's current
    capability snapshot bytes, compared exactly with those an ASIF 0.5 report binds. A
    document the rules refuse is a result with error findings, never an exception: only
    `ZcfError` leaves it. Every check is bounded, and should a document still find a limit
    of the interpreter (recursion, memory, an overflowing count), that is raised as an
    `InputError` saying so, never as the interpreter's own exception.

    Raises:
        UnreadableFileError: a path that cannot be read.
        InputError: the document reached a limit of the interpreter, or ``plan_id`` names
            no plan of a session or profile the rules accepted (as `plan --plan` refuses).
    """
    data = _bytes(session, name="session")
    report_data = None if report is None else _bytes(report, name="report")
    current = (
        None
        if current_capabilities is None
        else _bytes(current_capabilities, name="current_capabilities")
    )
    clock = _args.moment(now)
    plan_id = _args.optional_text(plan_id, "plan_id")
    try:
        result = _continuation(
            data,
            now=clock or datetime.now(UTC),
            plan_id=plan_id,
            report=report_data,
            current_capabilities=current,
        )
    except (RecursionError, MemoryError, OverflowError) as exc:
        raise InputError(
            f"the document is too complex to inspect ({type(exc).__name__}: {exc})"
        ) from exc
    _require_plan(result, plan_id)
    return result


def verdict(result: Result) -> Verdict:
    """What the window and the CLI say about a checked document — the same words, trust
    level (``verified``, ``unsigned``, ``unchecked``, ``refused``) and chips: ``result``
    is what `inspect_packet`, `ingest` (its chips say what admission changed),
    `verify_receipt`, `inspect_continuation` or `compare` gave.

        >>> from zcf_inspector import api
        >>> shown = api.verdict(api.inspect_packet("goldens/publication/minimal.json"))
        >>> shown.words, str(shown.trust)
        ('VALID · UNSIGNED', 'unsigned')

    Raises:
        InputError: ``result`` is not one of the results named above.
    """
    # A packet's texts are scanned as `validate` and the window scan them (the opener's
    # one call of the scan): what it flagged is on the admission chip (it never changes
    # the words or the trust level), and an ingest's admission notice is the opener's.
    inspection = result.inspection if isinstance(result, IngestResult) else result
    secrets = hostile = None
    if isinstance(inspection, PacketInspection):
        secrets, _ = _packet_advisories(inspection)
        hostile = _text_advisories(inspection)
    admission = _ingest_notice(result) if isinstance(result, IngestResult) else None
    try:
        return _verdict_of(result, admission=admission, secrets=secrets, hostile=hostile)
    except TypeError as exc:  # no presenter for it: a wrong argument, said as one
        raise _args.wrong("result", "a result of this module's checks", result) from exc


def open_document(
    source: Source,
    *,
    destination: Destination | str | os.PathLike[str] | None = None,
    key: Destination | bytes | str | os.PathLike[str] | None = None,
    now: datetime | str | None = None,
    report: Source | None = None,
    current_capabilities: Source | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> DocumentView:
    """Any document, opened as the window and `validate` open it (the headless opener):
    its kind recognised (a packet, a receipt, an ASIF session, profile or report, a
    capability snapshot, or unknown JSON) and its checks run once, under ``destination``,
    a receipt's signer ``key`` (as `verify_receipt` takes it), the clock ``now`` (an
    aware datetime or RFC 3339 text), a session's ``report`` and the destination's
    ``current_capabilities``. The view holds the verdict (headline, trust, chips), the
    findings and the admission notice: the same object every front end renders.

        >>> from zcf_inspector import api
        >>> api.open_document(b'{"a": 1}').headline
        'UNRECOGNISED DOCUMENT'

    Raises:
        UnreadableFileError: a path that cannot be read.
        DestinationError: the destination file cannot be read or is not one.
        KeyFileError: the key file cannot be read or holds no Ed25519 key.
        ArgumentError: an argument of the wrong type (an `InputError`).
    """
    data = _bytes(source)
    resolved = _args.destination(destination)
    settings = _OpenSettings(
        destination=resolved,
        receipt_key=_args.public_key(key),
        now=_args.moment(now),
        workspace=None if workspace is None else _args.path_of(workspace, "workspace"),
        report=_args.optional_source(report, "report"),
        current_capabilities=_args.optional_source(current_capabilities, "current_capabilities"),
    )
    try:
        document = _open_document(data, settings)
    except (RecursionError, MemoryError, OverflowError) as exc:
        raise InputError(
            f"the document is too complex to inspect ({type(exc).__name__}: {exc})"
        ) from exc
    if isinstance(document, _UnreadableDocument):
        raise InputError(document.message)
    return document.view


def load_destination(path: str | os.PathLike[str]) -> Destination:
    """A destination file (profile §6), read and checked.

    Raises:
        DestinationError: the file cannot be read or is not a destination file.
        ArgumentError: ``path`` is not a path.
    """
    return _load_destination(_args.path_of(path, "path"))


def parse_destination(value: JsonValue) -> Destination:
    """A destination file's parsed JSON object, checked.

    Raises:
        DestinationError: ``value`` is not a valid destination.
        ArgumentError: ``value`` is not a mapping.
    """
    return _parse_destination(dict(_args.mapping(value, "value")))  # type: ignore[arg-type]


def read_json(data: bytes | bytearray | memoryview, *, exact: bool = False) -> JsonValue:
    """``data`` read by the strict reader (profile §1; ``exact``: numbers kept exactly).

    Raises:
        ReadError: the bytes are not strict JSON (a `RefusalError` with the §1 code).
        ArgumentError: ``data`` is not bytes-like.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise _args.wrong("data", "bytes, bytearray or memoryview", data)
    return _read_json(bytes(data), exact=_args.boolean(exact, "exact"))


# --- issue 32: the audit report and two reviewers reconciled -----------------------------

from zcf_inspector.core.review.audit import audit_facts as _audit_facts  # noqa: E402
from zcf_inspector.core.review.previous import RECEIPT_MAX_BYTES as _RECEIPT_MAX_BYTES  # noqa: E402
from zcf_inspector.core.review.reconcile import ReconcileResult  # noqa: E402
from zcf_inspector.core.review.reconcile import reconcile_receipts as _reconcile  # noqa: E402
from zcf_inspector.core.review.reconcile_choices import CHOICES_MAX_BYTES as _CHOICES_MAX  # noqa: E402
from zcf_inspector.core.review.reconcile_choices import Choices  # noqa: E402
from zcf_inspector.core.review.reconcile_choices import parse_choices as _parse_choices  # noqa: E402
from zcf_inspector.core.review.reconcile_choices import read_choices as _read_choices  # noqa: E402
from zcf_inspector.present.audit_html import html_chunks as _html_chunks  # noqa: E402
from zcf_inspector.present.audit_model import AuditReport  # noqa: E402
from zcf_inspector.present.audit_report import build_report as _build_report  # noqa: E402

__all__ += ["AuditReport", "Choices", "ReconcileResult", "audit_html", "audit_report", "reconcile"]


def _name(source: Source, fallback: str) -> str:
    return fallback if isinstance(source, bytes | bytearray | memoryview) else os.fspath(source)


def audit_report(
    packet: Source,
    receipt: Source,
    destination: Destination | str | os.PathLike[str],
    *,
    key: bytes | str | os.PathLike[str] | None = None,
    workspace: str | os.PathLike[str] | None = None,
    monitor: Monitor | None = None,
) -> AuditReport:
    """The audit report of ``receipt`` for ``packet`` as admitted at ``destination``
    (what ``receipt report`` writes; `audit_html` makes the page). The receipt's signature
    is checked under ``key`` when given (a public key file or the raw 32 bytes), else under
    the key it claims when the destination trusts it. ``workspace``: a folder to check the
    packet's file claims against. A receipt that does not belong to the packet gives a
    report that says so and stops (``report.stopped``).

        >>> from zcf_inspector import api
        >>> report = api.audit_report("goldens/publication/minimal.json",
        ...     "goldens/publication/minimal.receipt.json", "goldens/destination.json")
        >>> report.headline
        'AUDIT REPORT · VALID · UNSIGNED · VALID RECEIPT · SIGNED (signature verified)'

    Raises:
        UnreadableFileError: a path that cannot be read.
        DestinationError, KeyFileError: the destination or key file cannot be used.
        InputError: ``workspace`` is not a folder.
    """
    from zcf_inspector.core.claims.workspace import resolve_folder  # noqa: PLC0415

    resolved = _args.required_destination(destination)
    public_key = None if key is None else _args.public_key(key)
    facts = _audit_facts(
        _bytes(packet),
        resolved,
        _bytes(receipt, _RECEIPT_MAX_BYTES),
        key=public_key,
        workspace=None
        if workspace is None
        else resolve_folder(_args.path_of(workspace, "workspace")),
        monitor=_args.monitor(monitor) or _NULL_MONITOR,
    )
    secrets, _ = _packet_advisories(facts.ingest.inspection)  # the opener's one scan
    return _build_report(
        facts,
        _name(packet, "(packet bytes)"),
        _name(receipt, "(receipt bytes)"),
        secrets=secrets,
        hostile=_text_advisories(facts.ingest.inspection),
    )


def audit_html(report: AuditReport) -> str:
    """The report as one self-contained HTML page: no script, nothing remote, a
    Content-Security-Policy forbidding both, printable. Every string is escaped.

    Raises:
        ArgumentError: ``report`` is not an `AuditReport` (an `InputError`).
    """
    if not isinstance(report, AuditReport):
        raise _args.wrong("report", "an AuditReport (from audit_report)", report)
    return "".join(_html_chunks(report))


def reconcile(
    packet: Source,
    a: Source,
    b: Source,
    destination: Destination | str | os.PathLike[str],
    *,
    accept_unsigned: bool = False,
    choices: Choices | dict[str, JsonValue] | bytes | str | os.PathLike[str] | None = None,
    reconciler: str | None = None,
    monitor: Monitor | None = None,
) -> ReconcileResult:
    """Two reviewers' receipts ``a`` and ``b`` of ``packet`` side by side (what
    ``receipt reconcile`` runs): both verified and matched to the packet as admitted at
    ``destination`` first (an unsigned one, or one signed by no key the destination
    trusts, is refused unless ``accept_unsigned``); agreement per state and overall,
    Cohen's kappa, every disagreement and every belief one reviewer left undecided
    (``result.agreement``). With ``choices`` (a `Choices`, the parsed choices file as a
    dict, its bytes or its path; see docs/reconcile.md) and ``reconciler``, ``result.receipt`` is
    the reconciled receipt, signed by the destination's ``signingKey``.

    Raises:
        UnreadableFileError: a path that cannot be read.
        DestinationError: the destination cannot be used.
        ChoicesFileError: the choices are not as documented (an `InputError`).
        ReviewError: ``choices`` without a ``reconciler``.
    """
    if choices is None or isinstance(choices, Choices):
        parsed = choices
    elif isinstance(choices, bytes):
        parsed = _read_choices(choices)
    elif isinstance(choices, dict):
        parsed = _parse_choices(choices)
    else:
        parsed = _read_choices(_bytes(choices, _CHOICES_MAX, "choices"))
    return _reconcile(
        _bytes(packet),
        _args.required_destination(destination),
        _bytes(a, _RECEIPT_MAX_BYTES),
        _bytes(b, _RECEIPT_MAX_BYTES),
        accept_unsigned=_args.boolean(accept_unsigned, "accept_unsigned"),
        choices=parsed,
        reconciler=_args.optional_text(reconciler, "reconciler"),
        monitor=_args.monitor(monitor) or _NULL_MONITOR,
    )


# --- ASIF packages (issue 33) ------------------------------------------------------------

__all__ += ["PackageResult", "build_package", "sign_package", "verify_package"]

_KEY_FILE_MAX_BYTES = 8 * 1024


def _package_key(key: object, what: str, *, secret: bool) -> bytes:
    if not isinstance(key, bytes | str | os.PathLike):
        raise _args.wrong("key", "bytes or a key file's path", key)
    if isinstance(key, bytes):
        return _package_signature.key_bytes(key, what)
    # A trusted key is a trust anchor and a seed a secret: the trust-file rule of every
    # key file (core/file_trust.py), checked on the descriptor the file is read through.
    error = _package_signature.PackageKeyError
    shown = _shown_path(key)
    check = (_file_trust.secret_guard if secret else _file_trust.guard)(shown, what, error)
    data = _read_bounded(_args.path_of(key, "key"), _KEY_FILE_MAX_BYTES, guard=check)
    return _package_signature.key_bytes(data, what)


def verify_package(
    source: Source,
    *,
    signature: Source | None = None,
    key: bytes | str | os.PathLike[str] | None = None,
    now: datetime | str | None = None,
    monitor: Monitor | None = None,
) -> PackageResult:
    """Check an ASIF package (``.asif.zip``: its bytes or its path) without extracting it:
    every container rule of package transport 0.1, the inventory, the resource closure and
    the session's core rules; with ``signature`` (the detached signature file) and ``key``
    (the public key you trust: 32 raw bytes, or a file holding them raw, as hex or as
    base64), the signature over the manifest's exact bytes. A signature without a key is
    read but not checked: `verdict` says ``INTACT PACKAGE · SIGNATURE NOT CHECKED``.

        >>> from zcf_inspector import api
        >>> shown = api.verdict(api.verify_package(api.build_package(
        ...     "tests/data/asif-0.5-package/examples/awaiting-approval.session.json")))
        >>> shown.words, str(shown.trust)
        ('VALID PACKAGE · UNSIGNED', 'unsigned')

    Raises:
        InputError: a file cannot be read, or ``key`` is not 32 bytes in one of its forms.
    """
    raw = _bytes(source, _package_limits.MAX_ARCHIVE)
    signed = None if signature is None else _bytes(signature, _package_limits.MAX_SIGNATURE)
    trusted = None if key is None else _package_key(key, "trusted public key", secret=False)
    return _package_verify.inspect_package(
        raw,
        now=_args.moment(now) or datetime.now(UTC),
        signature=signed,
        trusted_key=trusted,
        monitor=_args.monitor(monitor) or _NULL_MONITOR,
    )


def build_package(session: str | os.PathLike[str], *, now: datetime | str | None = None) -> bytes:
    """The ``.asif.zip`` bytes of the ASIF session file at ``session``, with the files its
    embedded resources name read from its folder: deterministic, byte for byte what the
    reference writer makes (sorted names, 1980-01-01 timestamps, mode 0600, the manifest
    as sorted compact JSON with a final newline).

    Raises:
        RefusalError: the session is refused, or a resource file is missing or unsafe.
        InputError: the session file cannot be read.
    """
    return _package_writer.build_from_folder(
        _args.path_of(session, "session"),
        now=_args.moment(now) or datetime.now(UTC),
        max_session=_package_limits.MAX_DOCUMENT,
    )


def sign_package(
    source: Source, seed: bytes | str | os.PathLike[str], *, now: datetime | str | None = None
) -> bytes:
    """The detached signature file of a valid package's manifest under the Ed25519 signing
    key ``seed`` (32 raw bytes, or a file holding them raw, as hex or as base64).

    Raises:
        RefusalError: the package is refused (nothing is signed over a refused package).
        InputError: a file cannot be read, or the seed is not 32 bytes.
    """
    checked = verify_package(source, now=now)
    private = _package_key(seed, "signing seed", secret=True)
    if not checked.container_ok or not checked.session_ok:
        first = checked.first_problem()
        why = f"{first.code}: {first.message}" if first else "its session is refused"
        raise _package_writer.PackageBuildError(f"the package is refused ({why}); not signed")
    manifest = _package_verify.manifest_bytes(_bytes(source, _package_limits.MAX_ARCHIVE))
    return _package_signature.sign_manifest(manifest, private)
