"""Rejected source cases of the spec's result listing, reproduced as example mutations.

Each case names the fixture it mutates, the mutation and the specific finding code; the
public session schema must agree with the models on every mutated document.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.core.continuation.spec_examples import (
    Json,
    codes,
    dump,
    expected_results,
    inspect,
    mutated,
    schema_valid,
    session,
)
from zcf_inspector.core.continuation.models.session import AsifSession
from zcf_inspector.core.continuation.models.validation import validate_at


def _first(items: list[Json], **match: object) -> Json:
    return next(i for i in items if all(i.get(k) == v for k, v in match.items()))


def _plan(d: Json) -> Json:
    return d["continuation"]["plans"][0]


@dataclass(frozen=True)
class Case:
    name: str  # the case name in tests/continuation-results.json
    fixture: str
    mutate: Callable[[Json], object]
    code: str


CASES = [
    Case(
        "dependency-cycle",
        "another-computer",
        lambda d: d["continuation"]["dependencies"][0].update(depends_on=["agent-runtime"]),
        "dependency_cycle",
    ),
    Case(
        "incomplete-dependency-closure",
        "another-computer",
        lambda d: _plan(d)["dependency_ids"].remove("summary-tool"),
        "closure_incomplete",
    ),
    Case(
        "missing-skill-resource",
        "another-computer",
        lambda d: _first(d["continuation"]["dependencies"], kind="skill")["resource_ids"].append(
            "font-not-captured"
        ),
        "dangling_reference",
    ),
    Case(
        "incomplete-context-accounting",
        "another-computer",
        lambda d: _plan(d)["context_accounting"].pop(),
        "context_accounting_incomplete",
    ),
    Case(
        "mixed-workspace-boundary",
        "another-computer",
        lambda d: d["continuation"]["workspaces"][0].update(at_event_id="e1"),
        "workspace_boundary_mismatch",
    ),
    Case(
        "workspace-traversal",
        "another-computer",
        lambda d: d["continuation"]["workspaces"][0]["entries"][0].update(path="../file"),
        "unsafe_path",
    ),
    Case(
        "replacement-without-baseline",
        "another-computer",
        lambda d: d["continuation"]["native_imports"][0].update(
            conflict_policy="replace_if_unchanged"
        ),
        "native_import_invalid",
    ),
    Case(
        "unsafe-operation-restart",
        "pending-remote-operation",
        lambda d: d["continuation"]["operations"][0]["recovery"].update(strategy="restart"),
        "unsafe_restart",
    ),
    Case(
        "missing-path-selector",
        "another-computer",
        lambda d: _plan(d)["path_references"][0].update(json_pointer="/absent"),
        "pointer_unresolved",
    ),
    Case(
        "stale-context",
        "another-computer",
        lambda d: d["contexts"][0].update(at_event_id="e1"),
        "checkpoint_binding_mismatch",
    ),
    Case(
        "wrong-checkpoint-config",
        "another-computer",
        lambda d: d["checkpoints"][0].update(configuration_id=None),
        "checkpoint_binding_mismatch",
    ),
    Case(
        "unbound-open-call",
        "pending-remote-operation",
        lambda d: _plan(d).update(operation_ids=[]),
        "unbound_open_call",
    ),
    Case(
        "undeclared-secret",
        "pending-remote-operation",
        lambda d: d["continuation"]["service_bindings"][0].update(secret_handles=["other-login"]),
        "undeclared_secret",
    ),
    Case(
        "previous-core-version-refused",
        "another-computer",
        lambda d: d.update(asif_version="0.3"),
        "unsupported_version",
    ),
    Case(
        "future-core-version-refused",
        "another-computer",
        lambda d: d.update(asif_version="0.6"),
        "unsupported_version",
    ),
    Case(
        "missing-core-version-refused",
        "another-computer",
        lambda d: d.pop("asif_version"),
        "unrecognised_document",
    ),
    Case(
        "previous-profile-version-refused",
        "another-computer",
        lambda d: d["continuation"].update(profile_version="0.1"),
        "schema_violation",
    ),
    Case(
        "previous-profile-feature-refused",
        "another-computer",
        lambda d: d.update(required_features=["asif.portable-continuation/0.1"]),
        "profile_activation_mismatch",
    ),
    Case(
        "profile-not-gated",
        "another-computer",
        lambda d: d.update(required_features=[]),
        "profile_activation_mismatch",
    ),
    Case(
        "profile-declaration-without-data",
        "another-computer",
        lambda d: d.pop("continuation"),
        "profile_activation_mismatch",
    ),
    Case(
        "untyped-context",
        "another-computer",
        lambda d: d["contexts"][0]["inputs"][0].pop("kind"),
        "schema_violation",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_rejected_source_case(case: Case) -> None:
    assert expected_results()[case.name] == "rejected"
    document = mutated(session(case.fixture), case.mutate)
    result = inspect(dump(document))
    assert not result.ok
    assert case.code in codes(result), [f.to_json() for f in result.all_findings()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_session_schema_agrees_with_models_on_mutation(case: Case) -> None:
    document = mutated(session(case.fixture), case.mutate)
    if "asif_version" not in document or document["asif_version"] != "0.4":
        assert not schema_valid("session", document)
        return
    model, _ = validate_at(AsifSession, document)
    assert (model is not None) == schema_valid("session", document)


def test_the_unmutated_fixtures_give_none_of_the_codes() -> None:
    for fixture in {c.fixture for c in CASES}:
        assert codes(inspect(dump(session(fixture)))) == set()


def test_findings_point_at_the_mutated_field() -> None:
    document = mutated(session("another-computer"), CASES[5].mutate)
    result = inspect(dump(document))
    (finding,) = [f for f in result.all_findings() if f.code == "unsafe_path"]
    assert finding.pointer == "/continuation/workspaces/0/entries/0/path"


def test_dependency_cycle_is_listed_once_with_its_members() -> None:
    document = mutated(session("another-computer"), CASES[0].mutate)
    (plan,) = inspect(dump(document)).plans
    assert plan.cycles == (("dependency:agent-runtime",),)
    assert [e.in_cycle for e in plan.edges if e.source == e.target] == [True]


def test_incomplete_closure_names_the_missing_dependency() -> None:
    document = mutated(session("another-computer"), CASES[1].mutate)
    (plan,) = inspect(dump(document)).plans
    assert plan.closure.missing == ("summary-tool",)
    node = plan.node("dependency:summary-tool")
    assert node is not None
    assert node.missing
    assert not node.selected
    assert node.referenced_by == ("dependency:summary-skill",)


def test_missing_resource_node_is_marked_and_keeps_its_referrer() -> None:
    document = mutated(session("another-computer"), CASES[2].mutate)
    (plan,) = inspect(dump(document)).plans
    node = plan.node("resource:font-not-captured")
    assert node is not None
    assert node.missing
    assert node.required  # the skill is required for continue, so is its resource
    assert node.referenced_by == ("dependency:summary-skill",)
