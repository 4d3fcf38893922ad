"""Random mutations of the public examples, by rule family (for compare_reference.py).

Each family picks a public example pair (or a session alone) and changes it the way the
rules of that family are about: tool-call correlation, configuration bindings, inline
resource integrity, model fit, dependency resolution, path bindings, known blockers,
services, recovery, core requirements, observed evidence, blocking reasons, omissions,
instruction roots, context configuration, native versions, model source, stale contexts
and open calls, and exact numbers (big and non-integral numbers in every integer field
and in free JSON). Mutations are JSON Patch operations on the example, as in the upstream
case data; about half of the report mutations then restate the report's outcome and
blocking reasons so that they agree with its (mutated) assessments, so the comparison
reaches the rules behind the outcome instead of stopping at it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from mutation_draft import PAIRS, Draft, Mutation
from mutations_report import (
    blocking_reasons,
    core_requirements,
    dependency_resolution,
    known_blockers,
    model_fit,
    model_source,
    native_version,
    observed,
    omissions,
    outcomes,
    path_bindings,
    recovery,
    services,
)
from mutations_session import (
    context_configuration,
    exact_numbers,
    external_bindings,
    git_state,
    history_insert,
    history_order,
    instruction_binding,
    instruction_roots,
    open_calls,
    resource_integrity,
    stale_context,
    streams,
    tool_correlation,
    tool_schema,
)

from tests.core.continuation.upstream_cases import PatchError, materialise

__all__ = ["FAMILIES", "Mutation", "random_mutations"]


# family → (needs a report, mutate)
FAMILIES: dict[str, tuple[bool, Callable[[Draft], None]]] = {
    "tool-correlation": (False, tool_correlation),
    "instruction-binding": (False, instruction_binding),
    "resource-integrity": (False, resource_integrity),
    "model-fit": (True, model_fit),
    "dependency-resolution": (True, dependency_resolution),
    "path-bindings": (True, path_bindings),
    "known-blockers": (True, known_blockers),
    "services": (True, services),
    "recovery": (True, recovery),
    "core-requirements": (True, core_requirements),
    "observed-evidence": (True, observed),
    "blocking-reasons": (True, blocking_reasons),
    "omissions": (True, omissions),
    "instruction-roots": (False, instruction_roots),
    "context-configuration": (False, context_configuration),
    "native-version": (True, native_version),
    "model-source": (True, model_source),
    "stale-context": (False, stale_context),
    "open-calls": (False, open_calls),
    "history-order": (False, history_order),
    "outcomes": (True, outcomes),
    "tool-schemas": (False, tool_schema),
    "git-state": (False, git_state),
    "streams": (False, streams),
    "external-bindings": (False, external_bindings),
    "history-insert": (False, history_insert),
    "exact-numbers": (False, exact_numbers),
}


def random_mutations(
    rng: random.Random, count: int, families: list[str] | None = None
) -> list[Mutation]:
    """``count`` mutations drawn in turn from each family (or only from ``families``)."""
    out: list[Mutation] = []
    names = sorted(families or FAMILIES)
    unknown = set(names) - set(FAMILIES)
    if unknown:
        raise SystemExit(f"no such family: {', '.join(sorted(unknown))} (see FAMILIES)")
    while len(out) < count:
        family = names[len(out) % len(names)]
        needs_report, mutate = FAMILIES[family]
        session_name, report_name = rng.choice(PAIRS)
        if not needs_report and rng.random() < 0.5:
            report_name = None  # the session alone
        draft = Draft(rng, session_name, report_name)
        try:
            mutate(draft)
            if not draft.s_ops and not draft.r_ops:
                continue
            draft.settle()
            materialise(session_name, draft.s_ops, report_name, draft.r_ops)
        except (PatchError, KeyError, IndexError, StopIteration, TypeError):
            continue  # this draw does not fit this example: draw again
        label = (
            f"{family} #{len(out)} {session_name}"
            + (f" + {report_name}" if report_name else "")
            + ": "
            + "; ".join(draft.notes)
        )
        out.append(
            Mutation(
                family, label, session_name, tuple(draft.s_ops), report_name, tuple(draft.r_ops)
            )
        )
    return out
