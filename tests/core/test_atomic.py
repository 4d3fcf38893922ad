from __future__ import annotations

import os
from pathlib import Path

import pytest

from zcf_inspector.core.atomic import TargetExistsError, UnwritableFileError, write_atomic


def test_writes_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_never_overwrites_without_permission(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_bytes(b"old")
    with pytest.raises(TargetExistsError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    write_atomic(target, b"new", overwrite=True)
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(UnwritableFileError, match="No space"):
        write_atomic(tmp_path / "r.json", b"data")
    assert list(tmp_path.iterdir()) == []
