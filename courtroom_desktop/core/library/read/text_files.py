"""Markdown, plain text and Word files -> an ExtractedDoc that ``chunk_document`` cuts like a PDF.

A text document has no pages: its text is the file's text (decoded, line ends made '\\n'; for Word, its paragraphs
and table rows one after another), chunks sit on page -1 (no page) with no highlight rectangles, and each chunk's span
(char_start, char_end) indexes ``document_text(path)``, so a cited passage is highlighted in the text. Headings stay
in the text but belong to no chunk: each section's body starts after its heading, whose title is in the chunk's
section path.

Sections: Markdown ATX headings (# .. ######) and setext headings (a line underlined with === or ---), never inside
a fenced code block; in plain text, a short line standing alone that is numbered ('2.1 Methods', '一、背景', '（二）'),
underlined, or a known heading word; in Word, paragraphs in the Title and Heading 1..9 styles (or with an outline
level). A leading YAML front matter block gives the title and is blanked (spaces, so that offsets still match the file).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.files import kind_of
from courtroom_desktop.core.library.read.extracted import ExtractedDoc, SectionMark
from courtroom_desktop.core.library.read.headings import KNOWN_HEADINGS, NUMBERED, heading_title
from courtroom_desktop.core.library.read.headings import _heading_level as numbered_level
from courtroom_desktop.core.library.read.text_docs import _TextExtract

if TYPE_CHECKING:
    from docx.text.paragraph import Paragraph

MAX_BYTES = 50 * 1024 * 1024
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d+[.)])[ \t]+\S")
TABLE_ROW = re.compile(r"^[ \t]*\|")
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
SENTENCE_TAIL = (".", ",", ";", ":", "!", "?", "\u3002", "\uff0c", "\uff1b", "\uff1a", "\uff01", "\uff1f")
WORD_HEADING = re.compile(r"^(?:heading|\u6807\u9898)\s*(\d)$", re.I)  # 'Heading 2', '标题 2'


@dataclass
class TextLayout:
    """A text document as read: its text, sections and paragraph starts, before chunking."""

    kind: str
    text: str
    title: str = ""
    headings: list[SectionMark] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)


def read_text_file(path: Path) -> ExtractedDoc:
    """The file as an ExtractedDoc (raises IngestError with a reason a person can act on)."""
    return to_extracted(read_layout(Path(path)), str(path))


def document_text(path: Path) -> str:
    """The text a text document's character spans index (what the evidence inspector and report excerpts show)."""
    return read_layout(Path(path)).text


