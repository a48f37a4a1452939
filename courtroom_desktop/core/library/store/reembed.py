"""Switching a library's embedder: every stored passage embedded again into a NEW LanceDB folder while searches go on
against the old one, then one SQLite transaction (the swap) names the new folder, model, dimension and settings in
the catalog's meta. A cancel, an error or a crash before the swap leaves the old folder and meta as they were (the
half-built folder is deleted, or swept on the next open); the old folder is deleted on the next open after the swap
(a search running at the moment of the swap may still be reading it).

The passages are not read from their files again: the chunks (text, pages, highlights) come from the old table, so a
file moved since still switches. The catalog's embedding cache, keyed by the embedder's identity, means a cancelled
switch run again embeds only what it had not reached.

Meta keys: ``vectors_folder`` (absent: 'lancedb', as every library before this had it), ``embedding_model`` (the
embedder's identity), ``embedding_dim``, ``embedder_settings`` (JSON of the LibrarySettings fields that built it, so
the library can rebuild the old embedder for searches when the settings name a new one not yet switched to).
"""

from __future__ import annotations

import json
import logging
import shutil
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import Cancelled, LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.embed.embedder import (
    Embedder,
    LibraryEmbedder,
    canonical_identity,
    embedding_text,
    make_embedder,
)
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.store.catalog import Catalog
from courtroom_desktop.core.library.store.embedding_cache import embed_cached
from courtroom_desktop.core.library.store.storing import EventSink
from courtroom_desktop.core.library.store.vectors import VectorStore
from courtroom_desktop.core.library.store.writer import LibraryWriter
from courtroom_desktop.core.privacy import embedding_refusal
from courtroom_desktop.core.records import (
    Chunk,
    DocStatus,
    Document,
    FileFinished,
    FileOutcome,
    FileProgress,
    FileStarted,
    IngestFinished,
    IngestStage,
    IngestStarted,
)

log = logging.getLogger(__name__)

DEFAULT_FOLDER = "lancedb"
SPEC_FIELDS = ("embedder", "embedding_model", "embedding_url", "embedding_languages", "embedding_backend")


def folder_name(catalog: Catalog) -> str:
    """The name of the vector folder the catalog names (on object storage, a prefix under the library's URI)."""
    return catalog.get_meta("vectors_folder") or DEFAULT_FOLDER


def folder_of(root: Path, catalog: Catalog) -> Path:
    """The vector folder the catalog names (under the library's ``root``)."""
    return root / folder_name(catalog)


def spec_of(settings: LibrarySettings, embedder: LibraryEmbedder) -> str:
    """The settings fields that build ``embedder`` (JSON), or '' when these settings build another one."""
    try:
        if make_embedder(settings, type(embedder) if isinstance(embedder, Embedder) else None).identity \
                != embedder.identity:
            return ""
    except Exception:  # noqa: BLE001 - settings that build nothing: nothing to record
        return ""
    return json.dumps({name: getattr(settings, name) for name in SPEC_FIELDS}, sort_keys=True)


def recorded_identity(catalog: Catalog) -> str | None:
    """The identity of the embedder the library's vectors were made with, as ``Embedder.identity`` spells it."""
    return canonical_identity(catalog.get_meta("embedding_model"))


def recorded_embedder(root: Path, catalog: Catalog, settings: LibrarySettings, embedder_class: type[Embedder],
                      target: LibraryEmbedder) -> LibraryEmbedder:
    """The embedder the library's vectors were made with, rebuilt from the meta, when the settings name another
    (``target``) and the library holds documents; else ``target``. Searches use it until the switch is done."""
    recorded = recorded_identity(catalog)
    if not recorded or recorded == target.identity or not catalog.ready_ids():
        return target
    spec = catalog.get_meta("embedder_settings")
    try:
        if spec:
            fields = json.loads(spec)
        else:  # a library from before endpoints: 'model' or 'model@backend', run by sentence-transformers
            name, _, backend = recorded.partition("@")
            fields = {"embedding_model": name, "embedding_backend": backend or "torch"}
        rebuilt = LibrarySettings.model_validate({**settings.model_dump(exclude=set(SPEC_FIELDS)),
                                                   **fields})
        old = make_embedder(rebuilt, embedder_class)
    except Exception as exc:  # noqa: BLE001 - cannot rebuild it: the vectors stay closed until re-embedded
        log.warning("%s: cannot rebuild the embedder %s (%s)", root, recorded, exc)
        return target
    return old if old.identity == recorded else target


def sweep(root: Path, catalog: Catalog) -> list[str]:
    """Delete LanceDB folders the meta does not name: a switch's half-built folder (cancel, crash) or the folder a
    switch replaced."""
    keep = folder_of(root, catalog).name
    swept = []
    for path in root.glob(f"{DEFAULT_FOLDER}*"):
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
            swept.append(path.name)
    return swept


