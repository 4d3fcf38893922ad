#!/usr/bin/env bash
# Build the standalone Linux bundle, then self-test it:
#
#     bash packaging/build.sh
#
# Output: dist/zcf-inspector/ (run dist/zcf-inspector/zcf-inspector; share/ holds the desktop
# entry, AppStream metadata and icons) and dist/zcf-inspector-<version>-linux-<arch>.tar.gz.
# Needs Python >= 3.11 with venv and a shared libpython (PYTHON=... picks it; default python3)
# and the Qt system libraries scripts/setup.sh installs. It does not use or change .venv: the
# pinned tools and the app's wheel go into build/bundle-venv.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

PYTHON=${PYTHON:-python3}
VENV=build/bundle-venv
STAGE=build/bundle-src
WHEELS=build/bundle-wheel
CONSTRAINTS=packaging/constraints.txt
APP_ID=io.github.zcf_inspector.ZcfInspector
BUNDLE=dist/zcf-inspector

# Reproducibility: the same commit gives the same bundle. SOURCE_DATE_EPOCH (the commit's
# time, or a fixed date outside a git checkout) is what PyInstaller and tar stamp instead of
# "now"; a fixed hash seed keeps set and dict-of-str orders, hence marshalled code, stable.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 1780000000)
fi
export SOURCE_DATE_EPOCH PYTHONHASHSEED=0 TZ=UTC
# Our pins decide; a user's PIP_* settings (e.g. a pre-release flag) must not.
unset PIP_PRE PIP_UPGRADE PIP_REQUIRE_VIRTUALENV

step() { printf '\n== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

step "checking $PYTHON and the build tools"
# PyInstaller reads, patches and strips ELF files with binutils.
for tool in objdump objcopy strip; do
  if ! command -v "$tool" >/dev/null; then
    echo "build.sh: $tool not found: install binutils (Debian: apt-get install binutils)" >&2
    exit 1
  fi
done
"$PYTHON" - <<'EOF'
import os, sys, sysconfig
if sys.version_info < (3, 11):
    sys.exit(f"build.sh: Python >= 3.11 needed, {sys.executable} is {sys.version.split()[0]}")
# PyInstaller ships the interpreter's shared libpython; without one there is nothing to ship.
library = os.path.join(sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("INSTSONAME") or "")
if not sysconfig.get_config_var("Py_ENABLE_SHARED") or not os.path.isfile(library):
    sys.exit(f"build.sh: {sys.executable} has no shared libpython ({library}): on Debian install "
             f"libpython3.{sys.version_info.minor}, or set PYTHON= to one built with --enable-shared")
EOF

step "bundle venv $VENV (pinned by $CONSTRAINTS)"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q -c "$CONSTRAINTS" setuptools wheel

step "wheel from a clean copy of the source"
# A copy, so setuptools' build/lib and egg-info from earlier builds (which keep deleted
# modules around) cannot leak into the wheel, and the checkout is left untouched.
rm -rf "$STAGE" "$WHEELS"
mkdir -p "$STAGE"
# goldens/ too: zcf_inspector/goldens is a link to ../goldens, and the wheel ships its vectors
# (tests/test_packaging.py stages the same files the same way).
cp -r pyproject.toml README.md LICENSE goldens zcf_inspector "$STAGE/"
find "$STAGE" -name __pycache__ -prune -exec rm -rf {} +
"$VENV/bin/python" -m pip wheel -q --no-build-isolation --no-deps -w "$WHEELS" "./$STAGE"
wheel=$(ls "$WHEELS"/zcf_inspector-*.whl)
"$VENV/bin/python" -m pip install -q -c "$CONSTRAINTS" "${wheel}[packaging]"
# Same version number as an earlier build, different code: reinstall it regardless.
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"

step "PyInstaller"
rm -rf "$BUNDLE"
# Run from build/, through the console script: `python -m PyInstaller` from the checkout would
# put the checkout first on sys.path and freeze its zcf_inspector/ instead of the wheel's.
root=$PWD
(cd build && "$root/$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$root/dist" --workpath "$root/build/pyinstaller" "$root/packaging/zcf-inspector.spec")

step "desktop integration files into $BUNDLE/share"
share="$BUNDLE/share"
install -D -m 644 "packaging/linux/$APP_ID.desktop" "$share/applications/$APP_ID.desktop"
install -D -m 644 "packaging/linux/$APP_ID.metainfo.xml" "$share/metainfo/$APP_ID.metainfo.xml"
install -D -m 644 zcf_inspector/resources/app/zcf-inspector.svg \
  "$share/icons/hicolor/scalable/apps/$APP_ID.svg"
for size in 48 128 256; do
  install -D -m 644 "zcf_inspector/resources/app/zcf-inspector-$size.png" \
    "$share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
done
install -m 755 packaging/install-user.sh "$BUNDLE/install-user.sh"

step "self-test of the bundle"
"$VENV/bin/python" packaging/self_test.py "$BUNDLE"

step "archive"
version=$("$VENV/bin/python" -c 'import zcf_inspector; print(zcf_inspector.__version__)')
archive="dist/zcf-inspector-$version-linux-$(uname -m).tar.gz"
# Sorted names, fixed owner and times and no gzip timestamp: byte-identical on a rebuild.
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  --mode=go-w -C dist -cf - zcf-inspector | gzip -n >"$archive"

elapsed=$(($(date +%s) - started))
printf '\nbuilt %s in %d s: %s on disk, %s archive %s\nsha256 %s\n' \
  "$BUNDLE" "$elapsed" "$(du -sh "$BUNDLE" | cut -f1)" \
  "$(du -h "$archive" | cut -f1)" "$archive" "$(sha256sum "$archive" | cut -d' ' -f1)"
