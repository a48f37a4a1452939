"""The cancel token of long work (an ingest, a re-embedding, an import): set from any thread, checked by the work
between pages and batches. A module of its own, with nothing heavy behind it, so the window can make one on its
thread without importing the library (numpy, PyMuPDF, pyarrow: 0.4 s of the window's thread, measured by
bench/ui.py's preload phase)."""

from __future__ import annotations

import threading


class CancelToken:
    """Set from any thread; long work checks it between pages and batches."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()