def read_layout(path: Path) -> TextLayout:
    kind = kind_of(path)
    if not path.exists():
        raise IngestError(str(path), Message("file not found"))
    size = path.stat().st_size
    if size == 0:
        raise IngestError(str(path), Message("empty file (0 bytes): nothing to ingest"))
    if size > MAX_BYTES:
        raise IngestError(str(path), Message("{size // (1024 * 1024)} MB is too large for a text document (at most "
                                             "{MAX_BYTES // (1024 * 1024)} MB): split it",
                                             size // (1024 * 1024), MAX_BYTES // (1024 * 1024)))
    if kind == "docx":
        layout = _docx(path)
    else:
        text = decode(path.read_bytes(), str(path))
        layout = _markdown(text) if kind == "markdown" else _plain(text)
    layout.title = " ".join(layout.title.split()) or path.stem.replace("_", " ")
    return layout


def to_extracted(layout: TextLayout, path: str) -> ExtractedDoc:
    text = layout.text
    line_of = array("i", [-1]) * len(text)
    doc = _TextExtract(path=path, pages=0, text=text, line_of=line_of, col_of=array("i", [-1]) * len(text), lines=[],
                       page_sizes=[], headings=layout.headings, paragraph_breaks=sorted(set(layout.breaks)),
                       title=layout.title)
    doc.kind = layout.kind
    return doc


def decode(data: bytes, where: str) -> str:
    """UTF-8 (with or without a BOM), UTF-16 with a BOM, GB18030 (older Chinese files), else Windows-1252; a file with
    NUL bytes and no UTF-16 BOM is binary and refused. Line ends become '\\n'."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif b"\x00" in data[:8192]:
        raise IngestError(where, Message("not a text file (it holds binary data): save it as text, Markdown or PDF"))
    else:
        for encoding in ("utf-8-sig", "gb18030", "cp1252"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", " ")


# ------------------------------------------------------------------------------------------------ Markdown
def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its '\\n') for each line of the text."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _markdown(text: str) -> TextLayout:
    title = ""
    front = FRONT_MATTER.match(text)
    if front:
        found = re.search(r"^title:[ \t]*(.+?)[ \t]*$", front.group(1), re.M)
        title = found.group(1).strip("'\"") if found else ""
        text = re.sub(r"[^\n]", " ", text[:front.end()]) + text[front.end():]  # blanked: offsets still match the file
    layout = TextLayout(kind="markdown", text=text)
    lines = _lines(text)
    fenced = False
    for index, (at, line) in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            layout.breaks.append(at)
            continue
        if fenced:
            continue
        previous = lines[index - 1][1] if index else ""
        if not line.strip() or LIST_ITEM.match(line) or TABLE_ROW.match(line) or not previous.strip():
            layout.breaks.append(at)
        atx = ATX.match(line)
        if atx and (atx.group(2) or "").strip():
            _mark(layout, len(atx.group(1)), atx.group(2), at, at + len(line) + 1)
            continue
        setext = SETEXT.match(line)
        before = lines[index - 2][1] if index > 1 else ""
        if (setext and index and previous.strip() and not before.strip() and not ATX.match(previous)
                and not LIST_ITEM.match(previous) and not TABLE_ROW.match(previous) and not SETEXT.match(previous)):
            _mark(layout, 1 if setext.group(1)[0] == "=" else 2, previous, lines[index - 1][0], at + len(line) + 1)
    if not title:
        top = [m for m in layout.headings if m.level == 1]
        if len(top) == 1 and layout.headings[0] is top[0]:
            title = top[0].title
    layout.title = title
    return layout


def _mark(layout: TextLayout, level: int, title: str, start: int, body: int) -> None:
    """A section: its heading starts at ``start``, its body at ``body`` (the line after the heading)."""
    body = min(body, len(layout.text))
    layout.headings.append(SectionMark(level=level, title=" ".join(title.split()), char=body, page=0, start=start))
    layout.breaks.extend((start, body))


# ------------------------------------------------------------------------------------------------ plain text
def _plain(text: str) -> TextLayout:
    layout = TextLayout(kind="text", text=text)
    lines = _lines(text)
    for index, (at, line) in enumerate(lines):
        previous = lines[index - 1][1] if index else ""
        following = lines[index + 1][1] if index + 1 < len(lines) else ""
        if not line.strip() or LIST_ITEM.match(line) or not previous.strip():
            layout.breaks.append(at)
        stripped = line.strip()
        if not stripped or previous.strip() or SETEXT.match(stripped):
            continue
        underlined = bool(SETEXT.match(following)) and len(following.strip()) >= 3
        if not underlined and following.strip():
            continue  # a heading stands alone: a blank line (or an underline) after it
        level = _plain_heading(stripped, underlined)
        if level:
            body = at + len(line) + 1 + (len(following) + 1 if underlined else 0)
            _mark(layout, level, stripped, at, body)
    return layout


def _plain_heading(line: str, underlined: bool) -> int:
    """The heading level of a line standing alone, or 0 when it reads as text."""
    if len(line) > 80 or len(line.split()) > 12:
        return 0
    numbered = NUMBERED.match(line)
    if underlined:
        return numbered_level(line, 1) if numbered else 1
    if line.endswith(SENTENCE_TAIL):
        return 0
    if numbered and (numbered.group("zh") or not re.match(r"^\d+\.\s", line) or len(line.split()) <= 8):
        return numbered_level(line, 1)
    key = " ".join(heading_title(line).lower().split())
    return 1 if key in KNOWN_HEADINGS else 0


# ------------------------------------------------------------------------------------------------ Word
def _docx(path: Path) -> TextLayout:
    try:
        import docx
        from docx.oxml.ns import qn
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        document = docx.Document(str(path))
    except Exception as exc:  # noqa: BLE001 - python-docx raises zip, XML and its own errors
        raise IngestError(str(path), Message("not a Word document (.docx), or a damaged one ({type(exc).__name__}): "
                                             "open and save it again in Word, or save it as PDF",
                                             type(exc).__name__)) from None
    layout = TextLayout(kind="docx", text="")
    pieces: list[str] = []
    length = 0
    title = document.core_properties.title or ""

    def add(text: str, rows: Sequence[int] = ()) -> int:
        nonlocal length
        if pieces:
            pieces.append("\n\n")
            length += 2
        start = length
        layout.breaks.append(start)
        layout.breaks.extend(start + r for r in rows)
        pieces.append(text)
        length += len(text)
        return start

    for element in document.element.body.iterchildren():
        if element.tag == qn("w:p"):
            paragraph = Paragraph(element, document)
            text = paragraph.text.strip()
            if not text:
                continue
            level = _word_level(paragraph)
            if level is None:
                style = (paragraph.style.name if paragraph.style is not None else "") or ""
                add(("\u2022 " + text) if style.lower().startswith("list") else text)
                continue
            start = add(text)
            title = title or (text if level == 0 else "")
            layout.headings.append(SectionMark(level=level, title=" ".join(text.split()), char=start + len(text) + 2,
                                               page=0, start=start))
        elif element.tag == qn("w:tbl"):
            rows, offsets, at = [], [], 0
            for row in Table(element, document).rows:
                cells = list(dict.fromkeys(c.text.strip() for c in row.cells))  # merged cells repeat
                line = " | ".join(c for c in cells if c)
                if line:
                    offsets.append(at)
                    rows.append(line)
                    at += len(line) + 1
            if rows:
                add("\n".join(rows), offsets)
    layout.text = "".join(pieces)
    for mark in layout.headings:
        mark.char = min(mark.char, len(layout.text))
    layout.title = title
    return layout


def _word_level(paragraph: Paragraph) -> int | None:
    """0 for the Title style, n for Heading n (or an outline level n-1 set on the paragraph or its style), else None."""
    style = paragraph.style
    name = ((style.name if style is not None else "") or "").strip()
    if name.lower() in ("title", "\u6807\u9898"):
        return 0
    match = WORD_HEADING.match(name)
    if match:
        return int(match.group(1))
    for owner in (paragraph._p, style.element if style is not None else None):
        ppr = owner.find(_qn("w:pPr")) if owner is not None else None
        outline = ppr.find(_qn("w:outlineLvl")) if ppr is not None else None
        if outline is not None:
            value = int(outline.get(_qn("w:val"), "9"))
            return value + 1 if value < 9 else None
    return None


def _qn(tag: str) -> str:
    from docx.oxml.ns import qn

    return qn(tag)
