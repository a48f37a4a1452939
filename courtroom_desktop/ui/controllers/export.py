"""The export feature: a stored trial -> report files, through the report exporter (in a worker thread: it renders
PDF pages and writes files)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController


class ExportController(Controller):
    sig_busy = Signal(bool)
    """True while an export runs."""
    sig_exported = Signal(list)
    """list[Path]: the files written, reports first, then the highlighted source pages."""

    def __init__(self, workspace: WorkspaceController, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace

    def export(self, trial_id: str, formats: list[str], out_dir: Path,
               audience: Literal["general", "expert"] = "general") -> asyncio.Task[list[Path] | None]:
        return self.tasks.spawn(self._export(trial_id, list(formats), Path(out_dir), audience),
                                QT_TRANSLATE_NOOP("", "Exporting the report"))

    async def _export(self, trial_id: str, formats: list[str], out_dir: Path,
                      audience: Literal["general", "expert"]) -> list[Path]:
        self.sig_busy.emit(True)
        try:
            await self.workspace.trials()
            result = await asyncio.to_thread(self.workspace.workspace.trials.export, trial_id, formats, out_dir,
                                             audience=audience)
        finally:
            self.sig_busy.emit(False)
        self.sig_exported.emit(list(result.paths))
        return list(result.paths)
