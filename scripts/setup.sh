#!/usr/bin/env bash
# Set up a fresh Debian machine for zcf-inspector: the system libraries Qt needs (when
# run as root with apt), then a virtualenv in .venv with the package and its test tools.
set -euo pipefail
cd "$(dirname "$0")/.."

QT_SYSTEM_PACKAGES=(
  libegl1 libgl1 libopengl0 libxkbcommon0 libfontconfig1 libfreetype6 libdbus-1-3 libglib2.0-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
  libxkbcommon-x11-0 libxcb-xinerama0 libxcb-randr0 libxcb-shape0 libxcb-xkb1 libx11-xcb1
  fonts-dejavu-core
)
# Checked by tests/test_packaging.py (the desktop entry, AppStream metadata) and needed by
# PyInstaller for the bundle (objdump, objcopy, strip).
TOOL_PACKAGES=(desktop-file-utils appstream binutils)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${QT_SYSTEM_PACKAGES[@]}" "${TOOL_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing system packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: these system packages are missing; install them as root: ${missing[*]}" >&2
  fi
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[dev]'
