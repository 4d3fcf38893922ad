"""Fuzz the whole packet pipeline: near-valid packets and mutated golden bytes."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzz.checks import check_pipeline
from tests.fuzz.harness import fuzz
from tests.fuzz.strategies.corpus import DESTINATIONS, packet_corpus
from tests.fuzz.strategies.packets import PacketCase, mutated_packets
from tests.fuzz.strategies.raw_bytes import mutated_bytes
from zcf_inspector.core.packet.destination import Destination

_MAYBE_DESTINATION = st.one_of(st.none(), DESTINATIONS)


@fuzz(mutated_packets(), _MAYBE_DESTINATION, weight=4, rounds=5)
def test_mutated_packets_get_findings_never_exceptions(
    case: PacketCase, destination: Destination | None
) -> None:
    check_pipeline(case.data, destination)


@fuzz(mutated_bytes(packet_corpus()), _MAYBE_DESTINATION, weight=2, rounds=4)
def test_mutated_golden_bytes_get_findings_never_exceptions(
    data: bytes, destination: Destination | None
) -> None:
    check_pipeline(data, destination)
