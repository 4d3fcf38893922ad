#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run every check CI runs: goldens, ruff, mypy, import-linter,
# the docs, pytest.
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
# The layers and their contracts ([tool.importlinter] in pyproject.toml).
.venv/bin/lint-imports --no-logo
# The documentation site: a broken link or anchor, or a page left out of the nav, fails.
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict
.venv/bin/pytest "$@"
