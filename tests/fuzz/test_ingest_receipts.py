"""Fuzz ingest of valid packets, receipt verification and destination files."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from goldens import generate
from tests.fuzz.checks import check_pipeline
from tests.fuzz.harness import check_findings, fuzz
from tests.fuzz.strategies.corpus import (
    golden_destination,
    golden_destination_value,
    golden_files,
    golden_packet,
    hostile_corpus,
    receipt_corpus,
)
from tests.fuzz.strategies.mutation import mutated
from tests.fuzz.strategies.pools import packet_pools
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from tests.fuzz.strategies.trees import LAYOUTS, Layout, render
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.crypto import ed25519_public_key
from zcf_inspector.core.findings import has_error
from zcf_inspector.core.packet.destination import (
    Destination,
    DestinationError,
    load_destination,
    parse_destination,
)
from zcf_inspector.core.packet.producer import AuthKind, seal_packet
from zcf_inspector.core.packet.receipt import ReceiptStatus, verify_receipt
from zcf_inspector.core.packet.structure import CAPABILITIES, HIGH_RISK_TOOLS, REVIEW_STATES
from zcf_inspector.core.reading import ReadError, read_json

# --- valid packets: what a destination admits, and the receipt it signs ---------------------

_IDS = st.text(st.characters(codec="utf-8", min_codepoint=0x20), min_size=1, max_size=24)
_CONTENT = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=200),
    st.builds(lambda ch, n: ch * n, st.sampled_from(["a", "é", "😀", "読"]), st.integers(0, 400)),
)


@st.composite
def valid_packets(draw: st.DrawFn) -> dict[str, Any]:
    """A golden handoff with generated beliefs, tools and references: valid by construction."""
    base = draw(st.sampled_from(["minimal", "full-handoff", "demotion", "truncation", "unicode"]))
    packet = golden_packet(base)
    content = packet["content"]
    refs = draw(st.lists(_IDS, unique=True, max_size=12))
    content["beliefs"] = [
        {
            "portableRef": ref,
            "sourceId": draw(_IDS),
            "content": draw(_CONTENT),
            **(
                {"reviewState": state}
                if (state := draw(st.one_of(st.none(), st.sampled_from(REVIEW_STATES))))
                else {}
            ),
        }
        for ref in refs
    ]
    # References into the beliefs must keep resolving.
    content["evidenceAnchors"] = [
        a for a in content.get("evidenceAnchors", []) if a["beliefRef"] in refs
    ]
    content["reviewEvents"] = [e for e in content.get("reviewEvents", []) if e["beliefRef"] in refs]
    handoff = content["sourceHandoff"]
    handoff["checkpointBeliefIds"] = (
        draw(st.lists(st.sampled_from(refs), max_size=4)) if refs else []
    )
    safe = [c for c in CAPABILITIES if c not in HIGH_RISK_TOOLS]
    content["allowedTools"] = draw(st.lists(st.sampled_from(safe), unique=True, max_size=6))
    if draw(st.booleans()):
        return generate.mac(generate.bound(packet))
    return seal_packet(packet, AuthKind.UNSIGNED)


_INGEST_DESTINATIONS = st.builds(
    lambda beliefs, size, capabilities, signed: golden_destination(
        maxBeliefs=beliefs,
        maxBeliefBytes=size,
        capabilities=capabilities,
        **({} if signed else {"signingKey": None}),
    ),
    st.sampled_from([0, 1, 3, 8, 10_000]),
    st.sampled_from([0, 1, 2, 3, 4, 7, 160, 16_384]),
    st.lists(st.sampled_from(list(CAPABILITIES)), unique=True, max_size=4),
    st.booleans(),
)


@fuzz(valid_packets(), _INGEST_DESTINATIONS, LAYOUTS, weight=2, rounds=3)
def test_valid_packets_ingest_to_receipts_that_verify(
    packet: dict[str, Any], destination: Destination, layout: Layout
) -> None:
    inspection = check_pipeline(render(packet, layout), destination)
    assert inspection.valid, [(f.code, f.pointer, f.message) for f in inspection.findings]


# --- receipts --------------------------------------------------------------------------------


@st.composite
def mutated_receipts(draw: st.DrawFn) -> Any:
    base = read_json(draw(st.sampled_from(receipt_corpus())))
    return draw(mutated(base, packet_pools()))


_RECEIPT_KEY = ed25519_public_key(generate.RECEIPT_SEED)
_KEYS = st.sampled_from([None, _RECEIPT_KEY, ed25519_public_key(generate.SOURCE_SEED)])


def check_receipt_report(value: Any, key: bytes | None) -> None:
    report = verify_receipt(value, key)
    check_findings(report.findings, ErrorCode)
    omitted_error = any(o.severity == "error" for o in report.omitted)
    assert (report.status is ReceiptStatus.INVALID) == (has_error(report.findings) or omitted_error)
    assert report.valid == (report.status is not ReceiptStatus.INVALID)


@fuzz(mutated_receipts(), _KEYS, LAYOUTS, weight=1, rounds=3)
def test_mutated_receipts_are_judged_never_raised(
    receipt: Any, key: bytes | None, layout: Layout
) -> None:
    try:
        value = read_json(render(receipt, layout))  # what a receipt file holds, read strictly
    except ReadError:
        return
    check_receipt_report(value, key)


@fuzz(mutated_bytes([*receipt_corpus(), *hostile_corpus("receipt")]), _KEYS, weight=1, rounds=2)
def test_mutated_receipt_bytes_are_judged_never_raised(data: bytes, key: bytes | None) -> None:
    try:
        value = read_json(data)
    except ReadError:
        return
    check_receipt_report(value, key)


def test_unmutated_golden_receipts_verify() -> None:
    for data in receipt_corpus():
        report = verify_receipt(read_json(data), _RECEIPT_KEY)
        assert report.status is ReceiptStatus.VALID_SIGNED, report.findings


# --- destination files -----------------------------------------------------------------------


@st.composite
def mutated_destination_values(draw: st.DrawFn) -> Any:
    return draw(mutated(golden_destination_value(), packet_pools()))


@fuzz(mutated_destination_values(), weight=1)
def test_mutated_destinations_raise_only_destination_error(value: Any) -> None:
    try:
        plain = read_json(render(value))
    except ReadError:
        return
    refusal: DestinationError | None = None
    try:
        destination = parse_destination(plain)
    except DestinationError as exc:
        refusal = exc
    if refusal is not None:
        assert str(refusal).startswith("invalid destination file")
        return
    assert isinstance(destination, Destination)


@fuzz(mutated_bytes([golden_files()["destination.json"]]), weight=1, rounds=2)
def test_mutated_destination_files_raise_only_destination_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "destination.json"
        path.write_bytes(data)
        refusal: DestinationError | None = None
        try:
            load_destination(path)
        except DestinationError as exc:
            refusal = exc
        assert refusal is None or str(refusal)
