"""The one owner of the library's write rule: the write lock, the catalog and both stores.

    writer.write(entries, vectors)    catalog rows ``pending`` -> chunks into the vector store and the text index
                                      (one append, one commit) -> rows ``ready``; a failure takes the batch out of
                                      every store and the catalog again, then raises
    writer.delete(doc_ids)            rows ``removing`` -> out of both stores -> rows deleted (and their cached vectors)
    writer.replace_vectors(...)       the embedder switch's swap: the catalog names the new vector folder in one
                                      transaction, and searches use it from then on
    writer.recover()                  what a crash left ``pending`` or ``removing`` purged, so a document is either
                                      fully present or absent

Every writer of the library goes through it: an ingest (``storing``), text documents (``text_docs``), notes (an
ingest of their file), re-embedding (``reembed``), the watcher and the window (through the library and the
workspace). The stores are behind two small protocols, so another kind of store (a shared library on object storage)
plugs in here. Nothing is embedded under the rule: callers embed first (through ``embedding.CachedEmbedding``), then
write, so a cancel while embedding leaves the stores and the catalog as they were.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from courtroom_desktop.core.library.store.catalog import Catalog, text_key
from courtroom_desktop.core.records import Chunk, DocStatus, Document, Notice


class ChunkStore(Protocol):
    """Where chunks and their vectors live (LanceDB: ``stores.VectorStore``)."""

    def add(self, chunks: list[Chunk], vectors: np.ndarray) -> None: ...
    def delete_docs(self, doc_ids: list[str]) -> None: ...
    def doc_chunks(self, doc_id: str) -> list[Chunk]: ...
    def doc_ids(self) -> set[str]: ...
    def optimize(self) -> None: ...


class TextStore(Protocol):
    """The full-text index of the chunks (tantivy: ``text_index.TextIndex``)."""

    def add_docs(self, docs: Sequence[tuple[str, list[Chunk], str]]) -> None: ...
    def delete_docs(self, doc_ids: Iterable[str]) -> None: ...
    def doc_ids(self) -> set[str]: ...


class Writable(Protocol):
    """A document on its way into the stores as ``write`` reads it: a ``Written``, or an ingest's ``handoff.Entry``."""

    record: Document
    in_stores: bool

    @property
    def chunks(self) -> list[Chunk]: ...


@dataclass
class Written:
    """A document on its way into the stores: its catalog row (written ``pending``, then ``ready``), its chunks, and
    whether chunks of its id may be in the stores already (a re-index, a crash's leftover: deleted first)."""

    record: Document
    chunks: list[Chunk]
    in_stores: bool = False


