"""Core sessions are documents (issue 33, item 5): an ASIF 0.5 session without the
portable-continuation profile is checked by the core rules and headed valid with no
continuation plan; check_examples.py's five negative mutations are refused for its reasons.

The oracles: the upstream `validate_document` accepts every example it can run and
`check_examples.py` records all 12 as passed (tests/data/asif-0.5-package/
example-results.json).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.core.package.cases import EXAMPLES, NOW, PACKAGE_DATA, sessions
from tests.core.package.session_cases import (
    SESSION_CASES,
    SessionCase,
    example_files,
    session_bytes,
)
from zcf_inspector.core.codes import PlanCode
from zcf_inspector.core.continuation.inspection import inspect_continuation
from zcf_inspector.core.continuation.results import InspectionResult
from zcf_inspector.core.document_kind import DocumentKind
from zcf_inspector.core.findings import Severity
from zcf_inspector.present import asif
from zcf_inspector.present.vocabulary import Trust

RECORDED = json.loads((PACKAGE_DATA / "example-results.json").read_text())


def _errors(result: InspectionResult) -> list[tuple[str, str]]:
    return [(str(f.code), f.pointer) for f in result.all_findings() if f.severity is Severity.ERROR]


def test_the_copy_holds_every_example_the_upstream_checker_passed() -> None:
    names = {r["example"] for r in RECORDED["results"] if r["passed"]}
    assert names == {p.name for p in sessions()}
    assert len(names) == 12


@pytest.mark.parametrize("path", sessions(), ids=lambda p: p.name)
def test_every_example_session_is_a_valid_core_session(path: Any) -> None:
    result = inspect_continuation(path.read_bytes(), now=NOW)
    assert result.kind is DocumentKind.ASIF_SESSION
    assert _errors(result) == []
    assert result.core_only
    assert result.plans == ()
    shown = asif.verdict(result)
    assert shown.words == "ASIF-SESSION VALID · NO CONTINUATION PLAN (core session)"
    assert shown.trust is Trust.UNSIGNED
    assert [c.check for c in shown.rows] == ["document", "continuation plan"]


def test_file_resources_are_checked_when_their_bytes_are_given() -> None:
    raw = (EXAMPLES / "tool-generated-files.session.json").read_bytes()
    alone = inspect_continuation(raw, now=NOW)
    not_checked = [f for f in alone.findings if f.code is PlanCode.RESOURCE_NOT_CHECKED]
    assert len(not_checked) == 2
    files = {n: (EXAMPLES / n).read_bytes() for n in ("assets/summary.md", "assets/totals.csv")}
    checked = inspect_continuation(raw, now=NOW, files=files)
    assert _errors(checked) == []
    assert not [f for f in checked.findings if f.code is PlanCode.RESOURCE_NOT_CHECKED]
    tampered = dict(files, **{"assets/totals.csv": b"a,b\n"})
    assert _errors(inspect_continuation(raw, now=NOW, files=tampered)) == [
        ("resource_integrity", "/resources/1/bytes")
    ]
    missing = {"assets/summary.md": files["assets/summary.md"]}
    assert _errors(inspect_continuation(raw, now=NOW, files=missing)) == [
        ("resource_integrity", "/resources/1/path")
    ]


def test_a_session_that_declares_the_profile_and_breaks_it_is_still_refused() -> None:
    value = json.loads((EXAMPLES / "awaiting-approval.session.json").read_bytes())
    value["required_features"] = ["asif.portable-continuation/0.3"]
    result = inspect_continuation(json.dumps(value).encode(), now=NOW)
    assert _errors(result)[0][0] == "profile_activation_mismatch"
    assert not result.core_only
    assert asif.verdict(result).words == "ASIF-SESSION REFUSED: profile_activation_mismatch"


BASE = json.loads((EXAMPLES / "image-and-document.session.json").read_bytes())
PDF = {"assets/meeting-notes.pdf": (EXAMPLES / "assets/meeting-notes.pdf").read_bytes()}

# check_examples.py's negatives, with its reason and the code and pointer given here.
# corrupt-digest and wrong-byte-count change resources[0], the file assets/color-grid.png,
# whose bytes this copy lacks (SOURCE.txt): they are applied to the resources whose bytes
# are here — the inline text (index 2, session bytes alone) and the PDF file (index 1,
# its bytes given as a package gives them).
NEGATIVES: list[
    tuple[str, Callable[[Any], None], dict[str, bytes] | None, str, tuple[str, str]]
] = [
    (
        "corrupt-digest (inline text)",
        lambda d: d["resources"][2].update(sha256="0" * 64),
        None,
        "resource digest mismatch",
        ("resource_integrity", "/resources/2/sha256"),
    ),
    (
        "corrupt-digest (file)",
        lambda d: d["resources"][1].update(sha256="0" * 64),
        PDF,
        "resource digest mismatch",
        ("resource_integrity", "/resources/1/sha256"),
    ),
    (
        "wrong-byte-count (inline text)",
        lambda d: d["resources"][2].update(bytes=0),
        None,
        "resource length mismatch",
        ("resource_integrity", "/resources/2/bytes"),
    ),
    (
        "wrong-byte-count (file)",
        lambda d: d["resources"][1].update(bytes=0),
        PDF,
        "resource length mismatch",
        ("resource_integrity", "/resources/1/bytes"),
    ),
    (
        "missing-reference",
        lambda d: d["events"][0]["data"]["parts"][1].update(resource_id="absent"),
        None,
        "missing resource reference",
        ("dangling_reference", "/events/0/data/parts/1/resource_id"),
    ),
    (
        "path-traversal",
        lambda d: d["resources"][0].update(path="../SPEC.md"),
        None,
        "unsafe resource path",
        ("unsafe_path", "/resources/0/path"),
    ),
    (
        "wrong-branch-head",
        lambda d: d["branches"][0].update(head_event_id="e1"),
        None,
        "wrong branch head",
        ("event_order_invalid", "/branches/0/head_event_id"),
    ),
]


@pytest.mark.parametrize("case", NEGATIVES, ids=lambda c: c[0])
def test_check_examples_negatives_are_refused_for_its_reasons(case: Any) -> None:
    _name, mutate, files, _reason, expected = case
    value = copy.deepcopy(BASE)
    mutate(value)
    result = inspect_continuation(json.dumps(value).encode(), now=NOW, files=files)
    errors = [e for e in _errors(result) if e != ("resource_integrity", "/resources/0/path")]
    assert errors[0] == expected
    assert asif.verdict(result).trust is Trust.REFUSED


@pytest.mark.parametrize("case", SESSION_CASES, ids=lambda c: c.name)
def test_core_rule_mutations_with_the_files_beside_the_session(case: SessionCase) -> None:
    """The cases `scripts/compare_package_reference.py` also runs through the reference's
    validate_document (with the examples' folder), where both agree."""
    result = inspect_continuation(session_bytes(case), now=NOW, files=example_files())
    errors = _errors(result)
    assert (errors[0][0] if errors else None) == case.code
