"""Documents that arrive as text rather than as PDFs (a benchmark corpus): sections of (heading, body), laid out as
an ExtractedDoc so that ``chunk_document`` cuts them like PDFs, and stored in batches. Files of text (Markdown, plain
text, Word) are read by ``text_files``, on the same ``_TextExtract``."""

from __future__ import annotations

import hashlib
import re
import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import Cancelled
from courtroom_desktop.core.library.embedding_cache import TextEmbedder, embed_cached
from courtroom_desktop.core.library.extracted import ExtractedDoc, SectionMark
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.writer import LibraryWriter, Written
from courtroom_desktop.core.records import DocStatus, Document


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

    def page_of(self, char: int) -> int:
        return -1  # no page

    def highlights(self, start: int, end: int) -> tuple:
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


def store_text_documents(writer: LibraryWriter, settings: LibrarySettings, embedder: TextEmbedder,
                         docs: Iterable[TextDocument], batch_docs: int,
                         on_progress: Callable[[int, int], None] | None, cancel: CancelToken) -> int:
    """Add text documents in batches, through the same chunking, embedding cache and writer as PDFs: a batch is
    embedded first, then goes into each store in one write (one LanceDB append, one tantivy commit), which is what
    makes a corpus of thousands of abstracts quick to load. Documents without text are skipped.
    ``on_progress(docs_done, chunks_done)``. Returns the number of chunks stored."""
    stored = done = 0
    batch: list[TextDocument] = []
    with writer.lock:
        for doc in docs:
            batch.append(doc)
            if len(batch) >= batch_docs:
                stored += _store_batch(writer, settings, embedder, batch, cancel)
                done += len(batch)
                batch = []
                if on_progress:
                    on_progress(done, stored)
        if batch:
            stored += _store_batch(writer, settings, embedder, batch, cancel)
            done += len(batch)
            if on_progress:
                on_progress(done, stored)
        if stored:
            writer.vectors().optimize()
    return stored


def _store_batch(writer: LibraryWriter, settings: LibrarySettings, embedder: TextEmbedder,
                 batch: list[TextDocument], cancel: CancelToken) -> int:
    from courtroom_desktop.core.library.chunking import chunk_document
    from courtroom_desktop.core.library.embedder import embedding_text

    if cancel.cancelled:
        raise Cancelled()
    catalog = writer.catalog
    entries: list[Written] = []
    now = time.time()
    for item in batch:
        extracted = text_extract(item)
        if not extracted.text.strip():
            continue
        chunks = chunk_document(extracted, item.id, settings.chunk_tokens, settings.overlap_tokens,
                                settings.min_section_tokens)
        if not chunks:
            continue
        previous = catalog.get(item.id)
        entries.append(Written(Document(
            id=item.id, path=item.path, sha256=hashlib.sha256(extracted.text.encode("utf-8")).hexdigest(),
            title=item.title, authors=item.authors, year=item.year, pages=0, chunks=len(chunks),
            sections=len({c.section_path for c in chunks}), status=DocStatus.pending, kind="text",
            added_at=previous.added_at if previous else now,
        ), chunks, in_stores=previous is not None))
    if not entries:
        return 0
    texts = [embedding_text(e.record.title, c) for e in entries for c in e.chunks]
    # embedded before anything is written: a cancel or an embedder failure leaves the stores as they were
    vectors = embed_cached(catalog, embedder, texts, cancel, batch=max(settings.embed_batch, 1) * 8)
    writer.write(entries, vectors)
    return len(texts)
