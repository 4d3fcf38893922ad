"""Claims vs workspace (issue 20): sources' digests and changed files checked against a
folder — matching, differing, missing, linked-out, oversized and not-regular files — and
the per-belief roll-up; a receipt's digest against a file the reviewer picks."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from goldens import generate as g
from zcf_inspector.core.claims.files import ReadCounter, hash_file, portable_problem
from zcf_inspector.core.claims.workspace import (
    ClaimStatus,
    RollUp,
    WorkspaceCheck,
    WorkspaceError,
    check_receipt_file,
    check_workspace,
)
from zcf_inspector.core.monitor import Cancelled, Monitor

LIMIT = 1000  # bytes a file is hashed up to in these tests


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def source(sid: str, locator: str, digest: str | None, kind: str = "local") -> dict[str, Any]:
    out: dict[str, Any] = {"id": sid, "kind": kind, "locator": locator}
    if digest is not None:
        out["digest"] = digest
    return out


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "spec").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "new").mkdir()
    (root / "spec" / "a.md").write_bytes(b"the spec\n")
    (root / "src" / "b.py").write_bytes(b"print('changed since')\n")
    (root / "new" / "file.txt").write_bytes(b"new\n")
    (root / "big.bin").write_bytes(b"x" * (LIMIT + 1))
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"the spec\n")
    (root / "link-out").symlink_to(outside)
    (root / "link-in").symlink_to(root / "spec" / "a.md")
    (root / "dir-out").symlink_to(tmp_path)
    os.mkfifo(root / "pipe")
    return root


def claims_packet() -> dict[str, Any]:
    packet = g.handoff("claims")
    c = packet["content"]
    c["evidenceSources"] = [
        source("s-match", "spec/a.md", sha(b"the spec\n")),
        source("s-differs", "src/b.py", sha(b"print('as it was')\n")),
        source("s-missing", "docs/gone.md", sha(b"gone\n")),
        source("s-link-out", "link-out", sha(b"the spec\n")),
        source("s-link-in", "link-in", sha(b"the spec\n")),
        source("s-big", "big.bin", sha(b"x" * (LIMIT + 1))),
        source("s-fifo", "pipe", sha(b"")),
        source("s-folder", "spec", sha(b"")),
        source("s-absolute", "/etc/hostname", sha(b"")),
        source("s-escape", "../outside.txt", sha(b"the spec\n")),
        source("s-under-link", "dir-out/absent.txt", sha(b"")),
        source("s-no-digest", "spec/a.md", None),
        source("s-external", "https://example.com/doc", sha(b"x"), kind="external"),
    ]
    c["capsule"]["changedFiles"] = [
        "spec/a.md",
        "src/b.py",
        "new/file.txt",
        "deleted.txt",
        "link-out",
    ]
    c["beliefs"] = [g.belief(f"b-{i}", f"belief {i}") for i in range(1, 8)]
    cites = {
        "b-1": ["s-match", "s-link-in"],
        "b-2": ["s-match", "s-differs"],
        "b-4": ["s-external"],
        "b-5": ["s-match", "s-external"],
        "b-6": ["s-missing", "s-match"],
        "b-7": ["s-fifo", "s-match", "s-match"],
    }
    c["evidenceAnchors"] = [
        {"id": f"a-{b}-{n}", "beliefRef": b, "sourceRef": s}
        for b, sources in cites.items()
        for n, s in enumerate(sources)
    ]
    c["receipts"] = [
        {"id": "r-patch", "kind": "patch", "digest": sha(b"--- a\n+++ b\n"), "summary": "p"},
    ]
    return packet


@pytest.fixture
def checked(workspace: Path) -> WorkspaceCheck:
    return check_workspace(claims_packet(), workspace, max_bytes=LIMIT)


EXPECTED_SOURCES = {
    "s-match": (ClaimStatus.MATCHES, "the file's SHA-256 is the packet's digest"),
    "s-differs": (ClaimStatus.DIFFERS, "other bytes"),
    "s-missing": (ClaimStatus.MISSING, "not in the workspace"),
    "s-link-out": (ClaimStatus.NOT_CHECKABLE, "a link that leads out of the workspace"),
    "s-link-in": (ClaimStatus.MATCHES, "the file's SHA-256"),
    "s-big": (ClaimStatus.NOT_CHECKABLE, "1,001 bytes, larger than the 1,000 bytes"),
    "s-fifo": (ClaimStatus.NOT_CHECKABLE, "a named pipe (FIFO), not a regular file"),
    "s-folder": (ClaimStatus.NOT_CHECKABLE, "a folder, not a regular file"),
    "s-absolute": (ClaimStatus.NOT_CHECKABLE, "an absolute path"),
    "s-escape": (ClaimStatus.NOT_CHECKABLE, "'..' segment"),
    "s-under-link": (ClaimStatus.NOT_CHECKABLE, "a link that leads out of the workspace"),
    "s-no-digest": (ClaimStatus.NOT_CHECKABLE, "the packet gives no digest"),
    "s-external": (ClaimStatus.NOT_CHECKABLE, "an external source"),
}


@pytest.mark.parametrize("sid", sorted(EXPECTED_SOURCES))
def test_each_source_gets_its_status_and_reason(checked: WorkspaceCheck, sid: str) -> None:
    check = checked.source_status(sid)
    assert check is not None
    status, reason = EXPECTED_SOURCES[sid]
    assert check.status is status
    assert reason in check.reason
    index = checked.source_ids.index(sid)
    assert check.pointer == f"/content/evidenceSources/{index}"


def test_digests_found_are_reported_only_for_hashed_files(checked: WorkspaceCheck) -> None:
    differs = checked.source_status("s-differs")
    assert differs is not None
    assert differs.found == sha(b"print('changed since')\n")
    assert differs.claimed == sha(b"print('as it was')\n")
    link_out = checked.source_status("s-link-out")
    assert link_out is not None
    assert link_out.found is None  # the file outside was never read


def test_changed_files(checked: WorkspaceCheck) -> None:
    got = [(c.locator, c.status) for c in checked.changed_files]
    assert got == [
        ("spec/a.md", ClaimStatus.MATCHES),  # a source with a digest names it
        ("src/b.py", ClaimStatus.DIFFERS),
        ("new/file.txt", ClaimStatus.PRESENT),
        ("deleted.txt", ClaimStatus.MISSING),
        ("link-out", ClaimStatus.NOT_CHECKABLE),
    ]
    assert checked.changed_files[2].reason == (
        "present in the workspace (only its presence was checked)"
    )
    assert "expected, if the change deleted it" in checked.changed_files[3].reason
    assert checked.changed_files[0].pointer == "/content/capsule/changedFiles/0"


def test_belief_roll_up(checked: WorkspaceCheck) -> None:
    got = {b.portable_ref: b.roll_up for b in checked.beliefs}
    assert got == {
        "b-1": RollUp.ALL_MATCH,
        "b-2": RollUp.CITES_MISMATCH,
        "b-4": RollUp.NOT_CHECKED,
        "b-5": RollUp.PARTLY_CHECKED,
        "b-6": RollUp.CITES_MISSING,
        "b-7": RollUp.PARTLY_CHECKED,
    }
    words = {b.portable_ref: b.words for b in checked.beliefs}
    assert words["b-1"] == "all cited sources match"
    assert words["b-2"] == "cites a mismatch"
    # b-3 cites nothing: no entry, counted, and said so when asked.
    assert checked.belief_count == 7
    assert checked.beliefs_without_evidence == 1
    uncited = checked.for_belief("b-3", "/content/beliefs/2")
    assert uncited.roll_up is RollUp.NO_EVIDENCE
    assert uncited.words == "no evidence cited"
    assert checked.for_belief("b-2").roll_up is RollUp.CITES_MISMATCH
    flagged = {b.portable_ref for b in checked.beliefs if b.flagged}
    assert flagged == {"b-2", "b-6"}
    assert checked.beliefs[-1].sources == ("s-fifo", "s-match")  # each cited source once


def test_summary_and_json(checked: WorkspaceCheck) -> None:
    # Files, not entries (issue 34): spec/a.md (two sources and a changed file), src/b.py
    # and link-out (a source and a changed file each) are one file each.
    assert checked.summary() == (
        "claims vs workspace: 2 match, 1 differs, 1 present, 2 missing, 8 not checkable "
        "(3 files named both as a source and as a changed file, counted once)"
    )
    assert checked.mismatched
    data = checked.to_json()
    assert data["summary"] == checked.summary()
    assert len(data["sources"]) == 13  # type: ignore[arg-type]
    assert data["filesOpened"] == checked.files_opened


def test_the_summary_counts_files_not_roles(workspace: Path) -> None:
    """Issue 34: three files, each both an evidence source and a changed file, read
    "2 match, 2 differ, 2 missing" — each counted once per role. One file, one count."""
    packet = g.handoff("files-not-roles")
    c = packet["content"]
    c["evidenceSources"] = [
        source("s-1", "spec/a.md", sha(b"the spec\n")),
        source("s-2", "src/b.py", sha(b"print('as it was')\n")),
        source("s-3", "docs/gone.md", sha(b"gone\n")),
    ]
    c["capsule"]["changedFiles"] = ["spec/a.md", "src/b.py", "docs/gone.md"]
    found = check_workspace(packet, workspace, max_bytes=LIMIT)
    assert len(found.sources) + len(found.changed_files) == 6  # every entry still listed
    assert found.counts[ClaimStatus.MATCHES] == 1
    assert found.named_in_both == 3
    assert found.summary() == (
        "claims vs workspace: 1 matches, 1 differs, 1 missing "
        "(3 files named both as a source and as a changed file, counted once)"
    )
    # Named once each: nothing to say.
    c["capsule"]["changedFiles"] = ["new/file.txt"]
    alone = check_workspace(packet, workspace, max_bytes=LIMIT)
    assert alone.summary() == "claims vs workspace: 1 matches, 1 differs, 1 present, 1 missing"


def test_each_named_file_is_read_once_and_nothing_else(checked: WorkspaceCheck) -> None:
    # spec/a.md (for s-match; link-in resolves to it but is its own name), src/b.py,
    # link-in; big.bin, the FIFO and the folder are never opened.
    assert checked.files_opened == 3
    assert checked.bytes_read == 2 * len(b"the spec\n") + len(b"print('changed since')\n")


def test_a_ten_thousand_file_workspace_reads_only_what_is_named(tmp_path: Path) -> None:
    root = tmp_path / "big"
    root.mkdir()
    named = []
    for i in range(10_000):
        folder = root / f"d{i // 500:02d}"
        folder.mkdir(exist_ok=True)
        data = f"file {i}\n".encode()
        (folder / f"f{i:05d}.txt").write_bytes(data)
        if i % 100 == 0:
            named.append((f"d{i // 500:02d}/f{i:05d}.txt", data))
    packet = g.handoff("big")
    packet["content"]["evidenceSources"] = [
        source(f"s-{n}", name, sha(data)) for n, (name, data) in enumerate(named)
    ]
    packet["content"]["capsule"]["changedFiles"] = [name for name, _ in named]
    progress: list[float] = []
    checked = check_workspace(packet, root, monitor=Monitor(lambda _, f: progress.append(f)))
    assert {c.status for c in checked.sources} == {ClaimStatus.MATCHES}
    assert {c.status for c in checked.changed_files} == {ClaimStatus.MATCHES}
    assert checked.files_opened == len(named) == 100
    assert checked.bytes_read == sum(len(d) for _, d in named)
    assert progress[-1] == 1.0
    assert progress == sorted(progress)


def test_a_cancelled_monitor_stops_the_check(workspace: Path) -> None:
    monitor = Monitor()
    monitor.cancel()
    with pytest.raises(Cancelled):
        check_workspace(claims_packet(), workspace, monitor=monitor)


def test_a_folder_that_is_not_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="is not a folder"):
        check_workspace(claims_packet(), tmp_path / "nowhere")


def test_a_device_is_not_read() -> None:
    counter = ReadCounter()
    look = hash_file(Path("/dev/zero"), counter=counter)
    assert "a character device, not a regular file" in look.reason
    assert counter.files_opened == 0


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "an empty path"),
        ("a\\b", "a backslash"),
        ("/abs", "an absolute path"),
        ("C:/x", "a drive prefix"),
        ("a//b", "segment"),
        ("./a", "segment"),
        ("a/../../b", "segment"),
        ("a\x00b", "NUL"),
    ],
)
def test_names_that_could_leave_the_folder_are_not_looked_up(name: str, problem: str) -> None:
    found = portable_problem(name)
    assert found is not None
    assert problem in found


def test_receipt_against_a_file_the_reviewer_picked(tmp_path: Path) -> None:
    packet = claims_packet()
    good = tmp_path / "the.patch"
    good.write_bytes(b"--- a\n+++ b\n")
    bad = tmp_path / "other.patch"
    bad.write_bytes(b"--- a\n+++ c\n")
    os.mkfifo(tmp_path / "fifo")
    matches = check_receipt_file(packet, "r-patch", good)
    assert matches.status is ClaimStatus.MATCHES
    assert matches.pointer == "/content/receipts/0"
    assert matches.subject == "patch receipt r-patch"
    assert check_receipt_file(packet, "r-patch", bad).status is ClaimStatus.DIFFERS
    assert check_receipt_file(packet, "r-patch", tmp_path / "none").status is ClaimStatus.MISSING
    fifo = check_receipt_file(packet, "r-patch", tmp_path / "fifo")
    assert fifo.status is ClaimStatus.NOT_CHECKABLE
    with pytest.raises(WorkspaceError, match="no receipt with id"):
        check_receipt_file(packet, "r-none", good)


class _CountedId(str):
    """An id that counts the equality tests made on it: a belief's sources are kept once
    each by hashing, not by comparing each new one with every one kept (issue 34)."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _CountedId.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_many_sources_on_one_belief_are_rolled_up_in_one_pass(tmp_path: Path) -> None:
    count = 3000
    packet = g.handoff("many-sources")
    content = packet["content"]
    content["beliefs"] = [g.belief("b", "c")]
    content["evidenceSources"] = [source(f"s{i}", f"f{i}", sha(b"")) for i in range(count)]
    content["evidenceAnchors"] = [
        {"id": f"a{i}", "beliefRef": "b", "sourceRef": _CountedId(f"s{i % (count // 2)}")}
        for i in range(count)
    ]
    _CountedId.compared = 0
    checked = check_workspace(packet, tmp_path)
    # A list's membership test made count²/2 comparisons (4.5 million here); hashing makes
    # about one per source looked up.
    assert _CountedId.compared <= 4 * count
    (belief,) = checked.beliefs
    assert belief.sources == tuple(f"s{i}" for i in range(count // 2))  # once each, in order
    assert belief.roll_up is RollUp.CITES_MISSING
