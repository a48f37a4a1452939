"""Chinese (and mixed) documents through the library: sentence ends, chunk budgets in tokens, Chinese heading
numbering, wrapped headings, rectangles per character, BM25 with segmented words, and an index rebuilt when its
analyser changes."""

from __future__ import annotations

import json

import pymupdf
import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.chunking import chunk_document, count_tokens, sections
from courtroom_desktop.core.library.read.extract import extract
from courtroom_desktop.core.library.read.headings import heading_title
from courtroom_desktop.core.library.store.text_index import ANALYZER_FILE
from courtroom_desktop.core.retrieval import Retriever
from courtroom_desktop.core.text import sentence_spans
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

WATER = "长期饮用纯净水会导致人体矿物质流失吗？这是一个常见的说法。"
FOOD = "人体所需的矿物质主要来自食物，而不是饮用水；饮用水只提供很少一部分。"
LONG_HEADING = "（一）研究背景与这一领域中相当长的一段标题文字用于测试标题换行的情形是否正确处理"


def zh_pdf(path, outline: bool = False):
    spec = DocSpec(title="纯净水与矿物质", sections=[
        SectionSpec(1, "一、引言", [WATER * 4]),
        SectionSpec(2, LONG_HEADING, [FOOD * 6]),
        SectionSpec(1, "第二章 方法", ["我们检索了十二项研究。The search used PubMed and CNKI. " * 3]),
        SectionSpec(2, "第1节 纳入标准", ["纳入标准为成年人群的前瞻性研究。" * 2]),
        SectionSpec(2, "2.1 数据提取", ["两名研究者独立提取数据！分歧通过讨论解决。" * 2]),
    ])
    return render_pdf(spec, path, outline=outline)


def test_sentences_end_at_chinese_stops():
    text = "第一句话。“引用的话！”第三句？第四句；English here. Another"
    assert [text[a:b] for a, b in sentence_spans(text)] == ["第一句话。", "“引用的话！”", "第三句？", "第四句；",
                                                          "English here.", "Another"]


def test_chinese_numbering_marks_headings_with_their_levels_and_wrapped_headings_stay_whole(tmp_path):
    zh_pdf(tmp_path / "zh.pdf")
    doc = extract(tmp_path / "zh.pdf")
    assert [(m.level, heading_title(m.title)) for m in doc.headings] == [
        (1, "引言"), (2, heading_title(LONG_HEADING)), (1, "方法"), (2, "纳入标准"), (2, "数据提取")]
    found = {s.path: doc.text[s.start:s.end] for s in sections(doc)}
    # the heading wraps onto two lines: neither line ends the previous section
    intro = found["一、引言"]
    assert intro.rstrip().endswith("这是一个常见的说法。") and "研究背景" not in intro
    assert any(path.endswith(LONG_HEADING) for path in found)
    # a wrapped Chinese line continues without a space; the mixed sentence keeps its English words
    assert "人体矿物质流失吗" in doc.text.replace("\n", "") and " 流失" not in doc.text
    assert "The search used PubMed and CNKI." in doc.text


def test_wrapped_outline_headings_in_english_stay_whole(tmp_path):
    long = "2 Elimination of HIV in South Africa through Expanded Access to Antiretroviral Therapy in Adults"
    render_pdf(DocSpec(title="Sample", sections=[
        SectionSpec(1, "1 Introduction", ["Antiretroviral therapy for prevention was studied in a trial. " * 8]),
        SectionSpec(1, long, ["Earlier initiation of antiretroviral therapy may be a key component. " * 6])]),
        tmp_path / "en.pdf", outline=True)
    doc = extract(tmp_path / "en.pdf")
    spans = {s.path: doc.text[s.start:s.end] for s in sections(doc)}
    first = next(text for path, text in spans.items() if path.startswith("1 "))
    assert first.rstrip().endswith("was studied in a trial.") and "Elimination" not in first
    for chunk in chunk_document(doc, "d", 60, 10, 10):
        if chunk.section_path.startswith("1 "):
            assert "Elimination of HIV" not in chunk.text


