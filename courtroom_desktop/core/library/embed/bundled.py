"""What the app's bundled in-process multilingual embedders share (``e5.py``: multilingual-e5-small, ``usem.py``: the
Universal Sentence Encoder multilingual): the batch size, the threads, the languages the library takes them to read,
the model loaded on first use by ``_build`` (under the lazy model's lock), one call at a time, and the identity the
library records with their vectors (``NAME@ENGINE``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from courtroom_desktop.core.lazy import LazyModel


class BundledEmbedder:
    """Subclasses name the model (``NAME``, ``ENGINE``: the weights' form, ``DIM``) and load it in ``_build``."""

    NAME: ClassVar[str]
    ENGINE: ClassVar[str]
    DIM: ClassVar[int]

    def __init__(self, batch: int = 32, threads: int | None = None, languages: frozenset[str] | None = None):
        self.batch = max(int(batch), 1)
        self.threads = threads
        self.languages = languages  # None: every language
        self._model = LazyModel(self._build)
        self._lock = threading.Lock()  # one call into the model at a time

    @property
    def name(self) -> str:
        return self.NAME

    @property
    def identity(self) -> str:
        return f"{self.NAME}@{self.ENGINE}"

    @property
    def dim(self) -> int:
        return self.DIM

    def _build(self) -> Any:
        raise NotImplementedError

    def _in_batches(self, texts: list[str], call: Callable[[Any, list[str]], Any]) -> np.ndarray:
        """``call(model, part)`` over batches of ``batch`` texts, one call at a time: float32 rows in the order of the
        texts (an empty text is embedded as a space)."""
        texts = list(texts)
        out = np.empty((len(texts), self.DIM), dtype=np.float32)
        if not texts:
            return out
        model = self._model.get()
        for start in range(0, len(texts), self.batch):
            part = [t if t.strip() else " " for t in texts[start:start + self.batch]]
            with self._lock:
                vectors = call(model, part)
            out[start:start + len(part)] = np.asarray(vectors, dtype=np.float32).reshape(len(part), self.DIM)
        return out

    def covers(self, text: str) -> bool:
        if self.languages is None:
            return True
        from courtroom_desktop.core.text import language_of

        return language_of(text) in self.languages
