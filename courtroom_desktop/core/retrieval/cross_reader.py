"""The reader that picks the other-language passage a search shows (``retrieval.cross_language_reader``).

In a library of English and Chinese passages, a search also looks for the best passage in the other language and
places it at ``cross_language_slot`` (``retriever.Retriever._place_other_language``). The candidates come from BM25
over the query's words translated by the dictionary (``translate.py``) and from the query's own lists; which one is
"best" was the translated list's order, which a dictionary's senses mislead ("court" has 75 Chinese headwords).
This reader reads the query and each candidate with the bundled Universal Sentence Encoder multilingual
(``core.library.embed.usem``: trained to match a sentence with its translation) and picks the candidate closest to
the query, whatever embedder the library itself uses: the library keeps its vectors (MiniLM by default) and only
the few candidates of a search are read again, their vectors kept for the next search.

    reader = CrossReader()                      # nothing loads until the first call
    reader.scores(["Who rules each round?"], {"c1": "法官在每一轮...", "c2": "..."})   # chunk id -> best cosine

A reader whose package is missing raises ``ConfigError`` on its first call; the retriever then falls back to the
translated list's order and says so in the log, once (as for any other failure of the reader: it only adds a place).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from courtroom_desktop.core.library.embed.usem import UseEmbedder

#: Passage vectors kept between searches (a trial searches the same candidates round after round): 512 floats each
CACHE = 4096


class CrossReader:
    """Scores passages against queries with the Universal Sentence Encoder multilingual. Thread-safe."""

    def __init__(self, cache: int = CACHE):
        self._model: UseEmbedder | None = None
        self._cache: OrderedDict[tuple[str, int], np.ndarray] = OrderedDict()
        self._size = cache
        self._lock = threading.Lock()

    def _embedder(self) -> UseEmbedder:
        with self._lock:  # two searches at once share one model
            if self._model is None:
                from courtroom_desktop.core.library.embed.usem import UseEmbedder

                self._model = UseEmbedder(batch=16)
            return self._model

    def scores(self, queries: Sequence[str], passages: Mapping[str, str]) -> dict[str, float]:
        """chunk id -> the highest cosine between its text and any of ``queries``."""
        if not queries or not passages:
            return {}
        model = self._embedder()
        keys = {cid: (cid, hash(text)) for cid, text in passages.items()}
        with self._lock:
            rows = {cid: self._cache[key] for cid, key in keys.items() if key in self._cache}
        missing = [cid for cid in passages if cid not in rows]
        if missing:
            rows.update(zip(missing, model.encode([passages[cid] for cid in missing])))
            with self._lock:
                for cid in missing:
                    self._cache[keys[cid]] = rows[cid]
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        asked = model.encode(list(queries))
        matrix = np.stack([rows[cid] for cid in passages])
        best = (matrix @ asked.T).max(axis=1)
        return {cid: float(score) for cid, score in zip(passages, best)}


_shared: CrossReader | None = None
_shared_lock = threading.Lock()


def shared_reader() -> CrossReader:
    """One reader per process (its model and its cache serve every library and retriever)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = CrossReader()
        return _shared
