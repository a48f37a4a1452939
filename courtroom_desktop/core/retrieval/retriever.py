"""The hybrid retriever: BM25 (tantivy) and vector search (LanceDB) per query, weighted fusion, dedup, rerank.

    search(queries, k, scope)
      1. each query -> a lenient BM25 query and an embedding (all queries embedded in one batch)
      2. per query: BM25 top ``candidates`` and vector top ``candidates`` (ANN once the table is large), both
         restricted to the scope; hits of documents that are not ``ready`` are dropped
      3. all (query, method) lists fused (weighted RRF by default); one entry per chunk; in a library of English and
         Chinese passages, the best passage found by the query's words in the other language (``core.retrieval.
         translate``) is placed at ``cross_language_slot``
      4. the head of the fused list (``rerank_depth``) fetched with vectors in one indexed lookup,
         near-duplicates collapsed (text hash, cosine >= ``dedup_similarity``), optionally reranked (MMR or a
         cross-encoder), cut to k -> Evidence with per-method ranks and scores and the query that found it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np

from courtroom_desktop.core.config import RetrievalSettings
from courtroom_desktop.core.errors import CourtroomError, LibraryError, RetrievalError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.embed.embedder import embedding_text, encode_queries
from courtroom_desktop.core.library.store.text_index import GRAMS_FIELD
from courtroom_desktop.core.records import Chunk, Document, Evidence
from courtroom_desktop.core.retrieval.dedup import dedup
from courtroom_desktop.core.retrieval.fusion import BM25, TRANSLATED, VECTOR, Fused, Hit, RankedList, fuse
from courtroom_desktop.core.retrieval.query import build_text_query
from courtroom_desktop.core.retrieval.rerank import Candidate, Reranker, make_reranker
from courtroom_desktop.core.retrieval.scope import Scope
from courtroom_desktop.core.retrieval.translate import lexicon, target_language, translate, written_in
from courtroom_desktop.core.text import language_of

if TYPE_CHECKING:
    import tantivy

log = logging.getLogger(__name__)
HAS_WORD = re.compile(r"\w", re.UNICODE)
# the commonest Chinese characters: an index whose text holds none of them holds no Chinese passage to translate into
COMMON_HAN = "的是一在不了有和人这"
_index_builds: dict[str, threading.Thread] = {}
_index_lock = threading.Lock()
_threads_lock = threading.Lock()
_threads_users = 0
_threads_saved = 0


# ---------------------------------------------------------------- what the retriever uses of a library
# ``core.library.Library`` has all of it; tests may hand in anything that has it too.

class CatalogLike(Protocol):
    def private_ids(self, ids: Iterable[str]) -> frozenset[str]:
        """Which of these documents are private (read now: flags change mid-trial)."""
        ...

    def get(self, doc_id: str) -> Document | None: ...

    def sources(self, doc_ids: Iterable[str] | None = None) -> dict[str, str]:
        """Document id -> the source record (JSON) of the reference manager it came from (core.library.zotero)."""
        ...


class VectorsLike(Protocol):
    """The LanceDB chunk table (``core.library.store.vectors.VectorStore``)."""

    @property
    def folder(self) -> Path | str: ...

    def count(self) -> int: ...

    def has_vector_index(self) -> bool: ...

    def ensure_indices(self, vector_min_rows: int, index_type: str = ..., *,
                       num_partitions: int | None = None) -> list[str]: ...

    def ids_where(self, where: str) -> list[tuple[str, str, str]]:
        """(chunk id, document id, section path) of every chunk the LanceDB SQL filter matches."""
        ...

    def vector_search(self, vector: np.ndarray, limit: int, *, where: str | None = None, ef: int | None = None,
                      refine_factor: int | None = None,
                      row_ids: dict[str, int] | None = None) -> list[tuple[str, str, float]]:
        """(chunk id, document id, cosine), best first; ``row_ids`` receives each hit's row id."""
        ...

    def fetch(self, ids: list[str], vectors: bool = True,
              row_ids: dict[str, int] | None = None) -> dict[str, tuple[Chunk, np.ndarray | None]]: ...


