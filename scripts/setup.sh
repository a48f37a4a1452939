#!/usr/bin/env bash
# Create .venv and install Courtroom Desktop into it from the lock (lock/, exact versions with hashes: scripts/lock.py).
# Idempotent: a second run does nothing until pyproject.toml, the lock or this script change. Used by `make run`,
# `make test` and CI (LOCK_SET=dev, the default), and by installer/bundle_venv.sh (LOCK_SET=bundle).
# RESOLVE=latest ignores the lock and installs the newest versions pyproject.toml's ranges allow (make test-latest).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
  echo "scripts/setup.sh: the lock is made for Python 3.11, and '$PY' is $("$PY" -V 2>&1)." >&2
  echo "  Install Python 3.11 and run again (or name it: PYTHON=/path/to/python3.11 make test)." >&2
  exit 2
fi
VENV="${VENV:-.venv}"
LOCK_SET="${LOCK_SET:-dev}"
RESOLVE="${RESOLVE:-lock}"
LOCK_FILE=$("$PY" scripts/lock.py path "$LOCK_SET")
# Azurite, the Azure Blob Storage emulator tests/shared starts on loopback, from package-lock.json (an exact version)
# into ./node_modules; again only when package-lock.json changed. No install script runs (none is needed). Without
# Node.js (20 or later) the Azure tests are skipped, except where CI is set or COURTROOM_REQUIRE_EMULATORS=1: there
# they fail.
if [ "$LOCK_SET" = dev ]; then
  if command -v npm >/dev/null 2>&1; then
    if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
      npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
    fi
  else
    echo "scripts/setup.sh: npm not found: the tests on Azure Blob Storage (Azurite) will be skipped; install" \
         "Node.js 20 or later and run again to include them." >&2
  fi
fi
STAMP="$VENV/.installed-$RESOLVE"
if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && [ "$STAMP" -nt scripts/setup.sh ] \
   && [ "$STAMP" -nt "$LOCK_FILE" ] && [ "$STAMP" -nt lock/tools.txt ]; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip)
# pip, setuptools, wheel and scikit-build-core first, from the lock too: builds from source (this project,
# llama-cpp-python) then use these instead of fetching the newest into an isolated environment.
"${PIP[@]}" install --quiet --require-hashes --no-deps -r lock/tools.txt
# PyTorch's Linux CPU build (torch==2.13.0+cpu in the lock) is not on PyPI: from the machine's wheel folder where it
# lies there, else from PyTorch's CPU index. Other platforms take PyPI's torch.
TORCH_SOURCE=()
if compgen -G "/opt/wheels/torch-2.13.0*.whl" >/dev/null; then
  TORCH_SOURCE=(--find-links /opt/wheels)
elif [ "$(uname -s)" = Linux ]; then
  TORCH_SOURCE=(--extra-index-url https://download.pytorch.org/whl/cpu)
fi
# llama-cpp-python compiles from source (about 10 minutes on 2 cores); pip caches the wheel afterwards.
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
# A portable build: a native one (-march=native) includes AMX kernels that crash on VMs which advertise AMX.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}"
if [ "$RESOLVE" = latest ]; then
  EXTRAS=$("$PY" scripts/lock.py extras "$LOCK_SET")
  # lock/constraints.in holds torch at the CPU build the lock names (a newer Linux torch from PyPI is the CUDA build
  # of several GB, with its nvidia packages); everything else takes the newest version its range allows
  "${PIP[@]}" install --upgrade --upgrade-strategy eager -c lock/constraints.in "${TORCH_SOURCE[@]}" -e ".[$EXTRAS]"
else
  "${PIP[@]}" install --require-hashes --no-build-isolation "${TORCH_SOURCE[@]}" -r "$LOCK_FILE"
  "${PIP[@]}" install --no-deps --no-build-isolation -e .
fi
"${PIP[@]}" check
# the window's translations: courtroom_desktop/ui/translations/*.ts compiled to the .qm files it loads
PY="$VENV/bin/python" scripts/translations.sh --release
# the English <-> Chinese lexicon that search across the two languages reads (core.retrieval.translate), built once
# from CC-CEDICT into the cache folder now rather than during the first such search (about 6 s)
"$VENV/bin/python" -c "from courtroom_desktop.core.retrieval.translate import lexicon; lexicon()" || true
rm -f "$VENV"/.installed*
touch "$STAMP"
