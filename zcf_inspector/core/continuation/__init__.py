"""ASIF 0.4 and 0.5 portable-continuation plans: §10a closure, plan rules and report checks
(and, for 0.5, the destination capability snapshot a report binds).

Pure Python (no Qt). Entry point: :func:`inspect_continuation`, which returns a frozen
:class:`InspectionResult` the CLI prints and the graph view renders.
"""

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import (
    Closure,
    InspectionResult,
    PlanEdge,
    PlanNode,
    PlanResult,
    ReportResult,
    SubjectAssessment,
)
from zcf_inspector.core.document_kind import DocumentKind

__all__ = [
    "Closure",
    "DocumentKind",
    "InspectionResult",
    "PlanCode",
    "PlanEdge",
    "PlanNode",
    "PlanResult",
    "ReportResult",
    "SubjectAssessment",
    "inspect_continuation",
]
