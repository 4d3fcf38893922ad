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
``message``; nothing here prints or exits. Problems with the inputs themselves (a file
that cannot be read, a destination file that is not one) raise `InputError`; every
exception raised on purpose derives from `ZcfError`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from zcf_inspector.core.canonical import canonical
from zcf_inspector.core.codes import ErrorCode, PlanCode, ReviewCode, describe
from zcf_inspector.core.compare.model import Change, ChangeKind, Comparison, PartStatus
from zcf_inspector.core.compare.packets import compare as _compare
from zcf_inspector.core.continuation.inspection import inspect_continuation as _continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.errors import FormatError, InputError, RefusalError, ZcfError
from zcf_inspector.core.files import read_bounded
from zcf_inspector.core.findings import Finding, Severity
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.monitor import NULL_MONITOR, Cancelled, Monitor
from zcf_inspector.core.packet.destination import Destination, load_destination, parse_destination
from zcf_inspector.core.packet.ingest import IngestResult, ingest_inspection
from zcf_inspector.core.packet.inspection import (
    PacketInspection,
    Stage,
    StageStatus,
    inspect_bytes,
)
from zcf_inspector.core.packet.producer import AuthKind, SealError, seal_packet
from zcf_inspector.core.packet.receipt import ReceiptReport, ReceiptStatus
from zcf_inspector.core.packet.receipt import verify_receipt as _verify_receipt
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES, ReadError, read_json, read_packet

__all__ = [
    "DEFAULT_MAX_BYTES",
    "AuthKind",
    "Cancelled",
    "Change",
    "ChangeKind",
    "Comparison",
    "Destination",
    "ErrorCode",
    "Finding",
    "FormatError",
    "IngestResult",
    "InputError",
    "InspectionResult",
    "Monitor",
    "PacketInspection",
    "PartStatus",
    "PlanCode",
    "ReadError",
    "ReceiptReport",
    "ReceiptStatus",
    "RefusalError",
    "ReviewCode",
    "SealError",
    "Severity",
    "Source",
    "Stage",
    "StageStatus",
    "ZcfError",
    "canonicalize",
    "compare",
    "describe",
    "ingest",
    "inspect_continuation",
    "inspect_packet",
    "load_destination",
    "parse_destination",
    "read_json",
    "seal",
    "verify_receipt",
]

Source = bytes | str | os.PathLike[str]
"""A document's bytes, or the path of the file that holds them."""


def _bytes(source: Source, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    # At most one byte over the limit: the reader then refuses with packet_too_large.
    return source if isinstance(source, bytes) else read_bounded(Path(source), max_bytes)


def _destination(destination: Destination | str | os.PathLike[str] | None) -> Destination | None:
    if destination is None or isinstance(destination, Destination):
        return destination
    return load_destination(Path(destination))


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
    what was (and was not) verified. ``monitor`` reports progress and can cancel."""
    return inspect_bytes(
        _bytes(source, max_bytes),
        _destination(destination),
        max_bytes=max_bytes,
        monitor=monitor or NULL_MONITOR,
    )


def ingest(source: Source, destination: Destination | str | os.PathLike[str]) -> IngestResult:
    """Admit a packet at a destination (profile §6): ``result.receipt`` is the transfer
    receipt (signed when the destination has a signing key), or None when refused."""
    resolved = _destination(destination)
    assert resolved is not None  # a destination is required, and typed so
    inspection = inspect_bytes(_bytes(source), resolved)
    return ingest_inspection(inspection, resolved)


def verify_receipt(source: Source, public_key: bytes | None = None) -> ReceiptReport:
    """Recompute a receipt's digest and, given the signer's raw 32-byte public key, check
    its signature. A receipt that is not strict JSON is reported invalid, not raised."""
    try:
        value = read_json(_bytes(source))
    except ReadError as exc:
        return ReceiptReport(ReceiptStatus.INVALID, None, None, (exc.to_finding(),))
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
    authentication of ``kind``; raises `SealError` when the keys do not fit the kind."""
    draft = dict(packet) if isinstance(packet, Mapping) else read_packet(_bytes(packet))
    return seal_packet(
        draft,
        AuthKind(kind),
        signing_seed=signing_seed,
        source_installation_key=source_installation_key,
        destination_installation_key=destination_installation_key,
    )


def canonicalize(value: JsonValue | bytes) -> bytes:
    """The ZCF-JSON-v1 bytes (profile §2) of a value, or of a JSON text read strictly."""
    return canonical(read_json(value) if isinstance(value, bytes) else value)


def compare(a: Source, b: Source, *, monitor: Monitor | None = None) -> Comparison:
    """What changed from packet ``a`` to packet ``b``: every covered section by digest, then
    inside each changed one every element by its identity (beliefs by ``portableRef``,
    other items by ``id``…), and the fields outside the root, marked so. Either packet may
    be refused at a later stage; one refused at the byte stage leaves nothing to compare
    (``comparison.readable`` is False)."""
    return _compare(_bytes(a), _bytes(b), monitor=monitor or NULL_MONITOR)


def inspect_continuation(
    session: Source,
    *,
    now: datetime | None = None,
    plan_id: str | None = None,
    report: Source | None = None,
    current_capabilities: Source | None = None,
) -> InspectionResult:
    """An ASIF 0.4 or 0.5 session, bare continuation profile or destination report: each
    plan's prerequisite closure and required flags, its findings, and with ``report``
    (checked against the session's exact bytes) the report's verdict at the clock ``now``
    (default: the current UTC time). ``current_capabilities``: the destination's current
    capability snapshot bytes, compared exactly with those an ASIF 0.5 report binds."""
    return _continuation(
        _bytes(session),
        now=now or datetime.now(UTC),
        plan_id=plan_id,
        report=None if report is None else _bytes(report),
        current_capabilities=None if current_capabilities is None else _bytes(current_capabilities),
    )
