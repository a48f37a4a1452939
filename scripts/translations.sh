#!/usr/bin/env bash
# The window's translations: gather every tr() and QT_TRANSLATE_NOOP string of the ui package into the .ts sources
# (pyside6-lupdate keeps the translations already there and marks vanished strings obsolete), then compile them into
# the .qm files the window loads (pyside6-lrelease). scripts/setup.sh runs the second half.
#
#   scripts/translations.sh            update the .ts sources from the code, then compile
#   scripts/translations.sh --release  compile only (the set-up)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
TOOLS="$("$PY" -c 'import PySide6, os; print(os.path.dirname(PySide6.__file__))')"
FOLDER=courtroom_desktop/ui/translations
if [ "${1:-}" != "--release" ]; then
  "$PY" scripts/config_words.py  # the settings' descriptions (their tooltips), from core/config.py
  mapfile -t SOURCES < <(find courtroom_desktop/ui -name '*.py' | sort)
  for ts in "$FOLDER"/courtroom_*.ts; do
    "$TOOLS/lupdate" -no-obsolete -locations none "${SOURCES[@]}" -ts "$ts"
  done
fi
for ts in "$FOLDER"/courtroom_*.ts; do
  "$TOOLS/lrelease" -silent "$ts" -qm "${ts%.ts}.qm"
done
