"""The trial history feature: list stored trials and delete them (opening and resuming go through the courtroom's
TrialController, exporting through the ExportController)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller


class HistoryController(Controller):
    sig_trials = Signal(list)
    """list[TrialSummary], oldest first, after every change."""

    def __init__(self, workspace, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace
        self.trials: list = []

    def refresh(self) -> asyncio.Task:
        return self.tasks.spawn(self._refresh(), "Reading the trial history")

    async def _refresh(self) -> None:
        store = await self.workspace.trials()
        self.trials = await asyncio.to_thread(store.list)
        self.sig_trials.emit(self.trials)

    def delete(self, trial_ids: list[str]) -> asyncio.Task:
        return self.tasks.spawn(self._delete(list(trial_ids)), "Deleting trials")

    async def _delete(self, trial_ids: list[str]) -> None:
        store = await self.workspace.trials()
        await asyncio.to_thread(lambda: [store.delete(t) for t in trial_ids])
        await self._refresh()
