"""A draft read into sentences, each with where it stands (``core.check.drafts`` reads them; ``core.check.word`` fills
in a Word draft's citations): records only, so that the readers can share them without importing each other."""

from __future__ import annotations

from typing import Literal

from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Frozen


class Location(Frozen):
    """Where a sentence stands. ``pdf``: its page (from 1) and the rectangles (x0, y0, x1, y1, in PDF points on that
    page, one per line) of its characters there (a sentence running onto the next page: those on its first page).
    ``paragraph``: its paragraph (from 1) and the character span [start, end) of the sentence in that paragraph's
    text."""

    kind: Literal["pdf", "paragraph"]
    page: int | None = None
    rects: tuple[tuple[float, float, float, float], ...] = ()
    paragraph: int | None = None
    start: int | None = None
    end: int | None = None

    def describe(self) -> str:
        if self.kind == "pdf":
            return Message("page {self.page}", self.page)
        return Message("paragraph {self.paragraph}, characters {self.start}-{self.end}",
                       self.paragraph, self.start, self.end)


class DraftSentence(Frozen):
    index: int  # from 0, in reading order
    text: str
    location: Location


class Draft(Frozen):
    source: str  # the file, or "pasted text"
    kind: str  # pdf, docx, markdown, text
    language: str  # core.text.language_of the whole text: 'en', 'zh', ...
    sentences: tuple[DraftSentence, ...]
