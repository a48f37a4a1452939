"""Markdown, plain text and Word files through the library: sections from headings and styles, chunks whose character
spans index the document's text, no pages, the document's kind, bad files with their reason, and which files a
folder yields."""

from __future__ import annotations

import docx
import pytest

from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.files import find_files
from courtroom_desktop.core.library.read.text_files import document_text, read_text_file
from courtroom_desktop.core.records import DocStatus
from courtroom_desktop.core.retrieval.query import build_text_query
from stress.common import open_library

MARKDOWN = """---
title: Moving to Lisbon
tags: [decision]
---
Why this note: we must decide by June.

# Lisbon

## Cost of living

Rent is about 1,400 euros a month for two rooms. Food costs less than at home. Electricity is dearer in winter.

- a metro pass is 40 euros
- schools charge a fee

```
# a comment in code, not a heading
```

Commute
-------

The tram from Graça to the office takes 25 minutes. Trains to Cascais run every 20 minutes.
"""

CHINESE = """# 搬家笔记

## 一、房租

里斯本两居室的房租每月约一千四百欧元。水电费在冬天更贵！我们还需要押金吗？

## 二、通勤

从格拉萨坐电车到办公室需要二十五分钟。火车每二十分钟一班。
"""

PLAIN = """1. Background

We are weighing a move to Lisbon next year.

2.1 Costs

Rent is about 1,400 euros a month.

一、风险

签证需要三个月。

Conclusion

A move in spring looks possible.
"""


def make_docx(path) -> None:
    document = docx.Document()
    document.add_paragraph("Job offer in Porto", style="Title")
    document.add_paragraph("Salary", style="Heading 1")
    document.add_paragraph("The offer is 52,000 euros a year. A bonus of 10 % is paid in March.")
    document.add_paragraph("Benefits", style="Heading 2")
    document.add_paragraph("Health insurance for the family", style="List Bullet")
    table = document.add_table(rows=2, cols=2)
    for row, (name, value) in enumerate((("holidays", "25 days"), ("remote", "2 days a week"))):
        table.cell(row, 0).text, table.cell(row, 1).text = name, value
    document.add_paragraph("Risks", style="Heading 1")
    document.add_paragraph("The team is new. Its manager starts in May.")
    document.save(str(path))


def _sections(path, budget: int = 200):
    doc = read_text_file(path)
    chunks = chunk_document(doc, "d", budget, 20, 0)
    text = document_text(path)
    assert doc.text == text
    for chunk in chunks:  # every span indexes the document's text, and no chunk has a page
        assert text[chunk.char_start:chunk.char_end] == chunk.text
        assert not chunk.on_pages and chunk.pages == "" and chunk.page_start == chunk.page_end == -1
    return doc, chunks


def test_markdown_sections_from_atx_and_setext_headings_spans_and_front_matter(tmp_path):
    path = tmp_path / "lisbon.md"
    path.write_text(MARKDOWN.replace("\n", "\r\n"), encoding="utf-8")  # Windows line ends: offsets still match
    doc, chunks = _sections(path)
    assert doc.title == "Moving to Lisbon" and doc.kind == "markdown" and doc.pages == 0
    assert [(m.level, m.title) for m in doc.headings] == [(1, "Lisbon"), (2, "Cost of living"), (2, "Commute")]
    paths = [c.section_path for c in chunks]
    assert paths == ["", "Lisbon > Cost of living", "Lisbon > Commute"]
    assert chunks[0].text == "Why this note: we must decide by June."  # the front matter is blanked, not chunked
    cost = chunks[1].text
    assert cost.startswith("Rent is about") and "a comment in code" in cost and "##" not in cost
    assert chunks[2].text.startswith("The tram") and "-----" not in chunks[2].text
    assert "title:" not in document_text(path)


def test_a_chinese_note_has_its_sections_and_sentences(tmp_path):
    path = tmp_path / "搬家.md"
    path.write_text(CHINESE, encoding="utf-8")
    doc, chunks = _sections(path, budget=32)  # a small budget: chunks must end at Chinese sentence ends
    assert doc.title == "搬家笔记"
    assert {c.section_path for c in chunks} == {"搬家笔记 > 一、房租", "搬家笔记 > 二、通勤"}
    assert len(chunks) > 2
    assert all(c.text.endswith(("。", "！", "？")) for c in chunks), [c.text for c in chunks]


def test_plain_text_headings_numbered_chinese_and_known(tmp_path):
    path = tmp_path / "plan.txt"
    path.write_bytes(PLAIN.encode("gb18030"))  # an older Chinese encoding is read too
    doc, chunks = _sections(path)
    assert [(m.level, m.title) for m in doc.headings] == [
        (1, "1. Background"), (2, "2.1 Costs"), (1, "一、风险"), (1, "Conclusion")]
    assert [c.section_path for c in chunks] == ["1. Background", "1. Background > 2.1 Costs", "一、风险", "Conclusion"]
    assert doc.title == "plan" and doc.kind == "text"


