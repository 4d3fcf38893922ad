"""The corpus the strategies start from: the golden packets (as files and as the builders
that made them), the golden destination, the ASIF examples, and the kept hostile documents."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

from hypothesis import strategies as st

from goldens import generate
from tests.conftest import CONTINUATION_SPEC, REPO
from tests.hostile.corpus import files as hostile_files
from zcf_inspector.core.packet.destination import Destination, parse_destination

GOLDENS = REPO / "goldens"
EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"


@cache
def golden_files() -> dict[str, bytes]:
    """Every golden file by its path under goldens/, read once."""
    return {str(p.relative_to(GOLDENS)): p.read_bytes() for p in sorted(GOLDENS.glob("**/*.json"))}


@cache
def example_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.json"))}


def publication_packets() -> dict[str, Callable[[], dict[str, Any]]]:
    """The golden builders, plus the bare (unsealed) handoff of the generator."""
    builders: dict[str, Callable[[], dict[str, Any]]] = dict(generate.PUBLICATION)
    builders["handoff"] = lambda: generate.unsigned(generate.handoff("fuzz"))
    return builders


@cache
def built_packet(name: str) -> dict[str, Any]:
    """The packet ``name`` builds, built once: shared, so copy it before changing it."""
    return publication_packets()[name]()


def golden_packet(name: str) -> dict[str, Any]:
    return copy.deepcopy(built_packet(name))


@cache
def golden_destination_value() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(golden_files()["destination.json"])
    return value


def golden_destination(**override: Any) -> Destination:
    return parse_destination({**golden_destination_value(), **override})


_DESTINATION_OVERRIDES: list[dict[str, Any]] = [
    {},
    {"strict": True},
    {"refuseUnsigned": True},
    {"maxBeliefs": 0},
    {"maxBeliefs": 1, "maxBeliefBytes": 0},
    {"maxBeliefBytes": 1},
    {"installationKeyId": "dest-other"},
    {"capabilities": []},
    {"now": "2100-01-01T00:00:00Z"},
    {"now": "1970-01-01T00:00:00Z"},
]
DESTINATIONS = st.sampled_from(_DESTINATION_OVERRIDES).map(
    lambda override: golden_destination(**override)
)


@cache
def example_values() -> dict[str, Any]:
    return {name: json.loads(data) for name, data in example_files().items()}


def hostile_corpus(*kinds: str) -> list[bytes]:
    """The kept hostile documents (tests/data/hostile, made by tests/hostile/corpus.py) of
    ``kinds`` ("packet", "session", ...; all when none is named)."""
    return [
        data
        for name, data in hostile_files().items()
        if not kinds or name.removesuffix(".json").rsplit(".", 1)[-1] in kinds
    ]


def packet_corpus() -> list[bytes]:
    return [
        data
        for name, data in golden_files().items()
        if not name.endswith((".expect.json", ".destination.json"))
    ] + hostile_corpus("packet")


def receipt_corpus() -> list[bytes]:
    return [data for name, data in golden_files().items() if name.endswith(".receipt.json")]


def example_corpus() -> list[bytes]:
    return list(example_files().values()) + hostile_corpus("session", "report")
