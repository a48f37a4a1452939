"""A draft -> its sentences, each with where it stands: on a PDF's page (with the rectangles of its characters there)
or in a paragraph (its index and the sentence's character span in it).

Formats: PDF (read by ``core.library.read.extract``: a box per character), Word .docx (python-docx; the paragraph
index is that of ``Document.paragraphs``, counted from 1; a paragraph's text is read as ``core.check.word`` reads it:
a superscript citation number in brackets, "3" as "[3]", a footnote's mark as "[N]", and character spans count
those brackets; ``draft_text`` adds the footnotes as a reference list), Markdown and plain text
(``core.library.read.text_files``; paragraphs are the blocks between blank lines, list items and headings, counted
from 1, headings included), and pasted text (as plain text). Headings (Markdown '#', Word heading and title styles, a
PDF's headings) are not sentences; neither are code blocks and table rows of Markdown.

Sentences: ``core.text.sentence_spans`` (. ! ? before a space and a capital, digit or bracket; 。！？；), with the
pieces it cuts after an abbreviation ("e.g.", "Fig.", "et al.") or an initial ("J. Smith") joined again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.check.draft_records import Draft as Draft
from courtroom_desktop.core.check.draft_records import DraftSentence as DraftSentence
from courtroom_desktop.core.check.draft_records import Location as Location
from courtroom_desktop.core.errors import CheckError, IngestError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.text import HAN, language_of, sentence_spans

if TYPE_CHECKING:
    from courtroom_desktop.core.library.read.extracted import SectionMark

KINDS = {".pdf": "pdf", ".docx": "docx", ".md": "markdown", ".markdown": "markdown", ".txt": "text"}
FIX_FORMAT = Message("give a .pdf, .docx, .md or .txt file, or paste the text")

# words whose full stop does not end a sentence (lower-cased, without their final '.'); "etc." usually does
ABBREVIATIONS = frozenset("""e.g i.e vs cf fig figs eq eqs al approx ca dr mr mrs ms prof no nos vol vols pp p sec secs
ch tab ref refs inc ltd co corp jr sr st mt dept univ ed eds est viz resp""".split())
LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)\.[\"')\]]?$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
TABLE_ROW = re.compile(r"^[ \t]*\|")
EN_BEFORE_ZH = re.compile(rf"(?<=[.!?])[\"')\]]?\s+(?=[{HAN}])")  # "It fell. 销售额…": core.text keeps them one
LIST_MARK = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d+[.)]|>)[ \t]+")


# ------------------------------------------------------------------------------------------------ sentences
def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``: core.text's sentences, with a cut after an abbreviation or an
    initial undone."""
    pieces: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        for cut in EN_BEFORE_ZH.finditer(text, start, end):
            pieces.append((start, cut.start()))
            start = cut.end()
        pieces.append((start, end))
    spans: list[tuple[int, int]] = []
    for start, end in pieces:
        if spans and _ends_short(text[spans[-1][0]:spans[-1][1]]):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _ends_short(piece: str) -> bool:
    """Whether ``piece`` ends with an abbreviation ('e.g.', 'Fig.', 'et al.') or an initial ('J.', 'U.S.')."""
    match = LAST_WORD.search(piece)
    if not match:
        return False
    word = match.group(1)
    if word.lower() in ABBREVIATIONS or word.lower().rstrip(".") in ABBREVIATIONS:
        return True
    return bool(re.fullmatch(r"(?:[A-Z]\.)*[A-Z]", word))  # an initial, or initials like U.S


def _sentences_of(text: str, base: int = 0) -> list[tuple[int, int]]:
    return [(base + s, base + e) for s, e in split_sentences(text)]


