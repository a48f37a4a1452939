"""The library's storing half: prepared files into the stores, a batch at a time, and embedding through the
catalog's cache. Functions of a :class:`~courtroom_desktop.core.library.library.Library` (``library``), which holds
the write lock while they run; see that module for the order in which a document is written."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from courtroom_desktop.core.errors import Cancelled, LibraryError
from courtroom_desktop.core.library.catalog import text_key
from courtroom_desktop.core.library.embedder import embedding_text
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.handoff import Entry, Handoff, Prepared
from courtroom_desktop.core.library.notes import document_fields
from courtroom_desktop.core.privacy import embedding_refusal
from courtroom_desktop.core.records import (
    Chunk,
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


def store_handed(library, handoff: Handoff, emit: EventSink, cancel: CancelToken, stages: dict, totals: dict,
                 private: bool | None) -> None:
    """Store what the producer hands over, a batch at a time, until it ends or the ingest is cancelled."""
    ended = stopped = False
    while not ended and not stopped:
        batch: list[Prepared] = []
        for item in handoff.take(BATCH_CHUNKS):
            if item is None:
                ended = True
            elif cancel.cancelled or item.error == "cancelled":
                stopped = True
                finish_unstored(library, item, emit, totals, private)
            elif not item.storable:
                finish_unstored(library, item, emit, totals, private)
            else:
                if any(p.sha256 == item.sha256 for p in batch):  # the same content twice: one at a time
                    stopped = not store_batch(library, batch, emit, cancel, stages, totals, private)
                    batch = []
                batch.append(item)
        if batch and (stopped or cancel.cancelled):
            stopped = True
            _cancel_all(library, batch, emit)
        elif batch:
            stopped = not store_batch(library, batch, emit, cancel, stages, totals, private)
    # what was prepared and not stored: reported, and the producer drained so that it can stop
    while not ended:
        for item in handoff.take(HELD_CHUNKS):
            if item is None:
                ended = True
            else:
                finish_unstored(library, item, emit, totals, private)


def finish_unstored(library, item: Prepared, emit: EventSink, totals: dict, private: bool | None) -> FileOutcome:
    """A file that goes into no store: failed, unchanged (skipped), or prepared but cancelled before storing."""
    path = str(item.path)
    if item.storable or item.error == "cancelled":
        emit(FileFinished(path=path, outcome=FileOutcome.cancelled, reason="cancelled"))
        return FileOutcome.cancelled
    if item.error:
        library.catalog.record_failure(path, item.sha256, item.error)
        totals["failed"] += 1
        emit(FileFinished(path=path, outcome=FileOutcome.failed, reason=item.error))
        return FileOutcome.failed
    totals["skipped"] += 1
    library._forget_other_versions(path, item.sha256[:16])
    if private is not None:
        library.catalog.set_private(item.sha256[:16], private)
    emit(FileFinished(path=path, outcome=FileOutcome.skipped, doc_id=item.sha256[:16],
                      reason="unchanged: already in the library"))
    return FileOutcome.skipped


def store_batch(library, items: list[Prepared], emit: EventSink, cancel: CancelToken, stages: dict,
                totals: dict, private: bool | None) -> bool:
    """Store prepared files together; False when cancelled (then none of them was written)."""
    entries = []
    for item in items:
        for stage, spent in item.seconds.items():
            stages[stage] += spent
        entry = _entry(library, item, private)
        if refusal := embedding_refusal([entry.record], library.embedder):
            _fail(library, entry, f"could not be stored ({refusal})", emit, totals)
        else:
            entries.append(entry)
    return store_entries(library, entries, emit, cancel, stages, totals)


def _entry(library, item: Prepared, private: bool | None) -> Entry:
    path, doc, chunks, doc_id = str(item.path), item.doc, item.chunks, item.sha256[:16]
    previous = [d for d in library.catalog.by_path(path) if d.id != doc_id]
    replacing = library.catalog.get(doc_id)
    record = Document(
        id=doc_id, path=path, sha256=item.sha256, title=doc.title, authors=doc.authors, year=doc.year,
        pages=doc.pages, chunks=len(chunks), sections=len({c.section_path for c in chunks}),
        status=DocStatus.pending, added_at=replacing.added_at if replacing else time.time(),
        pages_without_text=tuple(doc.pages_without_text), pages_ocr=tuple(doc.ocr_pages),
        **document_fields(library, path, getattr(doc, "kind", "pdf"), previous, replacing, private),
    )
    # a document the catalog does not know is in no store (rows go pending before any store is written, and
    # leave after their chunks are gone), so a new one needs no delete: each would be a LanceDB version
    return Entry(item, record, previous, replacing, in_stores=replacing is not None)


def _cancel_all(library, items: list[Prepared], emit: EventSink) -> None:
    for item in items:
        emit(FileFinished(path=str(item.path), outcome=FileOutcome.cancelled, doc_id=item.sha256[:16],
                          reason="cancelled"))


def _fail(library, entry: Entry, reason: str, emit: EventSink, totals: dict) -> None:
    library.catalog.record_failure(entry.record.path, entry.record.sha256, reason)
    totals["failed"] += 1
    emit(FileFinished(path=entry.record.path, outcome=FileOutcome.failed, reason=reason))


def store_entries(library, entries: list[Entry], emit: EventSink, cancel: CancelToken, stages: dict,
                  totals: dict) -> bool:
    """Embed (cached in the catalog; nothing else written), then every entry ``pending`` -> one LanceDB append,
    one tantivy commit -> each ``ready``. A failure purges the batch and tries its files one by one, so that
    one bad file fails alone; a cancel while embedding leaves the stores and the catalog as they were."""
    if not entries:
        return True
    began = time.perf_counter()
    writing = False
    try:
        vectors = _embed_entries(library, entries, emit, cancel, stages)
        began_index = time.perf_counter()
        writing = True
        for entry in entries:
            emit(FileProgress(path=entry.record.path, stage=IngestStage.index, pages_done=entry.record.pages,
                              pages=entry.record.pages, chunks_done=len(entry.chunks), chunks=len(entry.chunks)))
            library.catalog.put(entry.record)
        if stale := [e.record.id for e in entries if e.in_stores]:
            library.vectors.delete_docs(stale)
        library.vectors.add([c for e in entries for c in e.chunks], vectors)
        library.text_index.add_docs([(e.record.id, e.chunks, e.record.title) for e in entries])
        stages["index"] += time.perf_counter() - began_index
    except Cancelled:  # raised while embedding, before anything was written
        _cancel_all(library, [e.item for e in entries], emit)
        return False
    except Exception as exc:
        if writing:  # half written: out of every store (a document replaced goes too, as it was half replaced)
            ids = [e.record.id for e in entries]
            library._purge_many(ids)
            for entry in entries:
                library.catalog.delete(entry.record.id)
                entry.in_stores = False
        if len(entries) == 1:
            _fail(library, entries[0], f"could not be stored ({exc})", emit, totals)
            return True
        for index, entry in enumerate(entries):  # one by one (the vectors embedded so far are cached)
            if not store_entries(library, [entry], emit, cancel, stages, totals):
                _cancel_all(library, [e.item for e in entries[index + 1:]], emit)
                return False
        return True
    spent = time.perf_counter() - began
    total_chunks = max(sum(len(e.chunks) for e in entries), 1)
    for entry in entries:
        record, doc = entry.record, entry.item.doc
        library.catalog.set_status(record.id, DocStatus.ready, error="")
        library.catalog.clear_failure(record.path)
        for old in entry.previous:  # the file changed: its old version goes
            library.remove(old.id)
        outcome = FileOutcome.updated if entry.previous or entry.replacing else FileOutcome.added
        totals[outcome.value] += 1
        totals["pages"] += record.pages
        totals["chunks"] += record.chunks
        emit(FileFinished(path=record.path, outcome=outcome, doc_id=record.id, pages=record.pages,
                          chunks=record.chunks,
                          seconds=spent * record.chunks / total_chunks + sum(entry.item.seconds.values()),
                          note="; ".join(n for n in (record.no_text_note(), *doc.ocr_notes) if n)))
    return True


def _embed_entries(library, entries: list[Entry], emit: EventSink, cancel: CancelToken, stages: dict) -> np.ndarray:
    """The vectors of every entry's chunks, in one call (``embed_batch`` at a time); each file's progress."""
    texts = [embedding_text(e.record.title, c) for e in entries for c in e.chunks]
    ends = np.cumsum([len(e.chunks) for e in entries]).tolist()
    shown = [0] * len(entries)

    def progress(done: int, seconds: float) -> None:
        stages["embed"] += seconds
        start = 0
        for index, (entry, end) in enumerate(zip(entries, ends)):
            mine = min(max(done - start, 0), end - start)
            if mine > shown[index]:
                shown[index] = mine
                emit(FileProgress(path=entry.record.path, stage=IngestStage.embed, pages_done=entry.record.pages,
                                  pages=entry.record.pages, chunks_done=mine, chunks=end - start))
            start = end

    return embed_cached(library, texts, cancel, batch=max(library.settings.embed_batch, 1), on_batch=progress)


def embed_document(library, doc: Document, chunks: list[Chunk], emit: EventSink, cancel: CancelToken,
                   stages: dict, embedder=None) -> np.ndarray:
    """The vectors of one document's chunks (``embedder``, else the library's), through the cache; refused for a
    private document and an embedder on another machine."""
    if refusal := embedding_refusal([doc], embedder or library.embedder):
        raise LibraryError(refusal)

    def progress(done: int, seconds: float) -> None:
        stages["embed"] += seconds
        emit(FileProgress(path=doc.path, stage=IngestStage.embed, pages_done=doc.pages, pages=doc.pages,
                          chunks_done=done, chunks=len(chunks)))

    return embed_cached(library, [embedding_text(doc.title, c) for c in chunks], cancel,
                              batch=max(library.settings.embed_batch, 1), on_batch=progress, embedder=embedder)


def embed_cached(library, texts: list[str], cancel: CancelToken, batch: int,
                 on_batch: Callable[[int, float], None] | None = None, embedder=None) -> np.ndarray:
    """Vectors of ``texts``, from the catalog's cache where they are there, else embedded ``batch`` at a time and
    cached at once (so an interrupted ingest never embeds the same text twice); with an embedder's
    ``length_batching``, in order of length. ``on_batch(done, seconds)`` after each batch. Raises Cancelled
    between batches."""
    embedder = embedder or library.embedder
    model = embedder.identity  # never hands vectors of one backend (or server) to another
    keys = [text_key(t) for t in texts]
    cached = library.catalog.cached_vectors(model, keys)
    todo = [i for i, k in enumerate(keys) if k not in cached]
    if getattr(embedder, "length_batching", False):
        # longest first across the whole call, not only within each ``batch``: a batch of like lengths pads less
        # (the last, short chunk of each small file no longer sits among full ones)
        todo.sort(key=lambda i: -len(texts[i]))
    done = len(texts) - len(todo)
    for start in range(0, len(todo), batch):
        if cancel.cancelled:
            raise Cancelled()
        part = todo[start:start + batch]
        began = time.perf_counter()
        vectors = embedder.encode([texts[i] for i in part])
        spent = time.perf_counter() - began
        library.catalog.cache_vectors(model, [(keys[i], v) for i, v in zip(part, vectors)])
        cached.update((keys[i], v) for i, v in zip(part, vectors))
        done += len(part)
        if on_batch is not None:
            on_batch(done, spent)
    return np.stack([cached[k] for k in keys]).astype(np.float32)
