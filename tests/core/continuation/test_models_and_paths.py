"""Models keep extra fields and refuse what the schema refuses; portable path table."""

from __future__ import annotations

import pytest

from tests.core.continuation.spec_examples import mutated, schema_valid, session
from zcf_inspector.core.continuation.models.session import AsifSession
from zcf_inspector.core.continuation.models.validation import validate_at
from zcf_inspector.core.continuation.rules.paths import path_problem


def test_additional_properties_are_preserved() -> None:
    document = mutated(
        session("another-computer"),
        lambda d: d["continuation"]["plans"][0].update(x_vendor={"k": [1]}),
    )
    model, findings = validate_at(AsifSession, document)
    assert findings == []
    assert model is not None
    assert model.continuation is not None
    assert model.continuation.plans[0].model_extra == {"x_vendor": {"k": [1]}}


NULL_AND_TYPE_CASES = [
    (
        "null optional call_id",
        lambda d: d["continuation"]["operations"].append(
            dict(d["continuation"]["operations"][0], id="op2", call_id=None)
        ),
    ),
    ("string mode", lambda d: d["continuation"]["workspaces"][0]["entries"][0].update(mode="644")),
    (
        "boolean priority",
        lambda d: d["continuation"]["configuration_bindings"][0]["instruction_rules"][0].update(
            priority=True
        ),
    ),
    ("empty id", lambda d: d["continuation"]["plans"][0].update(id="")),
    (
        "repeated dependency id",
        lambda d: d["continuation"]["plans"][0]["dependency_ids"].append("agent-runtime"),
    ),
    (
        "snapshot with deletions",
        lambda d: d["continuation"]["workspaces"][0].update(deletions=["x"]),
    ),
]


@pytest.mark.parametrize(
    ("name", "mutate"), NULL_AND_TYPE_CASES, ids=[c[0] for c in NULL_AND_TYPE_CASES]
)
def test_models_refuse_what_the_schema_refuses(name: str, mutate: object) -> None:
    fixture = "pending-remote-operation" if "call_id" in name else "another-computer"
    document = mutated(session(fixture), mutate)  # type: ignore[arg-type]
    model, findings = validate_at(AsifSession, document)
    assert model is None
    assert findings
    assert not schema_valid("session", document)


PATHS = [
    ("inventory.csv", None),
    ("dir/file.txt", None),
    ("", "empty"),
    ("../file", "escapes"),
    ("/etc/passwd", "absolute"),
    ("a//b", "escapes"),
    ("a/./b", "escapes"),
    ("C:/x", "character"),
    ("a\\b", "character"),
    ("trailing.", "dot or space"),
    ("nul.txt", "device"),
]


@pytest.mark.parametrize(("path", "problem"), PATHS)
def test_portable_paths(path: str, problem: str | None) -> None:
    found = path_problem(path)
    if problem is None:
        assert found is None
    else:
        assert found is not None
        assert problem in found


def test_empty_relative_path_means_the_root_where_allowed() -> None:
    assert path_problem("", allow_empty=True) is None
