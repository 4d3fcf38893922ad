"""The two ASIF contracts `plan` reads, and which one a document declares.

ASIF 0.4 pairs a session `asif_version` "0.4" with the portable-continuation profile 0.2
(feature `asif.portable-continuation/0.2`) and destination reports 0.2; ASIF 0.5 pairs
"0.5" with profile and report 0.3 and adds destination capability snapshots
(CAPABILITIES.md). The plan rules are the same in both; what differs is the declared
versions, the published schemas and the snapshot contract. Core and profile versions are
exact, independent contracts (MIGRATION.md): a document that declares versions of both
is refused, never read under either.
"""

from __future__ import annotations

from dataclasses import dataclass

FEATURE_PREFIX = "asif.portable-continuation/"


@dataclass(frozen=True, slots=True)
class Contract:
    asif_version: str
    profile_version: str
    report_version: str
    schemas: str  # the folder under zcf_inspector/resources holding its published schemas
    snapshots: bool  # reports embed a destination capability snapshot (CAPABILITIES.md)

    @property
    def feature(self) -> str:
        return FEATURE_PREFIX + self.profile_version

    @property
    def interpreted_features(self) -> frozenset[str]:
        """The required features a session of this contract may name and be understood."""
        return frozenset({self.feature, "asif.streams/0.1", "asif.external-bindings/0.1"})

    def __str__(self) -> str:
        return f"ASIF {self.asif_version}"


ASIF_0_4 = Contract("0.4", "0.2", "0.2", "asif", snapshots=False)
ASIF_0_5 = Contract("0.5", "0.3", "0.3", "asif-0.5", snapshots=True)
CONTRACTS = (ASIF_0_4, ASIF_0_5)


def by_field(name: str, value: object) -> Contract | None:
    """The contract whose ``name`` (asif_version, profile_version, report_version) is ``value``."""
    for contract in CONTRACTS:
        if getattr(contract, name) == value:
            return contract
    return None


def supported(name: str) -> str:
    """The supported values of ``name``, for a refusal message: "'0.4' or '0.5'"."""
    return " or ".join(repr(getattr(c, name)) for c in CONTRACTS)
