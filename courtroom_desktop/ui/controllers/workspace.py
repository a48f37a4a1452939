"""The workspace the window works on: opening it off the GUI thread, preloading the models in the background,
applying new settings live, and switching the data folder."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.core.config import ROLES, AppConfig, save_config
from courtroom_desktop.ui import collector
from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import Workspace


class WorkspaceController(Controller):
    sig_status = Signal(str)
    """A short line for the status bar: what is loading in the background."""
    sig_library_ready = Signal()
    """The library is open (its stores and catalog): panels may list it."""
    sig_models_ready = Signal()
    """The embedding model (and the embedded chat model, when a role uses it) are loaded."""
    sig_config_applied = Signal(object)
    """New settings (an AppConfig) are saved and in use."""
    sig_workspace_changed = Signal()
    """The data folder changed: every panel reloads."""

    def __init__(self, config_dir: Path, data_dir: Path, config: AppConfig | None = None,
                 workspace: Workspace | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        from courtroom_desktop.core.services.trials import Workspace

        self.config_dir = Path(config_dir)
        self.workspace: Workspace = workspace or Workspace(config_dir, data_dir, config)
        self._open_lock = asyncio.Lock()
        self._library_open = False
        self.models_ready = False

    # ---------------------------------------------------------------- access
    @property
    def config(self) -> AppConfig:
        return self.workspace.config

    @property
    def data_dir(self) -> Path:
        return self.workspace.data_dir

    @property
    def library_open(self) -> bool:
        return self._library_open

    async def library(self) -> None:
        """Open the library once, in a worker thread (opening imports the stores and reads the catalog); the use cases
        on ``self.workspace`` then find it open."""
        async with self._open_lock:
            if not self._library_open:
                await asyncio.to_thread(lambda: self.workspace.library)
                self._library_open = True
                self.sig_library_ready.emit()

    async def trials(self) -> object:
        """The trial store (``self.workspace.trials``), opened in a worker thread."""
        return await asyncio.to_thread(lambda: self.workspace.trials)

    def uses_embedded_model(self) -> bool:
        return any(self.config.models.for_role(role).provider == "embedded" for role in ROLES)

    # ---------------------------------------------------------------- background preload
    def start(self) -> asyncio.Task[None] | None:
        """After the window shows: open the library, then load the embedding and chat models in the background."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # called before the loop runs: start once it does
            from PySide6.QtCore import QTimer

            QTimer.singleShot(0, self.start)
            return None
        return self.tasks.spawn(self._preload(), QT_TRANSLATE_NOOP("", "Loading the library"))

    async def _preload(self) -> None:
        try:
            self.sig_status.emit(tr("Opening the library\u2026"))
            await self.library()
            # Every heavy first use happens here, right after the window shows, not in the middle of an ingest or a
            # trial: importing an extension module holds the GIL (lancedb's import alone stalled the loop 250 ms).
            self.sig_status.emit(tr("Loading the embedding model\u2026"))
            await asyncio.to_thread(self.workspace.library.preload)
            if self.uses_embedded_model():
                self.sig_status.emit(tr("Loading the embedded chat model\u2026"))
                await self._load_chat_models()
        finally:
            collector.settle()  # full garbage collections, held back since the window's creation, run again
        self.models_ready = True
        self.sig_status.emit(tr("Ready"))
        self.sig_models_ready.emit()

    async def _load_chat_models(self) -> None:
        await self.workspace.models.preload()

    # ---------------------------------------------------------------- settings
    def apply_config(self, config: AppConfig) -> None:
        """Save the settings and use them from the next trial on (models, retrieval, debate, chunking)."""
        save_config(config, self.config_dir)
        old_router = self.workspace.reconfigure(config)
        if old_router is not None:
            self.tasks.spawn(old_router.aclose(), QT_TRANSLATE_NOOP("", "Closing the previous models"))
        self.models_ready = False
        self.sig_config_applied.emit(config)
        if self._library_open and self.uses_embedded_model():
            self.tasks.spawn(self._reload_models(), QT_TRANSLATE_NOOP("", "Loading the chat models"))

    async def _reload_models(self) -> None:
        self.sig_status.emit(tr("Loading the embedded chat model\u2026"))
        await self._load_chat_models()
        self.models_ready = True
        self.sig_status.emit(tr("Ready"))
        self.sig_models_ready.emit()

    def switch_data_dir(self, data_dir: Path) -> asyncio.Task[None]:
        return self.tasks.spawn(self._switch(Path(data_dir)), QT_TRANSLATE_NOOP("", "Switching the data folder"))

    async def _switch(self, data_dir: Path) -> None:
        from courtroom_desktop.core.services.trials import Workspace

        if data_dir.resolve() == self.data_dir.resolve():
            return
        old = self.workspace
        async with self._open_lock:
            self.workspace = Workspace(self.config_dir, data_dir, old.config)
            self._library_open = False
        await asyncio.to_thread(old.close)
        self.sig_workspace_changed.emit()
        await self._preload()

    async def close(self) -> None:
        await self.tasks.cancel_all()
        try:
            await self.workspace.models.aclose()  # models that were never built cost nothing to close
        finally:
            await asyncio.to_thread(self.workspace.close)
            from courtroom_desktop.core.services.models import release_loaded_models

            release_loaded_models()  # free llama.cpp models now, not during interpreter shutdown

