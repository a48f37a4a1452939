"""Layering (import-linter contracts in pyproject.toml): core never imports Qt, qasync or the ui; the ui never imports
the command line, and both reach the core only through an allow-list (services, records, settings, errors); the court
never imports the models, the retriever or the library it is handed; the library's folders follow its pipeline
(callers, storing, embedding and chunking, reading). Each contract was seen to break once (an import added against
it)."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contract_holds():
    linter = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    result = subprocess.run([linter], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    report = re.search(r"Contracts: (\d+) kept, (\d+) broken", result.stdout)
    assert report, result.stdout
    assert (int(report[1]), int(report[2])) == (len(declared), 0), result.stdout
    flat = " ".join(result.stdout.split())
    for contract in declared:  # each declared contract is reported as kept, by name
        assert f"{contract['name']} KEPT" in flat, contract["name"]


def test_core_imports_without_qt_loaded():
    code = ("import sys, courtroom_desktop.cli, courtroom_desktop.core.library, courtroom_desktop.core.config;"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'qasync', 'torch', 'lancedb'))];"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_window_and_the_command_line_have_an_allow_list_into_the_core():
    """The ui/cli contract forbids the whole core and lets through only the services, the records, the settings
    and the errors: a new core module is closed to them until it is offered through a service."""
    allowed = {"courtroom_desktop.core.services", "courtroom_desktop.core.services.**",
               "courtroom_desktop.core.config", "courtroom_desktop.core.errors", "courtroom_desktop.core.records",
               "courtroom_desktop.core.court.records"}
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    contract = next(c for c in declared if set(c["source_modules"]) == {"courtroom_desktop.ui", "courtroom_desktop.cli"})
    assert contract["type"] == "forbidden" and contract["forbidden_modules"] == ["courtroom_desktop.core"]
    for expression in contract["ignore_imports"]:
        importer, target = (part.strip() for part in expression.split("->"))
        assert importer.startswith(("courtroom_desktop.ui", "courtroom_desktop.cli")), expression
        assert target in allowed, expression


def test_the_window_and_the_command_line_use_the_workspace_through_its_services():
    """A workspace hands the front ends one service per feature (library, trials, checks, models), which take and
    return records and ids; its parts (the library, the stores, the router) are for the services and tests. No
    module of the window or the command line reaches them (break: ``workspace.parts.library`` in a controller, and
    it is named here), and each service returns no Library, store or router."""
    import ast

    from courtroom_desktop.core.workspace import CheckService, LibraryService, ModelService, TrialService

    reached = [f"{path.relative_to(ROOT)}:{node.lineno}"
               for folder in ("ui", "cli") for path in sorted((ROOT / "courtroom_desktop" / folder).rglob("*.py"))
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Attribute) and node.attr in ("parts", "_parts")]
    assert reached == []
    internal = ("Library", "TrialStore", "CheckStore", "ModelRouter", "Retriever", "Catalog", "Parts")
    handed_out = []
    for service in (LibraryService, TrialService, CheckService, ModelService):
        for name, member in vars(service).items():
            function = member.fget if isinstance(member, property) else member
            if name.startswith("_") or not callable(function):
                continue
            returned = str(function.__annotations__.get("return", ""))  # as written (the types are imported lazily)
            handed_out += [f"{service.__name__}.{name} -> {kind}" for kind in internal
                           if re.search(rf"\b{kind}\b", returned)]
    assert handed_out == []
