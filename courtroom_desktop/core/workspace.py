"""A workspace: the settings, library, trial store, retriever and models of one data folder, opened lazily, and the
use cases the command line and the window both call (and nothing else writes out again):

    ingest(paths, on_event, cancel)              files and folders into the library
    search(queries, k, documents, sections)      ranked passages
    start_trial(claim, case, ...) -> TrialRun    a new trial, ready to run
    resume_trial(ref, models) -> TrialRun        a stopped or paused trial, from its last complete turn
    export_trial(ref, formats, out_dir)          the report files
    read_draft / find_claims / create_check      a draft to its reviewed claims, stored as a check
    check_queue(ref) -> CheckQueue               a check's queue of quick checks and trials, resumable
    sign_off / send_to_trial / export_check      the reviewer's word, a claim's full trial, the report and copy
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from courtroom_desktop.core.config import (
    ROLES,
    AppConfig,
    DebateSettings,
    LibrarySettings,
    load_config,
    with_model_overrides,
)
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from courtroom_desktop.core.check.drafts import Draft
    from courtroom_desktop.core.check.queue import CheckQueue
    from courtroom_desktop.core.check.records import (
        CheckClaim,
        CheckRecord,
        CheckSummary,
        ClaimRow,
        TrialOutcome,
        TrialsWhen,
    )
    from courtroom_desktop.core.check.store import CheckStore
    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.court.bench import ChatModel
    from courtroom_desktop.core.court.coverage import LibraryUse, TrialCoverage
    from courtroom_desktop.core.court.decisions import DecisionSpec
    from courtroom_desktop.core.court.records import TrialEvent, TrialSpec, VerdictLabel
    from courtroom_desktop.core.court.store import TrialSummary
    from courtroom_desktop.core.library import CancelToken, Library
    from courtroom_desktop.core.library.shared.location import LibraryLocation
    from courtroom_desktop.core.library.store.catalog import Catalog
    from courtroom_desktop.core.library.store.handoff import IngestEngine
    from courtroom_desktop.core.library.watch import FolderWatcher, WatchReport
    from courtroom_desktop.core.library.zotero import ZoteroImport
    from courtroom_desktop.core.llm import ModelRouter
    from courtroom_desktop.core.privacy import TrialPolicy
    from courtroom_desktop.core.records import Chunk, Document, Evidence, IngestEvent, IngestFinished, ModelCall
    from courtroom_desktop.core.retrieval import Retriever, Scope
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    EventSink = Callable[[IngestEvent], None]

EMPTY_LIBRARY = "the library is empty: add documents first (`courtroom ingest PATH`, or the sample library in the window)"

log = logging.getLogger(__name__)


@dataclass
class TrialRun:
    """A trial ready to run: its id, its spec as stored (with the debate settings) and the court that drives it."""

    trial_id: str
    spec: TrialSpec
    court: Court

    def events(self) -> AsyncIterator[TrialEvent]:
        """The trial's event stream (``async for``): persisted as it happens, resumable if it stops."""
        stream: AsyncIterator[TrialEvent] = self.court.run(self.trial_id)
        return stream


@dataclass
class Export:
    paths: list[Path]
    notes: list[str]  # what could not be done as asked (a source PDF moved, a page not highlighted)


