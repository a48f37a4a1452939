"""Reading a draft into sentences with their locations: splitting (English, Chinese), each format, bad input."""

from __future__ import annotations

import pymupdf
import pytest

from courtroom_desktop.core.check.drafts import read_draft, read_text, split_sentences
from courtroom_desktop.core.errors import CheckError


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


def test_english_abbreviations_decimals_and_initials_do_not_end_a_sentence():
    text = ("Costs rose 3.5% in 2020, e.g. in Fig. 2 of Smith et al. (2021), as J. Smith noted. The U.S. Army grew. "
            "It fell! Did it? Yes.")
    assert sentences(text) == [
        "Costs rose 3.5% in 2020, e.g. in Fig. 2 of Smith et al. (2021), as J. Smith noted.",
        "The U.S. Army grew.", "It fell!", "Did it?", "Yes."]


def test_chinese_punctuation_and_full_width_digits():
    text = "销售额增长了１２．５%。团队周一开会！这是真的吗？先看数据；再下结论。Costs fell. 价格上涨了。"
    assert sentences(text) == ["销售额增长了１２．５%。", "团队周一开会！", "这是真的吗？", "先看数据；", "再下结论。",
                               "Costs fell.", "价格上涨了。"]


def test_markdown_paragraphs_spans_and_headings(tmp_path):
    path = tmp_path / "draft.md"
    path.write_text("# Title\n\nFirst one here. Second one\nwraps.\n\n## Part\n\n- A listed point. Another.\n",
                    encoding="utf-8")
    draft = read_draft(path)
    assert [s.text for s in draft.sentences] == ["First one here.", "Second one\nwraps.", "A listed point.", "Another."]
    paragraphs = {1: "# Title", 2: "First one here. Second one\nwraps.", 4: "- A listed point. Another."}
    for sentence in draft.sentences:
        loc = sentence.location
        assert loc.kind == "paragraph" and paragraphs[loc.paragraph][loc.start:loc.end] == sentence.text
    assert [s.location.paragraph for s in draft.sentences] == [2, 2, 4, 4]


def test_text_file_and_pasted_text(tmp_path):
    path = tmp_path / "draft.txt"
    path.write_text("Sales rose by 12%. Costs fell.\n\nSecond paragraph here.", encoding="utf-8")
    for draft in (read_draft(path), read_text(path.read_text(encoding="utf-8"))):
        assert [(s.text, s.location.paragraph, s.location.start, s.location.end) for s in draft.sentences] == [
            ("Sales rose by 12%.", 1, 0, 18), ("Costs fell.", 1, 19, 30), ("Second paragraph here.", 2, 0, 22)]


def test_docx_paragraph_index_and_span_and_headings_skipped(tmp_path):
    import docx

    document = docx.Document()
    document.add_heading("A heading", level=1)
    document.add_paragraph("Sales rose by 12% in 2020. Costs fell.")
    document.add_paragraph("")
    document.add_paragraph("据统计，产量增长了一倍。价格稳定。")
    path = tmp_path / "draft.docx"
    document.save(str(path))
    draft = read_draft(path)
    paragraphs = docx.Document(str(path)).paragraphs
    assert [s.text for s in draft.sentences] == ["Sales rose by 12% in 2020.", "Costs fell.", "据统计，产量增长了一倍。",
                                                 "价格稳定。"]
    for sentence in draft.sentences:
        loc = sentence.location
        assert paragraphs[loc.paragraph - 1].text[loc.start:loc.end] == sentence.text
    assert [s.location.paragraph for s in draft.sentences] == [2, 2, 4, 4]


def _pdf(path, pages):
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for y, text, font in lines:
            page.insert_text((72, y), text, fontsize=11, fontname=font)
    doc.save(str(path))
    doc.close()


def test_pdf_sentences_lie_on_their_words(tmp_path):
    path = tmp_path / "draft.pdf"
    _pdf(path, [[(100, "Sales rose by 12% in 2020. The team met on Monday.", "helv"),
                 (300, "Costs fell by a third.", "helv")],
                [(100, "销售额增长了12%。团队周一开会。", "china-s")]])
    draft = read_draft(path)
    assert [(s.text, s.location.page) for s in draft.sentences] == [
        ("Sales rose by 12% in 2020.", 1), ("The team met on Monday.", 1), ("Costs fell by a third.", 1),
        ("销售额增长了12%。", 2), ("团队周一开会。", 2)]
    doc = pymupdf.open(str(path))
    for sentence in draft.sentences:
        page = doc[sentence.location.page - 1]
        assert sentence.location.rects
        got = "".join(page.get_textbox(pymupdf.Rect(x0 + 0.5, y0, x1 - 0.5, y1)).strip()
                      for x0, y0, x1, y1 in sentence.location.rects)
        assert got.replace(" ", "") == sentence.text.replace(" ", "")
    doc.close()


def test_an_encrypted_pdf_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "locked.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Secret numbers: 42.")
    doc.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    doc.close()
    with pytest.raises(CheckError) as caught:
        read_draft(path)
    assert "locked.pdf" in str(caught.value) and "encrypted" in caught.value.reason and "unprotected" in caught.value.fix


def test_a_scanned_pdf_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "scan.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 400), False)
    pixmap.clear_with(200)
    page.insert_image(page.rect, pixmap=pixmap)
    doc.save(str(path))
    doc.close()
    with pytest.raises(CheckError) as caught:
        read_draft(path)
    assert "scan.pdf" in str(caught.value) and "scanned" in caught.value.reason and "OCR" in caught.value.fix


def test_unknown_extension_and_damaged_docx(tmp_path):
    odd = tmp_path / "draft.rtf"
    odd.write_text("{\\rtf1 hello}", encoding="utf-8")
    with pytest.raises(CheckError) as caught:
        read_draft(odd)
    assert "draft.rtf" in str(caught.value) and ".pdf, .docx, .md or .txt" in caught.value.fix
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip")
    with pytest.raises(CheckError) as caught:
        read_draft(broken)
    assert "broken.docx" in str(caught.value) and "Word" in caught.value.reason
