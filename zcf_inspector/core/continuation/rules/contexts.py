"""Contexts and checkpoints against the history they stand at (ASIF core, profile §3 and §4).

Every context: its boundary is an event of its branch; no input uses an event after that
boundary (a stale context); a tool call input names a known tool; its typed tool inputs
fold like history (a result follows its call, indexes increase, a terminal result closes
the call, a call ID is not selected twice).

Every checkpoint: its boundary is an event of its branch; its context is on the same
branch and not newer; what it lists as open (calls, decisions, task revisions) is open at
that point of the branch; with complete tool/decision coverage (and known checkpoint
knowledge) it lists every open call and decision; each branch has exactly one checkpoint
at its head.

The context a plan selects is checked in `context_calls.py`; the look-ups over the
history all these rules share are `session_history.SessionHistory`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.pulse import tick
from zcf_inspector.core.continuation.rules.core_records import objects
from zcf_inspector.core.continuation.rules.history import (
    HistoryState,
    Record,
    event_record,
    fold_history,
)
from zcf_inspector.core.continuation.rules.session_history import SessionHistory
from zcf_inspector.core.continuation.subjects import node_of
from zcf_inspector.core.findings import Finding, error
from zcf_inspector.core.jsontypes import JsonObject


def _typed_inputs(ctx: JsonObject, where: str) -> list[Record]:
    out = []
    for j, item in enumerate(objects(ctx["inputs"])):
        if item["kind"] in ("tool_call", "tool_result"):
            # A context input carries its call or result fields at its own top level.
            out.append(
                Record(
                    cast(str, item["id"]),
                    cast(str, item["kind"]),
                    item,
                    None,
                    f"{where}/inputs/{j}",
                    f"{where}/inputs/{j}",
                )
            )
    return out


def check_contexts(history: SessionHistory, findings: list[Finding]) -> None:
    """Each context against its history; every finding is about that context's subject."""
    for i, ctx in enumerate(history.contexts):
        tick()
        found: list[Finding] = []
        _check_context(history, ctx, f"/contexts/{i}", found)
        subject = node_of("context", cast(str, ctx["id"]))
        findings.extend(replace(f, subject=subject) for f in found)


def _check_context(
    history: SessionHistory, ctx: JsonObject, at: str, findings: list[Finding]
) -> None:
    events = history.branch_events(cast(str, ctx["branch_id"]))
    boundary = ctx["at_event_id"]
    bound: int | None = None
    if isinstance(boundary, str):
        if events is not None and not history.in_branch(cast(str, ctx["branch_id"]), boundary):
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/at_event_id",
                    f"context {ctx['id']!r} stands at {boundary!r}, which is not an event "
                    f"of branch {ctx['branch_id']!r}",
                )
            )
        bound = history.sequence(boundary)
    for j, item in enumerate(objects(ctx["inputs"])):
        tick()
        for k, source in enumerate(objects(item["source_events"])):
            if "capture_id" in source or bound is None:
                continue
            used = history.sequence(cast(str, source["event_id"]))
            if used is not None and used > bound:
                findings.append(
                    error(
                        PlanCode.STALE_CONTEXT,
                        f"{at}/inputs/{j}/source_events/{k}/event_id",
                        f"input {item['id']!r} uses event {source['event_id']!r} (sequence "
                        f"{used}), after the context boundary {boundary!r} (sequence {bound})",
                    )
                )
        if item["kind"] == "tool_call" and item["tool_id"] not in history.tools:
            findings.append(
                error(
                    PlanCode.DANGLING_REFERENCE,
                    f"{at}/inputs/{j}/tool_id",
                    f"tool {item['tool_id']!r} of call input {item['id']!r} resolves nowhere",
                )
            )
    fold_history(_typed_inputs(ctx, at), findings, code=PlanCode.CONTEXT_TOOL_CORRELATION)


# Checkpoints over a history with corrections need one fold each (below); past this many
# folded events in all, the rest are refused as too large to check.
MAX_PREFIX_WORK = 2_000_000


