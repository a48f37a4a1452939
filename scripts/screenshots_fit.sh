#!/usr/bin/env bash
# The window at the size it picks for three screens (issue #32), each its own Xvfb: 1280x720 and 1920x1080 at 100 %,
# and 3840x2160 at 200 % (QT_SCALE_FACTOR=2: a 1920x1080 logical screen drawn at twice the pixels; Xvfb's -dpi alone
# does not scale Qt 6 on xcb, which reads Xft.dpi, and there is no desktop here to set it). For each, a
# fresh config and data folder and the sample library added (scripts/screenshots_fit.py); the whole screen is saved.
# No model servers are looked for (COURTROOM_MODEL_SERVERS=none), so the pictures do not depend on this machine.
#
#   scripts/screenshots_fit.sh [OUT_DIR]      (default: docs/screenshots; writes fit-WxH.png)
#
# FIT_FIRST_RUN=1 grabs each screen on the first run too (fit-WxH-first-run.png).
# SIZES="1280x720:1" scripts/screenshots_fit.sh    one size (WxH:scale, space-separated).
# COURTROOM_LANGUAGE=zh_CN SIZES="1280x720:1" scripts/screenshots_fit.sh    the window in Chinese (fit-WxH-zh.png)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-docs/screenshots}"
PY="${PY:-.venv/bin/python}"
SIZES="${SIZES:-1280x720:1 1920x1080:1 3840x2160:2}"

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

XVFB_PID=""
trap '[ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null || true' EXIT
mkdir -p "$OUT"
DISPLAY_NUMBER="${DISPLAY_NUMBER:-98}"
LANGUAGE_CODE="${COURTROOM_LANGUAGE:-en}"
SUFFIX=""
[ "$LANGUAGE_CODE" = "en" ] || SUFFIX="-${LANGUAGE_CODE%%_*}"

for size in $SIZES; do
  geometry="${size%%:*}" scale="${size##*:}"
  Xvfb ":${DISPLAY_NUMBER}" -screen 0 "${geometry}x24" -dpi $((96 * scale)) -nolisten tcp \
    >"/tmp/courtroom-xvfb-${geometry}.log" 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 50); do
    [ -e "/tmp/.X11-unix/X${DISPLAY_NUMBER}" ] && break
    sleep 0.1
  done
  echo "== ${geometry} at ${scale}x"
  DISPLAY=":${DISPLAY_NUMBER}" QT_QPA_PLATFORM=xcb QT_SCALE_FACTOR="$scale" QT_ENABLE_HIGHDPI_SCALING=0 \
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 COURTROOM_MODEL_SERVERS=none \
    "$PY" scripts/screenshots_fit.py "$OUT" "fit-${geometry}${SUFFIX}.png"
  kill "$XVFB_PID" 2>/dev/null || true
  wait "$XVFB_PID" 2>/dev/null || true
  XVFB_PID=""
  for _ in $(seq 50); do
    [ -e "/tmp/.X11-unix/X${DISPLAY_NUMBER}" ] || break
    sleep 0.1
  done
done
ls -l "$OUT"/fit-*.png
