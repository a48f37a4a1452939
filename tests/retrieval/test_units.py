"""Pure parts: lenient query building on hostile strings, dedup, MMR, scope filters."""

from __future__ import annotations

import numpy as np
import pytest

from courtroom_desktop.core.retrieval.dedup import dedup, text_fingerprint
from courtroom_desktop.core.retrieval.query import MAX_TERMS, build_text_query, query_terms
from courtroom_desktop.core.retrieval.rerank import Candidate, MMRReranker, make_reranker, mmr
from courtroom_desktop.core.retrieval.retriever import clean_queries
from courtroom_desktop.core.retrieval.scope import Scope

HOSTILE = [
    "vitamin d: deficiency", "IL-6 [high]", '"unbalanced', "(((", "AND OR NOT", "x" * 5000, "", "title:foo", "*", "\\",
    "a" * 5000, " ".join(["interleukin"] * 1200), "foo AND (bar OR", "]]]{{{", "~^!+-&&||", 'a "b c', "\u201cbalanced\u201d",
    "SELECT * FROM chunks WHERE 1=1; --", "doc_id:abc chunk_id:x", "\x00\x01 control", "日本語のテキスト",
]


def test_query_terms_keep_words_phrases_and_drop_syntax():
    assert query_terms("vitamin d: deficiency").to_syntax() == "vitamin d deficiency"
    assert query_terms("IL-6 [high]").to_syntax() == '"il 6" high'
    assert query_terms("IL-6 [high]", compound_phrases=False).to_syntax() == "il 6 high"
    assert query_terms('"heart failure" in the elderly').to_syntax() == '"heart failure" elderly'
    assert query_terms('\u201cheart failure\u201d').phrases == (("heart", "failure"),)
    assert query_terms('"unbalanced quote').to_syntax() == "unbalanced quote"
    assert query_terms('"a b" and "c d" "e').phrases == (("a", "b"), ("c", "d"))
    assert query_terms("title:foo").terms == ("title", "foo")
    assert query_terms("AND OR NOT").terms == ("and", "or", "not")  # only stop words: kept rather than nothing
    assert query_terms("the effect of the drug").terms == ("effect", "drug")
    assert query_terms("the effect", stopwords=False).terms == ("the", "effect")
    for empty in ("", "(((", "*", "\\", "   ", None):
        assert query_terms(empty).empty


def test_long_queries_are_cut_to_the_term_budget():
    words = [f"word{i}" for i in range(1000)]
    terms = query_terms(" ".join(words))
    assert terms.terms == tuple(words[:MAX_TERMS])
    assert len(query_terms(" ".join(words), max_terms=5).terms) == 5
    assert query_terms("alpha alpha ALPHA beta").terms == ("alpha", "beta")
    phrase = query_terms('"' + " ".join(words[:100]) + '"', max_terms=10)
    assert phrase.phrases == (tuple(words[:10]),) and phrase.terms == ()


@pytest.fixture(scope="module")
def text_index(tmp_path_factory):
    from courtroom_desktop.core.library.store.text_index import TextIndex
    from courtroom_desktop.core.records import Chunk

    index = TextIndex(tmp_path_factory.mktemp("tantivy"))
    texts = ["Vitamin D deficiency and bone fractures in the elderly", "IL-6 levels were high in sepsis",
             "Interleukin signalling", "Title words foo and bar"]
    chunks = [Chunk(id=f"d{i}-0000", doc_id=f"d{i}", ordinal=0, section_path="Results", page_start=0, page_end=0,
                    char_start=0, char_end=len(t), text=t) for i, t in enumerate(texts)]
    index.add_docs([(c.doc_id, [c], f"Doc {i}") for i, c in enumerate(chunks)])
    return index


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:20]))
def test_hostile_strings_never_fail(text_index, text):
    query = build_text_query(text_index.index, text, {"text": 1.0, "section": 0.5, "title": 2.0})
    hits = text_index.search(query, 10)
    assert isinstance(hits, list)
    if not any(ch.isalnum() for ch in text):
        assert query is None and hits == []


def test_lenient_queries_find_what_they_mean(text_index):
    def top(text):
        hits = text_index.search(build_text_query(text_index.index, text), 5)
        return hits[0][1] if hits else None

    assert top("vitamin d: deficiency") == "d0"
    assert top("IL-6 [high]") == "d1"
    assert top('"unbalanced interleukin') == "d2"
    assert top("title:foo") == "d3"
    assert top('"bone fractures"') == "d0"
    assert text_index.search(build_text_query(text_index.index, '"fractures bone"'), 5) == []  # a phrase keeps order
    assert text_index.search(build_text_query(text_index.index, "vitamin", boosts={"text": 0, "section": 0, "title": 0}),
                             5) == []
    assert [h[1] for h in text_index.search(build_text_query(text_index.index, "interleukin il"), 5,
                                            doc_ids={"d2"})] == ["d2"]
    assert text_index.search(build_text_query(text_index.index, "interleukin"), 5, chunk_ids=set()) == []


