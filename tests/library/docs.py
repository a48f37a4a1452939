"""Generated PDFs with known structure, and broken files of every kind."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

WORDS = ("the trial measured blood pressure in adults over twelve weeks while a placebo group received inert "
         "tablets and outcomes were assessed by blinded nurses at every visit").split()


def sentence(seed: int, length: int = 14) -> str:
    words = [WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(length)]
    return " ".join(words).capitalize() + f" (marker {seed})."


def paragraph(seed: int, sentences: int = 4) -> str:
    return " ".join(sentence(seed * 10 + i) for i in range(sentences))


def structured_spec(title: str = "A Structured Report", paragraphs_per_section: int = 3) -> DocSpec:
    sections = [
        SectionSpec(1, "1 Introduction", [paragraph(1), paragraph(2)]),
        SectionSpec(1, "2 Methods", [paragraph(3)]),
        SectionSpec(2, "2.1 Participants", [paragraph(4 + i) for i in range(paragraphs_per_section)]),
        SectionSpec(2, "2.2 Outcomes", [paragraph(10 + i) for i in range(paragraphs_per_section)]),
        SectionSpec(1, "3 Results", [paragraph(20 + i) for i in range(paragraphs_per_section * 2)]),
        SectionSpec(1, "4 Discussion", [paragraph(40), paragraph(41)]),
    ]
    return DocSpec(title=title, sections=sections, authors="A. Author; B. Author", year=2021)


def make_structured(path: Path, outline: bool, **kwargs) -> list[tuple[int, str, int]]:
    return render_pdf(structured_spec(**kwargs), path, outline=outline)


def make_encrypted(path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret text that must not be read")
    doc.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    doc.close()


def make_scanned(path: Path) -> None:
    """A page that is only an image: what a scanner without OCR produces."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), False)
    pix.set_rect(pix.irect, (200, 200, 200))
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image(pymupdf.Rect(72, 72, 472, 272), pixmap=pix)
    doc.save(str(path))
    doc.close()


def make_corrupt(path: Path) -> None:
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n")


def make_not_pdf(path: Path) -> None:
    path.write_text("This is a plain text file with a .pdf name.\n" * 20)


def make_empty(path: Path) -> None:
    path.write_bytes(b"")


def make_partly_scanned(path: Path) -> None:
    """Two pages of text, a scanned page (an image over most of the page, no text), a blank page, and a page with a
    small figure and a caption."""
    doc = pymupdf.open()
    scan = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 300, 400), False)
    scan.set_rect(scan.irect, (230, 230, 230))
    for number in range(5):
        page = doc.new_page()
        if number in (0, 1):
            page.insert_text((72, 100), f"Page {number + 1} has a text layer about blood pressure readings.", fontsize=11)
        elif number == 2:
            page.insert_image(page.rect + (20, 20, -20, -20), pixmap=scan)
        elif number == 4:
            page.insert_image(pymupdf.Rect(72, 72, 200, 150), pixmap=scan)
            page.insert_text((72, 180), "Figure 1. The readings of the first twelve weeks, by group.", fontsize=10)
    doc.save(str(path))
    doc.close()
