"""Fusing ranked lists: weighted reciprocal rank fusion, and convex fusion of normalised scores.

Every (query, method) pair gives one ranked list of chunk hits. Fusion sums, over all lists, each list's weight
times its contribution for a chunk: ``w / (rrf_k + rank)`` (rank 1-based) for RRF, ``w * normalised score`` for
convex fusion (scores divided by the list's best, or min-max scaled). A chunk found by several queries therefore
collects from each of them, and appears once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from courtroom_desktop.core.lexicon.message import Message

BM25 = "bm25"
VECTOR = "vector"
TRANSLATED = "translated"  # BM25 with the query's words in the other language (core.retrieval.translate): no weight


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    doc_id: str
    score: float
    row_id: int | None = None  # LanceDB's row id when the hit came from the table: a cheaper fetch later


@dataclass(frozen=True)
class RankedList:
    """One method's answer to one query, best first."""

    method: str
    query: str
    hits: tuple[Hit, ...]
    scale: float = 1.0  # times the method's weight: below 1 where the method reads the query's language poorly

    def head(self, depth: int | None) -> RankedList:
        return self if depth is None or len(self.hits) <= depth else RankedList(self.method, self.query,
                                                                                 self.hits[:depth], self.scale)


@dataclass
class Fused:
    """A chunk after fusion: its fused score, and per method its best rank (1-based) and the score there."""

    chunk_id: str
    doc_id: str
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    by_query: dict[str, float] = field(default_factory=dict)  # contribution of each query to ``score``
    row_id: int | None = None

    @property
    def query(self) -> str:
        """The query that contributed most (ties: the one given first)."""
        return max(self.by_query.items(), key=lambda item: item[1])[0] if self.by_query else ""

    @property
    def best_rank(self) -> int:
        return min(self.ranks.values()) if self.ranks else 1 << 30

    def _note(self, method: str, query: str, rank: int, raw: float, gain: float) -> None:
        self.score += gain
        self.by_query[query] = self.by_query.get(query, 0.0) + gain
        if rank < self.ranks.get(method, 1 << 30):
            self.ranks[method] = rank
            self.scores[method] = raw


def _ordered(fused: dict[str, Fused]) -> list[Fused]:
    return sorted(fused.values(), key=lambda f: (-f.score, f.best_rank, f.chunk_id))


def weighted_rrf(lists: Iterable[RankedList], weights: dict[str, float], rrf_k: float = 60.0,
                 depth: int | None = None) -> list[Fused]:
    """Weighted reciprocal rank fusion: score(chunk) = sum over lists of weight[method] / (rrf_k + rank).

    A list whose method has no weight (or weight 0) still records its ranks but adds nothing. Only the first
    ``depth`` hits of each list take part. Ties break by best single rank, then chunk id (deterministic)."""
    fused: dict[str, Fused] = {}
    for ranked in lists:
        weight = float(weights.get(ranked.method, 0.0)) * ranked.scale
        for rank, hit in enumerate(ranked.head(depth).hits, start=1):
            entry = fused.get(hit.chunk_id) or fused.setdefault(hit.chunk_id, Fused(hit.chunk_id, hit.doc_id))
            entry._note(ranked.method, ranked.query, rank, hit.score, weight / (rrf_k + rank))
            if hit.row_id is not None:
                entry.row_id = hit.row_id
    return _ordered(fused)


def normalised(scores: Sequence[float], how: str = "max") -> list[float]:
    """Scores of one list mapped to [0, 1].

    ``max``: divided by the list's best score, with 0 as the floor (BM25 and cosine have 0 as their natural
    minimum: "theoretical min-max"); a score does not depend on how deep the list was fetched, and the last hit
    of a short list keeps its weight. ``minmax``: (s - min) / (max - min) within the list (equal scores map to 1).
    ``max`` falls back to ``minmax`` when the best score is not positive.
    ``dist``: placed within the list's own distribution for this query, (s - (mean - 3 sd)) / (6 sd), clipped to
    [0, 1] (distribution-based score fusion): a hit counts by how far it stands out of its own list, so a list whose
    scores are flat for a query (BM25 matching common words everywhere) lifts its head less than one whose best hits
    stand clear of the rest. Parameter-free; a list of one hit, or of equal scores, maps to 1."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if how == "dist":
        count = len(scores)
        mean = sum(scores) / count
        spread = (sum((s - mean) ** 2 for s in scores) / count) ** 0.5
        if spread <= 1e-12:
            return [1.0] * count
        floor = mean - 3 * spread
        return [min(1.0, max(0.0, (s - floor) / (6 * spread))) for s in scores]
    if how == "max" and high > 1e-12:
        return [max(s, 0.0) / high for s in scores]
    if how not in ("max", "minmax"):
        raise ValueError(Message("unknown score normalisation {how}: use 'max', 'minmax' or 'dist'", f'{how!r}'))
    if high - low <= 1e-12:
        return [1.0] * len(scores)
    return [(s - low) / (high - low) for s in scores]


def convex_fuse(lists: Iterable[RankedList], weights: dict[str, float], depth: int | None = None,
                normalisation: str = "max") -> list[Fused]:
    """Convex combination of normalised scores (see ``normalised``): score(chunk) = sum over lists of
    weight[method] * norm(score); a chunk missing from a list gets 0 from it."""
    fused: dict[str, Fused] = {}
    for ranked in lists:
        weight = float(weights.get(ranked.method, 0.0)) * ranked.scale
        hits = ranked.head(depth).hits
        for rank, (hit, norm) in enumerate(zip(hits, normalised([h.score for h in hits], normalisation)), start=1):
            entry = fused.get(hit.chunk_id) or fused.setdefault(hit.chunk_id, Fused(hit.chunk_id, hit.doc_id))
            entry._note(ranked.method, ranked.query, rank, hit.score, weight * norm)
            if hit.row_id is not None:
                entry.row_id = hit.row_id
    return _ordered(fused)


def fuse(lists: Iterable[RankedList], weights: dict[str, float], method: str = "rrf", rrf_k: float = 60.0,
         depth: int | None = None, normalisation: str = "max") -> list[Fused]:
    if method == "rrf":
        return weighted_rrf(lists, weights, rrf_k, depth)
    if method == "convex":
        return convex_fuse(lists, weights, depth, normalisation)
    raise ValueError(Message("unknown fusion {method}: use 'rrf' or 'convex'", f'{method!r}'))


def by_document(fused: Sequence[Fused]) -> list[tuple[str, float]]:
    """Documents in order of their best chunk (a document's score is the max of its chunks')."""
    seen: dict[str, float] = {}
    for item in fused:
        if item.doc_id not in seen:
            seen[item.doc_id] = item.score
    return list(seen.items())
