"""Files and cancellation for ingestion: which files a set of paths names, their content hash, a cancel token."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path


class CancelToken:
    """Set from any thread; long work checks it between pages and batches."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """Files named, and every file under folders named (recursively, sorted). A folder yields its PDFs only;
    a file named explicitly is tried whatever its extension, so a mislabelled file gets a clear reason."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser().resolve()
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf"))
        else:
            files.append(path)
    seen: set[Path] = set()
    return [f for f in files if not (f in seen or seen.add(f))]
