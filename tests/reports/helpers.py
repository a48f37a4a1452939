"""Reading reports back: links in HTML, text under highlight annotations."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pymupdf


def norm(text: str) -> str:
    """Compare text whatever its spacing, line breaks and hyphenation."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


class Tags(HTMLParser):
    """Every start tag with its attributes, and every id."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: set[str] = set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])

    def attr(self, name: str) -> list[str]:
        return [a[name] for _, a in self.tags if name in a]


def annot_lines(page, annot) -> list[str]:
    """The text under each line of a highlight, read through the middle band of the line (line boxes overlap)."""
    vertices = annot.vertices
    lines = []
    for i in range(0, len(vertices), 4):
        rect = pymupdf.Quad(vertices[i:i + 4]).rect
        band = rect.height * 0.3
        lines.append(page.get_textbox(pymupdf.Rect(rect.x0 + 0.5, rect.y0 + band, rect.x1 - 0.5, rect.y1 - band)))
    return lines


def highlights(path: Path) -> list[tuple[int, str, str]]:
    """(page index, subject, text under it) for every highlight annotation of a PDF."""
    found = []
    with pymupdf.open(str(path)) as doc:
        for page in doc:
            for annot in page.annots():
                if annot.type[0] == pymupdf.PDF_ANNOT_HIGHLIGHT:
                    found.append((page.number, annot.info.get("subject", ""), " ".join(annot_lines(page, annot))))
    return found


def check_target(base: Path, href: str) -> tuple[Path, int]:
    """'sources/E3-p4.pdf#page=1' -> the file (which must exist under base) and the 1-based page (which must be in it)."""
    assert not re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I), f"not a relative link: {href}"
    file, _, fragment = href.partition("#")
    path = (base / file).resolve()
    assert path.is_file(), f"{href}: no such file"
    assert base.resolve() in path.parents, f"{href} points outside the report folder"
    page = 1
    if fragment:
        assert fragment.startswith("page="), href
        page = int(fragment[5:])
    if path.suffix == ".pdf":
        with pymupdf.open(str(path)) as doc:
            assert 1 <= page <= doc.page_count, f"{href}: page {page} of {doc.page_count}"
    return path, page


def pdf_text_of(page) -> str:
    """A page's text with ligatures spelled out."""
    return page.get_text(flags=pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES)
