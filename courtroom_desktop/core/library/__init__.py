"""PDF library: PDF -> sections -> chunks -> LanceDB vectors + tantivy BM25, incremental and resumable."""

from courtroom_desktop.core.library.embedder import Embedder
from courtroom_desktop.core.library.library import CancelToken, Library, find_files

__all__ = ["CancelToken", "Embedder", "Library", "find_files"]
