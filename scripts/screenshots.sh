#!/usr/bin/env bash
# Screenshots of the real window under Xvfb: first run, a trial in progress, the verdict (light and dark), the
# evidence inspector with a highlighted page, the settings dialog (with the doctor's checks) and the export dialog.
#
#   scripts/screenshots.sh [OUT_DIR]        (default: docs/screenshots)
#
# Uses the bundled models (a two-round trial on the sample library: a few minutes on two cores).
#
#   SCRIPT=scripts/screenshots_models.py scripts/screenshots.sh    the model setup only (a fake Ollama; seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-docs/screenshots}"
PY="${PY:-.venv/bin/python}"

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v import >/dev/null || need+=(imagemagick)
for lib in libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0; do
  dpkg -s "$lib" >/dev/null 2>&1 || need+=("$lib")
done
if ((${#need[@]})); then
  echo "installing: ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

DISPLAY_NUMBER="${DISPLAY_NUMBER:-99}"
Xvfb ":${DISPLAY_NUMBER}" -screen 0 1600x1000x24 -nolisten tcp >/tmp/courtroom-xvfb.log 2>&1 &
XVFB_PID=$!
trap 'kill "$XVFB_PID" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  [ -e "/tmp/.X11-unix/X${DISPLAY_NUMBER}" ] && break
  sleep 0.1
done

mkdir -p "$OUT"
DISPLAY=":${DISPLAY_NUMBER}" QT_QPA_PLATFORM=xcb HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 \
  "$PY" "${SCRIPT:-scripts/screenshots.py}" "$OUT"
ls -l "$OUT"
