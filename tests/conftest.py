"""Where the test data carried in this repository lives (see tests/data/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
VECTORS = DATA / "vectors"
CONTINUATION_SPEC = DATA / "asif-0.4"
EXAMPLES = CONTINUATION_SPEC / "examples" / "continuation"
PROFILE = REPO / "docs" / "spec" / "zcf-v1-profile.md"
