#!/usr/bin/env bash
# Set up a fresh Debian machine for zcf-inspector: the system libraries Qt needs (when
# run as root with apt), then a virtualenv in .venv with the package and its test tools.
# Quiet unless something fails: apt's and pip's output goes to a log, shown whole (and the
# set-up stopped) when a step fails; on success a line or two say what was done.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

QT_SYSTEM_PACKAGES=(
  libegl1 libgl1 libopengl0 libxkbcommon0 libfontconfig1 libfreetype6 libdbus-1-3 libglib2.0-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
  libxkbcommon-x11-0 libxcb-xinerama0 libxcb-randr0 libxcb-shape0 libxcb-xkb1 libx11-xcb1
  fonts-dejavu-core
)
# Checked by tests/test_packaging.py (the desktop entry, AppStream metadata) and needed by
# PyInstaller for the bundle (objdump, objcopy, strip).
TOOL_PACKAGES=(desktop-file-utils appstream binutils)

log=$(mktemp "${TMPDIR:-/tmp}/zcf-inspector-setup.XXXXXX")
trap 'rm -f "$log"' EXIT

# Run a step with its output in the log; when it fails, show that output and stop.
quietly() {
  if ! "$@" >"$log" 2>&1; then
    echo "setup: failed: $*" >&2
    cat "$log" >&2
    exit 1
  fi
}

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${QT_SYSTEM_PACKAGES[@]}" "${TOOL_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${#missing[@]} system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    quietly apt-get update -qq
    quietly apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: these system packages are missing; install them as root: ${missing[*]}" >&2
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  quietly "$PYTHON" -m venv .venv
fi
quietly .venv/bin/python -m pip install -q --upgrade pip
quietly .venv/bin/python -m pip install -q -e '.[dev]'

# The goldens' destination file holds the (published) test keys, installationKey and
# signingKey: a destination file with a secret is used only when nobody else may read it
# (profile clarification of 2026-12-07), and git checks files out 0644.
find goldens -name '*destination.json' -exec chmod go-rwx {} +

echo "setup: .venv ready with zcf-inspector and its tools ($((SECONDS - started)) s)"
