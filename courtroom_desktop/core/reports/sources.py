"""Highlighted copies of the cited pages.

For every cited passage: the page(s) it sits on, copied from the source PDF into ``<report folder>/sources/`` as
``E3-p4.pdf`` (E3: the evidence id, p4: the passage's first page in the source), with a highlight annotation on the
chunk's stored rectangles and, where counsel quoted the passage, a second highlight on the quotation itself; plus a
PNG of the highlighted region of each page (``E3-p4.png``) for the HTML report.

A source that is gone, moved or changed never stops a report: the copy is skipped and ``SourceCopy.note`` says why,
and the report shows the passage text that the trial kept.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.court.records import PoolEntry
from courtroom_desktop.core.reports.excerpts import write_excerpt
from courtroom_desktop.core.reports.record import SourceCopy, TrialRecord
from courtroom_desktop.core.reports.words import language

if TYPE_CHECKING:  # imported where it is used: opening the package must not load MuPDF
    import pymupdf

log = logging.getLogger(__name__)
SOURCES_DIR = "sources"
SOURCE_FILE = re.compile(r"^E\d+(-p\d+\.(pdf|png)|\.html)$")
PASSAGE_COLOUR = (1.0, 0.86, 0.2)   # yellow: the cited passage
QUOTE_COLOUR = (1.0, 0.55, 0.1)     # orange: the words counsel quoted
IMAGE_DPI = 110
IMAGE_MARGIN = 54.0                 # points of context above and below the passage in the PNG
Locate = Callable[[str], "str | None"]


def highlight_sources(record: TrialRecord, out_dir: Path, locate: Locate | None = None) -> TrialRecord:
    """Write the highlighted pages of every cited passage under ``out_dir/sources``; returns the record with
    ``sources`` filled in. ``locate(doc_id) -> path`` is asked where a document is now when its recorded path is
    gone (e.g. the library's catalogue after the file was moved and added again)."""
    folder = Path(out_dir) / SOURCES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():  # an earlier export into the same folder: its copies would be stale
        if stale.is_file() and SOURCE_FILE.match(stale.name):
            stale.unlink()
    hashes: dict[Path, str] = {}
    copies: list[SourceCopy] = []
    for evidence_id in record.cited_ids():
        entry = record.entry(evidence_id)
        assert entry is not None  # cited_ids() names only passages of the pool
        chunk = entry.evidence.chunk
        try:
            if not chunk.on_pages:  # a text document: an excerpt with the passage marked (core.reports.excerpts)
                path, why = find_source(chunk.doc_id, entry.evidence.doc_path, locate, hashes)
                copies.append(write_excerpt(entry, folder, path, why and f"{why}; the excerpt shows the passage the "
                                            "trial kept", language(record)))
                continue
            copies.append(_copy(entry, record.quotes(evidence_id), folder, locate, hashes))
        except Exception as exc:  # a broken source file must not stop the report
            log.warning("highlighting %s failed", evidence_id, exc_info=True)
            copies.append(SourceCopy(evidence_id=evidence_id, original_page=chunk.page_start + 1,
                                     note=f"the highlighted page could not be made ({type(exc).__name__}: {exc})"))
    return record.model_copy(update={"sources": tuple(copies)})


def _sha256(path: Path, hashes: dict[Path, str]) -> str:
    if path not in hashes:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        hashes[path] = digest.hexdigest()
    return hashes[path]


def _is_content_id(doc_id: str) -> bool:
    return len(doc_id) >= 8 and all(c in "0123456789abcdef" for c in doc_id.lower())


def find_source(doc_id: str, doc_path: str, locate: Locate | None, hashes: dict[Path, str]) -> tuple[Path | None, str]:
    """The file holding the document as it was ingested, or None and why not. Library document ids are a prefix
    of the file's sha256, so a file that was edited after ingestion is recognised and not used."""
    tried: list[Path] = []
    changed: Path | None = None

    def usable(path: Path) -> bool:
        nonlocal changed
        tried.append(path)
        if not path.is_file():
            return False
        if _is_content_id(doc_id) and not _sha256(path, hashes).startswith(doc_id.lower()):
            changed = path
            return False
        return True

    if doc_path and usable(Path(doc_path)):
        return Path(doc_path), ""
    if locate is not None:
        try:
            where = locate(doc_id)
        except Exception:  # the library may be unavailable: the recorded path was the best we had
            where = None
        if where and Path(where) not in tried and usable(Path(where)):
            return Path(where), ""
    if changed is not None:
        return None, (f"the file {changed} has changed since it was added to the library, so its pages no longer "
                      "match the passage")
    if not doc_path:
        return None, "the trial recorded no source file for this passage"
    return None, f"the source PDF is no longer at {doc_path} (moved or deleted)"


def _copy(entry: PoolEntry, quotes: list[str], folder: Path, locate: Locate | None, hashes: dict[Path, str]) -> SourceCopy:
    import pymupdf

    evidence = entry.evidence
    chunk = evidence.chunk
    first, last = chunk.page_start, max(chunk.page_end, chunk.page_start)
    base = SourceCopy(evidence_id=entry.id, original_page=first + 1)
    path, why = find_source(chunk.doc_id, evidence.doc_path, locate, hashes)
    if path is None:
        return base.model_copy(update={"note": why})
    src = pymupdf.open(str(path))
    try:
        if not src.is_pdf or src.needs_pass:
            return base.model_copy(update={"note": f"{path} cannot be opened as a plain PDF"})
        if last >= src.page_count:
            return base.model_copy(update={"note": f"{path} has {src.page_count} pages, the passage is on page {last + 1}"})
        out = pymupdf.open()
        out.insert_pdf(src, from_page=first, to_page=last, links=False, widgets=False)
    finally:
        src.close()
    try:
        out.set_page_labels([{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": first + 1}])
        title = evidence.doc_title or path.stem
        out.set_metadata({"title": f"{entry.id}: {title}, page {first + 1} (highlighted)",
                          "producer": "Courtroom Desktop", "subject": chunk.section_path})
        stem = f"{entry.id}-p{first + 1}"
        highlights = 0
        passage_rects: dict[int, list[pymupdf.Rect]] = {}
        for highlight in chunk.highlights:
            if not first <= highlight.page <= last:
                continue
            page = out[highlight.page - first]
            rects = [_to_points(page, rect) for rect in highlight.rects]
            rects = [r for r in rects if not r.is_empty]
            if not rects:
                continue
            passage_rects[highlight.page - first] = rects
            annot = page.add_highlight_annot(rects)
            annot.set_colors(stroke=PASSAGE_COLOUR)
            annot.set_info(title="Courtroom Desktop", content=f"{entry.id}: {title}, page {highlight.page + 1}",
                           subject="cited passage")
            annot.update()
            highlights += 1
        found_quotes: list[str] = []
        notes: list[str] = []
        for quote in quotes:
            if _highlight_quote(out, passage_rects, quote, entry.id):
                found_quotes.append(quote)
            else:
                notes.append(f"the quotation \u201c{quote[:60]}\u201d was not found on the page; the passage is highlighted")
        if not highlights:
            notes.append("the passage has no stored position on this page; the page is copied without a highlight")
        images: list[str] = []
        for index in range(out.page_count):
            page = out[index]
            name = f"{entry.id}-p{first + index + 1}.png"
            clip = _image_clip(page, passage_rects.get(index, []))
            _framed(page.get_pixmap(dpi=IMAGE_DPI, clip=clip, annots=True)).save(str(folder / name))
            images.append(f"{SOURCES_DIR}/{name}")
        out.save(str(folder / f"{stem}.pdf"), garbage=3, deflate=True)
        return base.model_copy(update={
            "pdf": f"{SOURCES_DIR}/{stem}.pdf", "page": 1, "pages": out.page_count, "images": tuple(images),
            "highlights": highlights, "quotes": tuple(found_quotes), "note": "; ".join(notes),
        })
    finally:
        out.close()


def _to_points(page: pymupdf.Page, rect: Sequence[float]) -> pymupdf.Rect:
    """Stored rectangles are fractions of the unrotated page, in the text-extraction space that PyMuPDF keeps
    unrotated; annotations and search results use that same space."""
    import pymupdf

    space = page.rect * page.derotation_matrix if page.rotation else page.rect
    width, height = abs(space.width), abs(space.height)
    x0, y0, x1, y1 = rect
    return pymupdf.Rect(x0 * width, y0 * height, x1 * width, y1 * height)


def _highlight_quote(doc: pymupdf.Document, passage_rects: dict[int, list[pymupdf.Rect]], quote: str, evidence_id: str) -> bool:
    """Highlight the quotation where it occurs inside the passage (a page may repeat the words elsewhere).

    PyMuPDF's search first (ligatures spelled out, hyphenated line ends joined); then, since the court accepts a
    quotation whatever its punctuation and spacing, a match on letters and digits alone, character by character."""
    import pymupdf

    flags = pymupdf.TEXT_DEHYPHENATE | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
    placed = False
    for index, rects in passage_rects.items():
        page = doc[index]
        zones = [r + (-2, -2, 2, 2) for r in rects]
        marks = [q for q in page.search_for(quote, quads=True, flags=flags) if any(q.rect.intersects(z) for z in zones)]
        if not marks:
            marks = _quote_rects(page, zones, quote)
        if not marks:
            continue
        annot = page.add_highlight_annot(_by_line([pymupdf.Rect(m.rect if hasattr(m, "rect") else m) for m in marks]))
        annot.set_colors(stroke=QUOTE_COLOUR)
        annot.set_info(title="Courtroom Desktop", content=f"{evidence_id}, quoted: \u201c{quote}\u201d", subject="quotation")
        annot.update()
        placed = True
    return placed


def _by_line(rects: list[pymupdf.Rect]) -> list[pymupdf.Rect]:
    """One rectangle per line: the search returns a quad per word run, which draws as a row of separate boxes."""
    lines: list[pymupdf.Rect] = []
    for rect in sorted(rects, key=lambda r: (r.y0, r.x0)):
        last = lines[-1] if lines else None
        if last is not None and min(last.y1, rect.y1) - max(last.y0, rect.y0) > 0.5 * min(last.height, rect.height):
            lines[-1] = last | rect
        else:
            lines.append(rect)
    return lines


def _key(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKC", text).lower() if c.isalnum())


def _quote_rects(page: pymupdf.Page, zones: list[pymupdf.Rect], quote: str) -> list[pymupdf.Rect]:
    """One rectangle per line covering the quotation's characters inside the passage, matched on letters and digits."""
    import pymupdf

    target = _key(quote)
    if len(target) < 4:
        return []
    chars: list[tuple[str, tuple[int, int], pymupdf.Rect]] = []
    raw = page.get_text("rawdict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
    for b, block in enumerate(raw.get("blocks", [])):
        for n, line in enumerate(block.get("lines", [])):
            for span in line.get("spans", []):
                for char in span.get("chars", []):
                    rect = pymupdf.Rect(char["bbox"])
                    centre = pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
                    if any(centre in zone for zone in zones):
                        chars.extend((k, (b, n), rect) for k in _key(char["c"]))
    at = "".join(c[0] for c in chars).find(target)
    if at < 0:
        return []
    lines: dict[tuple[int, int], pymupdf.Rect] = {}
    for _, line, rect in chars[at:at + len(target)]:
        lines[line] = lines[line] | rect if line in lines else pymupdf.Rect(rect)
    return list(lines.values())


def _image_clip(page: pymupdf.Page, rects: list[pymupdf.Rect]) -> pymupdf.Rect:
    """The passage with some context above and below, the page's full width, cut between lines of text."""
    import pymupdf

    area: pymupdf.Rect = page.rect
    if not rects or page.rotation:  # text positions are unrotated, the picture is not: show the whole page
        return area
    union = pymupdf.Rect(rects[0])
    for rect in rects[1:]:
        union |= rect
    top, bottom = max(area.y0, union.y0 - IMAGE_MARGIN), min(area.y1, union.y1 + IMAGE_MARGIN)
    lines = sorted((line["bbox"][1] - 3, line["bbox"][3] + 3)
                   for block in page.get_text("dict", flags=0).get("blocks", []) for line in block.get("lines", []))
    if lines:  # no empty page margin above the first line or below the last
        top = max(top, lines[0][0] - 3)
        bottom = min(bottom, max(y1 for _, y1 in lines) + 3)
    for y0, y1 in reversed(lines):  # upwards: a line that moves the top edge may overlap the one above it
        if y0 < top < y1:
            top = max(area.y0, y0)
    for y0, y1 in lines:  # downwards, likewise for the bottom edge
        if y0 < bottom < y1:
            bottom = min(area.y1, y1)
    return pymupdf.Rect(area.x0, top, area.x1, bottom)


def _framed(pix: pymupdf.Pixmap) -> pymupdf.Pixmap:
    """A one-pixel grey frame, so the page image stands apart from the report around it."""
    import pymupdf

    x0, y0, x1, y1 = pix.irect  # a clipped render keeps the clip's origin
    for edge in ((x0, y0, x1, y0 + 1), (x0, y1 - 1, x1, y1), (x0, y0, x0 + 1, y1), (x1 - 1, y0, x1, y1)):
        pix.set_rect(pymupdf.IRect(edge), (150,) * pix.n)
    return pix