def test_word_sections_from_title_and_heading_styles_with_lists_and_tables(tmp_path):
    path = tmp_path / "offer.docx"
    make_docx(path)
    doc, chunks = _sections(path)
    assert doc.title == "Job offer in Porto" and doc.kind == "docx"
    assert [(m.level, m.title) for m in doc.headings] == [
        (0, "Job offer in Porto"), (1, "Salary"), (2, "Benefits"), (1, "Risks")]
    by_section = {c.section_path: c.text for c in chunks}
    assert by_section["Job offer in Porto > Salary"].startswith("The offer is 52,000 euros")
    benefits = by_section["Job offer in Porto > Salary > Benefits"]
    assert "\u2022 Health insurance" in benefits and "holidays | 25 days\nremote | 2 days a week" in benefits
    assert by_section["Job offer in Porto > Risks"] == "The team is new. Its manager starts in May."


def test_text_documents_go_into_every_store_without_pages(tmp_path):
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "lisbon.md").write_text(MARKDOWN, encoding="utf-8")
    (folder / "搬家.md").write_text(CHINESE, encoding="utf-8")
    (folder / "plan.txt").write_text(PLAIN, encoding="utf-8")
    make_docx(folder / "offer.docx")
    library = open_library(tmp_path / "lib")
    try:
        finished = library.ingest([folder])
        assert finished.added == 4 and finished.failed == 0 and finished.pages == 0
        docs = {d.path.rsplit("/", 1)[-1]: d for d in library.documents(DocStatus.ready)}
        assert {n: d.kind for n, d in docs.items()} == {
            "lisbon.md": "markdown", "搬家.md": "markdown", "plan.txt": "text", "offer.docx": "docx"}
        assert all(d.pages == 0 and not d.on_pages and not d.private for d in docs.values())
        assert library.check_consistency()["consistent"]
        for doc in docs.values():
            text = document_text(doc.path)
            assert all(text[c.char_start:c.char_end] == c.text for c in library.doc_chunks(doc.id))
        query = build_text_query(library.text_index.index, "通勤 电车")
        chinese = library.text_index.search(query, 5)
        assert chinese and chinese[0][1] == docs["搬家.md"].id
        assert library.ingest([folder]).skipped == 4  # unchanged: skipped by content
    finally:
        library.close()


@pytest.mark.parametrize(("name", "content", "reason"), [
    ("empty.md", b"", "empty file"),
    ("binary.txt", b"\x00\x01\x02binary\x00" * 50, "not a text file"),
    ("broken.docx", b"PK\x03\x04 not really a zip", "not a Word document"),
    ("blank.md", b"\n\n   \n", "no text found in the file"),
])
def test_bad_text_files_are_reported_with_the_reason(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    library = open_library(tmp_path / "lib")
    try:
        events = []
        assert library.ingest([path], on_event=events.append).failed == 1
        done = next(e for e in events if e.kind == "file_finished")
        assert reason in done.reason, done.reason
        assert not library.documents() and library.check_consistency()["consistent"]
    finally:
        library.close()


def test_a_folder_yields_documents_but_not_readmes_hidden_or_temporary_files(tmp_path):
    for name in ("a.pdf", "b.md", "c.markdown", "d.txt", "e.docx", "README.md", "LICENSE.txt", "~$e.docx",
                 ".hidden.md", "notes.md~", "image.png", ".obsidian/workspace.md", "sub/f.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    assert [p.relative_to(tmp_path).as_posix() for p in find_files([tmp_path])] == [
        "a.pdf", "b.md", "c.markdown", "d.txt", "e.docx", "sub/f.md"]
    assert find_files([tmp_path / "README.md"]) == [tmp_path / "README.md"]  # named explicitly: taken


def test_a_pdf_named_as_text_is_read_as_the_pdf_it_is(tmp_path):
    from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

    render_pdf(DocSpec(title="Vitamin D in pregnancy", sections=[SectionSpec(1, "1 Results", [
        "Supplements raised birth weight in a randomised trial of pregnant women."])]), tmp_path / "paper.pdf")
    named = tmp_path / "paper.txt"
    (tmp_path / "paper.pdf").rename(named)
    library = open_library(tmp_path / "lib")
    try:
        assert library.ingest([named]).added == 1
        doc = library.documents(DocStatus.ready)[0]
        assert doc.kind == "pdf" and doc.pages == 1
        assert any("birth weight" in c.text and c.highlights for c in library.doc_chunks(doc.id))
    finally:
        library.close()
