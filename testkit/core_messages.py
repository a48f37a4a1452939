"""The core's messages for a person, found in its source (never imported): what must be a
``lexicon.message.Message`` so that the window and the command line can say it in their language.

What counts as such a message (the rules the translations were first gathered by):

- the string arguments of a call to one of the core's errors (``CourtroomError`` and every class derived from it, and
  ``ValueError`` raised by a settings validator) and of the error classes' own ``super().__init__``;
- the value of a ``reason=``, ``fix=``, ``detail=``, ``message=`` or ``error=`` keyword in any call;
- the string arguments of a doctor row (``DoctorRow(...)`` and the doctor's ``add(...)``) and of a provider's
  ``_error(...)`` (a model error made with its role, provider and model);
- the value assigned to a variable named ``reason``, ``fix``, ``detail``, ``problem``, ``message`` or ``said``, or
  to one whose name ends in ``fix`` (``START_FIX``, ``start_fix``);
- the texts of a returned tuple but its first element (``(ok, detail)`` of the doctor's probes);
- what a function named ``describe`` returns (an embedder in words).

Strings without a space (names, codes such as "cancelled") and markup are not messages. Modules whose strings are
for models or files (``eval/``, ``reports/`` but ``reports/export.py``) are left out.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "courtroom_desktop" / "core"
KEYWORDS = {"reason", "fix", "detail", "message", "error"}
VARIABLES = {"reason", "fix", "detail", "problem", "message", "said"}
ROW_CALLS = {"DoctorRow", "add", "_error"}  # a doctor row; a model's error made by its provider (``_error``)
SKIPPED = ("eval/", "reports/", "lexicon/")
KEPT = ("reports/export.py",)


@dataclass(frozen=True)
class Found:
    path: Path
    line: int
    text: str       # the string as written (an f-string unparsed)

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.text}"


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in sorted(CORE.rglob("*.py"))
            if not str(path.relative_to(CORE)).startswith(SKIPPED) or str(path.relative_to(CORE)) in KEPT}


def error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    names = {"CourtroomError", "ValueError"}
    classes = [node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for node in classes:
            if node.name not in names and any(_name(base) in names for base in node.bases):
                names.add(node.name)
                grew = True
    return names


def _leaves(node: ast.expr) -> list[ast.expr]:
    """The strings a value can be: itself, each branch of a conditional or an ``or``, each element of a tuple. A
    ``Message(...)`` call is a message already, and nothing inside it is looked at."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) or isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.IfExp):
        return _leaves(node.body) + _leaves(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [leaf for value in node.values for leaf in _leaves(value)]
    if isinstance(node, ast.Tuple):
        return [leaf for value in node.elts for leaf in _leaves(value)]
    return []


def _values(node: ast.AST, errors: set[str], in_errors_module: bool) -> list[ast.expr]:
    found: list[ast.expr] = []
    if isinstance(node, ast.FunctionDef) and node.name == "describe":
        found += [n.value for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None
                  and not isinstance(n.value, ast.Tuple)]
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in errors or name in ROW_CALLS or (name == "__init__" and in_errors_module):
            found += node.args
        found += [k.value for k in node.keywords if k.arg in KEYWORDS]
    elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
        found += node.value.elts[1:]
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name) and (target.id in VARIABLES or target.id.lower().endswith("fix")):
                found.append(node.value)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                found += [v for t, v in zip(target.elts, node.value.elts, strict=False)
                          if isinstance(t, ast.Name) and t.id in VARIABLES]
    return found


def _is_words(node: ast.expr) -> bool:
    text = node.value if isinstance(node, ast.Constant) else ast.unparse(node)
    return " " in str(text).strip() and any(c.isalpha() for c in str(text)) and not str(text).lstrip("f'\"").startswith("<")


def plain_messages() -> list[Found]:
    """Every message for a person the core still writes as a plain string or f-string (none should be)."""
    trees = modules()
    errors = error_classes(trees)
    found: list[Found] = []
    for path, tree in trees.items():
        errors_module = any(isinstance(n, ast.ClassDef) and n.name in errors for n in tree.body)
        for node in ast.walk(tree):
            for value in _values(node, errors, errors_module):
                found += [Found(path, leaf.lineno, ast.unparse(leaf)) for leaf in _leaves(value) if _is_words(leaf)]
    return list(dict.fromkeys(found))


def message_calls() -> list[tuple[Found, int]]:
    """Every ``Message(template, ...)`` in the whole package: where, its template, and how many values it is given
    (a template that is not a literal string is reported with the text '?')."""
    calls: list[tuple[Found, int]] = []
    for path in sorted((ROOT / "courtroom_desktop").rglob("*.py")):
        if "lexicon" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and _name(node.func) == "Message" and node.args:
                first = node.args[0]
                text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else "?"
                calls.append((Found(path, node.lineno, text), len(node.args) - 1))
    return calls