class TextIndexLike(Protocol):
    """The tantivy BM25 index (``core.library.store.text_index.TextIndex``)."""

    @property
    def index(self) -> tantivy.Index: ...

    def search(self, query: tantivy.Query, limit: int, doc_ids: set[str] | None = None,
               chunk_ids: set[str] | None = None) -> list[tuple[str, str, float]]:
        """(chunk id, document id, score), best first."""
        ...


class EmbedderLike(Protocol):
    """Embeds the queries (it may also have ``encode_queries`` for an asymmetric model, ``covers(text) -> bool`` and
    ``backend``: read when present)."""

    def encode(self, texts: list[str]) -> np.ndarray: ...


class LibraryLike(Protocol):
    """What the retriever searches: a ``core.library.Library``."""

    @property
    def catalog(self) -> CatalogLike: ...

    @property
    def vectors(self) -> VectorsLike: ...

    @property
    def search_vectors(self) -> VectorsLike:
        """The table searches read: the chunk table, or a shared library's local replica of it."""
        ...

    @property
    def text_index(self) -> TextIndexLike: ...

    @property
    def embedder(self) -> EmbedderLike: ...

    def ready_ids(self) -> set[str]:
        """The ids of the documents that are ready (a fresh set: the caller may change it)."""
        ...


@contextmanager
def torch_threads(count: int, embedder: object = None) -> Iterator[None]:
    """Run torch with ``count`` intra-op threads inside the block (0: leave it alone). Embedding one short query
    does not gain from a second thread, and when the cores are busy (a local chat model, another search, an
    ingest) torch's threads wait on each other: on two shared cores one query took 180-350 ms with two threads
    and about 20 ms with one. Nested and concurrent users share one setting; the last one out restores it.
    Torch is not imported for it unless it is loaded already or ``embedder`` runs on it: the ONNX backends run each
    text on one thread of their own, and a search should not pay for importing torch."""
    global _threads_users, _threads_saved
    if count <= 0 or ("torch" not in sys.modules and getattr(embedder, "backend", None) != "torch"):
        yield
        return
    import torch

    with _threads_lock:
        if _threads_users == 0:
            _threads_saved = torch.get_num_threads()
            if _threads_saved != count:
                torch.set_num_threads(count)
        _threads_users += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_users -= 1
            if _threads_users == 0 and torch.get_num_threads() != _threads_saved:
                torch.set_num_threads(_threads_saved)


def _best(scores: dict[str, float], fused: list[Fused]) -> str | None:
    """The highest-scoring chunk of ``scores`` that is in ``fused`` (ties: the one ranked higher there)."""
    position = {f.chunk_id: i for i, f in enumerate(fused)}
    return max((c for c in scores if c in position), key=lambda c: (scores[c], -position[c]), default=None)


def _move(fused: list[Fused], chunk_id: str | None, slot: int) -> None:
    """Move ``chunk_id`` up to ``slot`` (1-based) of ``fused`` unless it ranks there or higher already."""
    if chunk_id is None:
        return
    at = next(i for i, f in enumerate(fused) if f.chunk_id == chunk_id)
    if at >= slot:
        fused.insert(slot - 1, fused.pop(at))


def _with_heading(chunk: Chunk) -> str:
    return f"{chunk.section_path} {chunk.text}"


def clean_queries(queries: str | Sequence[str] | None, max_chars: int = 2000) -> list[str]:
    """Strip, drop blanks and repeats (case-insensitively), cut runaway text to ``max_chars``."""
    if queries is None:
        return []
    if isinstance(queries, str):
        queries = [queries]
    seen: set[str] = set()
    result = []
    for query in queries:
        text = " ".join(str(query or "").split())[:max_chars]
        key = text.casefold()
        if text and key not in seen:
            seen.add(key)
            result.append(text)
    return result


