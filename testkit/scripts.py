"""A script of scripts/ (or training/) loaded as a module, for tests of what it does (neither is a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def load_script(name: str, folder: str = "scripts") -> ModuleType:
    """FOLDER/NAME.py as a module (its ``if __name__ == "__main__"`` part not run)."""
    spec = importlib.util.spec_from_file_location(f"{folder}_{name}", ROOT / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass in the script looks its module up there
    spec.loader.exec_module(module)
    return module
