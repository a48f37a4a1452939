"""Passage-level retrieval evaluation on a labelled PDF set: queries each with the document and a verbatim answer
(a phrase of that document). A chunk is relevant to a query when it holds the answer (whitespace aside); BM25, vector
and hybrid rankings of chunks are scored with nDCG@10, recall@10, MRR@10 and the share of queries whose first passage
holds the answer (hit@1). `courtroom eval passages` prints them; the labelled Chinese set is
tests/retrieval/data/zh_queries.jsonl over resources/samples-zh/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.eval.metrics import query_metrics
from courtroom_desktop.core.eval.retrieval import SystemResult
from courtroom_desktop.core.records import Chunk, Document
from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, fuse
from courtroom_desktop.core.retrieval.retriever import LibraryLike, Retriever

SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class LabelledQuery:
    id: str
    query: str
    doc: str      # the PDF's file name
    answer: str   # a verbatim phrase of that document that answers the query
    kind: str = ""


def read_labelled(path: Path) -> list[LabelledQuery]:
    queries = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            queries.append(LabelledQuery(str(row.get("id", number)), row["query"], row["doc"], row["answer"],
                                         row.get("kind", "")))
        except (ValueError, KeyError) as exc:
            raise ConfigError(f"{path}:{number}: not a labelled query (query, doc, answer): {exc}") from exc
    return queries


def _flat(text: str) -> str:
    return SPACE.sub("", text).casefold()


class PassageLibrary(LibraryLike, Protocol):
    """A library searched for labelled passages: the retriever's, and its documents and their chunks."""

    def documents(self) -> Sequence[Document]: ...

    def doc_chunks(self, doc_id: str) -> list[Chunk]: ...


def relevant_chunks(library: PassageLibrary, queries: Sequence[LabelledQuery]) -> dict[str, dict[str, int]]:
    """Per query, the chunks of its document that hold its answer. A query whose answer no chunk holds whole (split
    between two chunks) counts the chunks that hold its longer half; one that no chunk answers is an error."""
    docs = {Path(d.path).name: d.id for d in library.documents()}
    chunks_of: dict[str, list[Chunk]] = {}
    relevant: dict[str, dict[str, int]] = {}
    for item in queries:
        doc_id = docs.get(item.doc)
        if doc_id is None:
            raise ConfigError(f"query {item.id}: the library has no document named {item.doc!r}")
        chunks = chunks_of.setdefault(doc_id, library.doc_chunks(doc_id))
        answer = _flat(item.answer)
        found = {c.id: 1 for c in chunks if answer in _flat(c.text)}
        if not found:
            half = max(answer[: len(answer) // 2], answer[len(answer) // 2:], key=len)
            found = {c.id: 1 for c in chunks if half in _flat(c.text)}
        if not found:
            raise ConfigError(f"query {item.id}: no passage of {item.doc} holds its answer {item.answer!r}")
        relevant[item.id] = found
    return relevant


def evaluate_passages(library: PassageLibrary, queries: Sequence[LabelledQuery], settings: RetrievalSettings,
                      depth: int = 100, search_k: int = 0) -> list[SystemResult]:
    """BM25, vector and hybrid (as the Retriever fuses them, language rule included) over chunks; with ``search_k``
    also "search": the ``search_k`` passages ``Retriever.search`` returns (what `courtroom search` shows: fusion, then
    the reranker and near-duplicate collapsing). Each has hit@1 and hit@5 (the answering passage first, in the top
    five) beside the ranking metrics."""
    relevant = relevant_chunks(library, queries)
    retriever = Retriever(library, settings, reranker=None)
    weights = {BM25: settings.bm25_weight, VECTOR: settings.vector_weight}
    runs: dict[str, dict[str, list[str]]] = {"bm25": {}, "vector": {}, "hybrid": {}}
    for item in queries:
        lists = retriever.gather([item.query], depth)
        for method in (BM25, VECTOR):
            runs[method][item.id] = [h.chunk_id for r in lists if r.method == method for h in r.hits]
        fused = fuse(lists, weights, settings.fusion, settings.rrf_k, normalisation=settings.score_normalisation)
        runs["hybrid"][item.id] = [f.chunk_id for f in fused]
    if search_k:
        searcher = Retriever(library, settings)
        # a passage shown stands for the near-duplicates collapsed into it: it holds the answer if one of them does
        runs["search"] = {item.id: [next((c for c in (e.chunk.id, *e.duplicates) if c in relevant[item.id]),
                                         e.chunk.id) for e in searcher.search(item.query, k=search_k)]
                          for item in queries}
    results = []
    for name, ranked in runs.items():
        per_query = {}
        for item in queries:
            scores = query_metrics(ranked[item.id], relevant[item.id])
            scores["hit@1"] = 1.0 if ranked[item.id][:1] and ranked[item.id][0] in relevant[item.id] else 0.0
            scores["hit@5"] = 1.0 if relevant[item.id].keys() & set(ranked[item.id][:5]) else 0.0
            per_query[item.id] = scores
        means = {m: sum(q[m] for q in per_query.values()) / len(per_query) for m in next(iter(per_query.values()))}
        results.append(SystemResult(name, means, per_query))
    return results


@dataclass
class PassageRun:
    """`courtroom eval passages`: how many queries, the embedder, the library's build time and each system's figures."""

    queries: int
    embedder: str
    build_seconds: float
    systems: list[SystemResult]


def run_passages(pdfs: Path, queries_path: Path, library_settings: LibrarySettings,
                 retrieval_settings: RetrievalSettings, cache: Path | None = None) -> PassageRun:
    """The PDFs of ``pdfs`` ingested into a library (kept in ``cache``, else in a folder removed afterwards) and BM25,
    vector and hybrid scored on the labelled queries of ``queries_path``."""
    import tempfile
    import time

    from courtroom_desktop.core.library import Library

    queries = read_labelled(queries_path)
    temp = None if cache else tempfile.TemporaryDirectory(prefix="courtroom-passages-")
    root = cache if cache else Path(temp.name if temp else ".")
    try:
        library = Library.open(root, library_settings)
        try:
            began = time.perf_counter()
            library.ingest([pdfs])
            build = time.perf_counter() - began
            systems = evaluate_passages(library, queries, retrieval_settings)
            return PassageRun(len(queries), library.embedder.name, build, systems)
        finally:
            library.close()
    finally:
        if temp is not None:
            temp.cleanup()
