"""compare(a, b): sections by digest, elements by identity, fields, bounds and refusals."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from goldens import generate as g
from tests.core.helpers import plain_canonical, to_bytes
from zcf_inspector.core import pointer as jpointer
from zcf_inspector.core.compare.fields import content_key, content_keys
from zcf_inspector.core.compare.model import (
    ABSENT,
    ChangeKind,
    Comparison,
    FieldChange,
    PartStatus,
)
from zcf_inspector.core.compare.packets import budget_for, compare
from zcf_inspector.core.monitor import Cancelled, Monitor

Packet = dict[str, Any]


def sha(value: Any) -> str:
    return "sha256:" + hashlib.sha256(plain_canonical(value)).hexdigest()


def pair(mutate: Callable[[Packet], None], *, reseal: bool = True) -> tuple[Packet, Packet]:
    a = g.full_handoff()
    b = copy.deepcopy(a)
    mutate(b)
    return a, (g.unsigned(b) if reseal else b)


def run(a: Packet, b: Packet, **options: Any) -> Comparison:
    return compare(to_bytes(a), to_bytes(b), **options)


def part(result: Comparison, name: str) -> Any:
    return next(p for p in result.parts if p.name == name)


def changed_parts(result: Comparison) -> dict[str, PartStatus]:
    return {p.name: p.status for p in result.parts if p.status is not PartStatus.SAME}


# --- identical, and the shape of a result ----------------------------------------------


def test_identical_packets_are_identical_with_every_section_same() -> None:
    a = g.full_handoff()
    result = run(a, copy.deepcopy(a))
    assert result.identical
    assert result.changes == ()
    names = [s.name for s in result.sections]
    assert names == sorted(a["manifest"]["sections"])  # every covered section, by name
    for section in result.sections:
        assert section.status is PartStatus.SAME
        assert section.digest_a == section.digest_b == a["manifest"]["sections"][section.name]
    assert result.a.root == result.b.root == a["manifest"]["rootHash"]
    uncovered = [p.name for p in result.uncovered]
    assert set(uncovered) == {
        "format",
        "formatVersion",
        "artifactKind",
        "canonicalizationProfile",
        "redactionManifest",
        "omissionManifest",
        "authentication",
        "extensions",
        "manifest",
    }


def test_reformatted_and_reordered_members_are_canonically_identical() -> None:
    a = g.full_handoff()
    b = {key: a[key] for key in reversed(list(a))}
    b["content"] = {key: a["content"][key] for key in reversed(list(a["content"]))}
    b["content"]["beliefs"] = [dict(reversed(list(x.items()))) for x in a["content"]["beliefs"]]
    data_b = json.dumps(b, indent=3).encode()  # other whitespace, ASCII escapes
    result = compare(to_bytes(a), data_b)
    assert result.identical
    assert result.changes == ()


def test_to_json_has_exactly_the_documented_keys() -> None:
    a, b = pair(lambda p: p["content"]["beliefs"][0].update(content="new"))
    out: Any = run(a, b).to_json("a.json", "b.json")
    assert list(out) == ["a", "b", "sections", "changes"]
    assert out["a"] == {
        "path": "a.json",
        "rootHash": a["manifest"]["rootHash"],
        "valid": True,
        "refusedAt": [],
    }
    for section in out["sections"]:
        assert set(section) == {"name", "a", "b", "status"}
    for change in out["changes"]:
        assert {"pointer", "change", "section", "id"} <= set(change)
        assert change["change"] in ("added", "removed", "changed")
    belief = next(c for c in out["changes"] if c["section"] == "beliefs")
    assert belief["pointer"] == "/content/beliefs/0"
    assert belief["id"] == "b-reader"
    assert belief["fields"] == [
        {"path": "/content", "a": a["content"]["beliefs"][0]["content"], "b": "new"}
    ]


# --- beliefs: content, review state, identity, order -------------------------------


def test_a_changed_belief_names_its_fields_and_both_digests() -> None:
    a, b = pair(lambda p: p["content"]["beliefs"][1].update(content="Keys sorted by UTF-8."))
    result = run(a, b)
    assert changed_parts(result) == {"beliefs": PartStatus.CHANGED, "manifest": PartStatus.CHANGED}
    beliefs = part(result, "beliefs")
    assert (beliefs.digest_a, beliefs.digest_b) == (
        a["manifest"]["sections"]["beliefs"],
        b["manifest"]["sections"]["beliefs"],
    )
    assert (beliefs.added, beliefs.removed, beliefs.changed) == (0, 0, 1)
    [change] = [c for c in result.changes if c.section == "beliefs"]
    assert change.change is ChangeKind.CHANGED
    assert change.id == "b-order"
    assert change.pointer == change.pointer_a == change.pointer_b == "/content/beliefs/1"
    assert change.digest_a == sha(a["content"]["beliefs"][1])
    assert change.digest_b == sha(b["content"]["beliefs"][1])
    assert change.fields == (
        FieldChange("/content", a["content"]["beliefs"][1]["content"], "Keys sorted by UTF-8."),
    )
    assert change.review_state is None
    assert change.moved is None
    assert change.integrity_protected


def test_a_review_state_change_is_named_as_such() -> None:
    def confirm(p: Packet) -> None:
        p["content"]["beliefs"][0]["reviewState"] = "confirmed"
        p["content"]["beliefs"][2]["reviewState"] = "unreviewed"

    a, b = pair(confirm)
    a["content"]["beliefs"][2]["reviewState"] = "rejected"
    a = g.unsigned(a)
    result = run(a, b)
    changes = {c.id: c for c in result.changes if c.section == "beliefs"}
    assert changes["b-reader"].review_state == (None, "confirmed")  # absent: unreviewed
    assert changes["b-reader"].fields == (FieldChange("/reviewState", ABSENT, "confirmed"),)
    assert changes["b-bench"].review_state == ("rejected", "unreviewed")
    assert "b-order" not in changes


def test_an_identity_change_is_a_removal_and_an_addition() -> None:
    a, b = pair(lambda p: p["content"]["beliefs"][1].update(portableRef="b-order-2"))
    result = run(a, b)
    beliefs = [(c.change, c.id, c.pointer) for c in result.changes if c.section == "beliefs"]
    assert beliefs == [
        (ChangeKind.REMOVED, "b-order", "/content/beliefs/1"),
        (ChangeKind.ADDED, "b-order-2", "/content/beliefs/1"),
    ]
    removed, added = (c for c in result.changes if c.section == "beliefs")
    assert removed.digest_a == sha(a["content"]["beliefs"][1])
    assert removed.digest_b is None
    assert added.digest_a is None
    assert added.digest_b == sha(b["content"]["beliefs"][1])


def test_reordering_is_reported_as_moves_not_removals_and_additions() -> None:
    def move_last_first(p: Packet) -> None:
        beliefs = p["content"]["beliefs"]
        beliefs.insert(0, beliefs.pop())

    a, b = pair(move_last_first)
    result = run(a, b)
    beliefs = part(result, "beliefs")
    assert beliefs.status is PartStatus.CHANGED
    assert (beliefs.added, beliefs.removed, beliefs.changed) == (0, 0, 1)
    [change] = [c for c in result.changes if c.section == "beliefs"]
    assert change.change is ChangeKind.CHANGED
    assert change.id == "b-bench"
    assert change.moved == (2, 0)
    assert change.fields == ()
    assert change.digest_a == change.digest_b  # the same bytes, somewhere else
    assert (change.pointer_a, change.pointer_b) == ("/content/beliefs/2", "/content/beliefs/0")


def test_an_insertion_moves_nothing() -> None:
    a, b = pair(lambda p: p["content"]["beliefs"].insert(1, g.belief("b-new", "inserted")))
    result = run(a, b)
    assert [(c.change, c.id, c.pointer) for c in result.changes if c.section == "beliefs"] == [
        (ChangeKind.ADDED, "b-new", "/content/beliefs/1")
    ]


def test_a_moved_and_changed_element_is_one_change() -> None:
    def move_and_edit(p: Packet) -> None:
        beliefs = p["content"]["beliefs"]
        beliefs.insert(0, beliefs.pop())
        beliefs[0]["content"] = "edited"

    a, b = pair(move_and_edit)
    [change] = [c for c in run(a, b).changes if c.section == "beliefs"]
    assert change.moved == (2, 0)
    assert [f.path for f in change.fields] == ["/content"]


def test_changes_read_in_packet_order_with_removals_in_place() -> None:
    def edit(p: Packet) -> None:
        beliefs = p["content"]["beliefs"]
        del beliefs[0]
        beliefs.append(g.belief("b-late", "added at the end"))
        beliefs[0]["content"] = "edited"

    a, b = pair(edit)
    result = run(a, b)
    assert [(c.change, c.id) for c in result.changes if c.section == "beliefs"] == [
        (ChangeKind.REMOVED, "b-reader"),
        (ChangeKind.CHANGED, "b-order"),
        (ChangeKind.ADDED, "b-late"),
    ]


def test_repeated_identities_pair_by_occurrence_deterministically() -> None:
    def duplicate(p: Packet) -> None:
        beliefs = p["content"]["beliefs"]
        beliefs.append(dict(beliefs[0], content="second copy"))
        beliefs.append(dict(beliefs[0], content="third copy"))

    a, b = pair(duplicate)
    a["content"]["beliefs"].append(dict(a["content"]["beliefs"][0], content="second, in A"))
    a = g.unsigned(a)
    result = run(a, b)
    assert not result.b.valid  # structure refuses duplicate ids; compared anyway
    beliefs = [(c.change, c.id, c.occurrence, c.pointer) for c in result.changes]
    beliefs = [x for x in beliefs if x[1] == "b-reader"]
    assert beliefs == [
        (ChangeKind.CHANGED, "b-reader", 2, "/content/beliefs/3"),
        (ChangeKind.ADDED, "b-reader", 3, "/content/beliefs/4"),
    ]
    assert run(a, b).changes == result.changes  # the same answer every time


def test_elements_without_identity_pair_in_order() -> None:
    def break_identity(p: Packet) -> None:
        beliefs = p["content"]["beliefs"]
        beliefs.append("not an object")
        beliefs.append({"content": "no portableRef"})

    _, b = pair(break_identity)
    b2 = copy.deepcopy(b)
    b2["content"]["beliefs"][4]["content"] = "still none"
    result = run(b, g.unsigned(b2))
    [change] = [c for c in result.changes if c.section == "beliefs"]
    assert change.id is None
    assert change.pointer == "/content/beliefs/4"
    assert change.fields == (FieldChange("/content", "no portableRef", "still none"),)


# --- every section --------------------------------------------------------------------

ARRAY_CASES = [
    ("evidenceSources", "id", {"id": "src-new", "kind": "local", "locator": "x"}, "locator"),
    (
        "evidenceAnchors",
        "id",
        {"id": "a-new", "beliefRef": "b-reader", "sourceRef": "src-rfc"},
        "excerpt",
    ),
    (
        "receipts",
        "id",
        {"id": "r-new", "kind": "patch", "digest": "sha256:" + "0" * 64, "summary": "s"},
        "summary",
    ),
    (
        "reviewEvents",
        "id",
        {
            "id": "ev-new",
            "beliefRef": "b-order",
            "reviewer": "bob",
            "fromState": "unreviewed",
            "toState": "confirmed",
            "at": "2026-09-30T10:00:00Z",
        },
        "note",
    ),
    ("verification", "id", {"id": "v-new", "kind": "ruff", "status": "passed"}, "status"),
    ("beliefs", "portableRef", g.belief("b-new", "new"), "content"),
]


@pytest.mark.parametrize(("section", "id_field", "new", "field"), ARRAY_CASES)
def test_every_array_section_reports_added_removed_and_changed(
    section: str, id_field: str, new: Packet, field: str
) -> None:
    a = g.full_handoff()
    first = a["content"][section][0]
    a["content"][section].append(dict(first, **{id_field: first[id_field] + "-2"}))
    a = g.unsigned(a)
    b = copy.deepcopy(a)
    items = b["content"][section]
    del items[0]
    items[0][field] = "edited"  # was items[1]
    items.append(copy.deepcopy(new))
    b = g.unsigned(b)
    result = run(a, b)
    assert part(result, section).status is PartStatus.CHANGED
    got = [(c.change, c.id, c.pointer) for c in result.changes if c.section == section]
    base = f"/content/{section}"
    items_a = a["content"][section]
    assert got == [
        (ChangeKind.REMOVED, items_a[0][id_field], f"{base}/0"),
        (ChangeKind.CHANGED, items_a[1][id_field], f"{base}/0"),
        (ChangeKind.ADDED, new[id_field], f"{base}/{len(items_a) - 1}"),
    ]
    changed = next(c for c in result.changes if c.change is ChangeKind.CHANGED)
    assert [f.path for f in changed.fields] == [f"/{field}"]
    assert changed.pointer_a == f"{base}/1"


def test_archive_refs_are_known_by_ref() -> None:
    a = g.archive()
    b = copy.deepcopy(a)
    refs = b["content"]["archiveRefs"]
    refs[0]["byteLength"] = 7
    refs.append(dict(refs[1], ref="arc-new"))
    del refs[1]
    result = run(a, g.unsigned(b))
    got = [(c.change, c.id, c.pointer) for c in result.changes if c.section == "archiveRefs"]
    assert got == [
        (ChangeKind.CHANGED, "arc-transcript", "/content/archiveRefs/0"),
        (ChangeKind.REMOVED, "arc-empty", "/content/archiveRefs/1"),
        (ChangeKind.ADDED, "arc-new", "/content/archiveRefs/1"),
    ]
    changed = result.changes[0]
    assert changed.fields == (FieldChange("/byteLength", 1048576, 7),)


def test_allowed_tools_are_known_by_name() -> None:
    def edit(p: Packet) -> None:
        p["content"]["allowedTools"] = ["zephr_why", "zephr_remember", "zephr_verify"]

    a, b = pair(edit)  # A: remember, recall, why
    got = [(c.change, c.id, c.moved) for c in run(a, b).changes if c.section == "allowedTools"]
    assert got == [
        (ChangeKind.CHANGED, "zephr_why", (2, 0)),
        (ChangeKind.REMOVED, "zephr_recall", None),
        (ChangeKind.ADDED, "zephr_verify", None),
    ]


@pytest.mark.parametrize(
    ("section", "pointer", "edit"),
    [
        ("capsule", "/content/capsule", lambda s: s.update(objective="New objective")),
        ("sourceHandoff", "/content/sourceHandoff", lambda s: s.update(toSessionId=None)),
        ("packetIdentity", "/packet", lambda s: s.update(intent="Another intent")),
        ("sourceDescriptor", "/source", lambda s: s.update(installationKeyId="src-2")),
        ("retention", "/retention", lambda s: s.pop("expiresAt")),
        (
            "recipientIntent",
            "/recipientIntent",
            lambda s: s.update(kind="recipient-bound", destinationInstallationKeyId="d"),
        ),
    ],
)
def test_object_sections_report_members_by_key(
    section: str, pointer: str, edit: Callable[[Packet], None]
) -> None:
    def mutate(p: Packet) -> None:
        edit(jpointer.resolve(p, pointer))  # type: ignore[arg-type]

    a, b = pair(mutate)
    result = run(a, b)
    assert part(result, section).status is PartStatus.CHANGED
    value_a, value_b = jpointer.resolve(a, pointer), jpointer.resolve(b, pointer)
    assert isinstance(value_a, dict)
    assert isinstance(value_b, dict)
    expected = []
    for key in sorted(value_a.keys() | value_b.keys()):
        if key not in value_b:
            expected.append((ChangeKind.REMOVED, key, f"{pointer}/{key}"))
        elif key not in value_a:
            expected.append((ChangeKind.ADDED, key, f"{pointer}/{key}"))
        elif value_a[key] != value_b[key]:
            expected.append((ChangeKind.CHANGED, key, f"{pointer}/{key}"))
    got = [(c.change, c.id, c.pointer) for c in result.changes if c.section == section]
    assert got == expected
    assert expected


def test_a_section_only_one_side_has_is_added_or_removed() -> None:
    a = g.full_handoff()
    b = g.scope_proof()
    result = run(a, b)
    scope = part(result, "scopeProof")
    assert scope.status is PartStatus.ADDED
    assert scope.digest_a is None
    assert scope.digest_b == b["manifest"]["sections"]["scopeProof"]
    added = [c for c in result.changes if c.section == "scopeProof"]
    assert {c.id for c in added} == set(b["scopeProof"])
    assert all(c.change is ChangeKind.ADDED for c in added)
    back = run(b, a)
    assert part(back, "scopeProof").status is PartStatus.REMOVED
    assert {c.change for c in back.changes if c.section == "scopeProof"} == {ChangeKind.REMOVED}


def test_an_empty_section_added_is_one_change_at_the_section() -> None:
    a = g.minimal()
    b = copy.deepcopy(a)
    b["content"]["allowedTools"] = []
    b["omissionManifest"]["entries"] = [
        e for e in b["omissionManifest"]["entries"] if e["section"] != "allowedTools"
    ]
    result = run(a, g.unsigned(b))
    [change] = [c for c in result.changes if c.section == "allowedTools"]
    assert (change.change, change.pointer, change.id) == (
        ChangeKind.ADDED,
        "/content/allowedTools",
        None,
    )


def test_arrays_without_identity_inside_an_element_are_aligned_by_content() -> None:
    def edit(p: Packet) -> None:
        capsule = p["content"]["capsule"]
        capsule["decisions"].insert(0, "Decide first")
        capsule["nextActions"] = list(reversed(capsule["nextActions"]))
        capsule["risks"] = ["Offsets are byte-based now"]

    a, b = pair(edit)
    changes = {c.id: c for c in run(a, b).changes if c.section == "capsule"}
    assert changes["decisions"].fields == (FieldChange("/0", ABSENT, "Decide first"),)
    next_a = a["content"]["capsule"]["nextActions"]
    assert changes["nextActions"].fields == (FieldChange("/0", next_a[1], next_a[1], (1, 0)),)
    assert changes["risks"].fields == (
        FieldChange(
            "/0", "Offsets are character-based in the stdlib scanner", "Offsets are byte-based now"
        ),
    )


# --- fields outside the root -------------------------------------------------------


def test_uncovered_fields_are_compared_and_marked_not_protected() -> None:
    a = g.full_handoff()
    b = copy.deepcopy(a)
    b["extensions"] = {"org.example.ticket": "ZCF-43", "org.example.new": True}
    b["format"] = "zephr-continuity-2"
    b["redactionManifest"]["policyVersion"] = "2"
    result = run(a, b)
    assert not result.identical
    assert changed_parts(result) == {
        "extensions": PartStatus.CHANGED,
        "format": PartStatus.CHANGED,
        "redactionManifest": PartStatus.CHANGED,
    }
    assert all(s.status is PartStatus.SAME for s in result.sections)  # the root holds
    got = {(c.pointer, c.change, c.id) for c in result.changes}
    assert got == {
        ("/extensions/org.example.new", ChangeKind.ADDED, "org.example.new"),
        ("/extensions/org.example.ticket", ChangeKind.CHANGED, "org.example.ticket"),
        ("/format", ChangeKind.CHANGED, None),
        ("/redactionManifest/policyVersion", ChangeKind.CHANGED, "policyVersion"),
    }
    for change in result.changes:
        assert change.section is None
        assert not change.integrity_protected
        assert change.to_json()["integrityProtected"] is False
    fmt = next(c for c in result.changes if c.pointer == "/format")
    assert fmt.fields == (FieldChange("", "zephr-continuity", "zephr-continuity-2"),)
    assert fmt.digest_b == sha("zephr-continuity-2")


def test_true_is_not_one() -> None:
    a = g.full_handoff()
    a["extensions"] = {"flag": True, "list": [False]}
    b = copy.deepcopy(a)
    b["extensions"] = {"flag": 1, "list": [0]}
    result = run(a, b)
    assert changed_parts(result) == {"extensions": PartStatus.CHANGED}
    assert {c.pointer for c in result.changes} == {"/extensions/flag", "/extensions/list"}


def test_true_is_not_one_inside_a_large_section() -> None:
    def flags(value: Any) -> Callable[[Packet], None]:
        def edit(p: Packet) -> None:
            for n in range(3000):
                p["content"]["beliefs"].append(g.belief(f"b-{n}", "x"))
            p["content"]["beliefs"][2500]["extra"] = value

        return edit

    _, a = pair(flags(True))
    _, b = pair(flags(1))
    [change] = [c for c in run(a, b).changes if c.section == "beliefs"]
    assert change.fields == (FieldChange("/extra", True, 1),)


def test_content_members_an_archive_root_leaves_out_are_uncovered() -> None:
    a = g.archive()
    b = copy.deepcopy(a)
    a["content"]["stray"] = "a"
    b["content"]["stray"] = "b"
    result = run(a, b)
    assert changed_parts(result) == {"content/stray": PartStatus.CHANGED}
    [change] = result.changes
    assert (change.pointer, change.section) == ("/content/stray", None)


# --- refused inputs ------------------------------------------------------------------


def test_a_packet_refused_at_the_byte_stage_is_unreadable() -> None:
    good = to_bytes(g.full_handoff())
    for a, b in ((b'{"format": ', good), (good, b"[1, 2]"), (b"\xef\xbb\xbf{}", b"{")):
        result = compare(a, b)
        assert not result.readable
        assert not result.identical
        assert result.parts == ()
        assert result.changes == ()
        unreadable = result.a if not result.a.readable else result.b
        assert unreadable.refusal is not None
        assert unreadable.failed_stages == ("bytes",)


def test_a_packet_refused_at_a_later_stage_is_compared_as_far_as_it_reads() -> None:
    a = g.full_handoff()
    b = copy.deepcopy(a)
    b["content"]["beliefs"][0]["unexpected"] = 1  # structure: unknown_field; manifest stale
    result = run(a, b)
    assert result.readable
    assert result.a.valid
    assert not result.b.valid
    assert result.b.failed_stages == ("structure",)
    [change] = [c for c in result.changes if c.section == "beliefs"]
    assert change.fields == (FieldChange("/unexpected", ABSENT, 1),)
    assert part(result, "beliefs").digest_b != b["manifest"]["sections"]["beliefs"]


def test_a_section_of_another_type_is_one_change() -> None:
    a, b = pair(lambda p: p["content"].update(beliefs={"not": "an array"}))
    [change] = [c for c in run(a, b).changes if c.section == "beliefs"]
    assert change.change is ChangeKind.CHANGED
    assert change.pointer == "/content/beliefs"
    assert change.fields == (FieldChange("", a["content"]["beliefs"], {"not": "an array"}),)


def test_non_object_content_is_compared_as_an_uncovered_field() -> None:
    a, b = pair(lambda p: p.update(content=[1, 2]), reseal=False)
    result = run(a, b)
    assert {s.status for s in result.sections if s.name != "packetIdentity"} >= {PartStatus.REMOVED}
    assert part(result, "content").status is PartStatus.ADDED


# --- bounds ---------------------------------------------------------------------------


def test_changes_past_the_budget_are_counted_not_listed() -> None:
    def many(p: Packet) -> None:
        p["content"]["beliefs"] = [g.belief(f"b-{n}", "x") for n in range(50)]

    a, b = pair(many)
    result = run(a, b, budget=10)
    beliefs = part(result, "beliefs")
    assert beliefs.added == 50
    assert beliefs.removed == 3
    assert len(result.changes) == 10  # one unit each: added and removed beliefs have no fields
    assert result.budget == 10
    assert sum(p.change_count for p in result.parts) == len(result.changes) + result.omitted


def test_the_default_budget_grows_with_the_input() -> None:
    assert budget_for(0, 0) == 1_000
    assert budget_for(10_000_000, 30_000_000) == 1_000 + 40_000_000 // 256


def test_fields_per_element_are_bounded() -> None:
    def wide(p: Packet) -> None:
        p["extensions"] = {"blob": {f"k{n:03d}": n for n in range(200)}}

    a, _ = pair(lambda p: None, reseal=False)
    a["extensions"] = {"blob": {f"k{n:03d}": -n - 1 for n in range(200)}}
    _, b = pair(wide, reseal=False)
    [change] = run(a, b).changes
    assert len(change.fields) == 64
    assert change.fields_omitted == 136
    assert change.fields[0] == FieldChange("/k000", -1, 0)


def test_cancelling_stops_the_comparison() -> None:
    a, b = pair(lambda p: p["content"]["beliefs"][0].update(content="new"))
    monitor = Monitor()
    steps: list[str] = []

    def progress(what: str, fraction: float) -> None:
        steps.append(what)
        if what.startswith("B: "):
            monitor.cancel()

    monitor = Monitor(progress)
    with pytest.raises(Cancelled):
        compare(to_bytes(a), to_bytes(b), monitor=monitor)
    assert steps[0].startswith("A: ")


def test_a_null_field_is_a_value_not_an_absence() -> None:
    a = g.full_handoff()
    a["authentication"] = None
    a["extensions"] = None
    b = copy.deepcopy(a)
    b["extensions"] = {"k": "v"}
    result = run(a, b)
    assert changed_parts(result) == {"extensions": PartStatus.CHANGED}
    [change] = result.changes
    assert (change.change, change.pointer) == (ChangeKind.CHANGED, "/extensions")
    assert change.fields == (FieldChange("", None, {"k": "v"}),)
    assert run(b, a).changes[0].fields == (FieldChange("", {"k": "v"}, None),)


@pytest.mark.parametrize("fast", [True, False])
def test_content_keys_tell_contents_apart_with_or_without_orjson(fast: bool) -> None:
    # Under a memory limit orjson is not called (it crashes out of memory): the keys are
    # then canonical bytes, and must tell the same contents apart as orjson's do.
    values: list[Any] = [True, 1, "1", None, [1], {"b": 1, "a": True}, {"a": True, "b": 1}]
    keys = [content_key(v, fast=fast) for v in values]
    assert len(set(keys[:5])) == 5  # true, 1, "1", null and [1] are five contents
    assert keys[5] == keys[6]  # member order is not content
    assert keys[2] == "1"  # a string is its own key
    if not fast:
        assert keys[5] == b'{"a":true,"b":1}'
    assert content_keys(values) == [content_key(v) for v in values]
