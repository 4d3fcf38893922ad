"""The package reader: every container, inventory and closure rule refused with its code,
each member's inventory status, and the resource closure (issue 33, items 1 and 2's data).

The cases (tests/core/package/cases.py) are the ones `scripts/compare_package_reference.py`
runs through the upstream reference reader too.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from tests.core.package.cases import (
    CASES,
    EXAMPLES,
    NOW,
    TOTALS,
    Case,
    Entry,
    _base,
    build,
    buildable,
    relist,
    write,
)
from zcf_inspector.core.codes import PackageCode
from zcf_inspector.core.package.container import looks_like_package
from zcf_inspector.core.package.results import ClosureState, MemberStatus
from zcf_inspector.core.package.verify import inspect_package
from zcf_inspector.present.asif_package import verdict
from zcf_inspector.present.vocabulary import Trust


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_rule_gives_its_code(case: Case) -> None:
    result = inspect_package(case.make(), now=NOW)
    first = result.first_problem()
    assert (None if first is None else first.code) == case.code
    shown = verdict(result)
    if case.code is None:
        assert shown.words == "VALID PACKAGE · UNSIGNED"
        assert shown.trust is Trust.UNSIGNED
    else:
        assert first is not None
        assert shown.trust is Trust.REFUSED
        assert shown.words.startswith("REFUSED PACKAGE at ")
        assert shown.words.endswith(f": {case.code}")


@pytest.mark.parametrize("path", buildable(), ids=lambda p: p.name)
def test_every_example_package_is_valid(path: object) -> None:
    name = str(path).rsplit("/", 1)[-1].removesuffix(".session.json")
    result = inspect_package(build(name), now=NOW)
    assert result.ok
    assert result.findings == ()
    assert {e.status for e in result.inventory} == {MemberStatus.MATCHES}
    assert all(e.state is ClosureState.PRESENT for e in result.closure)
    assert result.session is not None
    assert result.session.core_only


def test_inventory_rows_say_each_members_status() -> None:
    result = inspect_package(build("tool-generated-files"), now=NOW)
    rows = {e.path: e for e in result.inventory}
    assert set(rows) == {"assets/summary.md", TOTALS, "session.json"}
    totals = rows[TOTALS]
    assert (totals.bytes, totals.listed_bytes, totals.pointer) == (36, 36, "/files/1")
    assert totals.sha256 == totals.listed_sha256
    assert [(c.resource_id, c.path) for c in result.closure] == [
        ("output-csv", TOTALS),
        ("report", "assets/summary.md"),
    ]


def _status(raw: bytes) -> dict[str, MemberStatus]:
    return {e.path: e.status for e in inspect_package(raw, now=NOW).inventory}


def test_a_tampered_member_differs_and_the_others_still_match() -> None:
    entries = _base()
    for e in entries:
        if e.name == TOTALS:
            e.data = b"x" + e.data[1:]
    statuses = _status(write(entries))
    assert statuses[TOTALS] is MemberStatus.DIFFERS
    assert statuses["session.json"] is MemberStatus.MATCHES


def test_missing_unlisted_and_unrelated_members() -> None:
    kept = [e for e in _base() if e.name != TOTALS]
    assert _status(write(kept))[TOTALS] is MemberStatus.MISSING
    extra = Entry("assets/extra.txt", b"x")
    assert _status(write([*_base(), extra]))["assets/extra.txt"] is MemberStatus.UNLISTED
    assert _status(write(relist([*_base(), extra])))["assets/extra.txt"] is MemberStatus.UNRELATED


def test_every_problem_is_reported_not_only_the_first() -> None:
    entries = [*_base(), Entry("assets/a.txt", b"a"), Entry("assets/b.txt", b"b")]
    result = inspect_package(write(entries), now=NOW)
    assert [(f.code, f.subject) for f in result.findings] == [
        (PackageCode.MEMBER_UNLISTED, "assets/a.txt"),
        (PackageCode.MEMBER_UNLISTED, "assets/b.txt"),
        (PackageCode.MEMBER_UNRELATED, "assets/a.txt"),
        (PackageCode.MEMBER_UNRELATED, "assets/b.txt"),
    ]


def test_a_session_that_breaks_a_core_rule_refuses_the_package() -> None:
    entries = _base()
    for e in entries:
        if e.name == "session.json":
            value = json.loads(e.data)
            value["branches"][0]["head_event_id"] = value["events"][0]["id"]
            e.data = json.dumps(value).encode()
    result = inspect_package(write(relist(entries)), now=NOW)
    assert result.container_ok is False
    assert [f.code for f in result.findings] == [PackageCode.SESSION_REFUSED]
    assert (
        verdict(result).words
        == "REFUSED PACKAGE at session.json#/branches/0/head_event_id: session_refused"
    )


def test_member_bytes_are_never_read_past_the_archive() -> None:
    raw = build("tool-generated-files")
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())
    # A declared size far past the archive is a size refusal, not a long read.
    for cut in (len(raw) // 3, len(raw) // 2):
        result = inspect_package(raw[:cut] + raw[-22:], now=NOW)
        assert result.first_problem() is not None
        assert result.members == 0


def test_a_manifest_of_many_records_is_answered_within_the_findings_budget() -> None:
    entries = _base()
    for e in entries:
        if e.name == "asif-package.json":
            value = json.loads(e.data)
            value["files"] += [
                {"path": f"gone/{i}.txt", "bytes": 0, "sha256": "0" * 64} for i in range(5000)
            ]
            e.data = json.dumps(value).encode()
    result = inspect_package(write(entries), now=NOW)
    assert len(result.findings) == 1000
    assert [(str(o.code), o.count) for o in result.omitted] == [("inventory_member_missing", 4000)]
    assert sum(e.status is MemberStatus.MISSING for e in result.inventory) == 5000
    assert verdict(result).trust is Trust.REFUSED


def test_a_package_is_told_from_a_json_document_by_content() -> None:
    assert looks_like_package(build("awaiting-approval")[:4])
    assert looks_like_package(write([]))
    assert not looks_like_package((EXAMPLES / "awaiting-approval.session.json").read_bytes())
    assert not looks_like_package(b"")
