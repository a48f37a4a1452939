#!/usr/bin/env bash
# Create .venv and install everything Courtroom Desktop needs (CPU build of torch first).
# Idempotent: a second run only installs what changed. Used by `make run`, `make test` and CI.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
VENV="${VENV:-.venv}"
EXTRAS="${EXTRAS:-dev,scale,torch}"  # installer/bundle_venv.sh asks for installer,torch
STAMP="$VENV/.installed"
if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && [ "$STAMP" -nt scripts/setup.sh ]; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip)
"${PIP[@]}" install --quiet --upgrade pip
# torch before anything that needs it: an unpinned torch resolves to a CUDA build of several GB.
if ! "$VENV/bin/python" -c "import torch" >/dev/null 2>&1; then
  if compgen -G "/opt/wheels/torch-2.13.0*.whl" >/dev/null; then
    "${PIP[@]}" install --find-links /opt/wheels "torch==2.13.0"
  else
    "${PIP[@]}" install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu \
      || "${PIP[@]}" install "torch==2.13.0"
  fi
fi
# llama-cpp-python compiles from source (about 10 minutes on 2 cores); pip caches the wheel afterwards.
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
# A portable build: a native one (-march=native) includes AMX kernels that crash on VMs which advertise AMX.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}"
"${PIP[@]}" install -e ".[$EXTRAS]"
# the window's translations: courtroom_desktop/ui/translations/*.ts compiled to the .qm files it loads
PY="$VENV/bin/python" scripts/translations.sh --release
# the English <-> Chinese lexicon that search across the two languages reads (core.retrieval.translate), built once
# from CC-CEDICT into the cache folder now rather than during the first such search (about 6 s)
"$VENV/bin/python" -c "from courtroom_desktop.core.retrieval.translate import lexicon; lexicon()" || true
touch "$STAMP"
