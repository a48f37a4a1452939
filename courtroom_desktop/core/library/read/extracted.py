"""What extraction produces: the document's lines with a box per character, its text, and the section marks found in
it (core.library.read.extract makes them; core.library.read.headings finds the sections; chunking cuts the text)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from courtroom_desktop.core.records import Highlight


@dataclass
class Line:
    page: int
    y0: float
    y1: float
    text: str
    xs0: array[float]  # left edge of each character
    xs1: array[float]  # right edge of each character
    size: float
    bold: bool
    block: int  # block number on its page
    conf: float | None = None  # the recogniser's confidence when the line was read by OCR


@dataclass
class SectionMark:
    level: int
    title: str
    char: int  # offset in the document text where the section's body starts
    page: int
    start: int = -1  # offset where the heading itself starts (its first line, when it wraps); -1: unknown


@dataclass
class ExtractedDoc:
    path: str
    pages: int
    text: str
    line_of: array[int]   # per character of ``text``: index into ``lines`` (-1 for separators)
    col_of: array[int]    # per character: column within that line
    lines: list[Line]
    page_sizes: list[tuple[float, float]]
    headings: list[SectionMark] = field(default_factory=list)
    paragraph_breaks: list[int] = field(default_factory=list)  # offsets where a new block starts
    title: str = ""
    authors: str = ""
    year: int | None = None
    pages_without_text: list[int] = field(default_factory=list)  # 0-based: pages that show an image but hold no text
    ocr_pages: list[int] = field(default_factory=list)  # 0-based: pages OCR was run on (found text or not)
    ocr_notes: list[str] = field(default_factory=list)  # pages OCR gave up on, and why
    ocr_read: int = 0            # pages run through the OCR engine (the rest came from its cache)
    ocr_seconds: float = 0.0

    def page_of(self, char: int) -> int:
        char = min(max(char, 0), len(self.text) - 1)
        while char > 0 and self.line_of[char] < 0:
            char -= 1
        line = self.line_of[char]
        return self.lines[line].page if line >= 0 else 0

    def ocr_confidence(self, start: int, end: int) -> float | None:
        """The recogniser's confidence over text[start:end] (its lines' confidences weighted by their characters
        there); None when none of it was read by OCR."""
        weight = 0
        total = 0.0
        for i in range(start, end):
            line = self.line_of[i]
            conf = self.lines[line].conf if line >= 0 else None
            if conf is not None:
                weight += 1
                total += conf
        return round(total / weight, 4) if weight else None

    def highlights(self, start: int, end: int) -> tuple[Highlight, ...]:
        """Page-relative rectangles covering text[start:end], one per line, grouped by page."""
        per_line: dict[int, tuple[int, int]] = {}
        for i in range(start, end):
            line = self.line_of[i]
            if line < 0:
                continue
            col = self.col_of[i]
            lo, hi = per_line.get(line, (col, col))
            per_line[line] = (min(lo, col), max(hi, col))
        by_page: dict[int, list[tuple[float, float, float, float]]] = {}
        for line_index in sorted(per_line):
            lo, hi = per_line[line_index]
            text_line = self.lines[line_index]
            width, height = self.page_sizes[text_line.page]
            x0, y0, x1, y1 = (round(min(max(v, 0.0), 1.0), 5) for v in (
                text_line.xs0[lo] / width, text_line.y0 / height, text_line.xs1[hi] / width, text_line.y1 / height))
            by_page.setdefault(text_line.page, []).append((x0, y0, x1, y1))
        return tuple(Highlight(page=p, rects=tuple(r)) for p, r in sorted(by_page.items()))
