"""Shared fixtures: where the read-only shared/ folder (spec, vectors, examples) lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _shared_dir() -> Path:
    override = os.environ.get("ZCF_SHARED")
    path = Path(override) if override else REPO.parent / "shared"
    if not (path / "spec" / "zcf-v1-profile.md").is_file():
        raise RuntimeError(
            f"shared/ not found at {path}: set ZCF_SHARED to the folder holding spec/ and external/"
        )
    return path


SHARED = _shared_dir()
VECTORS = SHARED / "external" / "vectors"
CONTINUATION_SPEC = SHARED / "external" / "continuation-spec"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED
