"""Where the test data carried in this repository lives (see tests/data/SOURCES.md)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
VECTORS = DATA / "vectors"
CONTINUATION_SPEC = DATA / "asif-0.4"
EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"
PROFILE = REPO / "docs" / "spec" / "zcf-v1-profile.md"


def pytest_configure(config: object) -> None:
    """Destination and key files are refused when group or others may write them
    (`core.file_trust`, issue 19), and a destination file holding a secret (the goldens'
    holds both an installation key and a signing key) when they may read it (issue 34).
    Files the tests make are made owner-only whatever the runner's umask (002 in some CI
    images), and the repository's own destination files, checked out 0644 (git keeps no
    other mode), are made 0600 as a user keeps such a file."""
    os.umask(os.umask(0o077) | 0o077)
    for path in (REPO / "goldens").rglob("*destination.json"):
        mode = path.stat().st_mode
        if mode & 0o077:
            path.chmod(mode & ~0o077)
