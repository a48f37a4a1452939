"""The storing half of an ingest: prepared files (``handoff.Prepared``) into the library a batch at a time. A batch's
passages are embedded first (through the catalog's cache; nothing else is written yet), then the batch goes through
the writer's rule in one append and one commit (``writer.LibraryWriter.write``); a batch that fails is stored again
file by file, so that one bad file fails alone. Each file is reported on its own (FileProgress, FileFinished)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypedDict

import numpy as np

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import Cancelled
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.embed.embedder import embedding_text
from courtroom_desktop.core.library.files import CancelToken, notes_folder
from courtroom_desktop.core.library.read.text_docs import TextDocument, text_extract
from courtroom_desktop.core.library.store.catalog import Catalog
from courtroom_desktop.core.library.store.embedding_cache import TextEmbedder, embed_cached
from courtroom_desktop.core.library.store.handoff import Entry, Handoff, Prepared
from courtroom_desktop.core.library.store.writer import LibraryWriter, Writable, Written
from courtroom_desktop.core.privacy import embedding_refusal
from courtroom_desktop.core.records import (
    DocStatus,
    Document,
    FileFinished,
    FileOutcome,
    FileProgress,
    IngestEvent,
    IngestStage,
)

EventSink = Callable[[IngestEvent], None]

BATCH_CHUNKS = 128
"""An ingest stores files together until their chunks reach this many (a bigger file goes alone): one embedding call
per ``embed_batch`` of them, one LanceDB append and one tantivy commit per batch. Many one-page PDFs, stored one by
one, spent most of their time in tiny embedding batches and in a LanceDB version and a tantivy commit per file."""
HELD_CHUNKS = 2 * BATCH_CHUNKS
"""How far extraction may run ahead of storing, in chunks (at least one file, however big)."""


class DocumentFields(TypedDict):
    kind: str
    private: bool


def who() -> str:
    """Who is adding documents here: the user name and the machine ('ada@lab-laptop'), each as far as known."""
    import getpass
    import socket

    try:
        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in the environment (a service account, some containers)
        user = ""
    return f"{user or 'unknown'}@{socket.gethostname() or 'unknown'}"


def document_fields(settings: LibrarySettings, library_root: Path, path: str, kind: str, previous: list[Document],
                    replacing: Document | None, asked: bool | None) -> DocumentFields:
    """The kind and private flag of a document about to be written to the catalog (see the module's docstring):
    ``settings`` (LibrarySettings) name the private watched folders, ``library_root`` the library's folder."""
    if kind == "markdown" and Path(path).parent == notes_folder(Path(library_root)):
        kind = "note"
    if asked is not None:
        private = asked
    else:
        private = (any(d.private for d in previous) or (replacing is not None and replacing.private)
                   or settings.private_folder(path))
    return {"kind": kind, "private": bool(private)}


class Storer:
    """One ingest's storing: what it writes with (``writer``, ``catalog``, ``embedder``, ``settings``), where its
    events go, its cancel token, its stage times and totals (``IngestFinished``'s figures), and the private flag
    it was asked to set (None: each file keeps its own, core.library.notes)."""

    def __init__(self, writer: LibraryWriter, catalog: Catalog, embedder: TextEmbedder, settings: LibrarySettings,
                 library_root: Path, emit: EventSink, cancel: CancelToken, private: bool | None):
        self.writer, self.catalog, self.embedder, self.settings = writer, catalog, embedder, settings
        self.library_root = library_root
        self.emit, self.cancel, self.private = emit, cancel, private
        self.stages: dict[str, float] = {s.value: 0.0 for s in IngestStage}
        self.totals: dict[str, int] = {"added": 0, "updated": 0, "skipped": 0, "failed": 0, "pages": 0, "chunks": 0}

    def store_handed(self, handoff: Handoff) -> None:
        """Store what the producer hands over, a batch at a time, until it ends or the ingest is cancelled."""
        ended = stopped = False
        while not ended and not stopped:
            batch: list[Prepared] = []
            for item in handoff.take(BATCH_CHUNKS):
                if item is None:
                    ended = True
                elif self.cancel.cancelled or item.error == "cancelled" or not item.storable:
                    stopped = stopped or self.cancel.cancelled or item.error == "cancelled"
                    self.finish_unstored(item)
                else:
                    if any(p.sha256 == item.sha256 for p in batch):  # the same content twice: one at a time
                        stopped = not self.store_batch(batch)
                        batch = []
                    batch.append(item)
            if batch and (stopped or self.cancel.cancelled):
                stopped = True
                self._cancel_all(batch)
            elif batch:
                stopped = not self.store_batch(batch)
        # what was prepared and not stored: reported, and the producer drained so that it can stop
        while not ended:
            for item in handoff.take(HELD_CHUNKS):
                if item is None:
                    ended = True
                else:
                    self.finish_unstored(item)

    def finish_unstored(self, item: Prepared) -> FileOutcome:
        """A file that goes into no store: failed, unchanged (skipped), or prepared but cancelled before storing."""
        path = str(item.path)
        if item.storable or item.error == "cancelled":
            self.emit(FileFinished(path=path, outcome=FileOutcome.cancelled, reason="cancelled"))
            return FileOutcome.cancelled
        if item.error:
            self.catalog.record_failure(path, item.sha256, item.error)
            self.totals["failed"] += 1
            self.emit(FileFinished(path=path, outcome=FileOutcome.failed, reason=item.error))
            return FileOutcome.failed
        self.totals["skipped"] += 1
        doc_id = item.sha256[:16]
        self.writer.delete(d.id for d in self.catalog.by_path(path) if d.id != doc_id)  # its other versions
        if self.private is not None:
            self.writer.set_private(doc_id, self.private)
        self.emit(FileFinished(path=path, outcome=FileOutcome.skipped, doc_id=doc_id,
                               reason=Message("unchanged: already in the library")))
        return FileOutcome.skipped

    def store_batch(self, items: list[Prepared]) -> bool:
        """Store prepared files together; False when cancelled (then none of them was written)."""
        entries: list[Entry] = []
        for item in items:
            for stage, spent in (item.seconds or {}).items():
                self.stages[stage] += spent
            entry = self._entry(item)
            if refusal := embedding_refusal([entry.record], self.embedder):
                self._fail(entry, f"could not be stored ({refusal})")
            else:
                entries.append(entry)
        return self.store_entries(entries)

    def _entry(self, item: Prepared) -> Entry:
        path, doc, chunks, doc_id = str(item.path), item.doc, item.chunks or [], item.sha256[:16]
        assert doc is not None  # storable
        previous = [d for d in self.catalog.by_path(path) if d.id != doc_id]
        replacing = self.catalog.get(doc_id)
        record = Document(
            id=doc_id, path=path, sha256=item.sha256, title=doc.title, authors=doc.authors, year=doc.year,
            pages=doc.pages, chunks=len(chunks), sections=len({c.section_path for c in chunks}),
            status=DocStatus.pending, added_at=replacing.added_at if replacing else time.time(),
            added_by=replacing.added_by if replacing and replacing.added_by else who(),
            pages_without_text=tuple(doc.pages_without_text), pages_ocr=tuple(doc.ocr_pages),
            **document_fields(self.settings, self.library_root, path, getattr(doc, "kind", "pdf"), previous, replacing,
                              self.private),
        )
        # a document the catalog does not know is in no store (rows go pending before any store is written, and
        # leave after their chunks are gone), so a new one needs no delete: each would be a LanceDB version
        return Entry(item, record, previous, replacing, in_stores=replacing is not None)

    def _cancel_all(self, items: list[Prepared]) -> None:
        for item in items:
            self.emit(FileFinished(path=str(item.path), outcome=FileOutcome.cancelled, doc_id=item.sha256[:16],
                                   reason="cancelled"))

    def _fail(self, entry: Entry, reason: str) -> None:
        self.catalog.record_failure(entry.record.path, entry.record.sha256, reason)
        self.totals["failed"] += 1
        self.emit(FileFinished(path=entry.record.path, outcome=FileOutcome.failed, reason=reason))

    def store_entries(self, entries: list[Entry]) -> bool:
        """Embed (cached in the catalog; nothing else written), then the writer's rule for the whole batch. A
        failure tries the batch's files one by one, so that one bad file fails alone; a cancel while embedding
        leaves the stores and the catalog as they were."""
        if not entries:
            return True
        began = time.perf_counter()
        try:
            vectors = self._embed_entries(entries)
            began_index = time.perf_counter()

            def indexing(written: Writable) -> None:
                record = written.record
                self.emit(FileProgress(path=record.path, stage=IngestStage.index, pages_done=record.pages,
                                       pages=record.pages, chunks_done=len(written.chunks), chunks=len(written.chunks)))

            elsewhere = self.writer.write(entries, vectors, before_stores=indexing)
            self.stages["index"] += time.perf_counter() - began_index
        except Cancelled:  # raised while embedding, before anything was written
            self._cancel_all([e.item for e in entries])
            return False
        except Exception as exc:  # the writer took the batch out of every store and the catalog again
            if len(entries) == 1:
                self._fail(entries[0], f"could not be stored ({exc})")
                return True
            for index, entry in enumerate(entries):  # one by one (the vectors embedded so far are cached)
                if not self.store_entries([entry]):
                    self._cancel_all([e.item for e in entries[index + 1:]])
                    return False
            return True
        spent = time.perf_counter() - began
        total_chunks = max(sum(len(e.chunks) for e in entries), 1)
        for entry in entries:
            record, doc = entry.record, entry.item.doc
            self.catalog.clear_failure(record.path)
            if record.id in elsewhere:  # another writer of a shared library stored the same file first
                self.totals["skipped"] += 1
                self.emit(FileFinished(path=record.path, outcome=FileOutcome.skipped, doc_id=record.id,
                                       reason=Message("already in the library: another writer stored it first")))
                continue
            self.writer.delete(old.id for old in entry.previous)  # the file changed: its old version goes
            outcome = FileOutcome.updated if entry.previous or entry.replacing else FileOutcome.added
            self.totals[outcome.value] += 1
            self.totals["pages"] += record.pages
            self.totals["chunks"] += record.chunks
            self.emit(FileFinished(path=record.path, outcome=outcome, doc_id=record.id, pages=record.pages,
                                   chunks=record.chunks,
                                   seconds=spent * record.chunks / total_chunks + sum((entry.item.seconds or {}).values()),
                                   note="; ".join(n for n in (record.no_text_note(), *(doc.ocr_notes if doc else ()))
                                                  if n)))
        return True

    def _embed_entries(self, entries: list[Entry]) -> np.ndarray:
        """The vectors of every entry's chunks, in one call (``embed_batch`` at a time); each file's progress."""
        texts = [embedding_text(e.record.title, c) for e in entries for c in e.chunks]
        ends = np.cumsum([len(e.chunks) for e in entries]).tolist()
        shown = [0] * len(entries)

        def progress(done: int, seconds: float) -> None:
            self.stages["embed"] += seconds
            start = 0
            for index, (entry, end) in enumerate(zip(entries, ends)):
                mine = min(max(done - start, 0), end - start)
                if mine > shown[index]:
                    shown[index] = mine
                    self.emit(FileProgress(path=entry.record.path, stage=IngestStage.embed,
                                           pages_done=entry.record.pages, pages=entry.record.pages, chunks_done=mine,
                                           chunks=end - start))
                start = end

        return embed_cached(self.catalog, self.embedder, texts, self.cancel, batch=max(self.settings.embed_batch, 1),
                            on_batch=progress)


# ---------------------------------------------------------------- documents given as text

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
            added_by=previous.added_by if previous and previous.added_by else who(),
        ), chunks, in_stores=previous is not None))
    if not entries:
        return 0
    texts = [embedding_text(e.record.title, c) for e in entries for c in e.chunks]
    # embedded before anything is written: a cancel or an embedder failure leaves the stores as they were
    vectors = embed_cached(catalog, embedder, texts, cancel, batch=max(settings.embed_batch, 1) * 8)
    writer.write(entries, vectors)
    return len(texts)
