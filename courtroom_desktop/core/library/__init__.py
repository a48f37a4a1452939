"""PDF library: PDF -> sections -> chunks -> LanceDB vectors + tantivy BM25, incremental and resumable."""

from courtroom_desktop.core.library.embed.embedder import Embedder
from courtroom_desktop.core.library.files import CancelToken, find_files
from courtroom_desktop.core.library.library import Library

__all__ = ["CancelToken", "Embedder", "Library", "find_files"]
