#!/bin/bash
# Open a program in a real X window (Xvfb), wait, and save a screenshot, so you can look at what a
# user would see. Usage: [SCREEN=1024x700] scripts/screenshot.sh OUT.png SECONDS COMMAND [ARG...]
# Needs Debian's xvfb, xauth and imagemagick (apt-get install -y xvfb xauth imagemagick), and the
# xcb libraries Qt's xcb platform loads (libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
# libxcb-render-util0 libxkbcommon-x11-0 libxcb-xinerama0 libxcb-randr0 libxcb-shape0 libxcb-xkb1).
set -u
out=$1; wait_s=$2; shift 2
export QT_QPA_PLATFORM=xcb
xvfb-run -a -s "-screen 0 ${SCREEN:-1600x1000}x24" bash -c '
  out=$1; wait_s=$2; shift 2
  "$@" & pid=$!
  sleep "$wait_s"
  if ! kill -0 $pid 2>/dev/null; then echo "the program exited before the screenshot" >&2; exit 1; fi
  import -window root "$out"
  kill $pid; wait $pid 2>/dev/null
  exit 0' _ "$out" "$wait_s" "$@"
