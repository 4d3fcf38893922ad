"""Run the public ASIF reference checker and `plan` on the same bytes; print disagreements.

A developer tool, not part of the test run. The reference checker is an oracle kept
outside this repository: pass its folder (the one holding `reference/` and `tests/`,
with the upstream `examples/` and `schemas/` beside it), for instance

    .venv/bin/python scripts/compare_reference.py \
        /path/to/continuation-spec/reference-checker

The folder tells the version: a reference with `reference/capabilities.py` is ASIF 0.5,
and then the 120 upstream cases (tests/data/asif-0.5/upstream-checks.json), our further
snapshot mutations and `--random` random mutations of the snapshots and their bindings
(`scripts/snapshot_mutations.py`) are compared instead, each with the caller's current
snapshot where the case gives one.

For ASIF 0.4 it checks the 71 upstream cases (tests/data/asif-0.4/upstream-checks.json),
our family mutations and the conformance edges of issue 23 (tests/data/asif-0.4/
conformance-edges.json: where the reference and the ASIF text disagree the text wins, and
the case says so), then `--random` seeded random mutations of the examples drawn from the rule
families of `scripts/reference_mutations.py` (among them exact-numbers: big and
non-integral numbers in every integer field and in free JSON). Both checkers read the
bytes with exact numbers (the reference with its own `decode`). For every input both
checkers see the same session bytes (and report bytes); a disagreement is a different
verdict (refused, or which outcome) or, for an accepted session, a different inventory or
`required` flag.

Exit status 0 when there is none. The reference needs `jsonschema` (in the .venv).
"""

from __future__ import annotations

import argparse
import importlib
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from reference_mutations import Mutation, random_mutations  # noqa: E402

from tests.core.continuation.upstream_cases import (  # noqa: E402
    EDGES,
    FAMILIES,
    case_bytes,
    cases,
    check,
    differences,
    materialise,
    verdict,
)
from zcf_inspector.core.continuation.models.json_values import json_key  # noqa: E402
from zcf_inspector.core.continuation.results import InspectionResult  # noqa: E402
from zcf_inspector.core.exact_numbers import is_integral  # noqa: E402

NOW = datetime(2026, 9, 26, 12, 30, tzinfo=UTC)
Json = Any


@dataclass(frozen=True)
class Oracle:
    """The reference checker's two entry points, loaded from the folder given."""

    inspect_session: Callable[..., Any]
    inspect_report: Callable[..., Any]
    refusals: tuple[type[BaseException], ...]
    folder: Path
    # Its own reader (reference/common.py `decode`): numbers exactly (parse_float=Decimal),
    # duplicate keys refused. Fed json.loads' doubles, it would judge rounded numbers.
    decode: Callable[[bytes], Any]


def load_oracle(folder: Path) -> Oracle:
    if not (folder / "reference" / "continuation.py").is_file():
        raise SystemExit(f"{folder}: no reference/continuation.py (the reference checker's folder)")
    sys.path.insert(0, str(folder))
    continuation = importlib.import_module("reference.continuation")
    common = importlib.import_module("reference.common")
    jsonschema = importlib.import_module("jsonschema")
    return Oracle(
        continuation.inspect_session,
        continuation.inspect_report,
        # check_schema (tool schemas) raises SchemaError, not a ValidationError.
        (common.Invalid, jsonschema.ValidationError, jsonschema.SchemaError),
        folder.parent / "examples" / "continuation",
        common.decode,
    )


@dataclass(frozen=True)
class Said:
    verdict: str  # "rejected", "accepted" or an outcome
    detail: str  # the reference's message, or our error codes
    inventory: dict[str, dict[tuple[str, str | None, str], bool]] | None = None


def inventory_of(subjects: dict[str, Any]) -> dict[str, dict[Any, Any]]:
    """The reference's inventory, plan by plan: (kind, owner, ID) -> required."""
    return {
        plan: {
            (s["subject"]["kind"], s["subject"].get("owner_id"), s["subject"]["id"]): s["required"]
            for s in listed
        }
        for plan, listed in subjects.items()
    }


