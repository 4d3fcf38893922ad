"""Near-valid packets: a golden packet after a few structured mutations, maybe re-sealed
(so that the manifest and authentication no longer give the mutation away), then rendered."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from goldens import generate
from tests.fuzz.strategies.corpus import golden_packet, publication_packets
from tests.fuzz.strategies.mutation import mutate_once, mutated
from tests.fuzz.strategies.pools import packet_pools
from tests.fuzz.strategies.trees import LAYOUTS, Blob, Tree, is_plain, render
from zcf_inspector.core.packet.producer import AuthKind, SealError, seal_packet


def reseal(tree: Tree, kind: str) -> Tree:
    """``tree`` with a fresh manifest and authentication, when the producer can make them."""
    if not isinstance(tree, dict) or not is_plain(tree):
        return tree
    try:
        if kind == "mac":
            return generate.mac(tree)
        if kind == "source":
            return seal_packet(tree, AuthKind.SOURCE_SIGNATURE, signing_seed=generate.SOURCE_SEED)
        return seal_packet(tree, AuthKind.UNSIGNED)
    except SealError:  # the producer refuses what it cannot seal (or canonical() cannot write)
        return tree


@dataclass(frozen=True, slots=True)
class PacketCase:
    base: str
    data: Blob


@st.composite
def mutated_packets(draw: st.DrawFn) -> PacketCase:
    """A golden packet after a few structured mutations, maybe re-sealed, then rendered."""
    name = draw(st.sampled_from(sorted(publication_packets())))
    tree = draw(mutated(golden_packet(name), packet_pools()))
    seal = draw(st.sampled_from(["none", "none", "unsigned", "mac", "source"]))
    if seal != "none":
        tree = reseal(tree, seal)
        if draw(st.booleans()):  # and maybe break it again after it is sealed
            tree = draw(mutate_once(tree, packet_pools()))
    return PacketCase(name, Blob(render(tree, draw(LAYOUTS))))