class Retriever:
    def __init__(self, library: LibraryLike, settings: RetrievalSettings | None = None,
                 reranker: Reranker | None | Literal["settings"] = "settings"):
        """``reranker``: 'settings' (default) builds the one ``settings.reranker`` names; or pass one (or None)."""
        self.library = library
        self.settings = settings or RetrievalSettings()
        self._reranker: Reranker | None = make_reranker(self.settings.reranker, self.settings.mmr_lambda) \
            if reranker == "settings" else reranker
        self._index_checked = 0.0
        self.timings: dict[str, float] = {}
        # why the latest search ran on BM25 alone ('' when it had its vectors): the embedder could not embed the
        # queries (an embedding endpoint down, hanging or answering garbage); callers show it as a warning
        self.vector_problem = ""
        self._reader_warned = False  # the cross-language reader's failure is logged once

    # ---------------------------------------------------------------- public
    @property
    def reranker(self) -> Reranker | None:
        return self._reranker

    def search(self, queries: str | Sequence[str], k: int | None = None, scope: Scope | None = None) -> list[Evidence]:
        """The best ``k`` passages for the queries together, best first. Blocking; see ``asearch``."""
        k = int(k or self.settings.k)
        queries = clean_queries(queries)
        if not queries or k <= 0:
            return []
        try:
            fused = self.rank(queries, scope)
            return self.finalize(fused, k)
        except CourtroomError:
            raise
        except Exception as exc:  # lancedb / tantivy / torch errors become one error type
            raise RetrievalError(Message("search failed: {exc}", exc)) from exc

    async def asearch(self, queries: str | Sequence[str], k: int | None = None,
                      scope: Scope | None = None) -> list[Evidence]:
        return await asyncio.to_thread(self.search, queries, k, scope)

    def rank(self, queries: Sequence[str], scope: Scope | None = None, depth: int | None = None) -> list[Fused]:
        """Every fused candidate (before dedup and reranking), best first."""
        settings = self.settings
        methods = (BM25, VECTOR, TRANSLATED) if settings.cross_language_slot else (BM25, VECTOR)
        lists = self.gather(clean_queries(queries), depth or settings.candidates, scope, methods=methods)
        weights = {BM25: settings.bm25_weight, VECTOR: settings.vector_weight}  # the translated lists add nothing...
        fused = fuse(lists, weights, settings.fusion, settings.rrf_k, normalisation=settings.score_normalisation)
        return self._place_other_language(fused, lists)  # ...but give the other language one place

    def gather(self, queries: Sequence[str], depth: int, scope: Scope | None = None,
               methods: tuple[str, ...] = (BM25, VECTOR), vectors: np.ndarray | None = None) -> list[RankedList]:
        """Per query, the BM25 and the vector list (``depth`` hits each, within the scope, ready documents only), and
        with ``TRANSLATED`` in ``methods`` the BM25 list of its words in the other language where the library may hold
        that language. ``vectors``: the queries' embeddings when already computed (one row per query)."""
        scope = scope or Scope.all()
        library = self.library
        self.vector_problem = ""
        self._maybe_index()
        timings: dict[str, float] = {}
        began = time.perf_counter()
        ready = library.ready_ids()
        if not scope.private:  # a trial whose text goes to another machine (core.privacy): flags read now
            ready -= library.catalog.private_ids(ready)
        doc_filter = scope.doc_ids
        chunk_filter: set[str] | None = None
        where = scope.sql()
        if scope.sections and where is not None:  # sections always make a filter
            chunk_filter = {cid for cid, did, path in library.search_vectors.ids_where(where)
                            if did in ready and scope.allows_section(path)}
        timings["scope"] = time.perf_counter() - began
        lists: list[RankedList] = []
        if BM25 in methods:
            began = time.perf_counter()
            for query in queries:
                lists.append(RankedList(BM25, query, self._bm25(query, depth, doc_filter, chunk_filter, ready)))
            timings["bm25"] = time.perf_counter() - began
        if TRANSLATED in methods:
            began = time.perf_counter()
            for query in queries:
                hits = self._translated(query, depth, doc_filter, chunk_filter, ready)
                if hits:
                    lists.append(RankedList(TRANSLATED, query, hits))
            timings["translated"] = time.perf_counter() - began
        if VECTOR in methods:
            wanted = [i for i, q in enumerate(queries) if HAS_WORD.search(q)]
            semantic = [queries[i] for i in wanted]
            began = time.perf_counter()
            if vectors is not None:
                vectors = np.asarray(vectors, dtype=np.float32)[wanted]
            elif semantic:
                try:
                    with torch_threads(self.settings.query_threads, library.embedder):
                        vectors = encode_queries(library.embedder, semantic)
                except LibraryError as exc:
                    if BM25 not in methods:
                        raise
                    # the embedder failed (its server is down, hangs or answers garbage): the search goes on with
                    # BM25 alone, and says so, rather than giving the user nothing
                    self.vector_problem = str(exc)
                    log.warning("vector search skipped, BM25 only: %s", exc)
                    semantic, vectors = [], np.zeros((0, 1), dtype=np.float32)
            else:
                vectors = np.zeros((0, 1), dtype=np.float32)
            timings["embed"] = time.perf_counter() - began
            began = time.perf_counter()
            covers = getattr(library.embedder, "covers", lambda text: True)
            for query, vector in zip(semantic, vectors):
                if not covers(query):  # the embedder does not read its language: BM25 carries the ranking
                    scale = self.settings.uncovered_vector_weight
                elif language_of(query) != "en":  # it reads Chinese, Japanese or Korean; segmented BM25 is stronger
                    scale = self.settings.cjk_vector_scale
                else:
                    scale = 1.0
                lists.append(RankedList(VECTOR, query, self._vector(vector, depth, where, ready), scale))
            timings["vector"] = time.perf_counter() - began
        self.timings = timings
        return lists

    def prepare_index(self) -> list[str]:
        """Create the indexes the table's size calls for now (blocking). Returns what was created."""
        settings = self.settings
        return self.library.vectors.ensure_indices(settings.ann_min_rows, settings.ann_index,
                                                   num_partitions=settings.ann_partitions or None)

    # ---------------------------------------------------------------- steps
    def _bm25(self, query: str, depth: int, doc_filter: frozenset[str] | None, chunk_filter: set[str] | None,
              ready: set[str]) -> tuple[Hit, ...]:
        settings = self.settings
        text_index = self.library.text_index
        parsed = build_text_query(text_index.index, query,
                                  {"text": settings.text_boost, "section": settings.section_boost,
                                   "title": settings.title_boost},
                                  max_terms=settings.max_query_terms, stopwords=settings.bm25_stopwords,
                                  compound_phrases=settings.compound_phrases)
        if parsed is None:
            return ()
        hits = text_index.search(parsed, depth, doc_ids=set(doc_filter) if doc_filter is not None else None,
                                 chunk_ids=chunk_filter)
        return tuple(Hit(cid, did, score) for cid, did, score in hits if did in ready)

    def _translated(self, query: str, depth: int, doc_filter: frozenset[str] | None, chunk_filter: set[str] | None,
                    ready: set[str]) -> tuple[Hit, ...]:
        """BM25 hits of the query's words in the other language (``core.retrieval.translate``). An English query is
        translated only where the index holds Chinese text, so an English library never reads the dictionary."""
        text_index = self.library.text_index
        searcher = text_index.index.searcher()
        if language_of(query) == "en" and not any(searcher.doc_freq(GRAMS_FIELD, c) for c in COMMON_HAN):
            return ()
        translation = translate(query, lexicon())
        if translation is None:
            return ()
        kept = translation.kept(lambda field, term: searcher.doc_freq(field, term) > 0)
        parsed = kept.query(text_index.index.schema)
        if parsed is None:
            return ()
        hits = text_index.search(parsed, depth, doc_ids=set(doc_filter) if doc_filter is not None else None,
                                 chunk_ids=chunk_filter)
        return tuple(Hit(cid, did, score) for cid, did, score in hits if did in ready)

    def _place_other_language(self, fused: list[Fused], lists: Sequence[RankedList]) -> list[Fused]:
        """The best passage in the other language, moved up to ``cross_language_slot`` (1-based) unless it ranks
        there or higher already. "Best": first in the translated lists (by reciprocal rank over several queries)
        among the passages in the other language (one with Chinese characters for an English query, one without for a
        Chinese query, its section heading included: the code listing of a Chinese document is no English passage)."""
        slot = self.settings.cross_language_slot
        translated = [r for r in lists if r.method == TRANSLATED and r.hits]
        if not slot or not translated or not fused:
            return fused
        # a translated list exists only for a query with a language to translate into
        targets = {r.query: target for r in translated if (target := target_language(r.query))}
        pool = self.settings.cross_language_pool
        heads = {r.hits[i].chunk_id for r in translated for i in range(min(pool, len(r.hits)))}
        # the query's own ranking may hold the other language too: candidates for the reader
        own = [f.chunk_id for f in fused[:pool]] if self.settings.cross_language_reader != "none" else []
        rows = self.library.search_vectors.fetch(sorted(heads | set(own)), vectors=False)
        languages = set(targets.values())

        def other(cid: str) -> bool:
            return cid in rows and any(written_in(t, _with_heading(rows[cid][0])) for t in languages)

        scores: dict[str, float] = {}
        for r in translated:
            kept = [h for h in r.hits[:pool] if h.chunk_id in rows
                    and written_in(targets[r.query], _with_heading(rows[h.chunk_id][0]))]
            for rank, hit in enumerate(kept, start=1):
                scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + 1.0 / (self.settings.rrf_k + rank)
        read = self._read_across(list(targets), {cid: rows[cid][0] for cid in {*scores, *filter(other, own)}})
        second = self.settings.cross_language_reader_slot
        if read and not second:  # the reader's pick instead of the translated list's
            scores, read = read, {}
        best = _best(scores, fused)
        _move(fused, best, slot)
        if read:  # the reader's pick at a place of its own, where it differs
            pick = _best(read, fused)
            if pick != best:
                _move(fused, pick, second)
        return fused

    def _read_across(self, queries: list[str], chunks: dict[str, Chunk]) -> dict[str, float]:
        """chunk id -> how close the cross-language reader finds it to the queries ({} when the reader is off or
        cannot run: the translated list's order decides then)."""
        if self.settings.cross_language_reader == "none" or not chunks:
            return {}
        from courtroom_desktop.core.retrieval.cross_reader import shared_reader

        began = time.perf_counter()
        try:
            titles = {doc_id: d.title for doc_id in {c.doc_id for c in chunks.values()}
                      if (d := self.library.catalog.get(doc_id))}  # one lookup a document, not a passage
            return shared_reader().scores(queries, {cid: embedding_text(titles.get(c.doc_id, ""), c)
                                                    for cid, c in chunks.items()})
        except Exception as exc:  # noqa: BLE001 - the reader only adds a place: the search goes on without it
            if not self._reader_warned:
                log.warning("the cross-language reader cannot run, the translated list's order decides: %s", exc)
                self._reader_warned = True
            return {}
        finally:
            self.timings["cross_reader"] = time.perf_counter() - began

    def _vector(self, vector: np.ndarray, depth: int, where: str | None, ready: set[str]) -> tuple[Hit, ...]:
        settings = self.settings
        rows: dict[str, int] = {}
        hits = self.library.search_vectors.vector_search(vector, depth, where=where, ef=settings.ann_ef or None,
                                                  refine_factor=settings.ann_refine_factor or None, row_ids=rows)
        return tuple(Hit(cid, did, score, rows.get(cid)) for cid, did, score in hits if did in ready)

    def finalize(self, fused: list[Fused], k: int) -> list[Evidence]:
        """The head of a fused list as Evidence: fetched, near-duplicates collapsed, reranked, cut to k."""
        settings = self.settings
        reranker = self._reranker
        pool = fused[: max(settings.rerank_depth if reranker else 0, 2 * k, k + 8)]
        began = time.perf_counter()
        rows = self.library.search_vectors.fetch([f.chunk_id for f in pool], vectors=True,
                                          row_ids={f.chunk_id: f.row_id for f in pool if f.row_id is not None})
        self.timings["fetch"] = time.perf_counter() - began
        pool = [f for f in pool if f.chunk_id in rows]  # removed since it was found: gone
        texts = {cid: chunk.text for cid, (chunk, _) in rows.items()}
        vectors = {cid: vec for cid, (_, vec) in rows.items() if vec is not None}
        # an embedder whose cosines sit in a narrow band (E5) has near-duplicates closer to 1
        spread = float(getattr(self.library.embedder, "near_duplicate_spread", 1.0))
        kept, dropped = dedup([f.chunk_id for f in pool], texts, vectors, 1.0 - (1.0 - settings.dedup_similarity) * spread,
                              limit=None if reranker else k)
        duplicates: dict[str, list[str]] = {}
        for gone, keeper in dropped.items():
            duplicates.setdefault(keeper, []).append(gone)
        by_id = {f.chunk_id: f for f in pool}
        rerank_scores: dict[str, float] = {}
        if reranker is not None:
            began = time.perf_counter()
            candidates = [Candidate(cid, by_id[cid].query, texts[cid], by_id[cid].score, vectors.get(cid))
                          for cid in kept]
            ranked = reranker.rerank(candidates, k)
            kept = [cid for cid, _ in ranked]
            rerank_scores = dict(ranked)
            self.timings["rerank"] = time.perf_counter() - began
        kept = kept[:k]
        titles: dict[str, tuple[str, str, str, str]] = {}
        catalog = self.library.catalog
        found_docs = {rows[cid][0].doc_id for cid in kept}
        sources = catalog.sources(found_docs) if hasattr(catalog, "sources") else {}
        notices = catalog.notices(found_docs) if hasattr(catalog, "notices") else {}
        evidence = []
        for cid in kept:
            item = by_id[cid]
            chunk = rows[cid][0]
            if chunk.doc_id not in titles:
                titles[chunk.doc_id] = _document_label(catalog.get(chunk.doc_id), sources.get(chunk.doc_id))
            title, path, cite, link = titles[chunk.doc_id]
            evidence.append(Evidence(
                chunk=chunk, doc_title=title, doc_path=path, doc_cite=cite, doc_link=link, query=item.query,
                score=item.score,
                bm25_rank=item.ranks.get(BM25), bm25_score=item.scores.get(BM25),
                vector_rank=item.ranks.get(VECTOR), vector_score=item.scores.get(VECTOR),
                rerank_score=rerank_scores.get(cid),
                queries=tuple(q for q, _ in sorted(item.by_query.items(), key=lambda kv: -kv[1])),
                duplicates=tuple(duplicates.get(cid, ())), doc_notice=notices.get(chunk.doc_id),
            ))
        return evidence

    def _maybe_index(self) -> None:
        """Once the table is large enough for an ANN index and has none, build it in a background thread
        (searches meanwhile stay exact); checked at most once a minute."""
        settings = self.settings
        if settings.ann_build != "background" or time.monotonic() - self._index_checked < 60:
            return
        self._index_checked = time.monotonic()
        vectors = self.library.vectors
        try:
            if vectors.count() < settings.ann_min_rows or vectors.has_vector_index():
                return
        except Exception:
            return
        key = str(vectors.folder)
        with _index_lock:
            running = _index_builds.get(key)
            if running is not None and running.is_alive():
                return

            def build() -> None:
                try:
                    created = self.prepare_index()
                    log.info("built search indexes %s in %s", created, key)
                except Exception as exc:  # an optimisation: never fail a search over it
                    log.warning("could not build the vector index in %s: %s", key, exc)

            thread = threading.Thread(target=build, name="courtroom-ann-index", daemon=True)
            _index_builds[key] = thread
            thread.start()


def _document_label(doc: Document | None, source: str | None) -> tuple[str, str, str, str]:
    """(title, path, citation, link) of a hit's document: a Zotero item's metadata when it came from one (kept apart
    from the document's row, which a re-index rewrites from the PDF), else the PDF's own title, authors and year."""
    if doc is None:
        return "", "", "", ""
    if source:
        from courtroom_desktop.core.library.zotero.items import SourceRecord

        record = SourceRecord.from_json(source)
        return record.title or doc.title, doc.path, record.cite, record.link
    from courtroom_desktop.core.library.zotero.items import citation

    authors = [a.strip() for a in doc.authors.replace(" and ", ";").split(";") if a.strip()]
    return doc.title, doc.path, citation(authors, doc.year, last_word=True) if authors and doc.year else "", ""
