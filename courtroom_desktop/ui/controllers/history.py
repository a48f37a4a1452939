"""The trial history feature: list stored trials and delete them (opening and resuming go through the courtroom's
TrialController, exporting through the ExportController)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import TrialSummary
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController


class HistoryController(Controller):
    sig_trials = Signal(list)
    """list[TrialSummary], oldest first, after every change."""

    def __init__(self, workspace: WorkspaceController, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace
        self.trials: Sequence[TrialSummary] = []
        self._reads = 0  # refreshes begun: only the latest one's list is shown

    def refresh(self) -> asyncio.Task[None]:
        return self.tasks.spawn(self._refresh(), QT_TRANSLATE_NOOP("", "Reading the trial history"))

    async def _refresh(self) -> None:
        # Reads run in worker threads and can finish out of order: a list read before a deletion must not arrive
        # after the one read after it and bring the deleted trial back.
        self._reads += 1
        read = self._reads
        await self.workspace.trials()
        trials = await asyncio.to_thread(self.workspace.workspace.trials.list)
        if read == self._reads:
            self.trials = trials
            self.sig_trials.emit(trials)

    def delete(self, trial_ids: list[str]) -> asyncio.Task[None]:
        return self.tasks.spawn(self._delete(list(trial_ids)), QT_TRANSLATE_NOOP("", "Deleting trials"))

    async def _delete(self, trial_ids: list[str]) -> None:
        await self.workspace.trials()
        await asyncio.to_thread(self.workspace.workspace.trials.delete, trial_ids)
        await self._refresh()
