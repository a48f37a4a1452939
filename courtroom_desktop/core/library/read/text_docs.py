"""Documents that arrive as text rather than as PDFs (a benchmark corpus): sections of (heading, body), laid out as
an ExtractedDoc so that ``chunk_document`` cuts them like PDFs, and stored in batches. Files of text (Markdown, plain
text, Word) are read by ``text_files``, on the same ``_TextExtract``."""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from courtroom_desktop.core.library.read.extracted import ExtractedDoc, SectionMark
from courtroom_desktop.core.records import Highlight


@dataclass
class TextDocument:
    """A document that arrives as text rather than as a PDF (a benchmark corpus, a note): sections of
    (heading, body). It has no pages: its chunks sit on page -1 (Chunk.on_pages is False) with no highlight
    rectangles."""

    id: str
    title: str
    sections: Sequence[tuple[str, str]]
    path: str = ""
    authors: str = ""
    year: int | None = None


class _TextExtract(ExtractedDoc):
    """An ExtractedDoc without page geometry, so ``chunk_document`` can cut text documents like PDFs."""

    kind: str  # "markdown", "text" or "docx", set by text_files.to_extracted; unset on documents given as text

    def page_of(self, char: int) -> int:
        return -1  # no page

    def highlights(self, start: int, end: int) -> tuple[Highlight, ...]:
        return ()

    def ocr_confidence(self, start: int, end: int) -> None:
        return None


def text_extract(doc: TextDocument) -> ExtractedDoc:
    """Bodies joined by blank lines, a heading mark at the start of each body; headings stay out of the text
    (the chunk's section path carries them)."""
    pieces: list[str] = []
    marks: list[SectionMark] = []
    breaks: list[int] = []
    length = 0
    for heading, body in doc.sections:
        body = (body or "").strip()
        if not body:
            continue
        if length:
            pieces.append("\n\n")
            length += 2
        if heading.strip():
            marks.append(SectionMark(level=1, title=" ".join(heading.split()), char=length, page=0))
        breaks.append(length)
        for match in re.finditer(r"\n\s*\n", body):  # paragraphs inside a body
            breaks.append(length + match.end())
        pieces.append(body)
        length += len(body)
    text = "".join(pieces)
    line_of = array("i", [-1]) * len(text)
    for mark in marks:  # stops the chunker's walk back to the heading's line at once (there is no line)
        if mark.char:
            line_of[mark.char - 1] = -2
    return _TextExtract(path=doc.path, pages=1, text=text, line_of=line_of, col_of=array("i", [-1]) * len(text),
                        lines=[], page_sizes=[], headings=marks, paragraph_breaks=sorted(set(breaks)),
                        title=doc.title, authors=doc.authors, year=doc.year)
