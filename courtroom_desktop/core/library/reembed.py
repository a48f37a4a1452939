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
from pathlib import Path

from courtroom_desktop.core.errors import Cancelled, LibraryError
from courtroom_desktop.core.library.embedder import Embedder, canonical_identity, make_embedder
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.stores import VectorStore
from courtroom_desktop.core.privacy import embedding_refusal
from courtroom_desktop.core.records import (
    DocStatus,
    FileFinished,
    FileOutcome,
    FileStarted,
    IngestFinished,
    IngestStage,
    IngestStarted,
)

log = logging.getLogger(__name__)

DEFAULT_FOLDER = "lancedb"
SPEC_FIELDS = ("embedder", "embedding_model", "embedding_url", "embedding_languages", "embedding_backend")


def folder_of(library) -> Path:
    return library.root / (library.catalog.get_meta("vectors_folder") or DEFAULT_FOLDER)


def spec_of(settings, embedder) -> str:
    """The settings fields that build ``embedder`` (JSON), or '' when these settings build another one."""
    try:
        if make_embedder(settings, type(embedder) if isinstance(embedder, Embedder) else None).identity \
                != embedder.identity:
            return ""
    except Exception:  # noqa: BLE001 - settings that build nothing: nothing to record
        return ""
    return json.dumps({name: getattr(settings, name) for name in SPEC_FIELDS}, sort_keys=True)


def recorded_identity(catalog) -> str | None:
    """The identity of the embedder the library's vectors were made with, as ``Embedder.identity`` spells it."""
    return canonical_identity(catalog.get_meta("embedding_model"))


def record(catalog, folder: str, identity: str, dim: int, spec: str) -> None:
    """The swap: the catalog names the new vectors in one transaction."""
    values = {"vectors_folder": folder, "embedding_model": identity, "embedding_dim": str(int(dim)),
              "embedder_settings": spec}
    with catalog._lock:
        db = catalog._db
        db.execute("BEGIN")
        try:
            db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", list(values.items()))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def recorded_embedder(library, target):
    """The embedder the library's vectors were made with, rebuilt from the meta, when the settings name another
    (``target``) and the library holds documents; else ``target``. Searches use it until the switch is done."""
    recorded = recorded_identity(library.catalog)
    if not recorded or recorded == target.identity or not library.catalog.ready_ids():
        return target
    from courtroom_desktop.core.config import LibrarySettings

    spec = library.catalog.get_meta("embedder_settings")
    try:
        if spec:
            fields = json.loads(spec)
        else:  # a library from before endpoints: 'model' or 'model@backend', run by sentence-transformers
            name, _, backend = recorded.partition("@")
            fields = {"embedding_model": name, "embedding_backend": backend or "torch"}
        settings = LibrarySettings.model_validate({**library.settings.model_dump(exclude=set(SPEC_FIELDS)),
                                                   **fields})
        old = make_embedder(settings, library.embedder_class)
    except Exception as exc:  # noqa: BLE001 - cannot rebuild it: the vectors stay closed until re-embedded
        log.warning("%s: cannot rebuild the embedder %s (%s)", library.root, recorded, exc)
        return target
    return old if old.identity == recorded else target


def sweep(library) -> list[str]:
    """Delete LanceDB folders the meta does not name: a switch's half-built folder (cancel, crash) or the folder a
    switch replaced."""
    keep = folder_of(library).name
    swept = []
    for path in library.root.glob(f"{DEFAULT_FOLDER}*"):
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
            swept.append(path.name)
    return swept


def switch(library, target, spec: str, on_event=None, cancel: CancelToken | None = None) -> IngestFinished:
    """Embed every ready document's stored chunks with ``target`` into a new folder, then swap (see the module).
    Raises what the embedder raises (the old vectors stay); returns the summary (``cancelled`` when cancelled)."""
    from courtroom_desktop.core.library import storing  # which imports this module

    emit = on_event or (lambda event: None)
    cancel = cancel or CancelToken()
    started = time.perf_counter()
    stages = {s.value: 0.0 for s in IngestStage}
    with library._write_lock:
        docs = library.catalog.documents(DocStatus.ready)
        refusal = embedding_refusal(docs, target)
        if refusal:
            raise LibraryError(f"{library.root}: cannot switch the embedder: {refusal}", reason=refusal,
                               fix="use an embedder on this computer, or mark the documents not private")
        old = library._vectors
        if old is None and docs:
            old = VectorStore(folder_of(library), int(library.catalog.get_meta("embedding_dim") or 0)
                              or library.embedder.dim)
        name = f"{DEFAULT_FOLDER}-{uuid.uuid4().hex[:8]}"
        folder = library.root / name
        emit(IngestStarted(files=len(docs)))
        totals = {"chunks": 0, "pages": 0}
        try:
            dim = target.dim
            store = VectorStore(folder, dim)
            for index, doc in enumerate(docs):
                if cancel.cancelled:
                    raise Cancelled()
                emit(FileStarted(path=doc.path, index=index, files=len(docs)))
                began = time.perf_counter()
                chunks = old.doc_chunks(doc.id)
                store.add(chunks, storing.embed_document(library, doc, chunks, emit, cancel, stages, embedder=target))
                totals["chunks"] += len(chunks)
                totals["pages"] += doc.pages
                emit(FileFinished(path=doc.path, outcome=FileOutcome.updated, doc_id=doc.id, pages=doc.pages,
                                  chunks=len(chunks), seconds=time.perf_counter() - began))
            store.optimize()
        except Cancelled:
            shutil.rmtree(folder, ignore_errors=True)
            finished = IngestFinished(cancelled=True, seconds=time.perf_counter() - started, stage_seconds=stages)
            emit(finished)
            return finished
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        record(library.catalog, name, target.identity, dim, spec)
        library._vectors = store
        library.embedder = library.target_embedder = target
    log.info("%s: re-embedded %d passages with %s", library.root, totals["chunks"], target.identity)
    finished = IngestFinished(updated=len(docs), pages=totals["pages"], chunks=totals["chunks"],
                              seconds=time.perf_counter() - started, stage_seconds=stages)
    emit(finished)
    return finished
