#!/bin/bash
# Take the window's screenshots for real, under Xvfb (scripts/screenshot.sh), into
# docs/screenshots/: the window, a truncated review, a narrow window (1024x700), the dark
# theme, a review of only what changed, a truncated review after a Settings change (light
# and dark, 1600x1000 and 1024x700), and each public continuation example's plan graph
# at 1400x900, light and dark (plan-graph.png is made by hand; see README).
# Needs xvfb, xauth and imagemagick (apt-get install -y xvfb xauth imagemagick).
# Settings and journals go to a temporary folder, never to your home.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shot() {  # NAME SCREEN SECONDS
  rm -rf "$work/config" "$work/data"
  XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" SCREEN=$2 PYTHONPATH=. \
    bash scripts/screenshot.sh "docs/screenshots/$1.png" "$3" \
    .venv/bin/python docs/screenshots/take.py "$1" "$work"
}
shot window 1600x1000 6
shot truncated-review 1600x1000 25
shot narrow-window 1024x700 8
shot dark-theme 1600x1000 10
shot dark-review 1600x1000 8
shot review-previous 1600x1000 10
shot recheck-review 1600x1000 12
shot dark-recheck-review 1600x1000 12
shot narrow-recheck-review 1024x700 12
shot dark-narrow-recheck-review 1024x700 12
for example in action-specific another-agent another-computer pending-remote-operation; do
  shot "plan-$example" 1400x900 8
  shot "dark-plan-$example" 1400x900 8
done