def switch(writer: LibraryWriter, root: Path, current: VectorStore | None, target: LibraryEmbedder, spec: str,
           embed_batch: int, swap: Callable[[VectorStore], None], on_event: EventSink | None = None,
           cancel: CancelToken | None = None, place: Callable[[str], Path | str] | None = None,
           storage_options: dict[str, str] | None = None,
           discard: Callable[[Path | str], None] | None = None) -> IngestFinished:
    """Embed every ready document's stored chunks (read from ``current``, the store searches use now) with
    ``target`` into a new folder under ``root`` (``place(name)``: a prefix on object storage, reached with
    ``storage_options``), ``embed_batch`` at a time through the catalog's cache, then swap
    (``writer.replace_vectors``; ``swap(store)`` puts the new store and ``target`` in place). On a shared library
    other machines go on adding and removing while it embeds: at the swap, under the commit lock, the documents
    added meanwhile are embedded too and the removed ones dropped, so the new table holds exactly the catalog's
    documents when the one commit that names it lands. Raises what the embedder raises (the old vectors stay, the
    new folder is ``discard``-ed); returns the summary (``cancelled`` when cancelled)."""
    place = place or (lambda name: root / name)
    discard = discard or (lambda folder: shutil.rmtree(folder, ignore_errors=True))
    emit = on_event or (lambda event: None)
    cancel = cancel or CancelToken()
    catalog = writer.catalog
    started = time.perf_counter()
    stages = {s.value: 0.0 for s in IngestStage}
    with writer.lock:
        docs = catalog.documents(DocStatus.ready)
        refusal = embedding_refusal(docs, target)
        if refusal:
            raise LibraryError(Message("{root}: cannot switch the embedder: {refusal}", root, refusal), reason=refusal,
                               fix=Message("use an embedder on this computer, or mark the documents not private"))
        if current is None and docs:
            raise LibraryError(Message("{root}: the library's vectors are missing", root), fix=Message("run `courtroom library "
                                                                                         "check`"))
        name = f"{DEFAULT_FOLDER}-{uuid.uuid4().hex[:8]}"
        folder = place(name)
        emit(IngestStarted(files=len(docs)))
        totals = {"chunks": 0, "pages": 0}
        embedded: set[str] = set()
        try:
            dim = target.dim
            store = VectorStore(folder, dim, storage_options)
            for index, doc in enumerate(docs):
                if cancel.cancelled:
                    raise Cancelled()
                emit(FileStarted(path=doc.path, index=index, files=len(docs)))
                began = time.perf_counter()
                chunks = current.doc_chunks(doc.id) if current is not None else []

                def progress(done: int, seconds: float, doc: Document = doc, chunks: list[Chunk] = chunks) -> None:
                    stages["embed"] += seconds
                    emit(FileProgress(path=doc.path, stage=IngestStage.embed, pages_done=doc.pages, pages=doc.pages,
                                      chunks_done=done, chunks=len(chunks)))

                if chunks:
                    store.add(chunks, embed_cached(catalog, target, [embedding_text(doc.title, c) for c in chunks],
                                                   cancel, batch=max(embed_batch, 1), on_batch=progress))
                totals["chunks"] += len(chunks)
                totals["pages"] += doc.pages
                embedded.add(doc.id)
                emit(FileFinished(path=doc.path, outcome=FileOutcome.updated, doc_id=doc.id, pages=doc.pages,
                                  chunks=len(chunks), seconds=time.perf_counter() - began))
            store.optimize()
        except Cancelled:
            discard(folder)
            finished = IngestFinished(cancelled=True, seconds=time.perf_counter() - started, stage_seconds=stages)
            emit(finished)
            return finished
        except BaseException:
            discard(folder)
            raise

        def catch_up() -> None:
            """Under the commit: what other writers did while this one embedded, done in the new table too."""
            ready = {d.id: d for d in catalog.documents(DocStatus.ready)}
            gone = sorted(embedded - set(ready))
            if gone:
                store.delete_docs(gone)
            added = [d for doc_id, d in ready.items() if doc_id not in embedded]
            if added and current is not None:
                current.refresh()
                for doc in added:
                    chunks = current.doc_chunks(doc.id)
                    if chunks:
                        store.add(chunks, embed_cached(catalog, target, [embedding_text(doc.title, c) for c in chunks],
                                                       CancelToken(), batch=max(embed_batch, 1)))
            if gone or added:
                log.info("%s: %d documents added and %d removed elsewhere during the switch, caught up", root,
                         len(added), len(gone))

        try:
            writer.replace_vectors(name, target.identity, dim, spec, lambda: swap(store), before=catch_up)
        except BaseException:
            discard(folder)
            raise
    log.info("%s: re-embedded %d passages with %s", root, totals["chunks"], target.identity)
    finished = IngestFinished(updated=len(docs), pages=totals["pages"], chunks=totals["chunks"],
                              seconds=time.perf_counter() - started, stage_seconds=stages)
    emit(finished)
    return finished
