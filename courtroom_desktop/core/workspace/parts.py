"""What a workspace's services share: one data folder's settings and its parts, each opened on first use (the
library, the trial and check stores, the retriever, the model router, the claim verifier), and the court and
privacy rule built from them. The services (library.py, trials.py, checks.py, models.py) use them; the window and
the command line never do (tests/test_architecture.py), and no service hands one out."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.config import ROLES, AppConfig, DebateSettings, with_model_overrides
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from courtroom_desktop.core.check.store import CheckStore
    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.court.bench import ChatModel
    from courtroom_desktop.core.library import Library
    from courtroom_desktop.core.library.shared.location import LibraryLocation
    from courtroom_desktop.core.library.store.catalog import Catalog
    from courtroom_desktop.core.llm import ModelRouter
    from courtroom_desktop.core.privacy import TrialPolicy
    from courtroom_desktop.core.retrieval import Retriever, Scope
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier


class Parts:
    def __init__(self, config_dir: Path, data_dir: Path, config: AppConfig):
        self.config_dir = Path(config_dir)
        self.data_dir = Path(data_dir)
        self.config = config
        self._library: Library | None = None
        self._catalog: Catalog | None = None  # the catalog alone, for lookups when the library is not open
        self._trials: TrialStore | None = None
        self._checks: CheckStore | None = None
        self._retriever: Retriever | None = None
        self._router: ModelRouter | None = None
        self._verifier: ClaimVerifier | None = None
        self._opening = threading.Lock()

    @property
    def library(self) -> Library:
        if self._library is None:
            with self._opening:  # two threads at once (the window's refresh and its Zotero check) open it once
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
        if self._trials is None:
            from courtroom_desktop.core.court import TrialStore

            self._trials = TrialStore(self.data_dir / "trials.sqlite")
        return self._trials

    @property
    def checks(self) -> CheckStore:
        if self._checks is None:
            from courtroom_desktop.core.check.store import CheckStore

            self._checks = CheckStore(self.data_dir / "checks.sqlite")
        return self._checks

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
            remote["embedder"] = Server(Message("the embedding server at {url} (another machine)", url), url, False)

        def title_of(doc_id: str) -> str:
            catalog = self.catalog_only()
            doc = catalog.get(doc_id) if catalog is not None else None
            return doc.title if doc is not None else doc_id

        return TrialPolicy(remote, scope.doc_ids if scope is not None else None, lambda: self.library.ready_ids(),
                           self.private_documents, title_of)

    def model_labels(self) -> dict[str, str]:
        """Each role's model as a trial records it ('ollama:qwen2.5:7b')."""
        labels = {}
        for role in ROLES:
            spec = self.config.models.for_role(role)
            labels[role] = f"{spec.provider}:{spec.model or 'bundled SmolLM2-135M'}"
        return labels

    def catalog_only(self) -> Catalog | None:
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
        catalog = self.catalog_only()
        doc = catalog.get(doc_id) if catalog is not None else None
        return doc.path if doc else None

    def private_documents(self, ids: Iterable[str]) -> frozenset[str]:
        """The ids of the private documents among ``ids`` (document ids, or chunk ids such as '3fa2...-0007'), from
        the catalog only; empty when there is no library."""
        catalog = self.catalog_only()
        return catalog.private_ids(ids) if catalog is not None else frozenset()

    def scope_titles(self, documents: Sequence[str]) -> list[tuple[str, str]]:
        """(id, title) of the documents a trial could search: those named, or the library's ready ones."""
        ready = self.library.ready_ids()
        wanted = set(documents) or ready
        return [(d.id, d.title or Path(d.path).name) for d in self.library.documents() if d.id in wanted]

    def with_models(self, overrides: list[str]) -> None:
        """``--model ROLE=PROVIDER:MODEL`` overrides applied to the settings (when there are any)."""
        if overrides:
            self.config = with_model_overrides(self.config, overrides)
            self._router = None

    def reconfigure(self, config: AppConfig) -> ModelRouter | None:
        """Use ``config`` from now on without reopening the library (see ``Workspace.reconfigure``); returns the
        previous model router (or None), for the caller to ``aclose``."""
        old_router, self._router, self._retriever = self._router, None, None
        self.config = config
        if self._library is not None:  # nothing is rebuilt from them implicitly: the embedder changes at reindex
            self._library.settings = config.library
        return old_router

    def close(self) -> None:
        for part in (self._library, self._catalog, self._trials, self._checks):
            if part is not None:
                part.close()
