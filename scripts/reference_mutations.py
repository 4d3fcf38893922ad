"""Random mutations of the public examples, by rule family (for compare_reference.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tests.core.continuation.upstream_cases import materialise

Json = Any


@dataclass(frozen=True)
class Mutation:
    family: str
    label: str
    session: str
    session_patch: tuple[Json, ...]
    report: str | None
    report_patch: tuple[Json, ...]

    def materialise(self) -> tuple[bytes, bytes | None]:
        return materialise(self.session, self.session_patch, self.report, self.report_patch)


def random_mutations(rng: random.Random, count: int) -> list[Mutation]:
    return []
