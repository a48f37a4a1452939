#!/usr/bin/env bash
# The environment the desktop bundle is built from (make installer): its own venv (default build/bundle-venv), set up
# by scripts/setup.sh from the lock's bundle set (lock/bundle-<platform>.txt: the app with the [installer,torch] extras,
# PyInstaller; PyTorch only to export all-MiniLM-L6-v2 to ONNX before PyInstaller runs), then OpenCV swapped for its
# headless build, whose wheel the same lock pins with its hashes. RapidOCR asks for opencv-python, which carries
# its own Qt 5, FFmpeg and OpenBLAS (about 290 MB in the bundle); the app uses OpenCV only to read and cut images, and
# the headless build of the same version has the same cv2 without them. The development venv (.venv) is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-build/bundle-venv}"
VENV="$VENV" LOCK_SET=bundle scripts/setup.sh
PY="$VENV/bin/python"
if "$PY" -m pip show opencv-python >/dev/null 2>&1; then
  "$PY" -m pip uninstall -y opencv-python
fi
# Removing opencv-python deletes the cv2 folder it shares with the headless build, which a second run finds recorded
# as installed already: (re)install it whenever cv2 does not import.
if ! "$PY" -c "import cv2" >/dev/null 2>&1; then
  headless=$(mktemp)
  "$PY" scripts/lock.py line opencv-python-headless "$("$PY" scripts/lock.py path bundle)" > "$headless"
  "$PY" -m pip install --no-deps --force-reinstall --require-hashes -r "$headless"
  rm -f "$headless"
fi
"$PY" -c "import cv2; print('cv2', cv2.__version__, 'from', cv2.__file__)"
