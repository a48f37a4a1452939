"""Retrieval evaluation over a BEIR-layout folder: nDCG@10, recall@10, recall@100 and MRR@10 at document level
for BM25, vector, hybrid, and hybrid followed by each configured reranker.

Chunk hits count for their document (a document ranks where its best chunk ranks). Each system is exactly what
``Retriever`` does with the given settings: the single-method rows are that method's list alone (the same
query parsing, field boosts and ANN settings), the hybrid row the fused list, the reranked rows the fused list
whose head (``rerank_depth`` chunks) the reranker reorders.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.eval.beir import QuerySet
from courtroom_desktop.core.eval.metrics import METRICS, mean_metrics, query_metrics
from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, RankedList, by_document, fuse
from courtroom_desktop.core.retrieval.rerank import Reranker, make_reranker
from courtroom_desktop.core.retrieval.retriever import LibraryLike, Retriever

if TYPE_CHECKING:
    from courtroom_desktop.core.eval.tune import TuneResult

SINGLE_DEPTH = 300  # chunks of each single-method list, enough for 100 documents


@dataclass
class SystemResult:
    name: str
    metrics: dict[str, float]
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass
class EvalReport:
    dataset: str
    split: str
    queries: int
    documents: int
    chunks: int
    settings: RetrievalSettings
    systems: list[SystemResult]
    build_seconds: float = 0.0

    def table(self) -> str:
        """A Markdown table, one row per system."""
        head = "| system | " + " | ".join(METRICS) + " |"
        rule = "|---|" + "---:|" * len(METRICS)
        rows = [f"| {s.name} | " + " | ".join(f"{s.metrics[m]:.3f}" for m in METRICS) + " |" for s in self.systems]
        return "\n".join([head, rule, *rows])


def doc_ranking(lists: Sequence[RankedList]) -> list[str]:
    """A single method's documents, best chunk first (lists of several queries: fused as RRF)."""
    if len(lists) == 1:
        return list(dict.fromkeys(h.doc_id for h in lists[0].hits))
    return [d for d, _ in by_document(fuse(lists, {lists[0].method: 1.0}, "rrf"))]


def gather_all(retriever: Retriever, queries: dict[str, str], depth: int,
               on_progress: Callable[[int, int], None] | None = None) -> dict[str, list[RankedList]]:
    """Per query id, its BM25 and vector lists at ``depth``."""
    result = {}
    for index, (qid, text) in enumerate(queries.items(), 1):
        result[qid] = retriever.gather([text], depth)
        if on_progress:
            on_progress(index, len(queries))
    return result


def evaluate(library: LibraryLike, queryset: QuerySet, settings: RetrievalSettings, rerankers: Sequence[str] = ("mmr",),
             on_progress: Callable[[str, int, int], None] | None = None) -> list[SystemResult]:
    """Score bm25, vector, hybrid and hybrid+<reranker> for each reranker named ('mmr' or a cross-encoder
    folder) on ``queryset``."""
    retriever = Retriever(library, settings, reranker=None)
    depth = max(settings.candidates, SINGLE_DEPTH)
    began = time.perf_counter()
    lists = gather_all(retriever, queryset.queries, depth,
                       (lambda i, n: on_progress("search", i, n)) if on_progress else None)
    gather_seconds = time.perf_counter() - began
    weights = {BM25: settings.bm25_weight, VECTOR: settings.vector_weight}
    systems: dict[str, dict[str, list[str]]] = {"bm25": {}, "vector": {}, "hybrid": {}}
    fused_by_query = {}
    for qid, ranked in lists.items():
        for method in (BM25, VECTOR):
            own = [r for r in ranked if r.method == method]
            systems[method][qid] = doc_ranking(own) if own else []
        fused = fuse([r.head(settings.candidates) for r in ranked], weights, settings.fusion, settings.rrf_k,
                     normalisation=settings.score_normalisation)
        fused_by_query[qid] = fused
        systems["hybrid"][qid] = [d for d, _ in by_document(fused)]
    results = [_score(name, runs, queryset) for name, runs in systems.items()]
    for result in results:
        result.seconds = gather_seconds
    for spec in rerankers:
        reranker: Reranker | None = make_reranker(spec, settings.mmr_lambda)
        if reranker is None:
            continue
        rerank_retriever = Retriever(library, settings, reranker=reranker)
        began = time.perf_counter()
        runs = {}
        for index, (qid, fused) in enumerate(fused_by_query.items(), 1):
            head = rerank_retriever.finalize(fused, settings.rerank_depth)
            order = [e.chunk.doc_id for e in head]
            chosen = {e.chunk.id for e in head} | {d for e in head for d in e.duplicates}
            order += [f.doc_id for f in fused if f.chunk_id not in chosen]
            runs[qid] = list(dict.fromkeys(order))
            if on_progress:
                on_progress(reranker.name, index, len(fused_by_query))
        result = _score(f"hybrid+{reranker.name}", runs, queryset)
        result.seconds = time.perf_counter() - began
        results.append(result)
    return results


