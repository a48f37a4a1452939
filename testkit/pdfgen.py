"""Render real PDFs from structured text: used for the sample library, the tests, the stress harness and the
benchmarks (never by the app itself).

A document is a title plus sections (level, heading, paragraphs). PyMuPDF's Story lays it out as HTML, headings
get bigger bold type, and (optionally) the PDF gets an outline pointing at the page where each heading landed.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

CSS = """
body { font-family: serif; font-size: 10.5pt; }
h1 { font-size: 20pt; font-weight: bold; margin-bottom: 6pt; }
h2 { font-size: 14pt; font-weight: bold; margin-top: 12pt; }
h3 { font-size: 12pt; font-weight: bold; margin-top: 8pt; }
p { margin-top: 4pt; text-align: justify; }
.meta { font-size: 9pt; font-style: italic; }
"""


@dataclass
class SectionSpec:
    level: int  # 1 = top-level section (rendered as h2), 2 = subsection (h3)
    heading: str
    paragraphs: list[str] = field(default_factory=list)


@dataclass
class DocSpec:
    title: str
    sections: list[SectionSpec]
    authors: str = ""
    year: int | None = None
    byline: str = ""


def render_pdf(spec: DocSpec, path: Path, outline: bool = True, paper: str = "a4") -> list[tuple[int, str, int]]:
    """Write ``spec`` to ``path``; returns the outline entries (level, heading, 1-based page) where headings landed."""
    parts = [f"<h1>{html.escape(spec.title)}</h1>"]
    if spec.byline:
        parts.append(f'<p class="meta">{html.escape(spec.byline)}</p>')
    for index, section in enumerate(spec.sections):
        tag = "h2" if section.level <= 1 else "h3"
        parts.append(f'<{tag} id="s{index}">{html.escape(section.heading)}</{tag}>')
        parts.extend(f"<p>{html.escape(p)}</p>" for p in section.paragraphs)
    story = pymupdf.Story(html="".join(parts), user_css=CSS)
    mediabox = pymupdf.paper_rect(paper)
    where = mediabox + (56, 64, -56, -64)
    landed: list[tuple[int, str, int]] = []

    def record(position) -> None:
        if position.heading and position.heading >= 2 and position.open_close & 1 and position.id.startswith("s"):
            section = spec.sections[int(position.id[1:])]
            landed.append((position.heading - 1, section.heading, position.page_num + 1))

    tmp = Path(path).with_suffix(".tmp.pdf")
    writer = pymupdf.DocumentWriter(str(tmp))
    more, page = True, 0
    while more:
        device = writer.begin_page(mediabox)
        more, _ = story.place(where)
        story.element_positions(record, {"page_num": page})
        story.draw(device)
        writer.end_page()
        page += 1
    writer.close()
    doc = pymupdf.open(str(tmp))
    metadata = {"title": spec.title, "author": spec.authors, "producer": "courtroom-desktop pdfgen"}
    if spec.year:
        metadata["creationDate"] = f"D:{spec.year}0101000000"
    doc.set_metadata(metadata)
    if outline and landed:
        doc.set_toc([[level, text, page_number] for level, text, page_number in landed])
    doc.save(str(path), garbage=3, deflate=True)
    doc.close()
    tmp.unlink()
    return landed
