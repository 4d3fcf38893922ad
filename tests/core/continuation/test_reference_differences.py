"""Where `plan` deliberately differs from the ASIF reference checker: our side, pinned.

The cases and their reasons are data (tests/data/asif-0.4/deliberate-differences.json)
and the conformance page of the docs lists them; scripts/compare_reference.py confirms
that the reference still gives the other verdict.
"""

from __future__ import annotations

import pytest

from tests.core.continuation.upstream_cases import (
    Difference,
    check,
    differences,
    materialise,
    verdict,
)

DIFFERENCES = differences()


@pytest.mark.parametrize("diff", DIFFERENCES, ids=[d.name for d in DIFFERENCES])
def test_our_verdict_on_a_documented_difference(diff: Difference) -> None:
    source, receipt = materialise(diff.session, diff.session_patch, diff.report, diff.report_patch)
    result = check(source, receipt)
    shown = [f.to_json() for f in result.all_findings()]
    assert verdict(result, receipt is not None) == diff.plan["verdict"], shown
    assert diff.plan["verdict"] != diff.reference["verdict"]
    hits = [
        f
        for f in result.all_findings()
        if f.code == diff.plan["code"] and f.severity == diff.plan["severity"]
    ]
    assert hits, shown
    assert len(diff.why) > 40


def test_the_git_format_difference_follows_the_seed_example() -> None:
    """The object reference's Git State example names the format "example"."""
    (diff,) = [d for d in DIFFERENCES if d.name == "git-object-format-of-the-seed-example"]
    source, _ = materialise(diff.session, diff.session_patch, None, ())
    result = check(source, None)
    assert result.ok
    (finding,) = [f for f in result.all_findings() if f.code == "git_state_invalid"]
    assert finding.severity == "info"
    assert finding.pointer == "/continuation/workspaces/0/git/object_format"
    assert "'example'" in finding.message
    assert "taken as declared" in finding.message


def test_every_difference_is_listed_in_the_conformance_page() -> None:
    from tests.conftest import REPO

    readme = (REPO / "docs" / "conformance.md").read_text(encoding="utf-8")
    for diff in DIFFERENCES:
        assert f"`{diff.name}`" in readme, diff.name
