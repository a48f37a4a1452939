"""Layering: core never imports Qt, qasync or the ui (import-linter contract in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contract_holds():
    linter = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    result = subprocess.run([linter], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 kept, 0 broken" in result.stdout


def test_core_imports_without_qt_loaded():
    code = ("import sys, courtroom_desktop.cli, courtroom_desktop.core.library, courtroom_desktop.core.config;"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'qasync', 'torch', 'lancedb'))];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
