"""A workspace: one data folder's settings and the use cases the command line and the window both call, one service
per feature:

    workspace.library   LibraryService (library.py)  documents in and out, search, notes, private flags, Zotero,
                                                      watched folders
    workspace.trials    TrialService   (trials.py)   a claim or a decision on trial; stored trials read, exported,
                                                      deleted
    workspace.checks    CheckService   (checks.py)   a draft to its reviewed claims, their checks, sign-off, export
    workspace.models    ModelService   (models.py)   the roles' models: labels, preloading, closing

Each takes and returns records (core.records, core.court.records, core.check.records) and ids, never the library, a
store or a model router: those are the workspace's parts (parts.py), opened lazily and shared by the services. The
claim-verification and retrieval evaluations (core.eval) build their own library and court, through
core.services.evaluation.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.config import AppConfig, load_config
from courtroom_desktop.core.workspace.checks import CheckService
from courtroom_desktop.core.workspace.library import LibraryService
from courtroom_desktop.core.workspace.models import ModelService
from courtroom_desktop.core.workspace.parts import Parts
from courtroom_desktop.core.workspace.trials import EMPTY_LIBRARY, Export, TrialRun, TrialService

if TYPE_CHECKING:
    from courtroom_desktop.core.llm import ModelRouter

__all__ = ["EMPTY_LIBRARY", "CheckService", "Export", "LibraryService", "ModelService", "TrialRun", "TrialService",
           "Workspace"]


class Workspace:
    def __init__(self, config_dir: Path, data_dir: Path, config: AppConfig | None = None):
        #: the shared parts, for the services and for tests that look inside; the window and the command line use
        #: the services (tests/test_architecture.py)
        self.parts = Parts(config_dir, data_dir, config or load_config(Path(config_dir)))
        self.library = LibraryService(self.parts)
        self.trials = TrialService(self.parts)
        self.checks = CheckService(self.parts, self.trials, self.library)
        self.models = ModelService(self.parts)

    @property
    def config(self) -> AppConfig:
        return self.parts.config

    @property
    def config_dir(self) -> Path:
        return self.parts.config_dir

    @property
    def data_dir(self) -> Path:
        return self.parts.data_dir

    def with_models(self, overrides: list[str]) -> Workspace:
        """This workspace with ``--model ROLE=PROVIDER:MODEL`` overrides applied (when there are any)."""
        self.parts.with_models(overrides)
        return self

    def reconfigure(self, config: AppConfig) -> ModelRouter | None:
        """Use ``config`` from now on without reopening the library: models and the retriever are rebuilt on next
        use, and the library's next ingest uses the new chunking settings; a different embedder takes effect with
        `courtroom library reindex` (or the window's Re-index), which re-embeds into a new table while searches keep
        the old one (core.library.store.reembed). Returns the previous model router (or None), for the caller to
        ``aclose``."""
        return self.parts.reconfigure(config)

    def close(self) -> None:
        self.parts.close()
