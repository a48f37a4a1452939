"""The writer's rule (core.library.store.writer) for a library on object storage, where other machines write too.

Every write takes the commit lock first (core.library.shared.commit_lock), then reads the shared catalog fresh:
- a document another writer stored meanwhile (same content, so the same id) is not stored again: no duplicate;
- if the previous holder died mid-commit (its lease ran out), chunks no catalog row names are swept first.
Then the local rule runs unchanged: chunks into the shared chunk table, the catalog row ``ready`` (the commit point),
the local BM25 index. A crash anywhere leaves either the document fully there or chunks the next sweep removes.

The BM25 index (tantivy) is this machine's: a cache of the shared chunk table, brought up to the shared catalog by
``sync_text_index`` (documents others added are fetched from the chunk table and indexed; removed ones dropped). The
chunk table, with its text and vectors, and the catalog are the library; the index can always be rebuilt from them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.shared.catalog import SharedCatalog
from courtroom_desktop.core.library.shared.commit_lock import CommitLock
from courtroom_desktop.core.library.shared.files import SharedFiles
from courtroom_desktop.core.library.store.writer import ChunkStore, LibraryWriter, TextStore, Writable
from courtroom_desktop.core.records import Chunk, DocStatus, Document, Notice

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class SharedWriter(LibraryWriter):
    def __init__(self, catalog: SharedCatalog, text_index: TextStore, vectors: Callable[[], ChunkStore],
                 vectors_exist: Callable[[], bool], embedding_text: Callable[[str, Chunk], str],
                 commit_lock: CommitLock, files: SharedFiles, read_only: bool = False,
                 switched_elsewhere: Callable[[], str | None] = lambda: None):
        super().__init__(catalog, text_index, vectors, vectors_exist, embedding_text)
        self.switched_elsewhere = switched_elsewhere  # another machine's embedder switch this one has not taken up
        self.shared = catalog
        self.commit_lock = commit_lock
        self.files = files
        self.read_only = read_only

    def _writable(self) -> None:
        if self.read_only:
            raise LibraryError(Message("{self.shared.location.uri} is opened read-only (library.read_only): adding "
                                       "or removing documents is for a read-write opening",
                                       self.shared.location.uri))

    @contextmanager
    def _committing(self) -> Iterator[bool]:
        """The write lock, then the commit lock (re-entrant), with the shared catalog read fresh and, after a holder
        that died, its leftovers swept; yields whether that sweep ran."""
        with self.lock, self.commit_lock.held() as dirty:
            self.shared.sync(force=True)
            if dirty:
                self.sweep()
            yield dirty

    def write(self, entries: Sequence[Writable], vectors: np.ndarray,
              before_stores: Callable[[Writable], None] | None = None) -> set[str]:
        """The rule under the commit lock; returns the ids another writer stored meanwhile (not stored again)."""
        self._writable()
        if not entries:
            return set()
        for entry in entries:  # before the lock: by content, so writers at once write the same object
            self.files.put(entry.record.path, entry.record.sha256)
        with self._committing():
            if (switched := self.switched_elsewhere()) is not None:  # chunks into the table no catalog names
                raise LibraryError(switched)
            ready = self.shared.ready_ids()
            keep = [i for i, e in enumerate(entries) if e.in_stores or e.record.id not in ready]
            elsewhere = {e.record.id for i, e in enumerate(entries) if i not in keep}
            if len(keep) < len(entries):
                log.info("%d document(s) were stored by another writer meanwhile: not stored again",
                         len(entries) - len(keep))
                rows = np.cumsum([0] + [len(e.chunks) for e in entries])
                vectors = np.concatenate([vectors[rows[i]:rows[i + 1]] for i in keep]) if keep else vectors[:0]
                entries = [entries[i] for i in keep]
            super().write(entries, vectors, before_stores)
            return elsewhere

    def delete(self, doc_ids: Iterable[str]) -> list[Document]:
        self._writable()
        with self._committing():
            return super().delete(doc_ids)

    def set_private(self, doc_id: str, private: bool) -> None:
        """Shared with every machine (the shared catalog's row), so under the commit lock; refused read-only."""
        self._writable()
        with self._committing():
            super().set_private(doc_id, private)

    def set_notice(self, doc_id: str, notice: Notice | None) -> None:
        """Shared with every machine, so under the commit lock; refused read-only."""
        self._writable()
        with self._committing():
            super().set_notice(doc_id, notice)

    def set_meta(self, key: str, value: str) -> None:
        self._writable()
        with self._committing():
            super().set_meta(key, value)

    def replace_vectors(self, folder: str, identity: str, dim: int, spec: str,
                        swap: Callable[[], None], before: Callable[[], None] | None = None) -> None:
        """An embedder switch's swap under the commit lock: the catalog read fresh, the new table caught up with
        what other writers did meanwhile (``before``), then one commit of the shared meta names the new table."""
        self._writable()
        with self._committing():
            super().replace_vectors(folder, identity, dim, spec, swap, before)

    def sync_text_index(self, docs_chunks: Callable[[list[str]], dict[str, list[Chunk]]],
                        on_progress: Callable[[int, int], None] | None = None, batch_docs: int = 200) -> tuple[int, int]:
        """This machine's BM25 index brought up to the shared catalog, under the write lock: (documents indexed,
        documents dropped). Chunks come from the chunk table ``batch_docs`` documents per query."""
        with self.lock:
            return sync_text_index(self.text_index, self.shared, docs_chunks, on_progress, batch_docs)

    def recover(self) -> list[str]:
        """This machine's stuck rows (a crash here) leave the mirror; their chunks, and anyone's orphans, are swept
        under the lock. A read-only opening recovers nothing (it writes nothing)."""
        stuck = [d.id for d in self.shared.documents() if d.status in (DocStatus.pending, DocStatus.removing)]
        self.shared.forget_local(stuck)
        if self.read_only or not stuck:
            return stuck
        with self._committing() as swept:
            if not swept:
                self.sweep()
        return stuck

    def sweep(self) -> list[str]:
        """Under the lock: chunks of documents the shared catalog does not hold (a writer died between its chunks and
        its catalog row, or between a row's removal and its chunks') out of the chunk table and the local index."""
        if not self._vectors_exist():
            return []
        orphans = sorted(self.vectors().doc_ids() - self.shared.shared_ready_ids())
        if orphans:
            log.warning("removing the chunks of %d document(s) a writer left half-written: %s", len(orphans),
                        ", ".join(orphans[:5]))
            self.purge(orphans)
        return orphans


def sync_text_index(text_index: TextStore, catalog: SharedCatalog,
                    docs_chunks: Callable[[list[str]], dict[str, list[Chunk]]],
                    on_progress: Callable[[int, int], None] | None = None, batch_docs: int = 200) -> tuple[int, int]:
    """The local BM25 index brought up to the shared catalog: (documents indexed, documents dropped). Chunks come
    from the chunk table ``batch_docs`` documents per query."""
    ready = {d.id: d for d in catalog.documents(DocStatus.ready)}
    have = text_index.doc_ids()
    missing = [doc_id for doc_id in ready if doc_id not in have]
    extra = sorted(have - set(ready))
    if extra:
        text_index.delete_docs(extra)
    for start in range(0, len(missing), batch_docs):
        part = missing[start:start + batch_docs]
        chunks = docs_chunks(part)
        text_index.add_docs([(doc_id, chunks.get(doc_id, []), ready[doc_id].title) for doc_id in part])
        if on_progress is not None:
            on_progress(min(start + batch_docs, len(missing)), len(missing))
    return len(missing), len(extra)
