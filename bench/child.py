"""Run a benchmark's child script in a fresh Python process and read the JSON line it prints last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_child(code: str, *args: object, timeout: float, **env: str) -> dict:
    """``python -c code args...`` from the repository root, offscreen unless QT_QPA_PLATFORM is set, with ``env``
    added to the environment; its last line of output, parsed. A failed child ends the benchmark with its stderr."""
    environment = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"), **env)
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True,
                          env=environment, cwd=ROOT, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])
