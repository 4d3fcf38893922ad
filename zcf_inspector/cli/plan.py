"""`zcf-inspector plan FILE`: continuation plans, their closure and a destination report.

The words are the ASIF presenter's, as the window shows them: the report's recomputed
outcome first (READY, ADAPTATION REQUIRED, BLOCKED with the blocker count) or why it
cannot be relied on (EXPIRED at …, REFUSED: …), the document's validity second.

Exit codes follow the words: 0 for READY (or a valid session without a report), 1 for
REFUSED, EXPIRED or BLOCKED, 3 for ADAPTATION REQUIRED or a document whose claims could
not all be checked (a report without its session, a bare profile), 2 for usage errors
and files that cannot be read at all.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from zcf_inspector.cli import exitcodes
from zcf_inspector.cli.commands import help_of
from zcf_inspector.cli.output import (
    print_findings,
    print_json,
    print_verdict,
    verdict_json,
)
from zcf_inspector.cli.terminal_text import FIELD_CHARS, MESSAGE_CHARS
from zcf_inspector.core.continuation.export.to_dot import plan_dot
from zcf_inspector.core.continuation.export.to_json import continuation_json
from zcf_inspector.core.continuation.inspection import inspect_continuation, require_plan
from zcf_inspector.core.continuation.models.v0_5 import MAX_SNAPSHOT_BYTES
from zcf_inspector.core.continuation.results import (
    InspectionResult,
    PlanResult,
    ReportResult,
    SnapshotResult,
)
from zcf_inspector.core.continuation.rules.snapshot_current import stale_headline
from zcf_inspector.core.continuation.timestamps import TimestampError, parse_datetime
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.errors import InputError
from zcf_inspector.core.files import read_bounded, shown_path
from zcf_inspector.core.reading import DEFAULT_MAX_BYTES
from zcf_inspector.core.secrets.masking import masked_shown
from zcf_inspector.present import asif
from zcf_inspector.present.vocabulary import Verdict


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "plan",
        help=help_of("plan"),
        description="Read an ASIF 0.4 or 0.5 session, a bare continuation profile or a destination "
        "report; derive each plan's prerequisite closure and required flags (§10a); "
        "optionally check a destination report against the session's exact bytes.",
    )
    parser.add_argument("file", metavar="FILE", type=Path)
    parser.add_argument("--plan", metavar="ID", help="only this plan")
    parser.add_argument(
        "--report", metavar="REPORT", type=Path, help="a destination report to check against FILE"
    )
    parser.add_argument(
        "--current-capabilities",
        metavar="SNAPSHOT",
        type=Path,
        help="the destination's current capability snapshot (its exact bytes): an ASIF 0.5 "
        "report is valid for reuse only if they are byte for byte the ones it binds",
    )
    parser.add_argument(
        "--now",
        metavar="TIMESTAMP",
        help="the clock for report expiry (RFC 3339; default: the current time)",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the result as JSON")
    output.add_argument("--dot", action="store_true", help="print Graphviz DOT of each plan")
    parser.set_defaults(func=run)


def _read(path: Path) -> bytes:
    """At most the reader's limit and one byte more: the reader refuses a larger file."""
    return read_bounded(path, DEFAULT_MAX_BYTES)


def run(args: argparse.Namespace) -> int:
    now = datetime.now(UTC)
    if args.now is not None:
        try:
            now = parse_datetime(args.now)
        except TimestampError as exc:
            raise InputError(f"--now: {exc}") from exc
    data = _read(args.file)
    report = None if args.report is None else _read(args.report)
    current = None
    if args.current_capabilities is not None:
        # One byte past the format's limit: a larger file cannot be the bound snapshot.
        current = read_bounded(args.current_capabilities, MAX_SNAPSHOT_BYTES)
    result = inspect_continuation(
        data, now=now, plan_id=args.plan, report=report, current_capabilities=current
    )
    if args.report is not None and result.kind is DocumentKind.CONTINUATION_REPORT:
        raise InputError("--report needs FILE to be the session the report binds")
    if current is not None and result.report is None:
        raise InputError("--current-capabilities needs a destination report (--report)")
    require_plan(result, args.plan, "FILE")  # the error is escaped where it is printed
    shown = asif.verdict(result)
    if args.json:
        print_json({**verdict_json(shown), **continuation_json(result)})
    elif args.dot:
        for plan in result.plans:
            sys.stdout.write(plan_dot(plan))
        if not result.plans:
            _say_why_no_dot(result, args.file)
    else:
        print_human(result, shown, args.file, sys.stdout)
    return exitcodes.for_trust(shown.trust)