def _score(name: str, runs: dict[str, list[str]], queryset: QuerySet) -> SystemResult:
    per_query = {qid: query_metrics(runs.get(qid, []), queryset.qrels[qid]) for qid in queryset.queries}
    return SystemResult(name, mean_metrics(list(per_query.values())), per_query)


@dataclass
class RetrievalRun:
    """`courtroom eval retrieval`'s whole run: the report, the tuning when asked (``tuned``), and the tuning claims left
    out because they are also queries of the split scored (``left_out``: their ids)."""

    report: EvalReport
    tuned: TuneResult | None = None
    left_out: list[str] = field(default_factory=list)


def run_retrieval(beir: Path, split: str, settings: RetrievalSettings, library_settings: LibrarySettings,
                  rerankers: Sequence[str], cache: Path, limit: int | None = None, tune_on: Path | None = None,
                  log: Callable[[str], None] = lambda line: None,
                  status: Callable[[str], None] = lambda line: None) -> RetrievalRun:
    """A BEIR folder's corpus built into a library at ``cache`` (or reused), fusion tuned on ``tune_on``'s claims when
    given (those that are also queries of ``split`` left out), then every system scored on ``split`` (``limit``
    queries at most). ``log``: lines a person reads; ``status``: the step under way."""
    from courtroom_desktop.core.errors import ConfigError
    from courtroom_desktop.core.eval.beir import read_claims, read_split
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.eval.tune import tune

    queryset = read_split(beir, split).limited(limit)
    status("building the library from corpus.jsonl (embedding every passage) ...")
    library, build_seconds = build_beir_library(
        beir, cache, library_settings,
        on_progress=lambda docs, chunks: status(f"building the library: {docs} documents, {chunks} chunks embedded"))
    log(f"built the library in {build_seconds:.0f} s (in {cache})" if build_seconds
        else f"reusing the library cached in {cache}")
    try:
        tuned: TuneResult | None = None
        left_out: list[str] = []
        if tune_on is not None:
            train, left_out = read_claims(tune_on).without(queryset)
            if left_out:
                log(f"left out {len(left_out)} of its queries that are also in the {split} split "
                    f"(ids {', '.join(left_out)}): tuning on them would report a tuned-on-test figure")
            if not train.queries:
                raise ConfigError(f"{tune_on}: every query is also in the {split} split: nothing to tune on",
                                  fix="tune on claims of another split")
            status(f"tuning fusion on {len(train.queries)} queries of {train.name} ...")
            tuned = tune(library, train, settings)
            settings = tuned.settings
            log(f"tuned on {train.name}: {tuned.describe()}")
        status(f"scoring {len(queryset.queries)} queries ...")
        systems = evaluate(library, queryset, settings, rerankers,
                           on_progress=lambda what, i, n: status(f"{what}: {i}/{n} queries"))
        report = EvalReport(dataset=beir.name, split=split, queries=len(queryset.queries),
                            documents=len(library.ready_ids()), chunks=library.vectors.count(), settings=settings,
                            systems=systems, build_seconds=build_seconds)
    finally:
        library.close()
    return RetrievalRun(report, tuned, left_out)
