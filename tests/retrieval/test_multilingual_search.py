"""Search with the bundled multilingual embedder (library.embedder = 'multilingual') on the Chinese sample PDFs, scored
on the 40 held-out Chinese queries (zh_queries_heldout.jsonl, written apart from any tuning), beside the bundled
English MiniLM on the same PDFs. Real models, real PDFs, real LanceDB and tantivy.

What it holds to is what was measured (docs/embedders.md#multilingual): the multilingual vectors read Chinese (their
list alone ranks the answering passage first for 12 of 40 where MiniLM's does for 2), and search over them is no worse
than with MiniLM (27 of 40 first with either, once E5's near-duplicates were told apart). It does not hold them to
issue #31's target (34 of 40 first), which they do not reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.eval.passages import evaluate_passages, read_labelled
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.retrieval import Retriever

ROOT = Path(__file__).resolve().parents[2]
HELD_OUT = ROOT / "tests" / "retrieval" / "data" / "zh_queries_heldout.jsonl"
ZH = ROOT / "resources" / "samples-zh"


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    queries = read_labelled(HELD_OUT)
    out = {}
    for embedder in ("multilingual", "bundled"):
        library = Library.open(tmp_path_factory.mktemp(embedder) / "library", LibrarySettings(embedder=embedder))
        try:
            summary = library.ingest([ZH])
            assert not summary.failed and len(library.catalog.ready_ids()) == 4
            systems = evaluate_passages(library, queries, RetrievalSettings(), search_k=10)
            out[embedder] = {s.name: {q.id: s.per_query[q.id] for q in queries} for s in systems}
            retriever = Retriever(library, RetrievalSettings())
            out[embedder]["collapsed"] = sum(len(retriever.search(q.query, k=10)[0].duplicates) for q in queries)
        finally:
            library.close()
    return out


def _count(rows, metric):
    return sum(int(r[metric]) for r in rows.values())


def test_the_multilingual_vectors_read_chinese(figures):
    assert len(figures["multilingual"]["vector"]) == 40
    first = _count(figures["multilingual"]["vector"], "hit@1")
    top5 = _count(figures["multilingual"]["vector"], "hit@5")
    minilm = _count(figures["bundled"]["vector"], "hit@5")
    assert first >= 9 and top5 >= 22, (first, top5)
    assert top5 >= minilm + 15, (top5, minilm)


def test_chinese_search_with_them_is_no_worse_than_with_minilm(figures):
    ours, theirs = figures["multilingual"]["search"], figures["bundled"]["search"]
    assert _count(ours, "hit@1") >= _count(theirs, "hit@1") - 2
    assert _count(ours, "hit@5") >= _count(theirs, "hit@5") - 2
    assert _count(ours, "hit@1") >= 25


def test_distinct_passages_are_not_collapsed_as_near_duplicates_under_e5(figures):
    # E5's cosines sit in a narrow band: at MiniLM's threshold (0.95) 78 passages collapsed under the 40 first
    # results, hiding them; scaled for E5 (0.99) 4 did, about what MiniLM collapses (3)
    assert figures["multilingual"]["collapsed"] <= 12, figures["multilingual"]["collapsed"]
    assert figures["bundled"]["collapsed"] <= 12