def test_clean_queries():
    assert clean_queries(["  a  b ", "A B", "", None, "c"]) == ["a b", "c"]
    assert clean_queries("one") == ["one"]
    assert clean_queries(None) == []
    assert len(clean_queries(["y" * 10_000])[0]) == 2000


def test_text_fingerprint_ignores_case_punctuation_and_spacing():
    assert text_fingerprint("Blood  pressure fell, by 5 mmHg.") == text_fingerprint("blood pressure fell by 5 mmhg")
    assert text_fingerprint("blood pressure fell") != text_fingerprint("blood pressure rose")


def test_dedup_by_text_hash_and_by_embedding_similarity():
    rng = np.random.default_rng(0)
    base = rng.standard_normal(16).astype(np.float32)
    base /= np.linalg.norm(base)
    near = base + 0.05 * rng.standard_normal(16).astype(np.float32)
    near /= np.linalg.norm(near)
    other = rng.standard_normal(16).astype(np.float32)
    other /= np.linalg.norm(other)
    texts = {"a": "The drug lowered blood pressure.", "b": "the drug lowered blood-pressure", "c": "Reworded: the drug lowered it.",
             "d": "Something else entirely."}
    vectors = {"a": base, "b": other, "c": near, "d": other * -1}
    kept, dropped = dedup(["a", "b", "c", "d", "a"], texts, vectors, threshold=0.95)
    assert float(base @ near) >= 0.95
    assert kept == ["a", "d"] and dropped == {"b": "a", "c": "a"}
    kept, dropped = dedup(["a", "c", "d"], texts, vectors, threshold=1.01)  # similarity test off
    assert kept == ["a", "c", "d"] and not dropped
    kept, _ = dedup(["a", "b", "c", "d"], texts, None, threshold=0.95, limit=1)
    assert kept == ["a"]


def test_mmr_trades_relevance_for_diversity():
    vectors = np.array([[1, 0, 0], [0.99, 0.141, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    relevance = np.array([1.0, 0.95, 0.6, 0.1])
    assert [i for i, _ in mmr(relevance, vectors, 4, 1.0)] == [0, 1, 2, 3]  # lambda 1: relevance order
    diverse = [i for i, _ in mmr(relevance, vectors, 3, 0.5)]
    assert diverse[0] == 0 and diverse[1] == 2  # the near copy of the first waits
    assert mmr(np.array([]), np.zeros((0, 3)), 3, 0.5) == []
    candidates = [Candidate(str(i), "q", "t", float(r), v) for i, (r, v) in enumerate(zip(relevance, vectors))]
    assert [c for c, _ in MMRReranker(0.5).rerank(candidates, 2)] == ["0", "2"]
    assert make_reranker("none") is None and isinstance(make_reranker("MMR", 0.3), MMRReranker)


def test_scope_filters():
    everything = Scope.all()
    assert everything.is_all and everything.sql() is None and everything.allows_doc("x")
    docs = Scope.documents(["a", "b'quote"])
    assert docs.allows_doc("a") and not docs.allows_doc("c")
    assert docs.sql() == "doc_id IN ('a', 'b''quote')"
    assert Scope.documents([]).sql() == "false"
    sections = Scope.in_sections(["3 Results", " ", "methods"])
    assert sections.sections == ("3 Results", "methods")
    assert sections.allows_section("3 Results > 3.2 Adverse events")
    assert sections.allows_section("Methods")
    assert not sections.allows_section("4 Discussion") and not sections.allows_section("")
    assert "starts_with(lower(section_path), '3 results')" in sections.sql()
    both = Scope.in_sections(["Results"], ["a"])
    assert both.sql().startswith("doc_id IN ('a') AND (")


def test_chinese_characters_back_off_where_the_query_and_passage_cut_words_differently(tmp_path, monkeypatch):
    """'多少倍' is one word to the segmenter and the passage has '3到6倍': no word meets, the character 倍 does.
    Without the character and bigram back-off (text_grams) the shorter passage, which shares only 辩论 and 模式,
    ranks first."""
    from courtroom_desktop.core.library.store.text_index import TextIndex
    from courtroom_desktop.core.records import Chunk
    from courtroom_desktop.core.retrieval import query as query_module
    from courtroom_desktop.core.text import han_grams

    assert han_grams("单次回答 x 倍") == ["单次", "次回", "回答", "单", "次", "回", "答", "倍"]
    assert query_terms("vitamin d deficiency").grams == ()  # an English query has no Chinese back-off
    index = TextIndex(tmp_path / "tantivy")
    texts = {"cost": "辩论模式的成本是单次回答的3到6倍，调用次数也更多。", "fit": "辩论模式适合高风险的问题。"}
    index.add_docs([(name, [Chunk(id=f"{name}-0000", doc_id=name, ordinal=0, section_path="", page_start=0,
                                  page_end=0, char_start=0, char_end=len(text), text=text)], "")
                    for name, text in texts.items()])

    def first(query):
        return index.search(build_text_query(index.index, query), 5)[0][1]

    assert first("辩论模式花费多少倍") == "cost"
    monkeypatch.setattr(query_module, "han_grams", lambda text: [])
    assert first("辩论模式花费多少倍") == "fit"