def test_chunk_budgets_count_chinese_characters_as_tokens_and_rectangles_cover_each_character(tmp_path):
    zh_pdf(tmp_path / "zh.pdf")
    doc = extract(tmp_path / "zh.pdf")
    assert count_tokens("维生素D缺乏") == 6 and count_tokens("vitamin D") == 2
    chunks = chunk_document(doc, "d", 40, 0, 0)
    assert len(chunks) > 6 and all(count_tokens(c.text) <= 60 for c in chunks)
    # each chunk is highlighted from its own first character, also where it starts in the middle of a line
    page = pymupdf.open(tmp_path / "zh.pdf")[0]
    checked = 0
    for chunk in chunks:
        lead = len(chunk.text) - len(chunk.text.lstrip())
        first = doc.line_of[chunk.char_start + lead]
        same_line = first >= 0 and doc.line_of[chunk.char_start + lead + 3] == first  # search_for stops at line ends
        hits = page.search_for(chunk.text.strip()[:4]) if chunk.highlights and same_line else []
        if chunk.highlights and chunk.highlights[0].page == 0 and hits:
            x0, y0 = (v * d for v, d in zip(chunk.highlights[0].rects[0][:2], (page.rect.width, page.rect.height)))
            assert any(abs(hit.x0 - x0) < 2 and abs(hit.y0 - y0) < 4 for hit in hits), chunk.text[:10]
            checked += 1
    assert checked >= 5 and any(c.highlights[0].rects[0][0] > 0.2 for c in chunks if c.highlights)  # some mid-line


@pytest.fixture
def library(tmp_path, embedder):
    lib = Library.open(tmp_path / "lib", LibrarySettings(chunk_tokens=80, overlap_tokens=10, min_section_tokens=10),
                       embedder)
    yield lib
    lib.close()


def test_chinese_queries_find_chinese_passages_with_bm25_and_mixed_documents_answer_both(library, tmp_path):
    zh_pdf(tmp_path / "zh.pdf", outline=True)
    assert library.ingest([tmp_path / "zh.pdf"]).added == 1
    retriever = Retriever(library)
    bm25 = retriever.settings.model_copy(update={"vector_weight": 0.0})
    only_bm25 = Retriever(library, bm25)
    best = only_bm25.search("喝纯净水是不是会让身体缺少矿物质", k=3)
    assert best and "纯净水" in best[0].chunk.text and best[0].bm25_rank == 1
    assert "食物" in only_bm25.search("矿物质主要来自哪些食物", k=3)[0].chunk.text
    assert any("PubMed" in e.chunk.text for e in only_bm25.search("PubMed search", k=3))
    assert retriever.search("纳入标准 前瞻性研究", k=3)[0].chunk.section_path.endswith("纳入标准")


def test_an_index_written_by_another_analyser_is_rebuilt_from_the_stored_chunks(library, tmp_path, embedder):
    zh_pdf(tmp_path / "zh.pdf")
    library.ingest([tmp_path / "zh.pdf"])
    chunks = library.text_index.count()
    library.close()
    folder = tmp_path / "lib" / "tantivy"
    (folder / ANALYZER_FILE).write_text(json.dumps({"latin": "en_stem", "version": 1}))

    class Counting(type(embedder)):
        encoded = 0

        def encode(self, texts):
            Counting.encoded += len(texts)
            return super().encode(texts)

    counting = Counting(embedder.name, embedder.batch)
    counting._model = embedder._model  # the same model, loaded once
    reopened = Library.open(tmp_path / "lib", library.settings, counting)
    try:
        assert reopened.text_index.count() == chunks and Counting.encoded == 0  # refilled without embedding again
        assert json.loads((folder / ANALYZER_FILE).read_text())["version"] >= 2
        assert reopened.check_consistency()["consistent"]
        assert Retriever(reopened).search("纯净水 矿物质", k=1)[0].bm25_rank == 1
    finally:
        reopened.close()


def test_fusion_leans_on_bm25_for_a_query_the_embedder_does_not_read(library, tmp_path):
    """The bundled MiniLM reads English only: for a Chinese query its vector list weighs uncovered_vector_weight
    (documented in docs/retrieval.md), for an English one fully."""
    from courtroom_desktop.core.retrieval.fusion import VECTOR, RankedList, fuse

    zh_pdf(tmp_path / "zh.pdf")
    library.ingest([tmp_path / "zh.pdf"])
    retriever = Retriever(library)
    assert library.embedder.covers("vitamin D and birth weight") and not library.embedder.covers("纯净水与矿物质")
    lists = retriever.gather(["纯净水 矿物质", "PubMed search"], depth=5)
    scales = {(r.method, r.query): r.scale for r in lists}
    assert scales[(VECTOR, "纯净水 矿物质")] == retriever.settings.uncovered_vector_weight < 1
    assert scales[(VECTOR, "PubMed search")] == 1.0
    vector_only = RankedList(VECTOR, "q", lists[-1].hits[:1], scale=0.0)
    assert fuse([vector_only], {VECTOR: 1.0}, "convex")[0].score == 0.0  # the scale multiplies the method's weight
