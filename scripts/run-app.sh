#!/usr/bin/env bash
# Set up (scripts/setup.sh) and open the zcf-inspector window on the bundled example packet.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/zcf-inspector goldens/publication/full-handoff.json "$@"
