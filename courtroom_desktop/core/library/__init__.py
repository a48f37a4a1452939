"""PDF library: PDF -> sections -> chunks -> LanceDB vectors + tantivy BM25, incremental and resumable.

The package's names are looked up when first used: importing a light part of it (files, watch, notes, zotero) does
not import ``Library`` and with it numpy, PyMuPDF and pyarrow (0.7 s; on the window's thread that was a stall,
bench/ui.py's preload phase)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from courtroom_desktop.core.library.embed.embedder import Embedder
    from courtroom_desktop.core.library.files import CancelToken, find_files
    from courtroom_desktop.core.library.library import Library

__all__ = ["CancelToken", "Embedder", "Library", "find_files"]

_WHERE = {"CancelToken": "courtroom_desktop.core.cancel", "find_files": "courtroom_desktop.core.library.files",
          "Embedder": "courtroom_desktop.core.library.embed.embedder", "Library": "courtroom_desktop.core.library.library"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
