"""Duplicate passages: the same chunk from several queries is fused once already (fusion is keyed by chunk id);
here near-duplicates (the same passage in two copies of a paper, a chunk and its overlap-heavy neighbour, a
reprint) collapse onto the best-ranked of them, by normalised-text hash and by embedding similarity."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence

import numpy as np

_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def text_fingerprint(text: str) -> str:
    """Case, accents, punctuation, hyphenation and whitespace do not count."""
    folded = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode().casefold()
    return hashlib.sha1(_NON_WORD.sub(" ", folded).strip().encode()).hexdigest()


def dedup(ids: Sequence[str], texts: dict[str, str], vectors: dict[str, np.ndarray] | None,
          threshold: float, limit: int | None = None) -> tuple[list[str], dict[str, str]]:
    """Walk ``ids`` best first; keep one unless its normalised text equals a kept one's or its vector has cosine
    >= ``threshold`` with a kept one's (vectors are L2-normalised; threshold > 1 turns that test off).
    Stops after ``limit`` kept. Returns (kept ids, {dropped id: the kept id it duplicates})."""
    kept: list[str] = []
    dropped: dict[str, str] = {}
    by_hash: dict[str, str] = {}
    kept_vectors: list[np.ndarray] = []
    kept_with_vector: list[str] = []
    for chunk_id in dict.fromkeys(ids):
        if limit is not None and len(kept) >= limit:
            break
        fingerprint = text_fingerprint(texts.get(chunk_id, ""))
        if fingerprint in by_hash and texts.get(chunk_id):
            dropped[chunk_id] = by_hash[fingerprint]
            continue
        vector = vectors.get(chunk_id) if vectors else None
        if vector is not None and kept_vectors and threshold <= 1.0:
            similarity = np.stack(kept_vectors) @ vector
            best = int(np.argmax(similarity))
            if similarity[best] >= threshold:
                dropped[chunk_id] = kept_with_vector[best]
                continue
        kept.append(chunk_id)
        by_hash.setdefault(fingerprint, chunk_id)
        if vector is not None:
            kept_vectors.append(np.asarray(vector, dtype=np.float32))
            kept_with_vector.append(chunk_id)
    return kept, dropped
