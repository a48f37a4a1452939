"""A workspace: the settings, library, trial store, retriever and models of one data folder, opened lazily.
The command line and the window both work through it."""

from __future__ import annotations

from pathlib import Path

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSpec, load_config
from courtroom_desktop.core.errors import ConfigError


def parse_model_override(text: str) -> tuple[list[str], str, str]:
    """'judge=ollama:llama3.1:8b' -> (['judge'], 'ollama', 'llama3.1:8b'); 'all=...' names every role."""
    role, sep, target = text.partition("=")
    provider, _, model = target.partition(":")
    if not sep or provider not in ("embedded", "ollama", "openai"):
        raise ConfigError(f"--model {text!r}: write ROLE=PROVIDER:MODEL, e.g. judge=ollama:llama3.1 "
                          "(ROLE: prosecution, defense, judge or all; PROVIDER: embedded, ollama or openai)")
    roles = list(ROLES) if role == "all" else [role]
    if any(r not in ROLES for r in roles):
        raise ConfigError(f"--model {text!r}: unknown role {role!r}; use prosecution, defense, judge or all")
    return roles, provider, model


def with_model_overrides(config: AppConfig, overrides: list[str]) -> AppConfig:
    models = config.models.model_copy(deep=True)
    for text in overrides:
        roles, provider, model = parse_model_override(text)
        for role in roles:
            base = models.for_role(role)
            spec = ModelSpec.model_validate({**base.model_dump(), "provider": provider, "model": model})
            setattr(models, role, spec)
    return config.model_copy(update={"models": models})


class Workspace:
    def __init__(self, config_dir: Path, data_dir: Path, config: AppConfig | None = None):
        self.config_dir = Path(config_dir)
        self.data_dir = Path(data_dir)
        self.config = config or load_config(self.config_dir)
        self._library = None
        self._store = None
        self._retriever = None
        self._router = None

    @property
    def library(self):
        if self._library is None:
            from courtroom_desktop.core.library import Library

            self._library = Library.open(self.data_dir / "library", self.config.library)
        return self._library

    @property
    def trials(self):
        if self._store is None:
            from courtroom_desktop.core.court import TrialStore

            self._store = TrialStore(self.data_dir / "trials.sqlite")
        return self._store

    @property
    def retriever(self):
        if self._retriever is None:
            from courtroom_desktop.core.retrieval import Retriever

            self._retriever = Retriever(self.library, self.config.retrieval)
        return self._retriever

    @property
    def router(self):
        if self._router is None:
            from courtroom_desktop.core.llm import ModelRouter

            self._router = ModelRouter(self.config.models)
        return self._router

    def scope(self, documents: list[str] | None = None, sections: list[str] | None = None):
        from courtroom_desktop.core.retrieval import Scope

        doc_ids = [self.library.find(ref).id for ref in documents or []]
        return Scope(doc_ids=frozenset(doc_ids) if doc_ids else None, sections=tuple(sections or ()))

    def court(self, scope=None, settings=None):
        from courtroom_desktop.core.court import Court

        return Court(self.router.for_role, self.retriever, self.trials, settings or self.config.debate,
                     embed=self.library.embedder.encode, scope=scope, k=min(self.config.retrieval.k, 6))

    def reconfigure(self, config: AppConfig):
        """Use ``config`` from now on without reopening the library: models and the retriever are rebuilt on next
        use, and the library's next ingest uses the new chunking settings (a different embedding model still needs
        `courtroom library reindex`). Returns the previous model router (or None), for the caller to ``aclose``."""
        old_router, self._router, self._retriever = self._router, None, None
        self.config = config
        if self._library is not None and config.library.embedding_model == self._library.settings.embedding_model:
            self._library.settings = config.library
        return old_router

    def model_labels(self) -> dict[str, str]:
        labels = {}
        for role in ROLES:
            spec = self.config.models.for_role(role)
            labels[role] = f"{spec.provider}:{spec.model or 'bundled SmolLM2-135M'}"
        return labels

    def close(self) -> None:
        if self._library is not None:
            self._library.close()
        if self._store is not None:
            self._store.close()
