"""One call's texts cut into batches for a model: longest first, a batch per worker at least where the model runs a
pool of them (the ONNX runner), the vectors back in the order of the texts. The embedder runs it in its own process,
the embedding child (``embed/child.py``) in the child."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

import numpy as np


class BatchModel(Protocol):
    """What batching reads of a model: its dimension and one batch's vectors (``pool`` and ``workers`` when it has
    worker threads)."""

    @property
    def dim(self) -> int: ...

    def encode_batch(self, texts: list[str]) -> np.ndarray: ...


def encode_in_batches(model: BatchModel, texts: list[str], batch: int, length_batching: bool = True) -> np.ndarray:
    """``texts``' vectors, in their order, computed in batches of ``batch`` (over the model's workers when it has a
    pool)."""
    if length_batching:  # longest first, as sentence-transformers orders one call's texts
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    else:
        order = list(range(len(texts)))
    out = np.empty((len(texts), model.dim), dtype=np.float32)
    step = max(int(batch), 1)
    pool: ThreadPoolExecutor | None = getattr(model, "pool", None)
    if pool is not None:  # a batch per worker at least, so that a short call still uses every core
        step = max(1, min(step, -(-len(order) // int(getattr(model, "workers", 1)))))
    parts = [order[start:start + step] for start in range(0, len(order), step)]
    if pool is None or len(parts) == 1:
        for part in parts:
            out[part] = model.encode_batch([texts[i] for i in part])
    else:  # longest first: the workers take them in that order, and finish together
        for part, vectors in zip(parts, pool.map(lambda p: model.encode_batch([texts[i] for i in p]), parts)):
            out[part] = vectors
    return out
