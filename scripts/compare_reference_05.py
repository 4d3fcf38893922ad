"""The ASIF 0.5 half of compare_reference.py: the 0.5 reference checker beside `plan`.

Every input is the same bytes for both: the session, the report (with the snapshot it
embeds) and, where a case gives one, the caller's current snapshot (`--current-capabilities`
for `plan`, `current_snapshot=` for the reference). A disagreement is a different verdict
(rejected, or which outcome), or for a session alone a different inventory.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compare_reference import NOW, Said, disagreement, inventory_of
from snapshot_mutations import Mutation05, random_snapshot_mutations

from tests.core.continuation.upstream_cases import PatchError
from tests.core.continuation.upstream_cases_05 import (
    DIFFERENCES_05,
    FAMILIES_05,
    cases,
    check,
    materialise,
    verdict,
)


@dataclass(frozen=True)
class Oracle05:
    inspect_session: Callable[..., Any]
    inspect_report: Callable[..., Any]
    refusals: tuple[type[BaseException], ...]
    folder: Path
    # Its own reader (reference/common.py `decode`), as the 0.4 script uses: numbers
    # exactly (parse_float=Decimal), duplicate keys refused. Fed json.loads' doubles, it
    # would judge rounded numbers and accept a document with a repeated key.
    decode: Callable[[bytes], Any]


def load_oracle_05(folder: Path) -> Oracle05:
    sys.path.insert(0, str(folder))
    continuation = importlib.import_module("reference.continuation")
    common = importlib.import_module("reference.common")
    jsonschema = importlib.import_module("jsonschema")
    return Oracle05(
        continuation.inspect_session,
        continuation.inspect_report,
        (common.Invalid, jsonschema.ValidationError, jsonschema.SchemaError),
        folder.parent / "examples" / "continuation",
        common.decode,
    )


def reference_says(
    oracle: Oracle05, source: bytes, receipt: bytes | None, current: bytes | None
) -> Said:
    try:
        doc = oracle.decode(source)
    except (*oracle.refusals, ValueError) as exc:
        return Said("rejected", f"invalid JSON: {exc}")
    try:
        if receipt is None:
            return Said("accepted", "", inventory_of(oracle.inspect_session(doc, oracle.folder)))
        outcome = oracle.inspect_report(
            doc, source, oracle.decode(receipt), oracle.folder, now=NOW, current_snapshot=current
        )
        return Said(str(outcome["outcome"]), "")
    except oracle.refusals as exc:
        return Said("rejected", str(exc).splitlines()[0][:160])
    except Exception as exc:  # noqa: BLE001 - the oracle's crash is an outcome to compare
        return Said("rejected", f"(reference crashed: {type(exc).__name__}: {exc})"[:160])


def plan_says(source: bytes, receipt: bytes | None, current: bytes | None) -> Said:
    result = check(source, receipt, current)
    errors = sorted({str(f.code) for f in result.all_findings() if f.severity == "error"})
    inventory = None
    if receipt is None and result.ok:
        inventory = {
            plan.id: {(n.type, n.owner, n.subject_id): n.required for n in plan.nodes}
            for plan in result.plans
        }
    return Said(verdict(result, receipt is not None), ", ".join(errors), inventory)


def main_05(folder: Path, count: int, seed: int, verbose: bool) -> int:
    oracle = load_oracle_05(folder)
    problems = 0
    tally: Counter[str] = Counter()

    def compare(
        label: str, inputs: tuple[bytes, bytes | None, bytes | None], expected: str | None
    ) -> None:
        nonlocal problems
        source, receipt, current = inputs
        theirs = reference_says(oracle, source, receipt, current)
        ours = plan_says(source, receipt, current)
        why = disagreement(ours, theirs)
        if why is None and expected is not None and theirs.verdict != expected:
            why = f"the case data expects {expected}; both say {theirs.verdict}"
        tally[f"{'agree' if why is None else 'DISAGREE'} ({theirs.verdict})"] += 1
        if why is not None:
            problems += 1
            print(f"DISAGREE {label}: {why}")
        elif verbose:
            print(f"agree    {label}: {theirs.verdict} {theirs.detail!r} [{ours.detail}]")

    upstream = cases()
    for case in upstream:
        compare(f"upstream {case.name}", case.materialise(), case.expect["verdict"])
    print(f"{len(upstream)} upstream ASIF 0.5 cases compared")
    if FAMILIES_05.is_file():
        further = cases(FAMILIES_05)
        for case in further:
            compare(f"family {case.family} {case.name}", case.materialise(), case.expect["verdict"])
        print(f"{len(further)} further snapshot mutations compared")
    if DIFFERENCES_05.is_file():
        listing = json.loads(DIFFERENCES_05.read_text(encoding="utf-8"))
        for diff in listing["cases"]:
            inputs = materialise(
                diff["session"],
                diff.get("session_patch", ()),
                diff.get("report"),
                diff.get("report_patch", ()),
                snapshot_patch=diff.get("snapshot_patch"),
                snapshot_bytes=diff.get("snapshot_bytes"),
                current=diff.get("current"),
            )
            theirs = reference_says(oracle, *inputs)
            ours = plan_says(*inputs)
            wanted = (diff["reference"]["verdict"], diff["plan"]["verdict"])
            if (theirs.verdict, ours.verdict) == wanted:
                tally["deliberate difference, as documented"] += 1
            else:
                problems += 1
                print(
                    f"DISAGREE deliberate {diff['name']}: documented {wanted}; now reference "
                    f"{theirs.verdict} {theirs.detail!r} / plan {ours.verdict} [{ours.detail}]"
                )
        print(f"{len(listing['cases'])} deliberate differences checked")
    rng = random.Random(seed)
    mutations: list[Mutation05] = random_snapshot_mutations(rng, count)
    families: Counter[str] = Counter()
    skipped = 0
    for mutation in mutations:
        try:
            inputs = mutation.materialise()
        except (PatchError, KeyError, IndexError):
            skipped += 1
            continue
        families[mutation.family] += 1
        compare(f"random {mutation.label}", inputs, None)
    print(
        f"{len(mutations) - skipped} random snapshot/binding mutations compared (seed {seed}; "
        f"{skipped} did not apply); families:"
    )
    for family, n in sorted(families.items()):
        print(f"  {family}: {n}")
    for key, n in sorted(tally.items()):
        print(f"{key}: {n}")
    print(f"{problems} disagreements")
    return 1 if problems else 0
