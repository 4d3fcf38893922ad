"""What a destination report is checked against: the session it binds, plan by plan.

Kept apart from ``report.py`` (the checks) and ``report_claims.py`` (the claims held
against the session), which both read these facts: with them here neither imports the
other's module for its types (the statuses that block a plan are in ``results.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from zcf_inspector.core.continuation.blockers import Blockers
from zcf_inspector.core.continuation.index import CoreIndex, ProfileIndex
from zcf_inspector.core.continuation.models.profile import ContinuationPlan
from zcf_inspector.core.continuation.rules.workspace_state import WorkspaceTree
from zcf_inspector.core.continuation.subjects import SubjectKey
from zcf_inspector.core.continuation.versions import ASIF_0_4, Contract


@dataclass(frozen=True, slots=True)
class DefinedPlan:
    """One plan as the session defines it: its inventory and known blockers."""

    plan: ContinuationPlan
    pointer: str
    inventory: dict[SubjectKey, bool]  # subject → computed required
    blockers: Blockers


@dataclass(frozen=True, slots=True)
class SessionBinding:
    """What a report is checked against: the session's exact bytes and what they define."""

    raw: bytes
    session_id: str
    capture_id: str
    plans: dict[str, DefinedPlan]  # by plan ID (the first plan of an ID)
    profile: ProfileIndex
    core: CoreIndex
    trees: Mapping[str, WorkspaceTree]
    contract: Contract = ASIF_0_4  # the ASIF contract the session declares (versions.py)
