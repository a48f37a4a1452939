#!/usr/bin/env bash
# The accessibility tree as a screen reader sees it, from outside the process (issue #49): Xvfb, a D-Bus session with
# the AT-SPI bus, the app started with Qt's accessibility on, then scripts/atspi_walk.py (Debian's python3 and
# pyatspi) listing every interactive control and its name. Needs (Debian): xvfb at-spi2-core python3-pyatspi dbus-x11
# libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1. Usage: scripts/atspi_check.sh [LANGUAGE]  (en, zh)
set -euo pipefail
cd "$(dirname "$0")/.."
LANGUAGE="${1:-en}"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
Xvfb :97 -screen 0 1920x1080x24 >/dev/null 2>&1 &
export DISPLAY=:97
eval "$(dbus-launch --sh-syntax)"
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &
sleep 2
QT_QPA_PLATFORM=xcb QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 COURTROOM_MODEL_SERVERS=none COURTROOM_LANGUAGE="$LANGUAGE" \
  .venv/bin/courtroom --config-dir "$WORK/config" --data-dir "$WORK/data" \
  >"$WORK/app.log" 2>&1 &
for _ in $(seq 60); do
  if /usr/bin/python3 scripts/atspi_walk.py courtroom >/dev/null 2>&1; then break; fi
  sleep 1
done
sleep 3
/usr/bin/python3 scripts/atspi_walk.py courtroom
