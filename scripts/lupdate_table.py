"""The part of a generated lupdate table (scripts/config_words.py) that could serve another: strings lupdate cannot
see where they are written (in the core, which knows nothing of Qt) written out as ``QT_TRANSLATE_NOOP`` entries of a
module in the ui package, and a ``--check`` that fails when that module is behind its source."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def render(header: str, texts: list[str]) -> str:
    """The module: ``header`` (its docstring, the import and the tuple's opening line), one entry per text."""
    lines = [f"    QT_TRANSLATE_NOOP(\"\", {text!r})," for text in texts]
    return header + "\n".join(lines) + "\n)\n"


def main(description: str, target: Path, make: Callable[[], str], source: str, noun: str) -> int:
    """Write ``target`` from ``make()``; with --check, fail (1) when it differs, naming ``source`` it is behind."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help=f"fail when the file is behind {source}")
    args = parser.parse_args()
    text = make()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is behind {source}: run scripts/{Path(sys.argv[0]).name}", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"{target}: {text.count('QT_TRANSLATE_NOOP(')} {noun}")
    return 0
