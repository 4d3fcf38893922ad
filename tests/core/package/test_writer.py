"""`package build` is byte-identical to the reference writer: the digests the reference
gave for each example session (tests/data/asif-0.5-package/reference-packages.json,
recorded by `scripts/compare_package_reference.py --record`, see tests/data/SOURCES.md)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.core.package.cases import EXAMPLES, NOW, PACKAGE_DATA, build, buildable
from zcf_inspector.core.package.writer import PackageBuildError, build_from_folder, package_bytes

GOLDEN = json.loads((PACKAGE_DATA / "reference-packages.json").read_text())


def test_the_golden_data_covers_every_buildable_example() -> None:
    assert set(GOLDEN) == {p.name for p in buildable()}
    assert len(GOLDEN) == 11


@pytest.mark.parametrize("path", buildable(), ids=lambda p: p.name)
def test_build_is_byte_identical_to_the_reference_writer(path: Path) -> None:
    raw = build(path.name.removesuffix(".session.json"))
    assert hashlib.sha256(raw).hexdigest() == GOLDEN[path.name]


def test_the_archive_layout_is_deterministic() -> None:
    raw = build("tool-generated-files")
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        infos = archive.infolist()
        names = [i.filename for i in infos]
        assert names == sorted(names)
        assert names == [
            "asif-package.json",
            "assets/summary.md",
            "assets/totals.csv",
            "session.json",
        ]
        assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
        assert {i.external_attr >> 16 for i in infos} == {0o100600}
        assert {i.create_system for i in infos} == {3}
        manifest = archive.read("asif-package.json")
    assert manifest.endswith(b"}\n")
    assert b": " not in manifest
    assert b", " not in manifest
    value = json.loads(manifest)
    assert list(value) == sorted(value)
    assert archive is not None
    assert build("tool-generated-files") == raw


def test_a_session_whose_file_is_absent_is_not_packaged() -> None:
    with pytest.raises(PackageBuildError, match=r"color-grid\.png"):
        build_from_folder(
            EXAMPLES / "image-and-document.session.json", now=NOW, max_session=1 << 24
        )


def test_a_refused_session_is_not_packaged() -> None:
    value = json.loads((EXAMPLES / "awaiting-approval.session.json").read_bytes())
    value["branches"][0]["head_event_id"] = None
    with pytest.raises(PackageBuildError, match="the session is refused"):
        package_bytes(json.dumps(value).encode(), {}, now=NOW)


def test_a_resource_through_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    source = EXAMPLES / "compaction-with-attachment.session.json"
    (tmp_path / "session.json").write_bytes(source.read_bytes())
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "project-notes.md").write_bytes(
        (EXAMPLES / "assets/project-notes.md").read_bytes()
    )
    (tmp_path / "assets").symlink_to(tmp_path / "real")
    with pytest.raises(PackageBuildError, match="symbolic link"):
        build_from_folder(tmp_path / "session.json", now=NOW, max_session=1 << 24)