def check_checkpoints(history: SessionHistory, findings: list[Finding]) -> None:
    heads: dict[str, list[str]] = {cast(str, b["id"]): [] for b in history.branches}
    # branch → (boundary event or None, checkpoint, pointer) of each checkpoint on it
    stands: dict[str, list[tuple[str | None, JsonObject, str]]] = {}
    for i, cp in enumerate(objects(history.doc["checkpoints"])):
        at = f"/checkpoints/{i}"
        branch_id = cast(str, cp["branch_id"])
        events = history.branch_events(branch_id)
        if events is None:
            continue  # reported as a dangling reference
        boundary = cp["at_event_id"]
        if not (boundary is None and not events) and not history.in_branch(branch_id, boundary):
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/at_event_id",
                    f"checkpoint {cp['id']!r} stands at {boundary!r}, which is not "
                    + (
                        f"an event of branch {branch_id!r}" if events else "the empty branch's null"
                    ),
                )
            )
        head = history.branches[history.branch_index[branch_id]]["head_event_id"]
        if boundary == head:
            heads[branch_id].append(cast(str, cp["id"]))
        _checkpoint_context(
            history,
            cp,
            at,
            branch_id=branch_id,
            boundary=cast("str | None", boundary),
            findings=findings,
        )
        where = (
            boundary
            if isinstance(boundary, str) and history.in_branch(branch_id, boundary)
            else None
        )
        stands.setdefault(branch_id, []).append((where, cp, at))
    for branch_id, listed in stands.items():
        _open_at_boundaries(history, branch_id, listed, findings)
    for branch_id, found in heads.items():
        if len(found) != 1:
            where = f"/branches/{history.branch_index[branch_id]}/head_event_id"
            findings.append(
                error(
                    PlanCode.CHECKPOINT_NOT_HEAD,
                    where,
                    f"branch {branch_id!r} has {len(found)} checkpoints at its head "
                    f"({', '.join(found) or 'none'}); exactly one is required",
                )
            )


def _checkpoint_context(
    history: SessionHistory,
    cp: JsonObject,
    at: str,
    *,
    branch_id: str,
    boundary: str | None,
    findings: list[Finding],
) -> None:
    ctx_id = cp["context_id"]
    if not isinstance(ctx_id, str) or ctx_id not in history.context_index:
        return
    ctx = history.contexts[history.context_index[ctx_id]]
    if ctx["branch_id"] != branch_id:
        findings.append(
            error(
                PlanCode.BOUNDARY_INVALID,
                at + "/context_id",
                f"checkpoint {cp['id']!r} on branch {branch_id!r} names context "
                f"{ctx_id!r} of branch {ctx['branch_id']!r}",
            )
        )
    ctx_at = ctx["at_event_id"]
    if isinstance(ctx_at, str):
        newer = boundary is None
        if boundary is not None:
            a, b = history.sequence(ctx_at), history.sequence(boundary)
            newer = a is not None and b is not None and a > b
        if newer:
            findings.append(
                error(
                    PlanCode.BOUNDARY_INVALID,
                    at + "/context_id",
                    f"context {ctx_id!r} stands at {ctx_at!r}, after checkpoint "
                    f"{cp['id']!r}'s boundary {boundary!r}",
                )
            )


def _open_at_boundaries(
    history: SessionHistory,
    branch_id: str,
    listed: list[tuple[str | None, JsonObject, str]],
    findings: list[Finding],
) -> None:
    """What each checkpoint lists as open, against the history through its boundary.

    Without a correction (a superseding event) of anything but a call, the state of every
    prefix is met on one fold of the branch. With corrections, a prefix may select an
    event a later correction drops, so each checkpoint gets its own fold (bounded).
    The branch's own fold has already reported what the prefixes share with it.
    """
    records = [
        event_record(history.events[history.event_index[e]], f"/events/{history.event_index[e]}")
        for e in history.branch_events(branch_id) or []
        if e in history.event_index
    ]
    position = {r.id: i for i, r in enumerate(records)}
    known = set(findings)
    prefix: list[Finding] = []

    def fold(
        upto: list[Record], stops: dict[int, Callable[[HistoryState], None]] | None
    ) -> HistoryState:
        return fold_history(
            upto,
            prefix,
            external_calls=history.external_calls,
            external_requests=history.external_requests,
            partial_tasks=history.partial_tasks,
            stops=stops,
        )

    kinds = {r.id: r.kind for r in records}
    corrected = any(
        r.supersedes is not None
        and "capture_id" not in r.supersedes
        and kinds.get(cast(str, r.supersedes["event_id"]), "tool_call") != "tool_call"
        for r in records
    )
    empty = fold([], None)
    waiting: dict[int, list[tuple[JsonObject, str]]] = {}
    for boundary, cp, at in listed:
        if boundary is None or boundary not in position:
            _open_items(history, cp, at, empty, findings)
        else:
            waiting.setdefault(position[boundary], []).append((cp, at))
    if not corrected:

        def check_group(group: list[tuple[JsonObject, str]]) -> Callable[[HistoryState], None]:
            def check(state: HistoryState) -> None:
                for cp, at in group:
                    _open_items(history, cp, at, state, findings)

            return check

        stops = {index: check_group(group) for index, group in waiting.items()}
        fold(records, stops)
    else:
        work = 0
        for index, group in sorted(waiting.items()):
            work += index + 1
            if work > MAX_PREFIX_WORK:
                for _, at in group:
                    findings.append(
                        error(
                            PlanCode.HISTORY_STATE_INVALID,
                            at,
                            f"too many checkpoints over a corrected history to check within "
                            f"{MAX_PREFIX_WORK:,} folded events",
                        )
                    )
                continue
            state = fold(records[: index + 1], None)
            for cp, at in group:
                _open_items(history, cp, at, state, findings)
    findings.extend(f for f in dict.fromkeys(prefix) if f not in known)


