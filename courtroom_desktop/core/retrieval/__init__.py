"""Hybrid retrieval: BM25 (tantivy) + vectors (LanceDB), weighted reciprocal rank fusion, dedup, rerank -> Evidence.

    from courtroom_desktop.core.retrieval import Retriever, Scope
    evidence = Retriever(library, config.retrieval).search(["claim", "another query"], k=8, scope=Scope.all())
"""

from courtroom_desktop.core.retrieval.dedup import dedup, text_fingerprint
from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, Fused, Hit, RankedList, convex_fuse, fuse, weighted_rrf
from courtroom_desktop.core.retrieval.query import QueryTerms, build_text_query, query_terms
from courtroom_desktop.core.retrieval.rerank import CrossEncoderReranker, MMRReranker, make_reranker, mmr
from courtroom_desktop.core.retrieval.retriever import Retriever, clean_queries
from courtroom_desktop.core.retrieval.scope import Scope

__all__ = [
    "BM25", "VECTOR", "CrossEncoderReranker", "Fused", "Hit", "MMRReranker", "QueryTerms", "RankedList", "Retriever",
    "Scope", "build_text_query", "clean_queries", "convex_fuse", "dedup", "fuse", "make_reranker", "mmr",
    "query_terms", "text_fingerprint", "weighted_rrf",
]