class Workspace:
    def __init__(self, config_dir: Path, data_dir: Path, config: AppConfig | None = None):
        self.config_dir = Path(config_dir)
        self.data_dir = Path(data_dir)
        self.config = config or load_config(self.config_dir)
        self._library: Library | None = None
        self._catalog: Catalog | None = None  # the catalog alone, for lookups when the library is not open
        self._store: TrialStore | None = None
        self._checks: CheckStore | None = None
        self._retriever: Retriever | None = None
        self._router: ModelRouter | None = None
        self._verifier: ClaimVerifier | None = None
        self.search_problem = ""  # why the last search ran on BM25 alone ('' when it had its vectors)

    # ---------------------------------------------------------------- parts, opened on first use
    @property
    def library(self) -> Library:
        if self._library is None:
            from courtroom_desktop.core.library import Library

            location = self.library_location
            self._library = Library(location.cache_folder(self.data_dir), self.config.library,
                                    location=location)
        return self._library

    @property
    def library_location(self) -> LibraryLocation:
        """Where the library lives (library.uri: the data folder's ``library``, another folder, or object storage)."""
        from courtroom_desktop.core.library.shared.location import locate

        settings = self.config.library
        return locate(settings.uri, self.data_dir / "library", endpoint=settings.endpoint, region=settings.region,
                      read_only=settings.read_only, data_dir=self.data_dir)

    @property
    def library_open(self) -> bool:
        return self._library is not None

    @property
    def trials(self) -> TrialStore:
        if self._store is None:
            from courtroom_desktop.core.court import TrialStore

            self._store = TrialStore(self.data_dir / "trials.sqlite")
        return self._store

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            from courtroom_desktop.core.retrieval import Retriever

            self._retriever = Retriever(self.library, self.config.retrieval)
        return self._retriever

    @property
    def router(self) -> ModelRouter:
        if self._router is None:
            from courtroom_desktop.core.llm import ModelRouter

            self._router = ModelRouter(self.config.models)
        return self._router

    @property
    def verifier(self) -> ClaimVerifier:
        """The bundled claim verifier (core.verifier): every passage of a trial or a check is scored by it. Its ONNX
        session is built on first use, off the event loop (it is only called in threads)."""
        if self._verifier is None:
            from courtroom_desktop.core.verifier.scorer import ClaimVerifier

            self._verifier = ClaimVerifier()
        return self._verifier

    def scope(self, documents: Sequence[str] | None = None, sections: Sequence[str] | None = None) -> Scope:
        """Documents (ids, id prefixes or paths) and section prefixes -> a retrieval Scope; none: everything."""
        from courtroom_desktop.core.retrieval import Scope

        doc_ids = [self.library.find(ref).id for ref in documents or []]
        return Scope.in_sections(sections or (), doc_ids or None)

    def court(self, scope: Scope | None = None, settings: DebateSettings | None = None,
              models: Callable[[str], ChatModel] | None = None) -> Court:
        """A Court over this workspace's models, retriever and store. While any text of the trial goes to another
        machine, its searches leave private documents out and its model calls stop on a scope that became private
        (core.privacy)."""
        from courtroom_desktop.core.court import Court

        settings = settings or self.config.debate
        embedder = self.library.embedder
        policy = self.privacy(scope)
        return Court(models or self.router.for_role, self.retriever, self.trials, settings, embed=embedder.encode,
                     covers=embedder.covers, scope=policy.scope(scope if scope is not None else self.scope()),
                     k=settings.passages_per_turn, privacy=policy, verifier=self.verifier)

    def privacy(self, scope: Scope | None = None) -> TrialPolicy:
        """The privacy rule of a trial over ``scope`` (None: the whole library) with today's settings: which roles
        (and the embedder) send text to another machine, and which documents are private now (core.privacy)."""
        from courtroom_desktop.core.privacy import Server, TrialPolicy, is_this_computer, remote_roles

        remote = remote_roles(self.config.models, self.config.library)
        url = getattr(self._library.embedder if self._library is not None else None, "base_url", "")
        if "embedder" not in remote and url and not is_this_computer(url):  # vectors made by the library's embedder
            remote["embedder"] = Server(f"the embedding server at {url} (another machine)", url, False)

        def title_of(doc_id: str) -> str:
            catalog = self._catalog_only()
            doc = catalog.get(doc_id) if catalog is not None else None
            return doc.title if doc is not None else doc_id

        return TrialPolicy(remote, scope.doc_ids if scope is not None else None, lambda: self.library.ready_ids(),
                           self.private_documents, title_of)

    def check_private(self, scope: Scope | None) -> None:
        """Refuse a trial whose scope holds private documents while a role's model server, or the embedder (the
        court embeds the passages it weighs), is on another machine: the message names the documents, the roles
        and the servers (core.privacy)."""
        self.privacy(scope).check()

    def model_labels(self) -> dict[str, str]:
        labels = {}
        for role in ROLES:
            spec = self.config.models.for_role(role)
            labels[role] = f"{spec.provider}:{spec.model or 'bundled SmolLM2-135M'}"
        return labels

    def _catalog_only(self) -> Catalog | None:
        """The library's catalog, without opening the vector and text stores; None when there is no library yet."""
        if self._library is not None:
            return self._library.catalog
        if self.library_location.shared:
            return None  # its catalog is on object storage: read by opening the library
        path = self.data_dir / "library" / "catalog.sqlite"
        if self.config.library.uri:
            path = self.library_location.cache_folder(self.data_dir) / "catalog.sqlite"
        if not path.is_file():
            return None
        if self._catalog is None:
            from courtroom_desktop.core.library.store.catalog import Catalog

            self._catalog = Catalog(path)
        return self._catalog

    def locate_document(self, doc_id: str) -> str | None:
        """Where the library has a document now (it may have been moved and added again); None if it is gone. Reads
        the catalog only: exporting an old trial does not open the vector and text stores."""
        if self.library_location.shared:  # its catalog is on object storage, its files beside it
            doc = self.library.catalog.get(doc_id)
            return self.library.local_file(doc.path) if doc else None
        catalog = self._catalog_only()
        doc = catalog.get(doc_id) if catalog is not None else None
        return doc.path if doc else None

    def private_documents(self, ids: Iterable[str]) -> frozenset[str]:
        """The ids of the private documents among ``ids`` (document ids, or chunk ids such as '3fa2...-0007'), from
        the catalog only; empty when there is no library."""
        catalog = self._catalog_only()
        return catalog.private_ids(ids) if catalog is not None else frozenset()

    # ---------------------------------------------------------------- notes and private documents
    @property
    def notes_dir(self) -> Path:
        """Where notes written in the app are kept: ``<data folder>/notes``."""
        from courtroom_desktop.core.library.files import notes_folder

        return notes_folder(self.data_dir / "library")

    def save_note(self, title: str, text: str, path: Path | str | None = None, private: bool | None = None,
                  on_event: EventSink | None = None, cancel: CancelToken | None = None) -> tuple[Path, IngestFinished]:
        """Write a note (a new one, or the one at ``path``) as Markdown under ``notes_dir`` and ingest it; returns
        (its path, the IngestFinished summary). ``private``: None keeps the note's earlier flag."""
        from courtroom_desktop.core.library.notes import write_note

        written = write_note(self.notes_dir, title, text, Path(path) if path is not None else None)
        return written, self.library.ingest([written], on_event=on_event, cancel=cancel, private=private)

    def folder_watcher(self, on_report: Callable[[WatchReport], None] | None = None,
                       on_error: Callable[[str], None] | None = None) -> FolderWatcher | None:
        """A watcher that keeps the folders ``library.watch`` names in step with this library (not started: ``start()``
        in a thread of its own, ``run()`` here, ``sync()`` once, ``stop()``); None when no folder is watched."""
        from courtroom_desktop.core.library.watch import FolderWatcher, folders_of

        folders = folders_of(self.config.library)
        if not folders:
            return None
        return FolderWatcher(self.library, folders, on_report=on_report, on_error=on_error)

    def set_private(self, ref: str, private: bool) -> Document:
        """Mark a document (id, id prefix or path) private or not; returns it as it is now."""
        return self.library.set_private(self.library.find(ref).id, private)

    # ---------------------------------------------------------------- reading the library
    def documents(self) -> list[Document]:
        """Every document of the library, whatever its status."""
        return self.library.documents()

    def failures(self) -> list[tuple[str, str]]:
        """Files that could not be ingested: (path, why)."""
        return self.library.catalog.failures()

    def document(self, ref: str) -> Document:
        """A document by id, id prefix or path (LibraryError when none or several match)."""
        return self.library.find(ref)

    def documents_at(self, path: str | PathLike[str]) -> list[Document]:
        """The documents ingested from ``path`` (a file changed since may have left more than one)."""
        return self.library.catalog.by_path(str(Path(path).expanduser().resolve()))

    def passages(self, ref: str) -> list[Chunk]:
        """A document's passages, in order."""
        return self.library.doc_chunks(self.library.find(ref).id)

    def has_documents(self) -> bool:
        """Whether any document is ready to be searched."""
        return bool(self.library.ready_ids())

    def check_library(self) -> dict[str, object]:
        """Which documents each store holds and whether the three agree (``Library.check_consistency``)."""
        return self.library.check_consistency()

    def preload(self) -> None:
        """Everything a first search or trial would load, loaded now (the embedding model, the vector table, the
        retriever): the window calls it in a thread right after it shows."""
        library = self.library
        _ = library.embedder.dim
        _ = library.vectors, self.retriever

    async def preload_chat_models(self) -> None:
        """The embedded chat models the roles use, loaded now (the model and its tokenizer, in a thread), so that a
        first trial does not wait for them; a model that fails to load is left to the trial, which reports it with
        its fix."""
        for role in ROLES:
            model = self.router.for_role(role)
            load = getattr(model, "load", None)
            if getattr(model, "provider", "") == "embedded" and load is not None:
                try:
                    await load()
                except Exception as exc:  # noqa: BLE001 - the trial will report it with its fix
                    log.warning("preloading the %s model failed: %s", role, exc)
                    return

    async def aclose_models(self) -> None:
        """Close the chat models' connections (models never built cost nothing)."""
        await self.router.aclose()

    def local_file(self, path: str) -> str:
        """A document's file as this machine can open it: a shared library fetches its stored copy into the cache
        (``Library.local_file``); before the library is open, the path as stored. Blocking: off the window's
        thread."""
        return self.library.local_file(path) if self.library_open else path

    # ---------------------------------------------------------------- stored trials
    def trial_list(self) -> list[TrialSummary]:
        """Every stored trial, newest first, with its status and verdict."""
        return self.trials.list()

    def trial_id(self, ref: str) -> str:
        """A stored trial's id from its id or a unique prefix (TrialError otherwise)."""
        return self.trials.find(ref)

    def trial_events(self, ref: str) -> list[TrialEvent]:
        """A stored trial's events, in order."""
        return self.trials.events(self.trials.find(ref))

    def trial_opened(self, ref: str) -> tuple[TrialSpec, list[TrialEvent], str]:
        """A stored trial as the window opens it: its spec, its events and its status."""
        trial_id = self.trials.find(ref)
        status = next((t.status for t in self.trials.list() if t.id == trial_id), "")
        return self.trials.spec(trial_id), self.trials.events(trial_id), status

    def trial_calls(self, ref: str, step: str | None = None, round_number: int | None = None,
                    turn: int | None = None) -> list[ModelCall]:
        """A stored trial's model calls (the exact prompt each model saw and its raw answer), in order; only those of
        a step (turn, assessment, ruling, verdict), a round or a counsel turn (0-based) when asked."""
        return self.trials.calls(self.trials.find(ref), step, round_number, turn)

    def trial_coverage(self, ref: str) -> TrialCoverage:
        """What a stored trial's searches covered: the passages found (admitted, or turned away and why) and the
        documents in its scope no search reached."""
        from courtroom_desktop.core.court.coverage import trial_coverage

        trial_id = self.trials.find(ref)
        spec, events = self.trials.spec(trial_id), self.trials.events(trial_id)
        return trial_coverage(events, self._scope_titles(spec.documents))

    def library_use(self) -> dict[str, LibraryUse]:
        """Per document of the library, across the stored trials: trials that could search it, retrieved it, cited
        it, and its citations in all (the library panel's 'cited' and 'never retrieved')."""
        from courtroom_desktop.core.court.coverage import library_use

        store = self.trials
        trials = ((store.spec(t.id).documents, store.events(t.id)) for t in store.list())
        return library_use(trials, sorted(self.library.ready_ids()))

    def _scope_titles(self, documents: Sequence[str]) -> list[tuple[str, str]]:
        """(id, title) of the documents a trial could search: those named, or the library's ready ones."""
        ready = self.library.ready_ids()
        wanted = set(documents) or ready
        return [(d.id, d.title or Path(d.path).name) for d in self.documents() if d.id in wanted]

    def delete_trials(self, refs: Sequence[str]) -> list[str]:
        """Stored trials (ids or unique prefixes) deleted; returns their ids."""
        ids = [self.trials.find(ref) for ref in refs]
        for trial_id in ids:
            self.trials.delete(trial_id)
        return ids

    # ---------------------------------------------------------------- use cases
    def ingest(self, paths: Iterable[str | PathLike[str]], on_event: EventSink | None = None,
               cancel: CancelToken | None = None, force: bool = False, private: bool | None = None,
               engine: IngestEngine | None = None) -> IngestFinished:
        """Files and folders into the library (see ``Library.ingest``; ``engine``: core.library.ray_engine);
        returns the IngestFinished summary."""
        return self.library.ingest(paths, on_event=on_event, cancel=cancel, force=force, private=private,
                                   engine=engine)

    def import_zotero(self, collection: str | None = None, url: str | None = None, folder: str | None = None,
                      on_event: EventSink | None = None, cancel: CancelToken | None = None) -> tuple[ZoteroImport, str]:
        """A Zotero library, or one collection of it, into the library and in step with it (core.library.zotero):
        its local API, else its data folder (``folder``: that one only). Returns the summary and where it was read."""
        from courtroom_desktop.core.library.zotero import import_items, read_zotero, scope_of

        items, where = read_zotero(collection, url, folder)
        return import_items(self.library, items, scope_of(collection), on_event, cancel), where

    def zotero_scopes(self) -> list[str]:
        """The Zotero scopes imported so far (the whole library, a collection), as ``sync_zotero`` imports them again."""
        from courtroom_desktop.core.library.zotero import imported_scopes

        return list(imported_scopes(self.library))

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

    def reindex(self, refs: Sequence[str] | None = None, on_event: EventSink | None = None,
                cancel: CancelToken | None = None) -> IngestFinished:
        """Documents (ids, id prefixes or paths; none: all) read, chunked and embedded again from their files, or
        with no refs and another embedder in the settings, the switch to it (see ``Library.reindex``)."""
        ids = [self.library.find(ref).id for ref in refs] if refs else None
        return self.library.reindex(ids, on_event=on_event, cancel=cancel)

    def reembed(self, settings: LibrarySettings, on_event: EventSink | None = None,
                cancel: CancelToken | None = None) -> IngestFinished:
        """The library embedded again with ``settings``' embedder (LibrarySettings; they become the library's once
        the switch is complete), into a new table while searches use the old (core.library.store.reembed)."""
        return self.library.reindex(None, on_event=on_event, cancel=cancel, settings=settings)

    def remove(self, refs: Sequence[str], failure_paths: Sequence[str] = ()) -> list[Document]:
        """Documents (ids, id prefixes or paths) out of the library, and files that failed to ingest forgotten;
        returns the documents removed."""
        library = self.library
        removed = [library.remove(library.find(ref).id) for ref in refs]
        for path in failure_paths:
            library.catalog.clear_failure(path)
        return removed

    def search(self, queries: str | Sequence[str], k: int | None = None, documents: Sequence[str] | None = None,
               sections: Sequence[str] | None = None, reranker: str | None = None) -> list[Evidence]:
        """The best passages for the queries together, as the courtroom finds them; ``reranker`` overrides the
        setting for this search. When the embedder fails (an endpoint down), the search runs on BM25 alone and
        ``search_problem`` says why."""
        retriever = self.retriever
        if reranker is not None:
            from courtroom_desktop.core.retrieval import Retriever

            retriever = Retriever(self.library, self.config.retrieval.model_copy(update={"reranker": reranker}))
        found = retriever.search(queries, k=k, scope=self.scope(documents, sections))
        self.search_problem = retriever.vector_problem  # '' or why this search ran on BM25 alone
        return found

    def start_trial(self, claim: str, case: str = "claim", documents: Sequence[str] | None = None,
                    sections: Sequence[str] | None = None, settings: DebateSettings | None = None, *,
                    background: str = "", decision: DecisionSpec | None = None,
                    models: Callable[[str], ChatModel] | None = None) -> TrialRun:
        """Create a trial of ``claim`` over the library (or the named documents and sections) with ``settings``
        (default: the config's debate settings). ``background``: text every role sees, as data; ``decision``: a
        ``DecisionSpec`` (options, weighted criteria, hard constraints) for a decision case; ``models``: role ->
        chat model, instead of the configured ones (a check's queue hands in models held to their servers' limits)."""
        from pydantic import ValidationError

        from courtroom_desktop.core.court import CaseType, TrialSpec

        claim = " ".join(claim.split())
        if not claim:
            raise TrialError(Message("the claim is empty: say what should be put on trial"))
        if not self.library.ready_ids():
            raise TrialError(EMPTY_LIBRARY)
        scope = self.scope(documents, sections)
        try:
            spec = TrialSpec(claim=claim, case=CaseType(case), documents=tuple(sorted(scope.doc_ids or ())),
                             sections=tuple(scope.sections), models=self.model_labels(), background=background.strip(),
                             decision=decision)
        except ValidationError as exc:
            from courtroom_desktop.core.court.decisions import problem_of

            raise TrialError(problem_of(exc)) from None
        self.check_private(scope)
        court = self.court(scope, settings or self.config.debate, models)
        trial_id = court.start(spec)
        return TrialRun(trial_id, self.trials.spec(trial_id), court)

    def resume_trial(self, ref: str, models: Callable[[str], ChatModel] | None = None) -> TrialRun:
        """A stopped or paused trial (id or unique prefix), with the debate settings and scope it started with and
        this workspace's models (or ``models``)."""
        trial_id = self.trials.find(ref)
        spec = self.trials.spec(trial_id)
        settings = DebateSettings.model_validate(spec.settings) if spec.settings else self.config.debate
        scope = self.scope(list(spec.documents), list(spec.sections))
        self.check_private(scope)  # today's models, today's private flags
        court = self.court(scope, settings, models)
        return TrialRun(trial_id, spec, court)

    def export_trial(self, ref: str, formats: Iterable[str], out_dir: str | PathLike[str],
                     audience: Literal["general", "expert"] = "general", with_prompts: bool = False) -> Export:
        """A stored trial's report into ``out_dir``: the formats asked for and the highlighted source pages; with
        ``with_prompts`` (only when asked: they hold the documents' text), every model call's exact prompt and raw
        answer too, in prompts.json and prompts.md."""
        from courtroom_desktop.core.reports import TrialRecord, export

        trial_id = self.trials.find(ref)
        scope = self._scope_titles(self.trials.spec(trial_id).documents)
        record = TrialRecord.from_store(self.trials, trial_id, scope=scope)
        notes: list[str] = []
        paths = export(record, formats, Path(out_dir), audience=audience, locate=self.locate_document, notes=notes)
        if with_prompts:
            from courtroom_desktop.core.reports.model_calls import write_prompts

            paths += write_prompts(self.trials.calls(trial_id), Path(out_dir))
        return Export(paths, notes)

    # ---------------------------------------------------------------- checks of drafts (core/check, docs/check.md)
    @property
    def checks(self) -> CheckStore:
        if self._checks is None:
            from courtroom_desktop.core.check.store import CheckStore

            self._checks = CheckStore(self.data_dir / "checks.sqlite")
        return self._checks

    def read_draft(self, path: str | PathLike[str] | None = None, text: str | None = None) -> Draft:
        """A draft file (.pdf, .docx, .md, .txt) or pasted ``text`` read into located sentences (CheckError naming
        the file and the fix when it cannot be)."""
        from courtroom_desktop.core.check.drafts import read_draft, read_text

        if text is not None:
            return read_text(text)
        if path is None:
            raise TrialError(Message("no draft: give a file or paste the text"))
        return read_draft(Path(path).expanduser())

    def claim_finder(self, finder: str | None = None) -> str:
        """The finder a check uses: the setting's (or ``finder``), with auto resolved: the rules alone for the
        embedded model (too small to find claims), the rules and the judge's model otherwise."""
        chosen = finder or self.config.check.finder
        if chosen == "auto":
            return "rules" if self.config.models.for_role("judge").provider == "embedded" else "both"
        return chosen

    async def find_claims(self, draft: Draft, finder: str | None = None) -> tuple[list[CheckClaim], list[str]]:
        """The claims worth checking in ``draft`` as the finder finds them (see ``claim_finder``), in the draft's
        order; and warnings (what the model's answer had that could not be placed in the draft)."""
        from courtroom_desktop.core.check.claims import find_claims
        from courtroom_desktop.core.check.review import from_found

        chosen = self.claim_finder(finder)
        rules = from_found(find_claims(draft.sentences)) if chosen in ("rules", "both") else []
        if chosen == "rules":
            return rules, []
        from courtroom_desktop.core.check.model_claims import combine, find_with_model
        from courtroom_desktop.core.llm.limits import ServerLimits

        judge = ServerLimits(self.config.models).wrap(self.router.for_role("judge"),
                                                      self.config.models.for_role("judge"))
        found, warnings = await find_with_model(draft, judge)
        return (combine(rules, found) if chosen == "both" else found), warnings

    def create_check(self, draft: Draft, claims: Sequence[CheckClaim], *, title: str = "",
                     trials: TrialsWhen | None = None, trial_below: float | None = None, k: int | None = None,
                     documents: Sequence[str] | None = None, finder: str = "rules") -> str:
        """A new check of ``draft``'s reviewed ``claims`` over the library (or the named documents), stored with the
        settings it runs with (the config's where not given); returns its id. ``queue(check_id).run()`` runs it."""
        import hashlib

        from courtroom_desktop.core.check.records import CheckSpec

        if not self.library.ready_ids():
            raise TrialError(EMPTY_LIBRARY)
        scope = self.scope(documents)
        self.check_private(scope)
        settings = self.config.check
        source = Path(draft.source)
        is_file = draft.source != "pasted text" and source.is_file()
        spec = CheckSpec(draft=str(source.resolve()) if is_file else draft.source, kind=draft.kind,
                         language=draft.language, sentences=len(draft.sentences),
                         draft_sha256=hashlib.sha256(source.read_bytes()).hexdigest() if is_file else "",
                         pasted_text="" if is_file else " ".join(s.text for s in draft.sentences),
                         title=title or (source.name if is_file else draft.source),
                         trials=trials or settings.trials,
                         trial_below=settings.trial_below if trial_below is None else trial_below,
                         k=k or settings.passages, documents=tuple(sorted(scope.doc_ids or ())),
                         models=self.model_labels(), finder=finder)
        return self.checks.create(spec, claims)

    def check_queue(self, ref: str) -> CheckQueue:
        """The queue of a stored check (id or unique prefix), new or stopped, ready to ``run()``: quick checks with
        the judge's model, full trials with every role's, each model's calls held to its server's ``max_parallel``
        (core.llm.limits), today's privacy rule applied to every search and call."""
        from courtroom_desktop.core.check.queue import CheckQueue
        from courtroom_desktop.core.check.quick import quick_check
        from courtroom_desktop.core.check.records import QuickResult
        from courtroom_desktop.core.llm.limits import ServerLimits

        check_id = self.checks.find(ref)
        spec = self.checks.spec(check_id)
        scope = self.scope(list(spec.documents))
        policy = self.privacy(scope)
        policy.check()
        limits = ServerLimits(self.config.models)

        def models(role: str) -> ChatModel:
            model: ChatModel = limits.wrap(self.router.for_role(role), self.config.models.for_role(role))
            return model

        judge = models("judge")
        retriever = self.retriever
        verifier = self.verifier

        async def quick(text: str) -> QuickResult:
            return await quick_check(text, retriever, judge, verifier, k=spec.k, scope=scope, policy=policy,
                                     insufficient_cap=self.config.debate.verdict_rule.insufficient_max_confidence)

        async def trial(text: str, trial_id: str | None, started: Callable[[str], None]) -> TrialOutcome:
            import asyncio

            if trial_id is None:
                run = await asyncio.to_thread(self.start_trial, text, "claim", list(spec.documents) or None,
                                              models=models)
                await asyncio.to_thread(started, run.trial_id)
                trial_id = run.trial_id
            else:
                done = self._trial_outcome(trial_id)
                if done.label is not None:
                    return done
                run = await asyncio.to_thread(self.resume_trial, trial_id, models)
            async for _ in run.events():
                pass
            return await asyncio.to_thread(self._trial_outcome, trial_id)

        return CheckQueue(self.checks, check_id, quick=quick, trial=trial, workers=limits.workers)

    def _trial_outcome(self, trial_id: str) -> TrialOutcome:
        from courtroom_desktop.core.check.records import TrialOutcome
        from courtroom_desktop.core.court.records import VerdictReached

        summary = next((t for t in self.trials.list() if t.id == trial_id), None)
        if summary is None:
            return TrialOutcome(trial_id=trial_id, status="deleted")
        verdict = next((e.verdict for e in reversed(self.trials.events(trial_id)) if isinstance(e, VerdictReached)), None)
        if verdict is None:
            return TrialOutcome(trial_id=trial_id, status=summary.status)
        return TrialOutcome(trial_id=trial_id, status=summary.status, label=verdict.label,
                            confidence=verdict.confidence, summary=verdict.summary)

    def check_id(self, ref: str) -> str:
        """A stored check's id from its id or a unique prefix (CheckError otherwise)."""
        return self.checks.find(ref)

    def check_list(self) -> list[CheckSummary]:
        """Every stored check, newest first."""
        return self.checks.list()

    def check_record(self, ref: str) -> CheckRecord:
        """A stored check (id or unique prefix), whole."""
        return self.checks.record(self.checks.find(ref))

    def delete_checks(self, refs: Sequence[str]) -> list[str]:
        """Stored checks deleted (the trials they started are kept: they are trials like any other); their ids."""
        ids = [self.checks.find(ref) for ref in refs]
        for check_id in ids:
            self.checks.delete(check_id)
        return ids

    def sign_off(self, ref: str, claim: int, decision: str, label: VerdictLabel | str | None = None, note: str = "",
                 reviewer: str = "") -> ClaimRow:
        """A reviewer's sign-off of claim ``claim`` (from 1) of a check: 'accepted', 'overridden' (with the
        reviewer's ``label``) or 'withdrawn' (the sign-off removed). ``reviewer``: the setting's name, else the
        computer's user name. Kept beside the court's verdict."""
        import getpass
        import time

        from pydantic import ValidationError

        from courtroom_desktop.core.check.records import SignOff
        from courtroom_desktop.core.errors import CheckError

        check_id = self.checks.find(ref)
        index = claim - 1
        if decision == "withdrawn":
            self.checks.sign_off(check_id, index, None)
            return self.checks.row(check_id, index)
        row = self.checks.row(check_id, index)
        if row.label is None and decision == "accepted":
            raise CheckError(Message("claim {claim}", claim), Message("it has no verdict to accept yet"), fix=Message("wait for its check, "
                                                                                              "or override it"))
        name = reviewer or self.config.check.reviewer or getpass.getuser()
        try:
            signoff = SignOff(reviewer=name, decision=decision, label=label or None,  # type: ignore[arg-type]
                              note=note.strip(), at=time.time())
        except ValidationError as exc:
            raise CheckError(Message("claim {claim}", claim), Message("not a sign-off ({exc.errors()[0]['msg']})",
                                                       exc.errors()[0]['msg']),
                             fix=Message("decide 'accepted' or 'overridden' (with the reviewer's verdict)")) from None
        if signoff.decision == "overridden" and signoff.label is None:
            raise CheckError(Message("claim {claim}", claim), Message("an override needs the reviewer's verdict"),
                             fix=Message("give supported, refuted, mixed or insufficient evidence"))
        self.checks.sign_off(check_id, index, signoff)
        return self.checks.row(check_id, index)

    def send_to_trial(self, ref: str, claim: int) -> ClaimRow:
        """Claim ``claim`` (from 1) of a check sent to a full trial: the queue runs it after the quick checks."""
        check_id = self.checks.find(ref)
        self.checks.send_to_trial(check_id, claim - 1)
        return self.checks.row(check_id, claim - 1)

    def export_check(self, ref: str, formats: Iterable[str], out_dir: str | PathLike[str],
                     annotate: bool = True) -> Export:
        """A stored check's report into ``out_dir`` (md, html, pdf, json, csv, with the highlighted source pages),
        and with ``annotate`` the draft's annotated copy (a PDF with highlights and notes, a Word file with a
        comment on each claim, Markdown with marks)."""
        from courtroom_desktop.core.check.annotate import annotate_draft
        from courtroom_desktop.core.check.export import export_check

        record = self.check_record(ref)
        notes: list[str] = []
        paths = export_check(record, formats, Path(out_dir), locate=self.locate_document, notes=notes)
        if annotate:
            if record.spec.draft_sha256:
                copy, why = annotate_draft(record, Path(record.spec.draft), Path(out_dir))
                if copy is not None:
                    paths.append(copy)
                else:
                    notes.append(f"the annotated draft was not written: {why}")
            else:
                notes.append("the annotated draft was not written: the draft was pasted text (there is no file)")
        return Export(paths, notes)

    # ---------------------------------------------------------------- life cycle
    def with_models(self, overrides: list[str]) -> Workspace:
        """This workspace with ``--model ROLE=PROVIDER:MODEL`` overrides applied (when there are any)."""
        if overrides:
            self.config = with_model_overrides(self.config, overrides)
            self._router = None
        return self

    def reconfigure(self, config: AppConfig) -> ModelRouter | None:
        """Use ``config`` from now on without reopening the library: models and the retriever are rebuilt on next
        use, and the library's next ingest uses the new chunking settings; a different embedder takes effect with
        `courtroom library reindex` (or the window's Re-index), which re-embeds into a new table while searches keep
        the old one (core.library.store.reembed). Returns the previous model router (or None), for the caller to ``aclose``."""
        old_router, self._router, self._retriever = self._router, None, None
        self.config = config
        if self._library is not None:  # nothing is rebuilt from them implicitly: the embedder changes at reindex
            self._library.settings = config.library
        return old_router

    def close(self) -> None:
        for part in (self._library, self._catalog, self._store, self._checks):
            if part is not None:
                part.close()
