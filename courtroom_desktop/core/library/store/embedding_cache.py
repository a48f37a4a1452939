"""Vectors through the catalog's embedding cache: a text embedded once by an embedder is never embedded by it again
(an interrupted ingest, a re-index, a cancelled embedder switch run again). Keyed by the embedder's identity, so the
vectors of one model, backend or server are never handed to another."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from courtroom_desktop.core.errors import Cancelled
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.store.catalog import Catalog, text_key


class TextEmbedder(Protocol):
    @property
    def identity(self) -> str: ...

    def encode(self, texts: list[str]) -> np.ndarray: ...


def embed_cached(catalog: Catalog, embedder: TextEmbedder, texts: list[str], cancel: CancelToken, batch: int,
                 on_batch: Callable[[int, float], None] | None = None) -> np.ndarray:
    """Vectors of ``texts``, from the catalog's cache where they are there, else embedded ``batch`` at a time and
    cached at once (so an interrupted ingest never embeds the same text twice); with an embedder's
    ``length_batching``, in order of length. ``on_batch(done, seconds)`` after each batch. Raises Cancelled
    between batches."""
    model = embedder.identity
    keys = [text_key(t) for t in texts]
    cached = catalog.cached_vectors(model, keys)
    todo = [i for i, k in enumerate(keys) if k not in cached]
    if getattr(embedder, "length_batching", False):
        # longest first across the whole call, not only within each ``batch``: a batch of like lengths pads less
        # (the last, short chunk of each small file no longer sits among full ones)
        todo.sort(key=lambda i: -len(texts[i]))
    done = len(texts) - len(todo)
    for start in range(0, len(todo), batch):
        if cancel.cancelled:
            raise Cancelled()
        part = todo[start:start + batch]
        began = time.perf_counter()
        vectors = embedder.encode([texts[i] for i in part])
        spent = time.perf_counter() - began
        catalog.cache_vectors(model, [(keys[i], v) for i, v in zip(part, vectors)])
        cached.update((keys[i], v) for i, v in zip(part, vectors))
        done += len(part)
        if on_batch is not None:
            on_batch(done, spent)
    return np.stack([cached[k] for k in keys]).astype(np.float32)
