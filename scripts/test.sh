#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run every check CI runs: goldens, ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
.venv/bin/python goldens/generate.py --check
.venv/bin/zcf-inspector check-goldens
.venv/bin/python scripts/codes_doc.py --check
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/pytest "$@"
