"""The library's use cases: documents in (files, folders, notes, Zotero, watched folders) and out, their passages
and private flags, and search. Takes and returns records (core.records) and ids; the library itself stays inside
(parts.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from courtroom_desktop.core.workspace.parts import Parts

if TYPE_CHECKING:
    from courtroom_desktop.core.check.references import Work
    from courtroom_desktop.core.config import LibrarySettings
    from courtroom_desktop.core.court.coverage import LibraryUse
    from courtroom_desktop.core.library import CancelToken
    from courtroom_desktop.core.library.shared.location import LibraryLocation
    from courtroom_desktop.core.library.store.handoff import IngestEngine
    from courtroom_desktop.core.library.watch import FolderWatcher, WatchReport
    from courtroom_desktop.core.library.zotero import ZoteroImport
    from courtroom_desktop.core.records import Chunk, Document, Evidence, IngestEvent, IngestFinished, Notice

    EventSink = Callable[[IngestEvent], None]


class LibraryService:
    def __init__(self, parts: Parts):
        self._parts = parts
        self.search_problem = ""  # why the last search ran on BM25 alone ('' when it had its vectors)
        self._ray: tuple[tuple[str, int], IngestEngine] | None = None  # the settings' Ray engine, once made

    # ---------------------------------------------------------------- where it is
    @property
    def location(self) -> LibraryLocation:
        """Where the library lives (library.uri: the data folder's ``library``, another folder, or object storage)."""
        return self._parts.library_location

    @property
    def is_open(self) -> bool:
        return self._parts.library_open

    def open(self) -> None:
        """Open the library's stores now (blocking: off the window's thread)."""
        _ = self._parts.library

    def preload(self) -> None:
        """Everything a first search or trial would load, loaded now (the embedding model, the vector table, the
        retriever): the window calls it in a thread right after it shows."""
        library = self._parts.library
        _ = library.embedder.dim
        _ = library.vectors, self._parts.retriever

    def catch_up(self) -> tuple[int, int]:
        """A shared library read again (blocking): the catalog, this machine's BM25 index brought up to it, and an
        embedder switch another machine made taken up; (documents indexed, documents dropped)."""
        return self._parts.library.sync()

    def where(self) -> str:
        """Where the library lives, in words, and for a shared one its local replica's size and age."""
        from courtroom_desktop.core.lexicon.message import joined

        said = self.replica()
        return joined([self.location.describe(), said]) if said is not None else self.location.describe()

    # ---------------------------------------------------------------- a shared library's local replica
    def replica(self, catch_up: bool = False, clear: bool = False) -> str | None:
        """A shared library's local read replica of its chunk table, in words (core.library.shared.replica), after
        catching it up now (``catch_up``: blocking) or deleting it (``clear``); None for a local library or with
        library.replica off."""
        if not self.location.shared:  # nothing to say, and nothing to open
            return None
        replica = self._parts.library.replica
        if replica is None:
            return None
        if clear:
            replica.clear()
        elif catch_up:
            replica.catch_up()
        return replica.status.describe()

    # ---------------------------------------------------------------- reading it
    def documents(self) -> list[Document]:
        """Every document of the library, whatever its status."""
        return self._parts.library.documents()

    def failures(self) -> list[tuple[str, str]]:
        """Files that could not be ingested: (path, why)."""
        return self._parts.library.catalog.failures()

    def document(self, ref: str) -> Document:
        """A document by id, id prefix or path (LibraryError when none or several match)."""
        return self._parts.library.find(ref)

    def documents_at(self, path: str | PathLike[str]) -> list[Document]:
        """The documents ingested from ``path`` (a file changed since may have left more than one)."""
        return self._parts.library.catalog.by_path(str(Path(path).expanduser().resolve()))

    def passages(self, ref: str) -> list[Chunk]:
        """A document's passages, in order."""
        library = self._parts.library
        return library.doc_chunks(library.find(ref).id)

    def has_documents(self) -> bool:
        """Whether any document is ready to be searched."""
        return bool(self._parts.library.ready_ids())

    def check_consistency(self) -> dict[str, object]:
        """Which documents each store holds and whether the three agree (``Library.check_consistency``)."""
        return self._parts.library.check_consistency()

    def locate(self, doc_id: str) -> str | None:
        """Where the library has a document now; None if it is gone (the catalog only)."""
        return self._parts.locate_document(doc_id)

    def private_documents(self, ids: Iterable[str]) -> frozenset[str]:
        """The ids of the private documents among ``ids`` (document or chunk ids), from the catalog only."""
        return self._parts.private_documents(ids)

    def local_file(self, path: str) -> str:
        """A document's file as this machine can open it: a shared library fetches its stored copy into the cache
        (``Library.local_file``); before the library is open, the path as stored. Blocking: off the window's
        thread."""
        return self._parts.library.local_file(path) if self._parts.library_open else path

    def use(self) -> dict[str, LibraryUse]:
        """Per document of the library, across the stored trials: trials that could search it, retrieved it, cited
        it, and its citations in all (the library panel's 'cited' and 'never retrieved')."""
        from courtroom_desktop.core.court.coverage import library_use

        store = self._parts.trials
        trials = ((store.spec(t.id).documents, store.events(t.id)) for t in store.list())
        return library_use(trials, sorted(self._parts.library.ready_ids()))

    def search(self, queries: str | Sequence[str], k: int | None = None, documents: Sequence[str] | None = None,
               sections: Sequence[str] | None = None, reranker: str | None = None) -> list[Evidence]:
        """The best passages for the queries together, as the courtroom finds them; ``reranker`` overrides the
        setting for this search. When the embedder fails (an endpoint down), the search runs on BM25 alone and
        ``search_problem`` says why."""
        parts = self._parts
        retriever = parts.retriever
        if reranker is not None:
            from courtroom_desktop.core.retrieval import Retriever

            retriever = Retriever(parts.library, parts.config.retrieval.model_copy(update={"reranker": reranker}))
        found = retriever.search(queries, k=k, scope=parts.scope(documents, sections))
        self.search_problem = retriever.vector_problem  # '' or why this search ran on BM25 alone
        return found

    def works(self) -> list[Work]:
        """What a draft's references are matched against (core.check.references): each ready document's title,
        authors, year, DOI (its Zotero item's, else the first one its opening passages print) and Zotero item key."""
        import json

        from courtroom_desktop.core.check.references import DOI, Work
        from courtroom_desktop.core.records import DocStatus

        library = self._parts.library
        sources = library.catalog.sources()
        works: list[Work] = []
        for doc in library.documents():
            if doc.status != DocStatus.ready:
                continue
            source = json.loads(sources[doc.id]) if doc.id in sources else {}
            doi = str(source.get("doi") or "")
            key = str(source.get("item_key") or "")
            if not doi:
                opening = " ".join(c.text for c in library.doc_chunks(doc.id)[:2])
                found = DOI.search(opening)
                doi = found.group(0).rstrip(".,;)") if found else ""
            works.append(Work(doc_id=doc.id, title=doc.title, authors=doc.authors, year=doc.year, doi=doi.lower(),
                              key=key))
        return works

    def notices(self) -> dict[str, Notice]:
        """Document id -> its retraction, correction or expression of concern, for the documents that have one."""
        return self._parts.library.catalog.notices()

    def import_retractions(self, path: str | PathLike[str]) -> tuple[int, list[Document]]:
        """A Retraction Watch CSV (core.library.retractions) matched to the library by DOI and PubMed id: each
        matched document gets its notice. Returns (the notices the file lists, the documents flagged)."""
        from courtroom_desktop.core.library.retractions import PMID, read_retraction_watch

        listed = read_retraction_watch(Path(path).expanduser())
        by_doi = {item.doi: item for item in listed if item.doi}
        by_pmid = {item.pmid: item for item in listed if item.pmid}
        library = self._parts.library
        flagged: list[Document] = []
        for work in self.works():
            item = by_doi.get(work.doi) if work.doi else None
            if item is None and by_pmid:
                opening = " ".join(c.text for c in library.doc_chunks(work.doc_id)[:2])
                found = PMID.search(opening)
                item = by_pmid.get(found.group(1)) if found else None
            if item is not None:
                library.set_notice(work.doc_id, item.notice)
                flagged.append(library.find(work.doc_id))
        return len(listed), flagged

    # ---------------------------------------------------------------- changing it
    def ingest(self, paths: Iterable[str | PathLike[str]], on_event: EventSink | None = None,
               cancel: CancelToken | None = None, force: bool = False, private: bool | None = None,
               engine: IngestEngine | Literal["settings", "local"] = "settings") -> IngestFinished:
        """Files and folders into the library (see ``Library.ingest``); returns the IngestFinished summary.
        ``engine``: who prepares the files: the one library.ingest_engine names (with ray_address and ray_workers),
        this process ('local'), or an engine given (core.library.ray_engine)."""
        chosen = self.engine() if engine == "settings" else None if engine == "local" else engine
        return self._parts.library.ingest(paths, on_event=on_event, cancel=cancel, force=force, private=private,
                                          engine=chosen)

    def engine(self) -> IngestEngine | None:
        """The ingest engine the settings name: None for this process, or a Ray engine (kept for the workspace's
        life: Ray starts once)."""
        settings = self._parts.library.settings
        if settings.ingest_engine != "ray":
            return None
        from courtroom_desktop.core.library.ray_engine import RayEngine

        key = (settings.ray_address, settings.ray_workers)
        if self._ray is None or self._ray[0] != key:
            self._ray = (key, RayEngine(address=settings.ray_address or None, workers=settings.ray_workers or None))
        return self._ray[1]

    def reindex(self, refs: Sequence[str] | None = None, on_event: EventSink | None = None,
                cancel: CancelToken | None = None) -> IngestFinished:
        """Documents (ids, id prefixes or paths; none: all) read, chunked and embedded again from their files, or
        with no refs and another embedder in the settings, the switch to it (see ``Library.reindex``)."""
        library = self._parts.library
        ids = [library.find(ref).id for ref in refs] if refs else None
        return library.reindex(ids, on_event=on_event, cancel=cancel)

    def reembed(self, settings: LibrarySettings, on_event: EventSink | None = None,
                cancel: CancelToken | None = None) -> IngestFinished:
        """The library embedded again with ``settings``' embedder (LibrarySettings; they become the library's once
        the switch is complete), into a new table while searches use the old (core.library.store.reembed)."""
        return self._parts.library.reindex(None, on_event=on_event, cancel=cancel, settings=settings)

    def remove(self, refs: Sequence[str], failure_paths: Sequence[str] = ()) -> list[Document]:
        """Documents (ids, id prefixes or paths) out of the library, and files that failed to ingest forgotten;
        returns the documents removed."""
        library = self._parts.library
        removed = [library.remove(library.find(ref).id) for ref in refs]
        for path in failure_paths:
            library.catalog.clear_failure(path)
        return removed

    def set_private(self, ref: str, private: bool) -> Document:
        """Mark a document (id, id prefix or path) private or not; returns it as it is now."""
        library = self._parts.library
        return library.set_private(library.find(ref).id, private)

    # ---------------------------------------------------------------- notes and watched folders
    @property
    def notes_dir(self) -> Path:
        """Where notes written in the app are kept: ``<data folder>/notes``."""
        from courtroom_desktop.core.library.files import notes_folder

        return notes_folder(self._parts.data_dir / "library")

    def save_note(self, title: str, text: str, path: Path | str | None = None, private: bool | None = None,
                  on_event: EventSink | None = None, cancel: CancelToken | None = None) -> tuple[Path, IngestFinished]:
        """Write a note (a new one, or the one at ``path``) as Markdown under ``notes_dir`` and ingest it; returns
        (its path, the IngestFinished summary). ``private``: None keeps the note's earlier flag."""
        from courtroom_desktop.core.library.notes import write_note

        written = write_note(self.notes_dir, title, text, Path(path) if path is not None else None)
        return written, self._parts.library.ingest([written], on_event=on_event, cancel=cancel, private=private)

    def folder_watcher(self, on_report: Callable[[WatchReport], None] | None = None,
                       on_error: Callable[[str], None] | None = None) -> FolderWatcher | None:
        """A watcher that keeps the folders ``library.watch`` names in step with this library (not started: ``start()``
        in a thread of its own, ``run()`` here, ``sync()`` once, ``stop()``); None when no folder is watched."""
        from courtroom_desktop.core.library.watch import FolderWatcher, folders_of

        folders = folders_of(self._parts.config.library)
        if not folders:
            return None
        return FolderWatcher(self._parts.library, folders, on_report=on_report, on_error=on_error)

    # ---------------------------------------------------------------- Zotero
    def import_zotero(self, collection: str | None = None, url: str | None = None, folder: str | None = None,
                      on_event: EventSink | None = None, cancel: CancelToken | None = None) -> tuple[ZoteroImport, str]:
        """A Zotero library, or one collection of it, into the library and in step with it (core.library.zotero):
        its local API, else its data folder (``folder``: that one only). Returns the summary and where it was read."""
        from courtroom_desktop.core.library.zotero import import_items, read_zotero, scope_of

        items, where = read_zotero(collection, url, folder)
        return import_items(self._parts.library, items, scope_of(collection), on_event, cancel), where

    def zotero_scopes(self) -> list[str]:
        """The Zotero scopes imported so far (the whole library, a collection), as ``sync_zotero`` imports them again."""
        from courtroom_desktop.core.library.zotero import imported_scopes

        return list(imported_scopes(self._parts.library))

    def zotero_version(self, url: str | None = None) -> int | str | None:
        """Zotero's library version, to tell whether a ``sync_zotero`` is due: None when nothing in this library came
        from Zotero; else the version its local API at ``url`` reports, or (the API silent, no ``url`` given) its data
        folder's, read from the database. Blocking: call it off the window's thread."""
        from courtroom_desktop.core.library.zotero import folder_version, library_version

        if not self.zotero_scopes():
            return None
        version = library_version(url)
        return version if version is not None or url is not None else folder_version()

    def sync_zotero(self, url: str | None = None, folder: str | None = None, on_event: EventSink | None = None,
                    cancel: CancelToken | None = None) -> list[tuple[str | None, ZoteroImport, str]]:
        """Every Zotero scope imported so far (the whole library, collections) imported again, so the library is in
        step with Zotero: (collection or None, summary, where it was read) each; [] when nothing came from Zotero."""
        from courtroom_desktop.core.library.zotero import collection_of

        done: list[tuple[str | None, ZoteroImport, str]] = []
        for scope in self.zotero_scopes():
            if cancel is not None and cancel.cancelled:
                break
            collection = collection_of(scope)
            result, where = self.import_zotero(collection, url, folder, on_event, cancel)
            done.append((collection, result, where))
        return done
