"""The document library: catalog + LanceDB + tantivy, kept in agreement by one writer (core.library.store.writer: catalog
row ``pending`` -> chunks into LanceDB and tantivy -> ``ready``; removing: ``removing`` -> out of both -> row
deleted; on open, what a crash left ``pending`` or ``removing`` is purged, so a document is either fully present or
absent).

An ingest (``Library.ingest``) reads and chunks files in a thread of its own, ahead of storing; storing
(core.library.store.storing) embeds a batch of small files first (into the catalog's cache; nothing else is written yet)
and then hands it to the writer, so an ingest run again reuses the cached embeddings of what was already done.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import Cancelled, IngestError, LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.embed.embedder import Embedder, LibraryEmbedder, embedding_text, make_embedder
from courtroom_desktop.core.library.files import CancelToken, find_files, kind_of, sha256_file
from courtroom_desktop.core.library.read.extract import extract
from courtroom_desktop.core.library.read.extracted import ExtractedDoc
from courtroom_desktop.core.library.read.ocr import OcrOptions
from courtroom_desktop.core.library.read.text_docs import TextDocument
from courtroom_desktop.core.library.shared.catalog import SharedCatalog
from courtroom_desktop.core.library.shared.location import LibraryLocation
from courtroom_desktop.core.library.store import reembed
from courtroom_desktop.core.library.store.catalog import Catalog
from courtroom_desktop.core.library.store.handoff import Handoff, IngestEngine, Prepared
from courtroom_desktop.core.library.store.storing import HELD_CHUNKS, EventSink, Storer, store_text_documents
from courtroom_desktop.core.library.store.text_index import TextIndex
from courtroom_desktop.core.library.store.vectors import VectorStore
from courtroom_desktop.core.library.store.writer import LibraryWriter
from courtroom_desktop.core.records import (
    Chunk,
    DocStatus,
    Document,
    FileProgress,
    FileStarted,
    IngestFinished,
    IngestStage,
    IngestStarted,
    Notice,
)

if TYPE_CHECKING:
    from courtroom_desktop.core.library.read.isolate import ExtractWorker
    from courtroom_desktop.core.library.shared.replica import Replica


log = logging.getLogger(__name__)

class Library:
    def __init__(self, root: Path, settings: LibrarySettings, embedder: LibraryEmbedder | None = None,
                 location: LibraryLocation | None = None):
        """``root``: the library's folder; for a library on object storage (``location``, see
        core.library.shared), this machine's folder of its local parts (BM25 index, caches, fetched files)."""
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.settings = settings
        self.location = location or LibraryLocation(str(self.root))
        self.catalog: Catalog = (SharedCatalog(self.root / "catalog.sqlite", self.location) if self.location.shared
                                 else Catalog(self.root / "catalog.sqlite"))
        self.embedder_class: type[Embedder] = Embedder
        self._embedder_from_settings = embedder is None
        # the embedder the settings name, and the one whose vectors the table holds (searches use it): they differ
        # after the settings changed, until reindex() has switched (core.library.store.reembed)
        self.target_embedder: LibraryEmbedder = embedder or make_embedder(settings, Embedder)
        self.embedder: LibraryEmbedder = embedder or reembed.recorded_embedder(self.root, self.catalog, settings,
                                                                               Embedder, self.target_embedder)
        self.text_index = TextIndex(self.root / "tantivy")
        self._vectors: VectorStore | None = None
        self._vectors_lock = threading.Lock()  # the table opens once
        self._replica: Replica | None = None
        # the one owner of the write rule and the write lock (core.library.store.writer)
        self.writer = self._make_writer()
        self._extractor: ExtractWorker | None = None  # started on first use when settings.isolate_extraction
        self.recover()
        if self.text_index.stale:  # written by an earlier analyser: refilled from the stored chunks, no embedding
            self.text_index.rebuilt((d.id, self.doc_chunks(d.id), d.title) for d in self.documents(DocStatus.ready))
        if self.location.shared:
            self.sync()

    def _make_writer(self) -> LibraryWriter:
        """The one owner of the write rule and the write lock (core.library.store.writer); on object storage, the
        rule under the library's commit lock (core.library.shared.writer)."""
        if not self.location.shared:
            return LibraryWriter(self.catalog, self.text_index, lambda: self.vectors,
                                 lambda: self._vectors is not None or reembed.folder_of(self.root,
                                                                                        self.catalog).exists(),
                                 embedding_text)
        from courtroom_desktop.core.library.shared.commit_lock import CommitLock
        from courtroom_desktop.core.library.shared.files import SharedFiles
        from courtroom_desktop.core.library.shared.writer import SharedWriter

        assert isinstance(self.catalog, SharedCatalog)
        self.shared_files = SharedFiles(self.location, self.root)
        return SharedWriter(self.catalog, self.text_index, lambda: self.vectors,
                            lambda: self._vectors is not None or bool(self.catalog.get_meta("vectors_folder")),
                            embedding_text, CommitLock(self.location), self.shared_files,
                            read_only=self.location.read_only, switched_elsewhere=self.switched_elsewhere)

    def local_file(self, path: str) -> str:
        """A file of this library that this machine can open: ``path`` itself, or for a library on object storage
        whose document lives elsewhere, its stored copy fetched into the cache (blocking: call it off the window's
        thread). Unknown paths come back as they are."""
        if not self.location.shared or Path(path).is_file():
            return path
        docs = self.catalog.by_path(path)
        if not docs:
            return path
        return str(self.shared_files.local(path, docs[0].sha256))

    def sync(self, on_progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """A library on object storage: the catalog read fresh and this machine's BM25 index brought up to it
        (documents other writers added or removed); (indexed, dropped). A local library is always in sync."""
        if not self.location.shared:
            return (0, 0)
        from courtroom_desktop.core.library.shared.writer import SharedWriter

        assert isinstance(self.catalog, SharedCatalog)
        self.catalog.sync(force=True)
        if self.switched_elsewhere():  # another machine's embedder switch: its vectors and embedder from now on
            with self._vectors_lock:
                self._vectors = None
                self.embedder = reembed.recorded_embedder(self.root, self.catalog, self.settings, self.embedder_class,
                                                          self.target_embedder)
        if not self.catalog.ready_ids() and not self.text_index.doc_ids():
            return (0, 0)
        self.vectors.refresh()
        assert isinstance(self.writer, SharedWriter)
        return self.writer.sync_text_index(self.vectors.docs_chunks, on_progress)

    @classmethod
    def open(cls, root: Path, settings: LibrarySettings | None = None, embedder: LibraryEmbedder | None = None) -> Library:
        return cls(root, settings or LibrarySettings(), embedder)

    def close(self) -> None:
        if self._replica is not None:
            self._replica.wait(30)  # a catch-up under way finishes its file (it is never left half-written)
        if self._extractor is not None:
            self._extractor.close()
        for embedder in {id(e): e for e in (self.embedder, self.target_embedder)}.values():  # HTTP connections
            getattr(embedder, "close", lambda: None)()
        self.catalog.close()

    # ---------------------------------------------------------------- stores
    @property
    def embedder_pending(self) -> bool:
        """The settings name another embedder than the one the vectors were made with: reindex() switches."""
        recorded = reembed.recorded_identity(self.catalog)
        return bool(recorded) and recorded != self.target_embedder.identity and bool(self.catalog.ready_ids())

    @property
    def vectors(self) -> VectorStore:
        if self._vectors is not None:
            return self._vectors
        with self._vectors_lock:  # two threads at once (the window's preload and an ingest) must not both create it
            if self._vectors is None:
                identity = self.embedder.identity  # model@backend or server: vectors of two are never mixed
                recorded = reembed.recorded_identity(self.catalog)
                if recorded and recorded != identity and self.catalog.ready_ids():
                    raise LibraryError(Message("{self.root}: the library was embedded with {recorded} but the "
                                               "settings name {identity} (library.embedder, embedding_model, "
                                               "embedding_backend): run `courtroom library reindex` to re-embed it",
                                               self.root, f'{recorded!r}', f'{identity!r}'))
                if recorded == identity:
                    self._vectors = self._recorded_store()
                else:  # a new library, or an empty one whose embedder changed: a table of this embedder's dimension
                    dim = self.embedder.dim
                    folder = reembed.DEFAULT_FOLDER if not recorded else f"{reembed.DEFAULT_FOLDER}-{dim}-{int(time.time())}"
                    store = VectorStore(self.vector_place(folder), dim, self.location.options)
                    self.catalog.name_vectors(folder, identity, dim, reembed.spec_of(self.settings, self.embedder))
                    self._vectors = store
        return self._vectors

    @property
    def replica(self) -> Replica | None:
        """A shared library's local read replica of its chunk table (core.library.shared.replica); None for a local
        library or with ``library.replica`` off."""
        if not self.location.shared or not self.settings.replica:
            return None
        folder = self.catalog.get_meta("vectors_folder") or reembed.DEFAULT_FOLDER
        if self._replica is None or self._replica.folder != folder:  # the first use, or an embedder switch
            from courtroom_desktop.core.library.shared.replica import Replica

            self._replica = Replica(self.location, folder, self.root, int(self.settings.replica_limit_gb * 1e9))
        return self._replica

    @property
    def search_vectors(self) -> VectorStore:
        """The chunk table searches read: a shared library's local replica once it holds a copy (its catch-up is
        started here, in the background, at most every few seconds: a search never waits on the bucket), else the
        table itself."""
        vectors = self.vectors
        if (elsewhere := self.switched_elsewhere()) is not None:
            raise LibraryError(elsewhere)
        replica = self.replica
        if replica is None:
            return vectors
        replica.check()
        local = replica.vectors(vectors.dim)
        return local if local is not None else vectors

    def recover(self) -> list[str]:
        """Purge documents a crash left half-written or half-removed, and vector folders no switch names; returns
        the documents' ids."""
        if not self.location.shared:
            reembed.sweep(self.root, self.catalog)
        return self.writer.recover()

    def vector_place(self, folder: str) -> Path | str:
        """Where a vector folder the catalog names lives: under the library's folder, or its URI."""
        return self.location.child(folder) if self.location.shared else self.root / folder

    # ---------------------------------------------------------------- reading
    def documents(self, status: DocStatus | None = None) -> list[Document]:
        return self.catalog.documents(status)

    def ready_ids(self) -> set[str]:
        return set(self.catalog.ready_ids())

    def find(self, ref: str) -> Document:
        """A document by id, id prefix, or path."""
        docs = self.catalog.documents()
        resolved = str(Path(ref).expanduser().resolve())
        matches = [d for d in docs if d.id == ref or d.path == resolved] or [d for d in docs if d.id.startswith(ref)]
        if len(matches) != 1:
            raise LibraryError(
                Message("{ref}: no document matches; use an id from `courtroom library list`", f'{ref!r}') if not matches else
                Message("{ref}: several documents match; use an id from `courtroom library list`", f'{ref!r}')
            )
        return matches[0]

    def chunks(self, ids: list[str]) -> dict[str, Chunk]:
        return self.vectors.get(ids)

    def doc_chunks(self, doc_id: str) -> list[Chunk]:
        return self.vectors.doc_chunks(doc_id)

    def check_consistency(self) -> dict[str, object]:
        """Per store, which documents it holds; ``consistent`` when all three agree on the ready documents."""
        ready = self.ready_ids()
        vector_ids = self.vectors.doc_ids()
        text_ids = self.text_index.doc_ids()
        counts_agree = all(
            self.vectors.count(d.id) == self.text_index.count(d.id) == d.chunks
            for d in self.catalog.documents(DocStatus.ready)
        )
        return {"catalog": ready, "lancedb": vector_ids, "tantivy": text_ids,
                "consistent": ready == vector_ids == text_ids and counts_agree}

    # ---------------------------------------------------------------- writing
    def ingest(self, paths: Iterable[str | os.PathLike[str]], on_event: EventSink | None = None,
               cancel: CancelToken | None = None, force: bool = False, private: bool | None = None,
               engine: IngestEngine | None = None) -> IngestFinished:
        """Ingest files and folders. Bad files are reported per file and never stop the batch. ``private``: mark
        every document private (True) or not (False); None keeps each file's earlier flag (see core.library.notes).

        Extraction and chunking run in a worker thread ahead of storing, so that everything but embedding overlaps
        with it. Files are stored in batches (``BATCH_CHUNKS``): whatever is prepared when the store is free, so a
        batch is small when extraction is the slow part. Each file is still reported on its own (FileProgress,
        FileFinished), and is ``ready`` in the catalog only once its vectors and BM25 entries are committed.

        ``engine``: who prepares the files (reads, OCRs, chunks and embeds them); None for this process, one file at a
        time; a Ray engine (core.library.ray_engine) for many workers, whose vectors reach the catalog's embedding
        cache so that storing, here, embeds nothing again.
        """
        emit = on_event or (lambda event: None)
        cancel = cancel or CancelToken()
        files = find_files(paths)
        emit(IngestStarted(files=len(files)))
        started = time.perf_counter()
        handoff = Handoff(HELD_CHUNKS)
        storer = Storer(self.writer, self.catalog, self.embedder, self.settings, self.root, emit, cancel, private)
        stages, totals = storer.stages, storer.totals

        def producer() -> None:
            prepared = (engine.prepare(self, files, emit, cancel, force) if engine is not None
                        else self._prepare_each(files, emit, cancel, force))
            try:
                for item in prepared:
                    handoff.put(item)
                    if cancel.cancelled or handoff.closed:
                        break
            finally:
                close = getattr(prepared, "close", None)
                if close is not None:
                    close()
                handoff.put(None)

        with self.writer.lock:
            worker = threading.Thread(target=producer, name="courtroom-extract", daemon=True)
            worker.start()
            try:
                storer.store_handed(handoff)
            finally:
                handoff.close()  # after an error: the producer stops at its next file
            worker.join()
            if totals["added"] or totals["updated"]:
                began = time.perf_counter()
                self.vectors.optimize()
                stages["index"] += time.perf_counter() - began
        finished = IngestFinished(
            added=totals["added"], updated=totals["updated"], skipped=totals["skipped"], failed=totals["failed"],
            cancelled=cancel.cancelled, pages=totals["pages"], chunks=totals["chunks"],
            seconds=time.perf_counter() - started, stage_seconds=stages,
        )
        emit(finished)
        return finished

    def ocr_options(self) -> OcrOptions:
        """How scanned pages are read (library.ocr, ocr_dpi, ocr_page_timeout_s); the cache is a table of the
        catalog's SQLite file."""
        return OcrOptions(mode=self.settings.ocr, dpi=self.settings.ocr_dpi,
                          page_timeout_s=self.settings.ocr_page_timeout_s, cache=str(self.catalog.path))

    def _extract(self, path: Path, on_page: Callable[[int, int], None] | None, cancelled: Callable[[], bool],
                 on_ocr: Callable[[int, int], None] | None = None) -> ExtractedDoc:
        """In this thread, or (``isolate_extraction``) in a child process that is killed when ``cancelled()`` turns
        true, so that neither a page PyMuPDF never finishes nor a crash in it can take the app down. Pages with no
        text layer are read by OCR there too (``on_ocr(done, total)``)."""
        if kind_of(path) != "pdf":  # Markdown, text, Word: read here (core.library.read.text_files)
            from courtroom_desktop.core.library.read.text_files import read_text_file

            return read_text_file(path)
        options = self.ocr_options()
        if not self.settings.isolate_extraction:
            return extract(path, on_page=on_page, cancelled=cancelled, ocr=options, on_ocr=on_ocr)
        if self._extractor is None:
            from courtroom_desktop.core.library.read.isolate import ExtractWorker

            self._extractor = ExtractWorker()
        return self._extractor.extract(path, on_page=on_page, cancelled=cancelled,
                                       deadline_s=self.settings.file_timeout_s, ocr=options, on_ocr=on_ocr)

    def _prepare_each(self, files: list[Path], emit: EventSink, cancel: CancelToken,
                      force: bool) -> Iterator[Prepared]:
        for index, path in enumerate(files):
            if cancel.cancelled:
                return
            emit(FileStarted(path=str(path), index=index, files=len(files)))
            yield self._prepare(path, emit, cancel, force)

    def triage(self, path: Path, force: bool, sha: str = "") -> tuple[str, Prepared | None]:
        """A file's sha256 (``sha`` when the caller has it: read once), and a Prepared when it needs no reading:
        unreadable (failed), or its content already ready in the library (skipped)."""
        try:
            sha = sha or (sha256_file(path) if path.exists() and path.is_file() else "")
        except OSError as exc:
            return "", Prepared(path, "", error=Message("cannot read the file ({exc.strerror})", exc.strerror))
        existing = self.catalog.get(sha[:16]) if sha else None
        if existing and existing.status == DocStatus.ready and not force:
            return sha, Prepared(path, sha)  # skipped: same content already in the library
        return sha, None

    def keep_file(self, path: Path, sha: str, data: bytes) -> None:
        """A shared library keeps a file's bytes beside it now (the Ray driver has them: the writer does not read the
        file again); a local library keeps nothing."""
        if self.location.shared:
            self.shared_files.put_bytes(str(path), sha, data)

    def _prepare(self, path: Path, emit: EventSink, cancel: CancelToken, force: bool) -> Prepared:
        seconds = {"extract": 0.0, "ocr": 0.0, "chunk": 0.0}
        sha, done = self.triage(path, force)
        if done is not None:
            return done
        doc_id = sha[:16]
        began = time.perf_counter()
        deadline = [began + self.settings.file_timeout_s]
        # OCR is slow: each page it starts on gets its own deadline (the child gives a page up at
        # ocr_page_timeout_s), so the file's is pushed back to cover the page being read, with some slack for a
        # page stuck in the recogniser's C code past it
        page_slack = self.settings.ocr_page_timeout_s * 1.5 + 10.0

        def on_ocr(done: int, total: int) -> None:
            if done < total:
                deadline[0] = max(deadline[0], time.perf_counter() + page_slack)
            emit(FileProgress(path=str(path), stage=IngestStage.ocr, pages_done=done, pages=total))

        try:
            doc = self._extract(
                path,
                on_page=lambda done, total: emit(FileProgress(path=str(path), stage=IngestStage.extract,
                                                              pages_done=done, pages=total)),
                cancelled=lambda: cancel.cancelled or time.perf_counter() > deadline[0],
                on_ocr=on_ocr,
            )
        except Cancelled:
            if cancel.cancelled:
                return Prepared(path, sha, error="cancelled")
            return Prepared(path, sha, error=Message("gave up after {seconds} s (library.file_timeout_s)",
                                                     f"{time.perf_counter() - began:.0f}"))
        except IngestError as exc:
            return Prepared(path, sha, error=exc.reason)
        seconds["ocr"] = min(doc.ocr_seconds, time.perf_counter() - began)
        seconds["extract"] = time.perf_counter() - began - seconds["ocr"]
        began = time.perf_counter()
        chunks = chunk_document(doc, doc_id, self.settings.chunk_tokens, self.settings.overlap_tokens,
                                self.settings.min_section_tokens)
        seconds["chunk"] = time.perf_counter() - began
        if not chunks:
            return Prepared(path, sha, error=Message("no text found in the PDF") if kind_of(path) == "pdf"
                            else Message("no text found in the file"))
        emit(FileProgress(path=str(path), stage=IngestStage.chunk, pages_done=doc.pages, pages=doc.pages,
                          chunks=len(chunks)))
        return Prepared(path, sha, doc=doc, chunks=chunks, seconds=seconds)

    def add_text_documents(self, docs: Iterable[TextDocument], batch_docs: int = 256,
                           on_progress: Callable[[int, int], None] | None = None,
                           cancel: CancelToken | None = None) -> int:
        """Add text documents (a benchmark corpus) in batches: see ``storing.store_text_documents``."""
        return store_text_documents(self.writer, self.settings, self.embedder, docs, batch_docs, on_progress,
                                    cancel or CancelToken())

    def set_private(self, doc_id: str, private: bool) -> Document:
        """A document marked private or not (the writer's rule: on object storage, shared and refused read-only);
        returns it as it is now. Raises LibraryError for an unknown id."""
        if self.catalog.get(doc_id) is None:
            raise LibraryError(Message("no document with id {doc_id}: see `courtroom library list`", f'{doc_id!r}'))
        self.writer.set_private(doc_id, private)
        doc = self.catalog.get(doc_id)
        assert doc is not None
        return doc

    def set_notice(self, doc_id: str, notice: Notice | None) -> None:
        """A retraction, correction or expression of concern on a document, or none (the writer's rule)."""
        self.writer.set_notice(doc_id, notice)

    def remove(self, doc_id: str) -> Document:
        """A document out of the library (the writer's rule); raises LibraryError for an unknown id."""
        removed = self.writer.delete([doc_id])
        if not removed:
            raise LibraryError(Message("no document with id {doc_id}: see `courtroom library list`", f'{doc_id!r}'))
        return removed[0]

    def _current_vectors(self) -> VectorStore | None:
        """The store searches use now, opened without checking the settings' embedder against it (a switch reads
        its chunks); None when the library holds no documents."""
        if self._vectors is not None or not self.catalog.ready_ids():
            return self._vectors
        return self._recorded_store()

    def _recorded_store(self) -> VectorStore:
        """The vector table the catalog names, of the dimension it records (else the embedder's)."""
        return VectorStore(self.vector_place(reembed.folder_name(self.catalog)),
                           int(self.catalog.get_meta("embedding_dim") or 0) or self.embedder.dim, self.location.options)

    def _discard_vectors(self, folder: Path | str) -> None:
        """A shared library's half-built vector folder (a cancelled or failed switch): its objects deleted."""
        import obstore

        from courtroom_desktop.core.library.shared.commit_lock import listed, object_store

        store = object_store(self.location)
        prefix = str(folder)[len(self.location.uri.rstrip("/")) + 1:].rstrip("/") + "/"
        try:
            paths = list(listed(store, prefix))
            for start in range(0, len(paths), 1000):
                obstore.delete(store, paths[start:start + 1000])
        except Exception as exc:  # noqa: BLE001 - left to take space: no catalog names it, no search reads it
            log.warning("could not delete the half-built vectors %s: %s", folder, exc)

    def switched_elsewhere(self) -> str | None:
        """A shared library whose embedder another machine switched since this one opened its vectors: what to do
        (its searches and writes are refused with it, never a mix of two embedders, until ``sync`` reopens the
        vectors); else None."""
        if not self.location.shared or self._vectors is None:
            return None
        named = self.vector_place(reembed.folder_name(self.catalog))
        if str(named) == str(self._vectors.folder):
            return None
        return Message("another machine switched this library's embedder to {identity}: refresh the library (F5) "
                       "or open it again to search with the new vectors",
                       reembed.recorded_identity(self.catalog) or "?")

    def _switched(self, store: VectorStore, embedder: LibraryEmbedder) -> None:
        """After an embedder switch's swap (under the writer's lock): searches use the new vectors and embedder, and
        the old bundled one's child process (the window's, ``embed/child.py``) stops: a search still in it finishes
        first, and one that would come after starts it again."""
        replaced = [e for e in {id(e): e for e in (self.embedder, self.target_embedder)}.values() if e is not embedder]
        self._vectors = store
        self.embedder = self.target_embedder = embedder
        for old in replaced:
            if isinstance(old, Embedder):  # an endpoint's connections close with the library, as before
                old.close()

    def reindex(self, doc_ids: list[str] | None = None, on_event: EventSink | None = None,
                cancel: CancelToken | None = None, settings: LibrarySettings | None = None,
                embedder: LibraryEmbedder | None = None) -> IngestFinished:
        """Re-extract and re-embed documents from their files (all when none are named), e.g. after changing the
        chunk settings. With no ids and another embedder than the vectors' (``embedder``, else the one ``settings``,
        else the library's settings now name), switch to it: the stored passages are embedded into a new table while
        searches use the old one until it is complete (core.library.store.reembed); ``settings`` then become the library's."""
        if not doc_ids:
            if settings is None and embedder is None and self._embedder_from_settings:
                settings = self.settings  # as they are now (Workspace.reconfigure may have replaced them)
            target = embedder or (make_embedder(settings, self.embedder_class) if settings is not None
                                  else self.target_embedder)
            recorded = reembed.recorded_identity(self.catalog)
            if target.identity != recorded:
                spec = reembed.spec_of(settings or self.settings, target)
                shared = self.location.shared
                try:
                    finished = reembed.switch(self.writer, self.root, self._current_vectors(), target, spec,
                                              self.settings.embed_batch, lambda store: self._switched(store, target),
                                              on_event=on_event, cancel=cancel, place=self.vector_place,
                                              storage_options=self.location.options if shared else None,
                                              discard=self._discard_vectors if shared else None)
                finally:
                    if self.embedder is not target and embedder is None and settings is not None:
                        getattr(target, "close", lambda: None)()  # built here and not switched to
                if settings is not None and not finished.cancelled:
                    self.settings = settings
                return finished
        docs = [self.catalog.get(i) for i in doc_ids] if doc_ids else self.catalog.documents(DocStatus.ready)
        missing = [d.path for d in docs if d and not Path(d.path).exists()]
        if missing:
            raise LibraryError(Message("cannot re-index, file moved or deleted: {', '.join(missing)}; remove it or "
                                       "restore it",
                                       ', '.join(missing)))
        return self.ingest([d.path for d in docs if d], on_event=on_event, cancel=cancel, force=True)
