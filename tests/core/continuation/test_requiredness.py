"""§10a required flags: the spec's accepted requirement cases on the action-specific capture."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.core.continuation.spec_examples import (
    Json,
    dump,
    expected_results,
    inspect,
    mutated,
    session,
)

Expectation = tuple[str, str, str, bool]  # plan (= next action), kind, subject ID, required


def _flags(document: Json) -> dict[tuple[str, str, str], bool]:
    result = inspect(dump(document))
    assert result.ok, [f.to_json() for f in result.all_findings()]
    return {(p.id, n.type, n.subject_id): n.required for p in result.plans for n in p.nodes}


def _env_media(d: Json) -> None:
    d["environments"][0]["requirements"].append(
        {
            "id": "env-media",
            "kind": "example.input",
            "description": "Required environment media.",
            "required_for": ["continue"],
            "status": "unavailable",
            "resource_id": "optional-asset",
        }
    )


def _lookalikes(d: Json) -> None:
    d["configurations"][0]["capabilities"][-1]["definition"].update(
        resource_id="absent", resource_ids=["absent"]
    )


CASES: list[tuple[str, Callable[[Json], object], list[Expectation]]] = [
    (
        "action-scopes-and-transitive-empty-dependency",
        lambda d: None,
        [
            ("await_user", "dependency", "summary-tool", False),
            ("reconcile_operation", "dependency", "summary-tool", True),
            ("await_user", "dependency", "media-decoder", False),
            ("model_request", "dependency", "media-decoder", True),
            ("await_user", "resource", "missing-media", False),
            ("model_request", "resource", "missing-media", True),
            ("model_request", "capability", "optional-formatting", False),
            ("model_request", "resource", "optional-asset", False),
            ("await_user", "checkpoint_requirement", "viewer", True),
            ("await_user", "checkpoint_requirement", "media-input", False),
            ("await_decision", "resource", "decision-guide", True),
        ],
    ),
    (
        "shared-resource-requiredness-union",
        lambda d: d["checkpoints"][0]["requirements"][0].update(resource_id="optional-asset"),
        [
            ("await_user", "resource", "optional-asset", True),
            ("model_request", "resource", "optional-asset", True),
        ],
    ),
    (
        "core-requirement-promotes-optional-capability",
        lambda d: d["checkpoints"][0]["requirements"][0].update(
            capability_id="optional-formatting"
        ),
        [
            ("await_user", "capability", "optional-formatting", True),
            ("await_user", "resource", "optional-asset", True),
        ],
    ),
    (
        "environment-requirements-follow-parent-and-scope",
        _env_media,
        [
            ("await_user", "environment_requirement", "env-media", False),
            ("reconcile_operation", "environment_requirement", "env-media", True),
            ("reconcile_operation", "resource", "optional-asset", True),
        ],
    ),
    (
        "opaque-resource-lookalikes-ignored",
        _lookalikes,
        [
            ("model_request", "resource", "optional-asset", False),
        ],
    ),
]


@pytest.mark.parametrize(("name", "mutate", "expected"), CASES, ids=[c[0] for c in CASES])
def test_requirement_case(
    name: str, mutate: Callable[[Json], object], expected: list[Expectation]
) -> None:
    assert expected_results()[name] == "accepted"
    flags = _flags(mutated(session("action-specific"), mutate))
    for plan, kind, ident, required in expected:
        assert flags[(plan, kind, ident)] is required, (plan, kind, ident)


def test_lookalike_keys_select_no_resource() -> None:
    flags = _flags(mutated(session("action-specific"), _lookalikes))
    assert not any(ident == "absent" for (_, _, ident) in flags)


def test_unavailable_unselected_history_stays_outside_the_inventory() -> None:
    assert expected_results()["unavailable-unselected-history-outside-inventory"] == "accepted"

    def add_history(d: Json) -> None:
        d["resources"].append(
            {
                "id": "unused-history",
                "media_type": "text/plain",
                "purpose": "input",
                "availability": "unavailable",
                "explanation": "Unselected historical attachment.",
            }
        )

    flags = _flags(mutated(session("action-specific"), add_history))
    assert not any(ident == "unused-history" for (_, _, ident) in flags)


def test_active_scopes_follow_the_action_table() -> None:
    result = inspect(dump(session("action-specific")))
    scopes = {p.id: p.active_scopes for p in result.plans}
    assert scopes == {
        "await_user": ("read",),
        "await_decision": ("read",),
        "reconcile_operation": ("read", "continue"),
        "model_request": ("read", "context", "continue"),
        "resume_native": ("read", "context", "continue"),
    }
