"""Tuning retrieval settings on labelled queries (never the ones reported): a coordinate-wise grid search.

Stage 1, BM25 query side: field boosts of section and title against the text, and whether hyphenated compounds
are phrases; each candidate is scored as hybrid with the base fusion.
Stage 2, fusion: RRF (rrf_k x BM25 weight) and convex fusion (BM25 weight, the vector weight being 1 - that;
scores divided by the list's best or min-max scaled), each at several candidate depths. The objective is
document-level nDCG@10, ties going to recall@100; within a small tolerance of the best, fewer candidates win
(they make every search faster). Two rounds by default, so
the field boosts are chosen again under the chosen fusion.

Query embeddings and vector lists are computed once; BM25 lists once per stage-1 candidate; fusion runs in
memory, so a full grid over ~800 queries takes a few minutes on two cores.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from courtroom_desktop.core.config import RetrievalSettings
from courtroom_desktop.core.eval.beir import Qrels, QuerySet
from courtroom_desktop.core.eval.metrics import mean_metrics, query_metrics
from courtroom_desktop.core.library.embed.embedder import encode_queries
from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, RankedList, normalised
from courtroom_desktop.core.retrieval.retriever import LibraryLike, Retriever

#: One trial's settings (field -> value) and the stage that tried them ('stage': '1.fields').
Params = dict[str, float | str | bool]


@dataclass(frozen=True)
class Grid:
    # (section_boost, title_boost) with text_boost 1
    field_boosts: tuple[tuple[float, float], ...] = ((1.0, 1.0), (0.5, 0.5), (0.25, 0.25), (0.125, 0.125),
                                                     (0.0, 0.5), (0.0, 0.0))
    compound_phrases: tuple[bool, ...] = (True, False)
    rrf_k: tuple[float, ...] = (2, 5, 10, 20, 60)
    rrf_bm25_weight: tuple[float, ...] = (0.8, 1.0, 1.2, 1.5)
    convex_bm25_weight: tuple[float, ...] = (0.3, 0.4, 0.5, 0.6, 0.7)
    normalisation: tuple[str, ...] = ("max", "minmax")
    candidates: tuple[int, ...] = (50, 100, 200)


@dataclass
class Trial:
    params: Params
    ndcg: float
    recall100: float

    def key(self) -> tuple[float, float]:
        return (round(self.ndcg, 6), round(self.recall100, 6))


@dataclass
class TuneResult:
    settings: RetrievalSettings
    queries: int
    baseline: dict[str, float]
    best: dict[str, float]
    trials: list[Trial] = field(default_factory=list)
    seconds: float = 0.0

    def changed(self, base: RetrievalSettings) -> dict[str, object]:
        return {k: v for k, v in self.settings.model_dump().items() if base.model_dump().get(k) != v}

    def describe(self) -> str:
        return (f"nDCG@10 {self.baseline['ndcg@10']:.4f} -> {self.best['ndcg@10']:.4f}, recall@100 "
                f"{self.baseline['recall@100']:.4f} -> {self.best['recall@100']:.4f} on {self.queries} queries; "
                + ", ".join(f"{k}={getattr(self.settings, k)}" for k in TUNED))

    def summary(self) -> dict[str, object]:
        return {"queries": self.queries, "baseline": self.baseline, "best": self.best,
                "settings": {k: getattr(self.settings, k) for k in TUNED}, "seconds": round(self.seconds, 1)}


TUNED = ("section_boost", "title_boost", "compound_phrases", "fusion", "score_normalisation", "rrf_k", "bm25_weight",
         "vector_weight", "candidates")


class Prepared:
    """One query's lists (at most one per method) as arrays, so that a fusion setting scores in microseconds.
    ``ranking`` gives exactly what ``fuse`` followed by ``by_document`` gives (same arithmetic, same tie-breaks)."""

    def __init__(self, lists: Sequence[RankedList]):
        index: dict[str, int] = {}
        docs: list[str] = []
        for ranked in lists:
            for hit in ranked.hits:
                if hit.chunk_id not in index:
                    index[hit.chunk_id] = len(docs)
                    docs.append(hit.doc_id)
        count = len(docs)
        self.methods: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for ranked in lists:
            if ranked.method in self.methods:
                raise ValueError("Prepared takes one list per method")
            ranks = np.zeros(count, dtype=np.int64)
            scores = np.zeros(count, dtype=np.float64)
            for rank, hit in enumerate(ranked.hits, start=1):
                ranks[index[hit.chunk_id]] = rank
                scores[index[hit.chunk_id]] = hit.score
            self.methods[ranked.method] = (ranks, scores)
        names = np.array(list(index), dtype=object)
        self.tiebreak = np.argsort(np.argsort(names.astype(str))) if count else np.zeros(0, dtype=np.int64)
        self.doc_names = list(dict.fromkeys(docs))
        position = {d: i for i, d in enumerate(self.doc_names)}
        self.docs = np.array([position[d] for d in docs], dtype=np.int64)

    def ranking(self, settings: RetrievalSettings) -> list[str]:
        weights = {BM25: settings.bm25_weight, VECTOR: settings.vector_weight}
        total = np.zeros(len(self.docs))
        best = np.full(len(self.docs), 1 << 30, dtype=np.int64)
        present = np.zeros(len(self.docs), dtype=bool)
        for method, (ranks, scores) in self.methods.items():
            inside = (ranks > 0) & (ranks <= settings.candidates)
            if not inside.any():
                continue
            weight = float(weights.get(method, 0.0))
            if settings.fusion == "rrf":
                gain = np.where(inside, weight / (settings.rrf_k + np.maximum(ranks, 1)), 0.0)
            else:  # the list's scores normalised as fuse() normalises them (the list is the hits inside)
                norm = np.zeros_like(scores)
                norm[inside] = normalised(scores[inside].tolist(), settings.score_normalisation)
                gain = weight * norm
            total = total + gain
            best = np.where(inside, np.minimum(best, ranks), best)
            present |= inside
        chosen = np.flatnonzero(present)
        order = chosen[np.lexsort((self.tiebreak[chosen], best[chosen], -total[chosen]))]
        docs = self.docs[order]
        _, first = np.unique(docs, return_index=True)
        return [self.doc_names[d] for d in docs[np.sort(first)]]


def _score(prepared: dict[str, Prepared], qrels: Qrels, settings: RetrievalSettings) -> dict[str, float]:
    return mean_metrics([query_metrics(p.ranking(settings), qrels[qid]) for qid, p in prepared.items()])


def tune(library: LibraryLike, queryset: QuerySet, base: RetrievalSettings, grid: Grid | None = None,
         on_progress: Callable[[str], None] | None = None, rounds: int = 2, tolerance: float = 0.002) -> TuneResult:
    """Grid-search ``base`` on ``queryset``: ``rounds`` passes of (BM25 fields, then fusion). In the fusion stage
    the setting with the fewest candidates among those within ``tolerance`` nDCG@10 of the best wins."""
    grid = grid or Grid()
    say = on_progress or (lambda message: None)
    began = time.perf_counter()
    depth = max(grid.candidates)
    ids = list(queryset.queries)
    texts = [queryset.queries[q] for q in ids]
    say(f"embedding {len(texts)} queries")
    vectors = encode_queries(library.embedder, texts)
    retriever = Retriever(library, base, reranker=None)
    vector_lists = {qid: retriever.gather([text], depth, methods=(VECTOR,), vectors=vectors[i:i + 1])
                    for i, (qid, text) in enumerate(zip(ids, texts))}

    def bm25_lists(settings: RetrievalSettings) -> dict[str, Prepared]:
        searcher = Retriever(library, settings, reranker=None)
        return {qid: Prepared(searcher.gather([text], depth, methods=(BM25,)) + vector_lists[qid])
                for qid, text in zip(ids, texts)}

    trials: list[Trial] = []

    def attempt(settings: RetrievalSettings, lists: dict[str, Prepared], params: Params) -> Trial:
        metrics = _score(lists, queryset.qrels, settings)
        trial = Trial(params, metrics["ndcg@10"], metrics["recall@100"])
        trials.append(trial)
        return trial

    base_lists = bm25_lists(base)
    baseline = _score(base_lists, queryset.qrels, base)
    options: list[Params] = []
    for k, weight, candidates in itertools.product(grid.rrf_k, grid.rrf_bm25_weight, grid.candidates):
        options.append({"fusion": "rrf", "rrf_k": float(k), "bm25_weight": weight, "vector_weight": 1.0,
                        "candidates": candidates})
    for weight, candidates, how in itertools.product(grid.convex_bm25_weight, grid.candidates, grid.normalisation):
        options.append({"fusion": "convex", "bm25_weight": weight, "vector_weight": round(1.0 - weight, 6),
                        "candidates": candidates, "score_normalisation": how})
    fields = list(itertools.product(grid.field_boosts, grid.compound_phrases))
    lists_cache: dict[tuple[float, float, bool], dict[str, Prepared]] = {}
    current = base
    chosen_lists = base_lists
    for round_number in range(1, rounds + 1):
        # stage 1: the BM25 side, scored as hybrid with the current fusion
        best: tuple[Trial, RetrievalSettings] | None = None
        for (section, title), compound in fields:
            params: Params = {"section_boost": section, "title_boost": title, "compound_phrases": compound}
            settings = current.model_copy(update=params)
            key = (section, title, compound)
            if key not in lists_cache:
                say(f"round {round_number}: BM25 fields: section {section}, title {title}, compound phrases {compound}")
                lists_cache[key] = bm25_lists(settings)
            trial = attempt(settings, lists_cache[key], {**params, "stage": f"{round_number}.fields"})
            if best is None or trial.key() > best[0].key():
                best = (trial, settings)
        assert best is not None  # the grid has at least one field setting
        current = best[1]
        chosen_lists = lists_cache[(current.section_boost, current.title_boost, current.compound_phrases)]
        # stage 2: fusion; among the trials within ``tolerance`` of the best, the fewest candidates (faster)
        scored: list[tuple[Trial, RetrievalSettings]] = []
        for index, option in enumerate(options, 1):
            if index % 20 == 1:
                say(f"round {round_number}: fusion {index}/{len(options)}")
            settings = current.model_copy(update=option)
            scored.append((attempt(settings, chosen_lists, {**option, "stage": f"{round_number}.fusion"}), settings))
        top = max(t.ndcg for t, _ in scored)
        near = [(t, st) for t, st in scored if t.ndcg >= top - tolerance]
        current = max(near, key=lambda item: (-item[1].candidates, item[0].key()))[1]
    tuned = current
    best_metrics = _score(chosen_lists, queryset.qrels, tuned)
    return TuneResult(settings=RetrievalSettings.model_validate(tuned.model_dump()), queries=len(ids),
                      baseline=baseline, best=best_metrics, trials=trials, seconds=time.perf_counter() - began)


def top_trials(result: TuneResult, count: int = 10, where: Callable[[Trial], bool] | None = None) -> Sequence[Trial]:
    chosen = [t for t in result.trials if where is None or where(t)]
    unique: dict[str, Trial] = {}
    for trial in sorted(chosen, key=lambda t: t.key(), reverse=True):  # a setting tried in both rounds: once
        unique.setdefault(repr(sorted((k, v) for k, v in trial.params.items() if k != "stage")), trial)
    return list(unique.values())[:count]