# ------------------------------------------------------------------------------------------------ reading
def read_draft(path: Path) -> Draft:
    """The draft's sentences with their locations; raises CheckError naming the file and what to do."""
    path = Path(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise CheckError(str(path), Message("unknown kind of draft ({path.suffix or 'no extension'})",
                                            f"{path.suffix or 'no extension'!r}"), fix=FIX_FORMAT)
    if not path.is_file():
        raise CheckError(str(path), Message("file not found"), fix=Message("check the path"))
    try:
        if kind == "pdf":
            sentences = _pdf(path)
        elif kind == "docx":
            sentences = _docx(path)
        else:
            from courtroom_desktop.core.library.read.text_files import read_layout

            layout = read_layout(path)
            sentences = _paragraph_sentences(_text_paragraphs(layout.text, layout.headings, layout.breaks,
                                                              markdown=kind == "markdown"))
    except IngestError as exc:
        raise CheckError(str(path), exc.reason.replace("ingest", "check"), fix=exc.fix or FIX_FORMAT) from None
    return _draft(str(path), kind, sentences)


def draft_text(path: Path) -> str:
    """The draft's whole text, one line per line or paragraph (its reference list is read from it:
    core.check.references); CheckError as ``read_draft`` raises it."""
    path = Path(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None or not path.is_file():
        read_draft(path)  # raises the error that names the file and the fix
    try:
        if kind == "pdf":
            import pymupdf

            with pymupdf.open(str(path)) as document:
                return "\n".join(page.get_text() for page in document)
        if kind == "docx":
            import docx

            from courtroom_desktop.core.check.word import read_word

            return read_word(docx.Document(str(path))).text()
        return path.read_text(encoding="utf-8", errors="replace")
    except Exception as exc:  # noqa: BLE001 - PyMuPDF, python-docx and the file system raise their own errors
        raise CheckError(str(path), Message("cannot be read ({type(exc).__name__}: {exc})", type(exc).__name__, exc),
                         fix=FIX_FORMAT) from None


def read_text(text: str, source: str = "pasted text") -> Draft:
    """Pasted text, read as a plain text file is."""
    from courtroom_desktop.core.library.read.text_files import _plain

    layout = _plain(text.replace("\r\n", "\n").replace("\r", "\n"))
    return _draft(source, "text", _paragraph_sentences(_text_paragraphs(layout.text, layout.headings, layout.breaks,
                                                                        markdown=False)))


def _draft(source: str, kind: str, sentences: list[tuple[str, Location]]) -> Draft:
    text = " ".join(s for s, _ in sentences)
    return Draft(source=source, kind=kind, language=language_of(text),
                 sentences=tuple(DraftSentence(index=i, text=s, location=loc) for i, (s, loc) in enumerate(sentences)))


@dataclass
class _Paragraph:
    number: int  # from 1
    text: str
    body: int  # where the prose starts in ``text`` (after a list marker)
    prose: bool  # False for headings, code blocks, table rows


def _paragraph_sentences(paragraphs: list[_Paragraph]) -> list[tuple[str, Location]]:
    out: list[tuple[str, Location]] = []
    for paragraph in paragraphs:
        if not paragraph.prose:
            continue
        for start, end in _sentences_of(paragraph.text[paragraph.body:], paragraph.body):
            out.append((paragraph.text[start:end], Location(kind="paragraph", paragraph=paragraph.number,
                                                            start=start, end=end)))
    return out


def _text_paragraphs(text: str, headings: list[SectionMark], breaks: list[int], *,
                     markdown: bool) -> list[_Paragraph]:
    """A Markdown or text file's paragraphs: the pieces between the reader's breaks (blank lines, list items,
    headings), numbered from 1 in file order, headings included (not prose)."""
    heading_spans = [(h.start, h.char) for h in headings if h.start >= 0]
    cuts = sorted({0, len(text), *breaks, *(s for s, _ in heading_spans), *(e for _, e in heading_spans)})
    paragraphs: list[_Paragraph] = []
    for start, end in zip(cuts, cuts[1:], strict=False):
        piece = text[start:end]
        if not piece.strip():
            continue
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        at = start + lead
        heading = any(s <= at < e for s, e in heading_spans)
        prose = not heading and not (markdown and (FENCE.match(piece) or TABLE_ROW.match(piece)))
        marker = LIST_MARK.match(piece)
        paragraphs.append(_Paragraph(number=len(paragraphs) + 1, text=piece, body=marker.end() if marker else 0,
                                     prose=prose))
    return paragraphs


def _docx(path: Path) -> list[tuple[str, Location]]:
    from courtroom_desktop.core.library.read.text_files import _word_level

    try:
        import docx

        from courtroom_desktop.core.check.word import read_word

        document = docx.Document(str(path))
        paragraphs = list(document.paragraphs)
        texts = read_word(document).paragraphs
    except Exception as exc:  # noqa: BLE001 - python-docx raises zip, XML and its own errors
        raise CheckError(str(path), Message("not a Word document (.docx), or a damaged one ({type(exc).__name__})",
                                            type(exc).__name__),
                         fix=Message("open and save it again in Word, or save it as PDF or text")) from None
    out: list[_Paragraph] = []
    for number, (paragraph, text) in enumerate(zip(paragraphs, texts, strict=True), start=1):
        if not text.strip():
            continue
        out.append(_Paragraph(number=number, text=text, body=0, prose=_word_level(paragraph) is None))
    return _paragraph_sentences(out)


def _pdf(path: Path) -> list[tuple[str, Location]]:
    import pymupdf

    from courtroom_desktop.core.library.read.extract import check_file, extract

    check_file(path)
    try:
        doc = pymupdf.open(str(path), filetype="pdf")
    except Exception as exc:  # noqa: BLE001 - PyMuPDF raises several types for broken files
        raise CheckError(str(path), Message("a damaged PDF, it cannot be opened ({exc})", exc), fix=Message("repair or re-export "
                                                                                               "it")) from None
    encrypted = doc.needs_pass or doc.is_encrypted
    doc.close()
    if encrypted:
        raise CheckError(str(path), Message("the PDF is encrypted (it needs a password)"),
                         fix=Message("save an unprotected copy of the draft and check that"))
    try:
        extracted = extract(path)
    except IngestError as exc:
        if "no text layer" in exc.reason:
            raise CheckError(str(path), Message("a scanned PDF: its pages are images, with no text layer to read"),
                             fix=Message("check the draft's source (.docx, .md, .txt) or a PDF exported with text, "
                                         "or run OCR on it first")) from None
        raise
    text = extracted.text
    heading_spans = [(h.start, h.char) for h in extracted.headings if h.start >= 0]
    cuts = sorted({0, len(text), *extracted.paragraph_breaks})
    out: list[tuple[str, Location]] = []
    for block_start, block_end in zip(cuts, cuts[1:], strict=False):
        for start, end in _sentences_of(text[block_start:block_end], block_start):
            if any(s <= start < e for s, e in heading_spans):
                continue
            highlights = extracted.highlights(start, end)
            if not highlights:
                continue
            first = highlights[0]
            width, height = extracted.page_sizes[first.page]
            rects = tuple((round(x0 * width, 2), round(y0 * height, 2), round(x1 * width, 2), round(y1 * height, 2))
                          for x0, y0, x1, y1 in first.rects)
            out.append((text[start:end], Location(kind="pdf", page=first.page + 1, rects=rects)))
    return out
