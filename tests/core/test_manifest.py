from __future__ import annotations

import copy
import hashlib
import threading
from typing import Any

import pytest

from tests.core.helpers import golden, lp, plain_canonical, sha
from zcf_inspector.core import headroom
from zcf_inspector.core.codes import ErrorCode
from zcf_inspector.core.packet import manifest
from zcf_inspector.core.packet.manifest import check_manifest, seal_manifest

ENVELOPE = {
    "packetIdentity": "packet",
    "sourceDescriptor": "source",
    "recipientIntent": "recipientIntent",
    "retention": "retention",
}


def independent_root(packet: dict[str, Any]) -> str:
    sections = {name: packet[field] for name, field in ENVELOPE.items()}
    if "scopeProof" in packet:
        sections["scopeProof"] = packet["scopeProof"]
    sections.update(packet["content"])
    h = hashlib.sha256(lp("zephr-continuity-manifest-v1"))
    for name in sorted(sections):
        h.update(lp(name) + lp(plain_canonical(sections[name])))
    return "sha256:" + h.hexdigest()


@pytest.mark.parametrize(
    "name", ["minimal", "full-handoff", "scope-proof", "unicode", "omissions-redactions"]
)
def test_root_matches_an_independent_computation(name: str) -> None:
    packet = golden(name)
    report = check_manifest(packet)
    assert report.root_computed == independent_root(packet) == packet["manifest"]["rootHash"]
    assert report.root_match
    assert report.findings == ()


def test_minimal_golden_root_is_pinned() -> None:
    # Pinned so that any change to canonicalization or the root layout is noticed.
    assert (
        check_manifest(golden("minimal")).root_computed == golden("minimal")["manifest"]["rootHash"]
    )
    assert golden("minimal")["manifest"]["rootHash"] == MINIMAL_ROOT


MINIMAL_ROOT = "sha256:7f5aebe8e4011b651b6df91235bae2e88c42245f8b99260d6205bf40f1c57424"


def test_section_digest_is_sha256_of_canonical_bytes() -> None:
    packet = golden("full-handoff")
    report = check_manifest(packet)
    by_name = {s.name: s for s in report.sections}
    assert by_name["beliefs"].computed == sha(plain_canonical(packet["content"]["beliefs"]))
    assert by_name["packetIdentity"].computed == sha(plain_canonical(packet["packet"]))
    assert by_name["packetIdentity"].pointer == "/packet"
    assert by_name["beliefs"].pointer == "/content/beliefs"


def test_tampered_section_is_named_alone() -> None:
    packet = golden("full-handoff")
    packet["content"]["beliefs"][0]["content"] = "changed in transit"
    report = check_manifest(packet)
    mismatched = [s.name for s in report.sections if not s.match]
    assert mismatched == ["beliefs"]
    assert [(f.code, f.pointer) for f in report.findings] == [
        (ErrorCode.SECTION_DIGEST_MISMATCH, "/manifest/sections/beliefs"),
        (ErrorCode.MANIFEST_ROOT_MISMATCH, "/manifest/rootHash"),
    ]


def test_missing_and_unexpected_sections_reported_together() -> None:
    packet = golden("minimal")
    del packet["manifest"]["sections"]["capsule"]
    packet["manifest"]["sections"]["notes"] = "sha256:" + "0" * 64
    report = check_manifest(packet)
    assert {(f.code, f.pointer) for f in report.findings} == {
        (ErrorCode.MANIFEST_SECTION_MISSING, "/manifest/sections/capsule"),
        (ErrorCode.MANIFEST_SECTION_UNEXPECTED, "/manifest/sections/notes"),
    }
    # The root is over the packet's canonical bytes, not the listed digests: still equal.
    assert report.root_match


def test_uncovered_fields_are_listed() -> None:
    report = check_manifest(golden("minimal"))
    assert report.uncovered == (
        "format",
        "formatVersion",
        "artifactKind",
        "canonicalizationProfile",
        "redactionManifest",
        "omissionManifest",
        "manifest",
        "authentication",
        "extensions",
    )


def test_archive_covers_archive_refs_only() -> None:
    packet = golden("archive")
    names = [s.name for s in check_manifest(packet).sections]
    assert names == [
        "archiveRefs",
        "packetIdentity",
        "recipientIntent",
        "retention",
        "sourceDescriptor",
    ]


def test_scope_proof_is_covered_when_present() -> None:
    packet = golden("scope-proof")
    assert "scopeProof" in [s.name for s in check_manifest(packet).sections]
    tampered = copy.deepcopy(packet)
    tampered["scopeProof"]["scopeRefs"] = ["repo:other"]
    assert not check_manifest(tampered).root_match


