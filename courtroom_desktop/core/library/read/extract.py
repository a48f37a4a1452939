"""PDF -> text with positions -> sections (the records: core.library.read.extracted; the sections: core.library.read.headings).

The document's text is built line by line from PyMuPDF's ``rawdict`` (which has a box for every character),
so any character span of the text maps back to rectangles on its pages. Sections come from the PDF outline
when there is one, else from headings found by font size, weight and numbering.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.read.extracted import ExtractedDoc, Line
from courtroom_desktop.core.library.read.headings import (
    CJK_END,
    CJK_START,
    _headings_from_fonts,
    _headings_from_outline,
    _line_starts,
)
from courtroom_desktop.core.library.read.ocr import OcrOptions

BOLD_FLAG = 1 << 4
MAX_META_CHARS = 300  # a title or author list longer than this is noise (it is prepended to every chunk embedded)
MIN_PAGE_CHARS = 20    # a page with fewer characters of text than this has no usable text layer ...
MIN_IMAGE_SHARE = 0.3  # ... when images cover at least this share of it (a scan); a blank page is not reported


def check_file(path: Path) -> None:
    """Cheap checks before PyMuPDF sees the file; raises IngestError with a reason a person can act on."""
    if not path.exists():
        raise IngestError(str(path), Message("file not found"))
    size = path.stat().st_size
    if size == 0:
        raise IngestError(str(path), Message("empty file (0 bytes): nothing to ingest"))
    with path.open("rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" not in head:
        raise IngestError(str(path), Message("not a PDF (no %PDF- header): convert it to PDF first"))


def open_pdf(path: Path) -> pymupdf.Document:
    check_file(path)
    try:
        doc = pymupdf.open(str(path), filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise IngestError(str(path), Message("corrupt PDF, cannot be opened ({exc}): repair or re-export it", exc)) from exc
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise IngestError(str(path), Message("encrypted: the PDF needs a password; save an unprotected copy and "
                                             "ingest that"))
    if doc.page_count == 0:
        doc.close()
        raise IngestError(str(path), Message("the PDF has no pages"))
    return doc


def extract(path: Path, on_page: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] = lambda: False, ocr: OcrOptions | None = None,
            on_ocr: Callable[[int, int], None] | None = None) -> ExtractedDoc:
    """Extract text, positions, metadata and section marks. ``on_page(done, total)`` reports progress. With ``ocr``
    (mode "auto" or "force"), pages with no text layer (or every page) are read by OCR afterwards, reported by
    ``on_ocr(done, total)``."""
    from courtroom_desktop.core.errors import Cancelled

    doc = open_pdf(path)
    try:
        return _extract(doc, path, on_page, cancelled, ocr, on_ocr)
    except (IngestError, Cancelled):
        raise
    except Exception as exc:
        raise IngestError(str(path), Message("corrupt PDF, text extraction failed ({exc}): repair or re-export it",
                                             exc)) from exc
    finally:
        doc.close()


def _page_lines(page: pymupdf.Page, page_number: int) -> tuple[list[Line], int]:
    """The text layer of one page as lines (blocks numbered on the page), and how many image blocks it has."""
    raw = page.get_text(
        "rawdict", flags=pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP)
    lines: list[Line] = []
    images = 0
    for block_number, block in enumerate(raw.get("blocks", [])):
        if block.get("type") == 1:
            images += 1
            continue
        for raw_line in block.get("lines", []):
            chars: list[str] = []
            xs0 = array("f")
            xs1 = array("f")
            sizes: list[float] = []
            bold = True
            for span in raw_line.get("spans", []):
                span_chars = span.get("chars", [])
                if not span_chars:
                    continue
                if not span["flags"] & BOLD_FLAG and "bold" not in span.get("font", "").lower():
                    bold = False
                sizes.extend([span["size"]] * len(span_chars))
                for ch in span_chars:
                    chars.append(ch["c"])
                    xs0.append(ch["bbox"][0])
                    xs1.append(ch["bbox"][2])
            text = "".join(chars)
            stripped = text.rstrip()
            if not stripped.strip():
                continue
            lead = len(text) - len(text.lstrip())
            text = stripped[lead:]
            xs0 = xs0[lead:lead + len(text)]
            xs1 = xs1[lead:lead + len(text)]
            y0, y1 = raw_line["bbox"][1], raw_line["bbox"][3]
            lines.append(Line(page_number, y0, y1, text, xs0, xs1, max(sizes), bold, block_number))
    return lines, images


def _extract(doc: pymupdf.Document, path: Path, on_page: Callable[[int, int], None] | None,
             cancelled: Callable[[], bool], ocr: OcrOptions | None = None,
             on_ocr: Callable[[int, int], None] | None = None) -> ExtractedDoc:
    from courtroom_desktop.core.errors import Cancelled

    page_sizes: list[tuple[float, float]] = []
    pages: list[list[Line]] = []
    images = 0
    pages_without_text: list[int] = []
    mode = ocr.mode if ocr is not None else "off"
    for page_number in range(doc.page_count):
        if cancelled():
            raise Cancelled()
        page = doc.load_page(page_number)
        # text positions are in the unrotated page's space: measure them against the unrotated size
        rect = page.rect * page.derotation_matrix if page.rotation else page.rect
        page_sizes.append((abs(rect.width) or 1.0, abs(rect.height) or 1.0))
        page_lines, page_images = _page_lines(page, page_number)
        images += page_images
        pages.append(page_lines)
        if sum(len(line.text) for line in page_lines) < MIN_PAGE_CHARS and _image_share(page) >= MIN_IMAGE_SHARE:
            pages_without_text.append(page_number)
        if on_page:
            on_page(page_number + 1, doc.page_count)

    to_read = list(range(doc.page_count)) if mode == "force" else list(pages_without_text) if mode == "auto" else []
    if mode == "auto" and not any(pages):
        # no text anywhere, but images: a scan whose images cover less of the page than a full-page scan does
        to_read = [n for n in range(doc.page_count) if doc.load_page(n).get_images()]
    report = _read_scans(doc, pages, to_read, pages_without_text, ocr, on_ocr, cancelled) if to_read and ocr is not None else None

    text, line_of, col_of, lines, paragraph_breaks = _assemble(pages)
    if not text.strip():
        if images or any(doc.load_page(i).get_images() for i in range(doc.page_count)):
            if report is None:
                off = ' (library.ocr is "off")' if ocr is not None and mode == "off" else ""
                raise IngestError(str(path), Message("no text layer: the pages are images (a scan); needs OCR "
                                                     "first{off}",
                                                     off))
            gave_up = f"; {'; '.join(report.notes)}" if report.notes else ""
            raise IngestError(str(path), Message("no text layer: the pages are images (a scan), and OCR read no "
                                                 "text on them{gave_up}",
                                                 gave_up))
        raise IngestError(str(path), Message("no text found in the PDF"))

    extracted = ExtractedDoc(
        path=str(path), pages=doc.page_count, text=text, line_of=line_of, col_of=col_of, lines=lines,
        page_sizes=page_sizes, paragraph_breaks=paragraph_breaks, pages_without_text=pages_without_text,
    )
    if report is not None:
        extracted.ocr_pages, extracted.ocr_notes = report.tried, report.notes
        extracted.ocr_read, extracted.ocr_seconds = report.read, report.seconds
    line_starts = _line_starts(extracted)
    try:
        toc = doc.get_toc(simple=True)
    except (RecursionError, RuntimeError, ValueError):  # an outline nested thousands deep, or one that loops
        toc = []
    extracted.headings = _headings_from_outline(extracted, toc, line_starts) if toc else []
    if not extracted.headings:
        extracted.headings = _headings_from_fonts(extracted, line_starts)
    _metadata(extracted, doc.metadata or {})
    return extracted


def _assemble(pages: list[list[Line]]) -> tuple[str, array[int], array[int], list[Line], list[int]]:
    """The document's text from its pages' lines, in order: blocks become paragraphs (a blank line between them),
    lines of a block join with a space (none where Chinese or Japanese wraps, none after a dropped hyphen)."""
    pieces: list[str] = []
    line_of = array("i")
    col_of = array("i")
    lines: list[Line] = []
    paragraph_breaks: list[int] = []
    length = 0
    pending_hyphen = False

    def emit(text: str, line_index: int, first_col: int) -> None:
        nonlocal length
        pieces.append(text)
        if line_index >= 0:
            line_of.extend([line_index] * len(text))
            col_of.extend(range(first_col, first_col + len(text)))
        else:
            line_of.extend([-1] * len(text))
            col_of.extend([-1] * len(text))
        length += len(text)

    block_key = None
    for page_lines in pages:
        for line in page_lines:
            line_index = len(lines)
            lines.append(line)
            if (line.page, line.block) != block_key:
                pending_hyphen = False  # a block never continues a hyphenated word into the next block
                block_key = (line.page, line.block)
                if length:
                    emit("\n\n", -1, 0)
                paragraph_breaks.append(length)
            elif not pending_hyphen and not (CJK_END.search(lines[line_index - 1].text) and CJK_START.match(line.text)):
                emit(" ", -1, 0)  # a line wrapped in Chinese or Japanese continues without a space
            pending_hyphen = False
            # "treat-\nment" -> "treatment": drop a line-final hyphen before a lower-case continuation
            text = line.text
            if len(text) > 2 and text.endswith("-") and text[-2].isalpha():
                emit(text[:-1], line_index, 0)
                pending_hyphen = True
            else:
                emit(text, line_index, 0)
    return "".join(pieces), line_of, col_of, lines, paragraph_breaks


@dataclass
class _OcrReport:
    tried: list[int] = field(default_factory=list)   # pages OCR was run on (or taken from its cache)
    notes: list[str] = field(default_factory=list)   # pages given up, and why
    read: int = 0                                    # pages run through the engine (not from the cache)
    seconds: float = 0.0


def _read_scans(doc: pymupdf.Document, pages: list[list[Line]], to_read: list[int], pages_without_text: list[int],
                options: OcrOptions, on_ocr: Callable[[int, int], None] | None,
                cancelled: Callable[[], bool]) -> _OcrReport:
    """OCR ``to_read`` one page at a time (rendered, read, freed), each within options.page_timeout_s; a page whose
    OCR found text replaces its text layer and leaves ``pages_without_text``."""
    import time

    from courtroom_desktop.core.errors import Cancelled
    from courtroom_desktop.core.library.read import ocr as ocr_module

    began = time.perf_counter()
    report = _OcrReport()
    cache = None
    if options.cache:
        try:
            cache = ocr_module.OcrCache(options.cache)
        except Exception:  # noqa: BLE001 - no cache: slower, not wrong
            cache = None

    def check() -> None:
        if cancelled():
            raise Cancelled()

    if on_ocr:
        on_ocr(0, len(to_read))
    read_lines: list[Line] = []
    try:
        for done, page_number in enumerate(to_read, start=1):
            check()
            page = doc.load_page(page_number)
            key = ocr_module.page_key(page, options)
            found = cache.get(key) if cache is not None else None
            report.tried.append(page_number)
            if found is None:
                deadline = time.monotonic() + options.page_timeout_s
                try:
                    found = ocr_module.read_page(page, options, deadline, check)
                except ocr_module.OcrGaveUp:
                    report.notes.append(f"OCR gave up on page {page_number + 1} after "
                                        f"{options.page_timeout_s:g} s (library.ocr_page_timeout_s)")
                    found = None
                except ImportError as exc:  # an installation without the OCR package: say so once, read nothing
                    report.notes.append(f"OCR is not available ({exc}): install rapidocr-onnxruntime")
                    report.tried.pop()
                    break
                except (Cancelled, MemoryError):
                    raise
                except Exception as exc:  # noqa: BLE001 - one page OCR cannot read costs that page, not the document
                    report.notes.append(f"OCR failed on page {page_number + 1} ({type(exc).__name__}: {exc})")
                    found = None
                else:
                    report.read += 1
                    if cache is not None:
                        cache.put(key, found)
            del page
            if found:
                lines = [Line(page_number, item.y0, item.y1, item.text, array("f", item.xs0), array("f", item.xs1),
                              item.size, False, item.block, item.conf) for item in found]
                pages[page_number] = lines
                read_lines.extend(lines)
                if page_number in pages_without_text:
                    pages_without_text.remove(page_number)
            if on_ocr:
                on_ocr(done, len(to_read))
    finally:
        if cache is not None:
            cache.close()
    ocr_module.settle_sizes(read_lines)
    report.seconds = time.perf_counter() - began
    return report


def _image_share(page: pymupdf.Page) -> float:
    """How much of the page its images cover (asked only of pages with next to no text, where a scan would be)."""
    area = abs(page.rect.width * page.rect.height) or 1.0
    covered = 0.0
    for info in page.get_image_info():
        rect = pymupdf.Rect(info["bbox"]) & page.rect
        covered += abs(rect.width * rect.height) if not rect.is_empty else 0.0
    return min(covered / area, 1.0)


def _metadata(doc: ExtractedDoc, meta: dict[str, Any]) -> None:
    title = (meta.get("title") or "").strip()
    if not title or title.lower() in {"untitled", "microsoft word"}:
        first = [line for line in doc.lines if line.page == 0]
        if first:
            top = max(line.size for line in first)
            title = " ".join(line.text for line in first if line.size == top)[:200]
    doc.title = (title or Path(doc.path).stem)[:MAX_META_CHARS].strip()
    doc.authors = (meta.get("author") or "").strip()[:MAX_META_CHARS]
    year = None
    for key in ("creationDate", "modDate"):
        match = re.search(r"(19|20)\d\d", meta.get(key) or "")
        if match:
            year = int(match.group(0))
            break
    first_page_text = " ".join(line.text for line in doc.lines[:60] if line.page == 0)
    match = re.search(r"\b(19[5-9]\d|20[0-4]\d)\b", first_page_text)
    if match:
        year = int(match.group(0))
    doc.year = year

