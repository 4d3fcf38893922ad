#!/usr/bin/env bash
# Add this zcf-inspector bundle to the current user's desktop (no root needed):
#
#     ./install-user.sh              # from inside the unpacked bundle folder
#
# It links ~/.local/bin/zcf-inspector to this bundle's executable and copies the desktop
# entry, AppStream metadata and icons into ~/.local/share. The bundle stays where it is;
# moving it later breaks the link, so rerun this script afterwards.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
APP_ID=io.github.zcf_inspector.ZcfInspector
data=${XDG_DATA_HOME:-$HOME/.local/share}
bin=$HOME/.local/bin

mkdir -p "$bin" "$data/applications" "$data/metainfo"
ln -sfn "$here/zcf-inspector" "$bin/zcf-inspector"
cp -r "$here/share/icons" "$data/"
cp "$here/share/metainfo/$APP_ID.metainfo.xml" "$data/metainfo/"
# The entry runs the bundle by absolute path, so it works even when ~/.local/bin is not on
# the PATH the desktop session was started with.
sed "s|^Exec=zcf-inspector |Exec=\"$here/zcf-inspector\" |" \
  "$here/share/applications/$APP_ID.desktop" >"$data/applications/$APP_ID.desktop"

# No gtk-update-icon-cache here: a cache in the user's hicolor folder would hide icons other
# apps add there later without refreshing it. Desktops scan an uncached folder fine.
if command -v update-desktop-database >/dev/null; then
  update-desktop-database -q "$data/applications" || true
fi
echo "installed: $bin/zcf-inspector and the ZCF Inspector desktop entry ($data)"
