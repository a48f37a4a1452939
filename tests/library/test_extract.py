"""Sections, page spans, chunk budgets and rectangles on generated PDFs with known structure."""

from __future__ import annotations

import re

import pymupdf
import pytest

from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.library.chunking import chunk_document, count_tokens
from courtroom_desktop.core.library.read.extract import extract

from .docs import make_corrupt, make_empty, make_encrypted, make_not_pdf, make_scanned, make_structured

EXPECTED_PATHS = [
    "1 Introduction",
    "2 Methods",
    "2 Methods > 2.1 Participants",
    "2 Methods > 2.2 Outcomes",
    "3 Results",
    "4 Discussion",
]


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@pytest.mark.parametrize("outline", [True, False], ids=["outline", "fonts"])
def test_sections_and_pages_match_the_layout(tmp_path, outline):
    path = tmp_path / "report.pdf"
    landed = make_structured(path, outline=outline, paragraphs_per_section=6)
    doc = extract(path)
    assert doc.pages > 1
    titles = [m.title for m in doc.headings]
    assert titles == [h for _, h, _ in landed]
    # each heading was found on the page where the layout put it
    assert [m.page + 1 for m in doc.headings] == [p for _, _, p in landed]
    chunks = chunk_document(doc, "doc", budget=120, overlap=20, min_section=10)
    assert [p for p in dict.fromkeys(c.section_path for c in chunks)] == EXPECTED_PATHS
    for chunk in chunks:
        # a chunk's text belongs to its section: the marker sentences are placed per section by the generator
        assert "Results" not in chunk.text or chunk.section_path == "3 Results"
        assert chunk.page_start <= chunk.page_end < doc.pages


def test_title_authors_year(tmp_path):
    path = tmp_path / "report.pdf"
    make_structured(path, outline=True, title="Blood Pressure Trial")
    doc = extract(path)
    assert doc.title == "Blood Pressure Trial"
    assert doc.authors == "A. Author; B. Author"
    assert doc.year == 2021


def test_chunks_respect_budget_and_never_cut_sentences(tmp_path):
    path = tmp_path / "report.pdf"
    make_structured(path, outline=False, paragraphs_per_section=8)
    doc = extract(path)
    chunks = chunk_document(doc, "doc", budget=100, overlap=25, min_section=10)
    assert len(chunks) > 8
    for chunk in chunks:
        assert count_tokens(chunk.text) <= 100 + 25
        # every chunk starts at a sentence start and ends at a sentence end
        assert chunk.text[0].isupper(), chunk.text[:40]
        assert chunk.text.rstrip().endswith("."), chunk.text[-40:]
    # consecutive chunks of one section overlap by whole sentences
    same_section = [(a, b) for a, b in zip(chunks, chunks[1:]) if a.section_path == b.section_path]
    assert same_section
    assert any(b.char_start < a.char_end for a, b in same_section)


def test_tiny_sections_merge_with_a_neighbour(tmp_path):
    path = tmp_path / "report.pdf"
    make_structured(path, outline=True)
    doc = extract(path)
    merged = chunk_document(doc, "doc", budget=400, overlap=0, min_section=80)
    separate = chunk_document(doc, "doc", budget=400, overlap=0, min_section=0)
    assert len(merged) < len(separate)
    # nothing is lost when merging: every passage is still in some chunk (merged ones also span a heading)
    joined = _norm(" ".join(c.text for c in merged))
    assert all(_norm(c.text) in joined for c in separate)


@pytest.mark.parametrize("outline", [True, False])
def test_rectangles_land_on_the_chunk_text(tmp_path, outline):
    path = tmp_path / "report.pdf"
    make_structured(path, outline=outline, paragraphs_per_section=5)
    doc = extract(path)
    chunks = chunk_document(doc, "doc", budget=90, overlap=15, min_section=10)
    pdf = pymupdf.open(str(path))
    checked = 0
    for chunk in chunks:
        recovered = []
        for highlight in chunk.highlights:
            page = pdf[highlight.page]
            width, height = page.rect.width, page.rect.height
            for x0, y0, x1, y1 in highlight.rects:
                assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
                # line boxes of neighbouring lines overlap a little: read through the middle band of each box
                band = (y1 - y0) * height * 0.3
                rect = pymupdf.Rect(x0 * width + 0.5, y0 * height + band, x1 * width - 0.5, y1 * height - band)
                recovered.append(page.get_textbox(rect))
        assert _norm(" ".join(recovered)) == _norm(chunk.text.replace("-", "")), chunk.id
        assert {h.page for h in chunk.highlights} == set(range(chunk.page_start, chunk.page_end + 1))
        checked += 1
    assert checked == len(chunks) > 5


@pytest.mark.parametrize(
    ("maker", "reason"),
    [
        (make_empty, "empty file"),
        (make_not_pdf, "not a PDF"),
        (make_encrypted, "encrypted"),
        (make_corrupt, "corrupt PDF"),
        (make_scanned, "no text layer: the pages are images (a scan); needs OCR"),
    ],
    ids=["empty", "not-pdf", "encrypted", "corrupt", "scanned"],
)
def test_bad_files_give_a_clear_reason(tmp_path, maker, reason):
    path = tmp_path / "bad.pdf"
    maker(path)
    with pytest.raises(IngestError) as info:
        extract(path)
    assert reason in info.value.reason
    assert str(path) in str(info.value)


def test_rectangles_on_a_rotated_page_stay_inside_it(tmp_path):
    plain, rotated = tmp_path / "plain.pdf", tmp_path / "rotated.pdf"
    make_structured(plain, outline=True, paragraphs_per_section=5)
    with pymupdf.open(str(plain)) as doc:
        for page in doc:
            page.set_rotation(90)
        doc.save(str(rotated))
    straight = chunk_document(extract(plain), "doc", 90, 15, 10)
    turned = chunk_document(extract(rotated), "doc", 90, 15, 10)
    # the same fractions of the unrotated page: nothing clamped to the edge of the rotated one
    assert [c.highlights for c in turned] == [c.highlights for c in straight]