def reference_says(oracle: Oracle, source: bytes, receipt: bytes | None) -> Said:
    try:
        doc = oracle.decode(source)
    except (*oracle.refusals, ValueError) as exc:
        return Said("rejected", f"invalid JSON: {exc}")
    try:
        if receipt is None:
            return Said("accepted", "", inventory_of(oracle.inspect_session(doc, oracle.folder)))
        outcome = oracle.inspect_report(doc, source, oracle.decode(receipt), oracle.folder, now=NOW)
        return Said(str(outcome["outcome"]), "")
    except oracle.refusals as exc:
        return Said("rejected", str(exc).splitlines()[0][:160])
    except Exception as exc:  # noqa: BLE001 - the oracle's crash is an outcome to compare
        # The reference assumes well-formed input in places; a crash is not an acceptance.
        return Said("rejected", f"(reference crashed: {type(exc).__name__}: {exc})"[:160])


def plan_says(source: bytes, receipt: bytes | None) -> Said:
    result: InspectionResult = check(source, receipt)
    errors = sorted({str(f.code) for f in result.all_findings() if f.severity == "error"})
    inventory = None
    if receipt is None and result.ok:
        inventory = {
            plan.id: {(n.type, n.owner, n.subject_id): n.required for n in plan.nodes}
            for plan in result.plans
        }
    return Said(verdict(result, receipt is not None), ", ".join(errors), inventory)


def disagreement(ours: Said, theirs: Said) -> str | None:
    if ours.verdict != theirs.verdict:
        return f"reference {theirs.verdict} {theirs.detail!r}; plan {ours.verdict} [{ours.detail}]"
    if ours.inventory is None or theirs.inventory is None or ours.inventory == theirs.inventory:
        return None
    for plan in sorted(set(ours.inventory) | set(theirs.inventory)):
        a, b = ours.inventory.get(plan, {}), theirs.inventory.get(plan, {})
        if a != b:
            diff = sorted(set(a.items()) ^ set(b.items()), key=str)[:4]
            return f"inventory of plan {plan!r} differs: {diff}"
    return None


# Where the reference checker and the ASIF text disagree on exact numbers, the text wins
# (docs/notes/issue23.md; the conformance edges pin one case of each):
_NOT_INTEGER = re.compile(r"^Decimal\('([^']*)'\) is not of type 'integer'")


