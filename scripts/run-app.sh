#!/usr/bin/env bash
# Set up (scripts/setup.sh) and open zcf-inspector on the bundled example packet.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/zcf-inspector validate goldens/publication/full-handoff.json "$@"
