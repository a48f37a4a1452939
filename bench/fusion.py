"""Fusion on collections it was not tuned on: BM25, vector and several ways of fusing them, on every labelled set, for
each embedder, from the same gathered lists (one search per query and method; the fusions are recomputed from them).

    python bench/fusion.py [--embedders bundled,multilingual] [--sets scifact,pydocs,zh,zh-heldout,cross]
                           [--cache DIR] [--json FILE]

The libraries are those bench/multilingual.py builds and caches (the same --cache): run it first. Fusions, each with
the BM25 and vector weights of today's defaults (0.5 each) and each list's first `retrieval.candidates` hits:

    convex-max    today's default: each list's scores divided by its best, summed with the weights
    convex-dist   each score placed within its own list's distribution for the query (mean +- 3 sd)
    rrf-60        reciprocal rank fusion with the usual k = 60
    rrf-5         reciprocal rank fusion with the app's retrieval.rrf_k (5)

BEIR sets (scifact, pydocs) are scored per document (a document ranks where its best chunk ranks), the passage sets
(zh, zh-heldout, cross) per passage, as `courtroom eval` scores them. For each set the table marks whether each
fusion's recall@10 reaches that of the better single list (issue #31 asks it of the default).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.multilingual import BEIR_SETS, PASSAGE_SETS, parser_for, passage_library  # noqa: E402
from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings  # noqa: E402
from courtroom_desktop.core.eval.beir import read_split  # noqa: E402
from courtroom_desktop.core.eval.library import build_beir_library  # noqa: E402
from courtroom_desktop.core.eval.metrics import query_metrics  # noqa: E402
from courtroom_desktop.core.eval.passages import read_labelled, relevant_chunks  # noqa: E402
from courtroom_desktop.core.retrieval import Retriever  # noqa: E402
from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, by_document, fuse  # noqa: E402

FUSIONS = {
    "convex-max": {"fusion": "convex", "score_normalisation": "max"},
    "convex-dist": {"fusion": "convex", "score_normalisation": "dist"},
    "rrf-60": {"fusion": "rrf", "rrf_k": 60.0},
    "rrf-5": {"fusion": "rrf", "rrf_k": 5.0},
}


def _mean(per_query: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(sum(q[k] for q in per_query) / len(per_query), 4) for k in per_query[0]}


def score_set(retriever: Retriever, queries: dict[str, str], relevant: dict[str, dict[str, int]], per_document: bool,
              settings: RetrievalSettings) -> dict[str, dict[str, float]]:
    runs: dict[str, list[dict[str, float]]] = {}
    depth = settings.candidates
    weights = {BM25: settings.bm25_weight, VECTOR: settings.vector_weight}
    for qid, text in queries.items():
        lists = retriever.gather([text], depth)
        ranked = {}
        for method in (BM25, VECTOR):  # each document or passage once, at its best place
            hits = [h for r in lists if r.method == method for h in r.hits]
            ranked[method] = list(dict.fromkeys(h.doc_id if per_document else h.chunk_id for h in hits))
        for name, how in FUSIONS.items():
            fused = fuse(lists, weights, how["fusion"], how.get("rrf_k", settings.rrf_k),
                         normalisation=how.get("score_normalisation", "max"))
            ranked[name] = [d for d, _ in by_document(fused)] if per_document else [f.chunk_id for f in fused]
        for name, order in ranked.items():
            scores = query_metrics(order, relevant[qid])
            scores["hit@1"] = 1.0 if order[:1] and relevant[qid].get(order[0], 0) > 0 else 0.0
            runs.setdefault(name, []).append(scores)
    return {name: _mean(rows) for name, rows in runs.items()}


def main() -> None:
    args = parser_for(__doc__).parse_args()
    settings = RetrievalSettings()
    results: dict = {}
    for embedder in args.embedders.split(","):
        library_settings = LibrarySettings(embedder=embedder)
        cache = Path(args.cache) / embedder
        for name in args.sets.split(","):
            print(f"[{embedder}] {name} ...", file=sys.stderr, flush=True)
            if name in BEIR_SETS:
                library, _ = build_beir_library(BEIR_SETS[name], cache / name, library_settings)
                split = read_split(BEIR_SETS[name], "test")
                queries, relevant, per_document = split.queries, split.qrels, True
            else:
                path, folders = PASSAGE_SETS[name]
                library, _ = passage_library(folders, library_settings, cache)
                labelled = read_labelled(path)
                queries = {q.id: q.query for q in labelled}
                relevant, per_document = relevant_chunks(library, labelled), False
            try:
                results.setdefault(name, {})[embedder] = score_set(Retriever(library, settings, reranker=None),
                                                                   queries, relevant, per_document, settings)
            finally:
                library.close()
    for name, by_embedder in results.items():
        print(f"\n## {name}\n| embedder | list | nDCG@10 | recall@10 | recall@100 | first | recall@10 >= best single |")
        print("|---|---|---:|---:|---:|---:|---|")
        for embedder, rows in by_embedder.items():
            best = max(rows[BM25]["recall@10"], rows[VECTOR]["recall@10"])
            for system, m in rows.items():
                mark = "" if system in (BM25, VECTOR) else ("yes" if m["recall@10"] >= best - 1e-9 else "no")
                print(f"| {embedder} | {system} | {m['ndcg@10']:.3f} | {m['recall@10']:.3f} | {m['recall@100']:.3f} | "
                      f"{m['hit@1']:.3f} | {mark} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