def text_wins(theirs: Said, ours: Said, mutation: Mutation) -> str | None:
    """The documented reason a random exact-numbers mutation is judged otherwise by the
    reference, or None when the disagreement is not one of them."""
    if mutation.family != "exact-numbers":
        return None
    refused = _NOT_INTEGER.match(theirs.detail)
    # SPEC.md: `integer` is an "Integral JSON number". The reference validates the
    # continuation schema without its own integer type checker, so 420.0, -0.0 and 1e400
    # (where no bound is stated: `priority`) are refused there.
    if (
        theirs.verdict == "rejected"
        and ours.verdict != "rejected"
        and refused is not None
        and is_integral(Decimal(refused.group(1)))
    ):
        return "an integral decimal is an integer"
    values = [op.get("value") for op in mutation.session_patch if op["path"].endswith("/n")]
    if (
        len(values) == 2
        and theirs.verdict != "rejected"
        and "unreported_transformation" in ours.detail
        and json_key(values[0]) != json_key(values[1])
        and values[0] == values[1]  # equal only as Python values: true == 1
    ):
        return "true is not 1"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", type=Path, help="the reference checker's folder")
    parser.add_argument("--random", type=int, default=400, help="random mutations (default 400)")
    parser.add_argument("--seed", type=int, default=10, help="random seed (default 10)")
    parser.add_argument("--verbose", action="store_true", help="print agreements too")
    parser.add_argument(
        "--family",
        action="append",
        help="draw the random mutations from this family only (repeatable; e.g. exact-numbers)",
    )
    args = parser.parse_args()
    if (args.reference / "reference" / "capabilities.py").is_file():
        from compare_reference_05 import main_05  # noqa: PLC0415 - only for a 0.5 reference

        return main_05(args.reference.resolve(), args.random, args.seed, args.verbose)
    oracle = load_oracle(args.reference.resolve())
    problems = 0
    tally: Counter[str] = Counter()

    def compare(
        label: str,
        source: bytes,
        receipt: bytes | None,
        expected: str | None,
        mutation: Mutation | None = None,
    ) -> None:
        nonlocal problems
        theirs = reference_says(oracle, source, receipt)
        ours = plan_says(source, receipt)
        why = disagreement(ours, theirs)
        if why is None and expected is not None and theirs.verdict != expected:
            why = f"the case data expects {expected}; both say {theirs.verdict}"
        known = None if why is None or mutation is None else text_wins(theirs, ours, mutation)
        if known is not None:
            tally[f"the text wins, as documented: {known}"] += 1
            if args.verbose:
                print(f"text wins {label}: {known}: {why}")
            return
        tally[f"{'agree' if why is None else 'DISAGREE'} ({theirs.verdict})"] += 1
        if why is not None:
            problems += 1
            print(f"DISAGREE {label}: {why}")
        elif args.verbose:
            print(f"agree    {label}: {theirs.verdict} {theirs.detail!r} [{ours.detail}]")

    upstream = cases()
    for case in upstream:
        source, receipt = case_bytes(case)
        compare(f"upstream {case.name}", source, receipt, case.expect["verdict"])
    print(f"{len(upstream)} upstream cases compared")
    further = cases(FAMILIES)
    for case in further:
        source, receipt = case_bytes(case)
        compare(f"family {case.family} {case.name}", source, receipt, case.expect["verdict"])
    print(f"{len(further)} further family mutations compared")
    edges = cases(EDGES)
    for case in edges:
        source, receipt = case_bytes(case)
        documented = case.reference
        if documented is None:
            compare(f"edge {case.family} {case.name}", source, receipt, case.expect["verdict"])
            continue
        # The reference and the ASIF text disagree here; the text wins (the case's "why").
        theirs = reference_says(oracle, source, receipt)
        ours = plan_says(source, receipt)
        if (theirs.verdict, ours.verdict) == (documented["verdict"], case.expect["verdict"]):
            tally["edge where the text wins, as documented"] += 1
            if args.verbose:
                print(
                    f"as documented edge {case.name}: reference {theirs.verdict} "
                    f"{theirs.detail!r}, plan {ours.verdict}"
                )
        else:
            problems += 1
            print(
                f"DISAGREE edge {case.name}: documented reference {documented['verdict']} / "
                f"plan {case.expect['verdict']}; now reference {theirs.verdict} "
                f"{theirs.detail!r} / plan {ours.verdict} [{ours.detail}]"
            )
    print(f"{len(edges)} conformance edges compared (tests/data/asif-0.4/conformance-edges.json)")
    documented = differences()
    for diff in documented:
        source, receipt = materialise(
            diff.session, diff.session_patch, diff.report, diff.report_patch
        )
        theirs = reference_says(oracle, source, receipt)
        ours = plan_says(source, receipt)
        if (theirs.verdict, ours.verdict) == (diff.reference["verdict"], diff.plan["verdict"]):
            tally["deliberate difference, as documented"] += 1
            if args.verbose:
                print(f"as documented {diff.name}: reference {theirs.verdict}, plan {ours.verdict}")
        else:
            problems += 1
            print(
                f"DISAGREE deliberate {diff.name}: documented reference "
                f"{diff.reference['verdict']} / plan {diff.plan['verdict']}; now reference "
                f"{theirs.verdict} {theirs.detail!r} / plan {ours.verdict} [{ours.detail}]"
            )
    print(f"{len(documented)} deliberate differences checked")
    rng = random.Random(args.seed)
    mutations: list[Mutation] = random_mutations(rng, args.random, args.family)
    families: Counter[str] = Counter()
    for mutation in mutations:
        families[mutation.family] += 1
        source, receipt = mutation.materialise()
        compare(f"random {mutation.label}", source, receipt, None, mutation)
    print(f"{len(mutations)} random mutations compared (seed {args.seed}); families:")
    for family, count in sorted(families.items()):
        print(f"  {family}: {count}")
    for key, count in sorted(tally.items()):
        print(f"{key}: {count}")
    print(f"{problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