def _say_why_no_dot(result: InspectionResult, path: Path) -> None:
    """`--dot` printed nothing: say why on stderr (stdout stays DOT, here empty)."""
    errors = sum(1 for f in result.findings if f.severity == "error") + sum(
        o.count for o in result.omitted if o.severity == "error"
    )
    if result.kind in (DocumentKind.ASIF_SESSION, DocumentKind.CONTINUATION_PROFILE):
        what = f"{shown_path(path)} is {result.kind} with no plan to draw"
    elif result.kind is None:
        what = f"{shown_path(path)} is not a continuation session or profile"
    else:
        what = f"{shown_path(path)} is {result.kind}, not a session or profile with plans"
    refused = f"; it is refused with {errors:,} error(s)" if errors else ""
    sys.stderr.write(
        f"zcf-inspector: --dot printed nothing: {what}{refused} "
        "(run without --dot to see its findings)\n"
    )


def _known(text: str | None) -> str:
    return "?" if not text else masked_shown(text, FIELD_CHARS)


def _plan_line(plan: PlanResult) -> str:
    chip = asif.plan_row(plan)
    verdict = chip.state if plan.ok else f"{chip.state} · {masked_shown(chip.summary, FIELD_CHARS)}"
    scopes = masked_shown(", ".join(plan.active_scopes), MESSAGE_CHARS)
    counts = asif.plan_counts(plan, sum(1 for n in plan.nodes if n.blockers))
    return (
        f"plan {masked_shown(plan.id, FIELD_CHARS)} "
        f"({masked_shown(plan.next_action, FIELD_CHARS)}; scopes {scopes}): "
        f"{verdict} — {', '.join(counts)}\n"
    )


def _print_blockers(plan: PlanResult, out: TextIO) -> None:
    """Known blockers: subjects a report may not claim supported (required ones block)."""
    for node in plan.nodes:
        for blocker in node.blockers:
            need = "required" if node.required else "optional"
            out.write(
                f"  blocker {masked_shown(node.id, FIELD_CHARS)} ({need}): {blocker.code} — "
                f"{masked_shown(blocker.reason, MESSAGE_CHARS)}\n"
            )


def _report_line(report: ReportResult) -> str:
    chip = asif.report_row(report)
    verdict = f"{chip.state} · {masked_shown(chip.summary, FIELD_CHARS)}"
    line = (
        f"report {_known(report.id)} for plan {_known(report.plan_id)}: {verdict} — outcome "
        f"{_known(report.outcome)}, recomputed {_known(report.recomputed_outcome)}"
    )
    times = report.times
    if times is not None:
        state = "expired" if times.expired else "valid until"
        line += (
            f"; assessed {masked_shown(times.assessed_at, FIELD_CHARS)}, {state} "
            f"{masked_shown(times.expires_at, FIELD_CHARS)}, checked at {times.checked_at}"
        )
    return line + "\n"


def _print_snapshot(snapshot: SnapshotResult, out: TextIO) -> None:
    """An ASIF 0.5 report's bound snapshot, and the currentness headline when asked."""
    form = masked_shown(snapshot.format, FIELD_CHARS)
    line = (
        f"  snapshot {form} ({masked_shown(snapshot.availability, FIELD_CHARS)}): {snapshot.state}"
    )
    if snapshot.size is not None and snapshot.digest is not None:
        line += f" — {snapshot.size:,} bytes, sha256 {snapshot.digest}"
    if snapshot.value is not None:
        line += f", {len(snapshot.components)} components"
    out.write(line + "\n")
    headline = stale_headline(snapshot)
    if headline is not None:
        out.write(masked_shown(headline, MESSAGE_CHARS) + "\n")


def _print_reasons(report: ReportResult, out: TextIO) -> None:
    for reason in report.blocking_reasons:
        out.write(
            f"  blocking reason {masked_shown(reason.node_id, FIELD_CHARS)}: "
            f"{masked_shown(reason.reason, MESSAGE_CHARS)}\n"
        )


def print_human(result: InspectionResult, shown: Verdict, path: Path, out: TextIO) -> None:
    print_verdict(str(path), shown, out=out)
    print_findings(result.findings, out, result.omitted)
    for plan in result.plans:
        out.write(_plan_line(plan))
        _print_blockers(plan, out)
        print_findings(plan.findings, out, plan.omitted)
    if result.report is not None:
        out.write(_report_line(result.report))
        if result.report.snapshot is not None:
            _print_snapshot(result.report.snapshot, out)
        _print_reasons(result.report, out)
        print_findings(result.report.findings, out, result.report.omitted)
