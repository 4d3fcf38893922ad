#!/usr/bin/env bash
# Set up (scripts/setup.sh) and open the zcf-inspector window on the bundled example packet.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
echo "run-app: setting up the system packages and .venv (quiet unless something fails)"
bash scripts/setup.sh
echo "run-app: opening the window on goldens/publication/full-handoff.json" \
  "(ready in $((SECONDS - started)) s)"
exec .venv/bin/zcf-inspector goldens/publication/full-handoff.json "$@"
