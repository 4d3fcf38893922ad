"""Node ids: one string per subject key, readable for the keys a plan has."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zcf_inspector.core.continuation.subjects import OWNED_KINDS, SubjectKey

KINDS = sorted(OWNED_KINDS | {"resource", "feature", "dependency", "plan"})
# Text made mostly of the characters the encoding treats specially.
TEXT = st.text(alphabet="/~!:ab", min_size=1, max_size=6)


def test_plan_subjects_read_as_written() -> None:
    assert SubjectKey("feature", None, "asif.portable-continuation/0.2").node_id == (
        "feature:asif.portable-continuation/0.2"
    )
    assert SubjectKey("policy", "effective", "workspace-only").node_id == (
        "policy:effective/workspace-only"
    )


def test_an_owner_holding_a_slash_is_escaped() -> None:
    # Before: both were "instruction:a/b/c", drawn as one node.
    one = SubjectKey("instruction", "a/b", "c").node_id
    other = SubjectKey("instruction", "a", "b/c").node_id
    assert one == "instruction:a~1b/c"
    assert other == "instruction:a/b/c"
    assert SubjectKey("instruction", "~1", "x").node_id == "instruction:~01/x"


def test_a_key_whose_owner_contradicts_its_kind_is_marked() -> None:
    # A report may name a resource with an owner; it must not land on resource "x/y".
    assert SubjectKey("resource", "x", "y").node_id == "resource!:x/y"
    assert SubjectKey("resource", None, "x/y").node_id == "resource:x/y"
    assert SubjectKey("instruction", None, "x/y").node_id == "instruction!:x/y"


@given(st.lists(st.tuples(st.sampled_from(KINDS), st.none() | TEXT, TEXT), min_size=2, max_size=12))
def test_distinct_keys_have_distinct_node_ids(keys: list[tuple[str, str | None, str]]) -> None:
    subjects = {SubjectKey(*key) for key in keys}
    assert len({s.node_id for s in subjects}) == len(subjects)
