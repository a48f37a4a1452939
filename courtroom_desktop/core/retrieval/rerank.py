"""Rerankers, applied to the head of the fused list: none, MMR (diversity), the bundled claim verifier, or a
cross-encoder from a local folder.

A reranker gets the candidates best first and returns them in its order, with a score for each.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from courtroom_desktop.core.errors import ConfigError, RetrievalError
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

    from courtroom_desktop.core.verifier.scorer import ClaimVerifier


@dataclass(frozen=True)
class Candidate:
    """What a reranker sees of a passage."""

    id: str
    query: str
    text: str
    relevance: float               # the fused score
    vector: np.ndarray | None = None


class Reranker(Protocol):
    name: str

    def rerank(self, candidates: Sequence[Candidate], k: int) -> list[tuple[str, float]]:
        """(candidate id, rerank score) for the best ``k``, best first."""
        ...


def mmr(relevance: np.ndarray, vectors: np.ndarray, k: int, lam: float) -> list[tuple[int, float]]:
    """Maximal marginal relevance: repeatedly pick argmax lam * rel(i) - (1 - lam) * max cos(i, picked).

    ``relevance`` is min-max scaled to [0, 1] first so that lam means the same for any score scale; rows of
    ``vectors`` are L2-normalised. Returns (index, MMR score at the time it was picked), in pick order."""
    count = len(relevance)
    if count == 0 or k <= 0:
        return []
    rel = np.asarray(relevance, dtype=np.float64)
    spread = rel.max() - rel.min()
    rel = (rel - rel.min()) / spread if spread > 1e-12 else np.ones(count)
    sims = np.asarray(vectors, dtype=np.float64) @ np.asarray(vectors, dtype=np.float64).T
    picked: list[tuple[int, float]] = []
    max_sim = np.full(count, -np.inf)
    available = np.ones(count, dtype=bool)
    for _ in range(min(k, count)):
        penalty = np.where(np.isfinite(max_sim), max_sim, 0.0)
        value = lam * rel - (1.0 - lam) * penalty
        value[~available] = -np.inf
        best = int(np.argmax(value))  # ties: the better-ranked (lower index) candidate
        picked.append((best, float(value[best])))
        available[best] = False
        max_sim = np.maximum(max_sim, sims[best])
    return picked


class MMRReranker:
    name = "mmr"

    def __init__(self, lam: float = 0.7):
        self.lam = lam

    def rerank(self, candidates: Sequence[Candidate], k: int) -> list[tuple[str, float]]:
        if not candidates:
            return []
        vectors = [c.vector for c in candidates if c.vector is not None]
        if len(vectors) < len(candidates):
            raise RetrievalError(Message("MMR needs every candidate's vector"))
        order = mmr(np.array([c.relevance for c in candidates]), np.stack(vectors), k, self.lam)
        return [(candidates[i].id, score) for i, score in order]


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder loaded from a local folder (nothing is downloaded). Each passage
    is scored against the query that found it; the model loads on first use."""

    def __init__(self, path: str | os.PathLike[str], batch_size: int = 32, max_length: int = 512):
        self.path = Path(path).expanduser()
        if not self.path.is_dir():
            raise ConfigError(Message("retrieval.reranker = {str(path)}: no such folder; use 'none', 'mmr' or the "
                                      "folder of a local sentence-transformers cross-encoder",
                                      f'{str(path)!r}'))
        self.name = f"cross-encoder:{self.path.name}"
        self.batch_size = batch_size
        self.max_length = max_length
        self._model = LazyModel(self._build)

    def _build(self) -> CrossEncoder:
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ConfigError(Message("retrieval.reranker = {str(self.path)}: a cross-encoder runs on PyTorch, "
                                      "which is not installed ({exc}): python -m pip install "
                                      "'courtroom-desktop[torch]', or use 'mmr'",
                                      f'{str(self.path)!r}', exc)) from exc
        try:
            # CrossEncoder's __init__ is wrapped by an untyped decorator: its call is Any to the checker
            model: CrossEncoder = CrossEncoder(str(self.path), device="cpu", max_length=self.max_length)
            return model
        except Exception as exc:
            raise RetrievalError(Message("{self.path}: cannot load the cross-encoder ({exc})", self.path, exc)) from exc

    def _load(self) -> CrossEncoder:
        return self._model.get()

    def scores(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros(0)
        model = self._load()
        inputs = [list(p) for p in pairs]
        predict: Any = model.predict  # its pair type's name and module moved between sentence-transformers releases
        values = predict(inputs, batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True)
        values = np.asarray(values, dtype=np.float64)
        return values if values.ndim == 1 else values[:, -1]  # a two-label model: the "relevant" logit

    def rerank(self, candidates: Sequence[Candidate], k: int) -> list[tuple[str, float]]:
        values = self.scores([(c.query, c.text) for c in candidates])
        order = sorted(range(len(candidates)), key=lambda i: (-values[i], i))
        return [(candidates[i].id, float(values[i])) for i in order[:k]]


def _build_verifier() -> ClaimVerifier:
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    return ClaimVerifier()


# one verifier for every VerifierReranker: its ONNX session is built on the first score, then reused
_SHARED_VERIFIER: LazyModel[ClaimVerifier] = LazyModel(_build_verifier)


class VerifierReranker:
    """The bundled claim verifier (core/verifier/scorer.py) reads each passage against the query that found it;
    candidates are ordered by its relevance (P(supports) + P(refutes): how much the passage bears on the claim
    either way), ties kept in the fused order. Pure verifier relevance, no blend with the fused score. The
    verifier is shared and built on first use unless one is given (anything with ``score(pairs)`` returning
    readings with ``.relevance``)."""

    name = "verifier"

    def __init__(self, verifier: Any = None):
        self._verifier = verifier

    @property
    def verifier(self) -> Any:
        return self._verifier if self._verifier is not None else _SHARED_VERIFIER.get()

    def rerank(self, candidates: Sequence[Candidate], k: int) -> list[tuple[str, float]]:
        if not candidates or k <= 0:
            return []
        readings = self.verifier.score([(c.query, c.text) for c in candidates])
        values = [float(r.relevance) for r in readings]
        order = sorted(range(len(candidates)), key=lambda i: (-values[i], i))
        return [(candidates[i].id, values[i]) for i in order[:k]]


def make_reranker(spec: str, mmr_lambda: float = 0.7) -> Reranker | None:
    """'none' -> None, 'mmr' -> MMRReranker, 'verifier' -> VerifierReranker, anything else: a cross-encoder folder."""
    value = (spec or "none").strip()
    if value.lower() in ("", "none"):
        return None
    if value.lower() == "mmr":
        return MMRReranker(mmr_lambda)
    if value.lower() == "verifier":
        return VerifierReranker()
    return CrossEncoderReranker(value)