class LibraryWriter:
    """See the module. ``vectors()`` opens the chunk store on first use (``Library.vectors``: which folder and
    dimension depend on the embedder the catalog records); ``vectors_exist()`` says whether one was ever created,
    so a purge of a library that has none does not create it."""

    def __init__(self, catalog: Catalog, text_index: TextStore, vectors: Callable[[], ChunkStore],
                 vectors_exist: Callable[[], bool], embedding_text: Callable[[str, Chunk], str]):
        self.catalog = catalog
        self.text_index = text_index
        self.vectors = vectors
        self._vectors_exist = vectors_exist
        self._embedding_text = embedding_text
        # re-entrant: a pass of the watcher holds it across its removals and the ingest it starts
        self.lock = threading.RLock()

    # ---------------------------------------------------------------- the rule
    def write(self, entries: Sequence[Writable], vectors: np.ndarray,
              before_stores: Callable[[Writable], None] | None = None) -> set[str]:
        """Rows ``pending`` -> stale chunks of these ids out -> one append and one commit -> rows ``ready``.
        ``vectors``: one row per chunk, in the entries' order. ``before_stores(entry)``: called as each row goes
        pending (an ingest's progress). Raises what a store raised, after taking the batch out of every store and
        the catalog (a document being replaced goes too: it was half replaced). Returns the ids not stored because
        another writer stored the same document first (a shared library's; here none)."""
        if not entries:
            return set()
        with self.lock:
            try:
                for entry in entries:
                    if before_stores is not None:
                        before_stores(entry)
                    self.catalog.put(entry.record.model_copy(update={"status": DocStatus.pending}))
                store = self.vectors()
                if stale := [e.record.id for e in entries if e.in_stores]:
                    store.delete_docs(stale)
                store.add([c for e in entries for c in e.chunks], vectors)
                self.text_index.add_docs([(e.record.id, e.chunks, e.record.title) for e in entries])
            except BaseException:
                ids = [e.record.id for e in entries]
                self.purge(ids)
                for doc_id in ids:
                    self.catalog.delete(doc_id)
                for entry in entries:
                    entry.in_stores = False
                raise
            for entry in entries:
                self.catalog.set_status(entry.record.id, DocStatus.ready, error="")
        return set()

    def delete(self, doc_ids: Iterable[str]) -> list[Document]:
        """Documents out of the library: rows ``removing`` -> out of both stores -> rows deleted, with the vectors
        the catalog cached for their passages. Unknown ids are skipped; returns the documents removed."""
        removed = []
        with self.lock:
            for doc_id in doc_ids:
                doc = self.catalog.get(doc_id)
                if doc is None:
                    continue
                self.catalog.set_status(doc_id, DocStatus.removing)
                texts = [self._embedding_text(doc.title, c) for c in self.vectors().doc_chunks(doc_id)] \
                    if self._vectors_exist() else []
                self.purge([doc_id])
                self.catalog.delete(doc_id)
                self.catalog.forget_vectors([text_key(t) for t in texts])
                removed.append(doc)
        return removed

    def purge(self, doc_ids: list[str]) -> None:
        """Chunks of these documents out of the text index (one commit) and the vector store (one delete); the
        catalog is left to the caller."""
        if not doc_ids:
            return
        with self.lock:
            self.text_index.delete_docs(doc_ids)
            if self._vectors_exist():
                self.vectors().delete_docs(doc_ids)

    def recover(self) -> list[str]:
        """Purge documents a crash left half-written or half-removed; returns their ids."""
        with self.lock:
            stuck = [d.id for d in self.catalog.documents() if d.status in (DocStatus.pending, DocStatus.removing)]
            self.purge(stuck)
            for doc_id in stuck:
                self.catalog.delete(doc_id)
        return stuck

    # ---------------------------------------------------------------- what the catalog says of a document
    def set_private(self, doc_id: str, private: bool) -> None:
        """A document marked private (its text never goes to another machine) or not."""
        with self.lock:
            self.catalog.set_private(doc_id, private)

    def set_notice(self, doc_id: str, notice: Notice | None) -> None:
        """A retraction, correction or expression of concern on a document, or none."""
        with self.lock:
            self.catalog.set_notice(doc_id, notice)

    def set_source(self, doc_id: str, record: str, citation: tuple[str, str, int | None] | None = None) -> None:
        """Where a document came from (a reference manager's record, JSON) and, with ``citation``, the title, authors
        and year its row shows."""
        with self.lock:
            self.catalog.set_source(doc_id, record)
            if citation is not None:
                self.catalog.set_citation(doc_id, *citation)

    def drop_sources(self, doc_ids: Iterable[str]) -> None:
        with self.lock:
            self.catalog.drop_sources(doc_ids)

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.catalog.set_meta(key, value)

    def replace_vectors(self, folder: str, identity: str, dim: int, spec: str,
                        swap: Callable[[], None], before: Callable[[], None] | None = None) -> None:
        """The swap of an embedder switch: ``before()`` (the new table caught up), then one catalog transaction
        names the new folder, embedder identity, dimension and settings (``spec``), then ``swap()`` puts the new
        store and embedder in place; all under the lock, so no write lands in the old store after the catalog names
        the new one."""
        with self.lock:
            if before is not None:
                before()
            self.catalog.name_vectors(folder, identity, dim, spec)
            swap()