def test_seal_then_check_is_clean_and_json_shape() -> None:
    packet = golden("minimal")
    packet["content"]["beliefs"] = [{"portableRef": "b", "sourceId": "s", "content": "c"}]
    packet["manifest"] = seal_manifest(packet)
    report = check_manifest(packet)
    assert report.findings == ()
    shape = report.to_json()
    assert set(shape) == {"sections", "root", "uncovered"}
    assert shape["root"] == {
        "computed": report.root_computed,
        "listed": report.root_computed,
        "match": True,
    }


@pytest.mark.parametrize(
    "manifest", [None, [], {"sections": []}, {"sections": {"capsule": 7}, "rootHash": 3}]
)
def test_hostile_manifest_shapes_do_not_raise(manifest: object) -> None:
    packet = golden("minimal")
    packet["manifest"] = manifest
    report = check_manifest(packet)
    assert any(f.code is ErrorCode.MANIFEST_ROOT_MISMATCH for f in report.findings)


@pytest.mark.parametrize("name", ["minimal", "full-handoff", "unicode", "archive"])
def test_reader_plain_path_gives_the_same_digests(name: str) -> None:
    from tests.core.helpers import golden_bytes
    from zcf_inspector.core.reading import read_packet_document

    document = read_packet_document(golden_bytes(name))
    assert not document.has_fractions
    assert isinstance(document.value, dict)
    checked = check_manifest(document.value)
    plain = check_manifest(document.value, reader_plain=True)
    assert plain == checked


def test_fractions_are_reported_by_the_reader() -> None:
    from zcf_inspector.core.reading import read_document

    assert read_document(b'{"a": 1.0, "b": 1e2, "c": -0.0}').has_fractions is False
    assert read_document(b'{"a": [1, 2.5]}').has_fractions is True
    assert read_document(b'{"a": 1e-7}').has_fractions is True


def large_packet() -> dict[str, Any]:
    # More items than canonical's chunk, and an object wider than it: many pieces.
    from zcf_inspector.core.canonical import CHUNK_ITEMS

    packet = golden("full-handoff")
    belief = packet["content"]["beliefs"][0]
    packet["content"]["beliefs"] = [
        {**belief, "portableRef": f"b-{i}", "content": f"{i} é"} for i in range(2 * CHUNK_ITEMS + 3)
    ]
    packet["content"]["wide"] = {f"k{i:05d}": [i, {"x": "y"}] for i in range(CHUNK_ITEMS + 5)}
    return packet


@pytest.mark.parametrize("reader_plain", [False, True])
def test_large_sections_hash_in_pieces_like_the_whole(reader_plain: bool) -> None:
    packet = large_packet()
    report = check_manifest(packet, reader_plain=reader_plain)
    assert report.root_computed == independent_root(packet)
    computed = {d.name: d.computed for d in report.sections}
    assert computed["beliefs"] == sha(plain_canonical(packet["content"]["beliefs"]))
    assert computed["wide"] == sha(plain_canonical(packet["content"]["wide"]))


def test_a_content_section_named_like_an_envelope_one_is_hashed_as_before() -> None:
    # Two sections share a name: both are under the root, envelope first (a stable sort),
    # exactly as covered_sections and root_hash (the joined-bytes path) compute it.
    from zcf_inspector.core.packet.manifest import covered_sections, root_hash

    packet = large_packet()
    packet["content"]["retention"] = {"shadow": True}
    report = check_manifest(packet)
    covered = covered_sections(packet)
    assert report.root_computed == root_hash(covered)
    pairs = [(d.pointer, d.computed) for d in report.sections if d.pointer is not None]
    assert pairs == [(s.pointer, sha(s.canonical)) for s in covered]
    assert [p for p, _ in pairs if p.endswith("retention")] == ["/retention", "/content/retention"]


@pytest.mark.parametrize("threads", [True, False])
def test_a_large_section_hashed_side_by_side_gives_the_same_digests(
    threads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A section past SIDE_BY_SIDE_BYTES has its two hashes made on two threads (or in
    turn under a memory limit): the digests are those of an independent computation."""
    if not threads:  # as under a memory limit: no helper thread
        monkeypatch.setattr(headroom, "limited", lambda: True)
    packet = golden("full-handoff")
    belief = packet["content"]["beliefs"][0]
    count = 2 * manifest.SIDE_BY_SIDE_BYTES // len(plain_canonical(belief))
    packet["content"]["beliefs"] = [dict(belief, portableRef=f"b-{i}") for i in range(count)]
    started: list[str] = []
    real_thread = threading.Thread

    def thread(*args: Any, **kwargs: Any) -> Any:
        started.append(kwargs["name"])
        return real_thread(*args, **kwargs)

    monkeypatch.setattr(threading, "Thread", thread)
    report = check_manifest(packet)
    assert started == (["zcf-root-hash"] if threads else [])
    by_name = {s.name: s for s in report.sections}
    assert len(plain_canonical(packet["content"]["beliefs"])) > manifest.SIDE_BY_SIDE_BYTES
    assert by_name["beliefs"].computed == sha(plain_canonical(packet["content"]["beliefs"]))
    assert report.root_computed == independent_root(packet)
