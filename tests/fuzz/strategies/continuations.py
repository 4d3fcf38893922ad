"""Near-valid ASIF continuation documents: a mutated session (or report), maybe with its
report, bound to the session's exact bytes or not, and a plan id to inspect."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.strategies.corpus import example_files, example_values
from tests.fuzz.strategies.mutation import mutated
from tests.fuzz.strategies.pools import example_pools
from tests.fuzz.strategies.trees import DEFAULT_LAYOUT, Blob, Layout, Tree, render

ACTIONS = ("await_decision", "reconcile_operation", "model_request", "resume_native")


def session_of(report_name: str) -> str:
    stem = report_name.removesuffix(".report.json")
    for action in ACTIONS:
        stem = stem.removesuffix("-" + action)
    return stem + ".session.json"


def report_names() -> list[str]:
    return sorted(n for n in example_files() if n.endswith(".report.json"))


def session_names() -> list[str]:
    return sorted(n for n in example_files() if n.endswith(".session.json"))


def rebind(report: Tree, session_bytes: bytes) -> Tree:
    """``report`` bound to the exact ``session_bytes`` (when it still has the field)."""
    source = report.get("source") if isinstance(report, dict) else None
    if isinstance(source, dict):
        source["document_sha256"] = hashlib.sha256(session_bytes).hexdigest()
    return report


@dataclass(frozen=True, slots=True)
class ContinuationCase:
    session: Blob
    report: Blob | None
    plan_id: str | None
    note: str


@st.composite
def mutated_continuations(draw: st.DrawFn) -> ContinuationCase:
    """A mutated ASIF session (or report), maybe with a report, rebound or not."""
    report_name = draw(st.sampled_from(report_names()))
    session_name = session_of(report_name)
    values = example_values()
    mutate_session = draw(st.booleans())
    mutate_report = not mutate_session or draw(st.booleans())
    session_tree: Tree = copy.deepcopy(values[session_name])
    if mutate_session:
        session_tree = draw(mutated(session_tree, example_pools()))
    # The examples' own spelling keeps an unmutated session's bytes (and hash) intact.
    session_bytes = (
        example_files()[session_name]
        if not mutate_session
        else render(
            session_tree,
            draw(st.sampled_from([DEFAULT_LAYOUT, Layout(None, False, ",", ":", False)])),
        )
    )
    report: Blob | None = None
    mode = draw(st.sampled_from(["none", "original", "rebound", "mutated", "alone"]))
    if mode != "none" or mutate_report:
        report_tree: Tree = copy.deepcopy(values[report_name])
        if mutate_report:
            report_tree = draw(mutated(report_tree, example_pools()))
        if mode != "original":
            report_tree = rebind(report_tree, session_bytes)
        report = Blob(render(report_tree))
    if mode == "alone" and report is not None:
        return ContinuationCase(report, None, None, f"{report_name} alone")
    plans = [p.get("id") for p in _plans(session_tree)]
    plan_id = draw(
        st.sampled_from([None, "no-such-plan", *[p for p in plans if isinstance(p, str)]])
    )
    return ContinuationCase(
        Blob(session_bytes), report, plan_id, f"{session_name} + {report_name} ({mode})"
    )


def _plans(session: Tree) -> list[dict[str, Any]]:
    continuation = session.get("continuation") if isinstance(session, dict) else None
    plans = continuation.get("plans") if isinstance(continuation, dict) else None
    return [p for p in plans if isinstance(p, dict)] if isinstance(plans, list) else []


def iter_files(folder: Path) -> Iterator[Path]:
    yield from sorted(folder.glob("*.json"))
