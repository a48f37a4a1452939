"""docs/architecture.md matches the tree: every module of the package is named there, and every module it names
exists (so the page can go stale neither way)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "courtroom_desktop"


def test_every_module_is_named_in_the_architecture_page_and_every_named_module_exists():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = {p.name for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" and "__pycache__" not in p.parts}
    named = set(re.findall(r"`(\w+\.py)`", page)) - {"__init__.py"}
    assert not sorted(m for m in modules if f"`{m}`" not in page), "modules missing from docs/architecture.md"
    assert not sorted(named - modules), "docs/architecture.md names modules that do not exist"