def _open_items(
    history: SessionHistory, cp: JsonObject, at: str, state: HistoryState, findings: list[Finding]
) -> None:
    code = PlanCode.HISTORY_STATE_INVALID
    listed_calls: list[str] = []
    for j, call in enumerate(objects(cp["open_calls"])):
        ident = cast(str, call["call_id"])
        if ident in listed_calls:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    f"{at}/open_calls/{j}/call_id",
                    f"open call {ident!r} repeats",
                )
            )
        listed_calls.append(ident)
        if ident not in state.calls or ident in state.closed_calls:
            findings.append(
                error(
                    code,
                    f"{at}/open_calls/{j}/call_id",
                    f"checkpoint {cp['id']!r} lists call {ident!r} as open; at its boundary it "
                    + ("has no call" if ident not in state.calls else "has a terminal result"),
                )
            )
    listed_requests: list[str] = []
    for j, decision in enumerate(objects(cp["open_decisions"])):
        ident = cast(str, decision["request_id"])
        if ident in listed_requests:
            findings.append(
                error(
                    PlanCode.DUPLICATE_ID,
                    f"{at}/open_decisions/{j}/request_id",
                    f"open decision {ident!r} repeats",
                )
            )
        listed_requests.append(ident)
        if ident not in state.requests or ident in state.decisions:
            findings.append(
                error(
                    code,
                    f"{at}/open_decisions/{j}/request_id",
                    f"checkpoint {cp['id']!r} lists decision {ident!r} as open; at its "
                    "boundary it "
                    + ("was never requested" if ident not in state.requests else "is resolved"),
                )
            )
    seen_tasks: set[str] = set()
    for j, task in enumerate(objects(cp["tasks"])):
        ident = cast(str, task["task_id"])
        if ident in seen_tasks:
            findings.append(
                error(PlanCode.DUPLICATE_ID, f"{at}/tasks/{j}/task_id", f"task {ident!r} repeats")
            )
        seen_tasks.add(ident)
        known = state.tasks.get(ident)
        if known is None or task["revision"] != known["revision"]:
            findings.append(
                error(
                    code,
                    f"{at}/tasks/{j}/revision",
                    f"checkpoint {cp['id']!r} lists task {ident!r} revision {task['revision']!r}; "
                    "at its boundary the task "
                    + ("is unknown" if known is None else f"is at revision {known['revision']}"),
                )
            )
    if cp["knowledge"] == "unknown":
        return
    if history.coverage.get("tools") == "complete" and set(listed_calls) != state.open_calls():
        findings.append(
            error(
                code,
                at + "/open_calls",
                f"with complete tool coverage the open calls are {sorted(state.open_calls())}; "
                f"checkpoint {cp['id']!r} lists {sorted(set(listed_calls))}",
            )
        )
    if (
        history.coverage.get("decisions") == "complete"
        and set(listed_requests) != state.open_requests()
    ):
        findings.append(
            error(
                code,
                at + "/open_decisions",
                f"with complete decision coverage the open decisions are "
                f"{sorted(state.open_requests())}; checkpoint {cp['id']!r} lists "
                f"{sorted(set(listed_requests))}",
            )
        )
