"""The trial history: every stored trial with its status and verdict; open, resume, export, delete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, Signal, SignalInstance
from PySide6.QtWidgets import QLabel, QWidget

from courtroom_desktop.ui.controls import named, push_button, record_table, table_panel
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.qt_models.trials import TrialsModel

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import TrialSummary
    from courtroom_desktop.ui.controllers.history import HistoryController


class HistoryPanel(QWidget):
    sig_open = Signal(str)
    """Show this trial in the courtroom."""
    sig_resume = Signal(str)
    """Show and resume this trial."""
    sig_export = Signal(str)
    """Export this trial's report."""
    sig_delete = Signal(list)
    """Delete these trials (after confirmation)."""

    def __init__(self, model: TrialsModel, controller: HistoryController, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.controller = controller
        self.table = named(record_table(model, "trialsTable", (220, 62, 70, 90, 76, 120)), tr("Stored trials"))
        self.table.doubleClicked.connect(lambda index: self.sig_open.emit(model.trial(index.row()).id))
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)

        self.open_button = push_button(tr("Open"), tr("Show the trial's transcript and evidence (Enter)"),
                                       lambda: self._emit(self.sig_open))
        self.resume_button = push_button(tr("Resume"), tr("Continue a stopped or paused trial"), lambda: self._emit(self.sig_resume))
        self.export_button = push_button(tr("Export\u2026"), tr("Write the verdict report (Ctrl+E)"), lambda: self._emit(self.sig_export))
        self.delete_button = push_button(tr("Delete"), tr("Delete the selected trials"), self._delete)
        self.refresh_button = push_button(tr("Refresh"), tr("Read the trial store again (F5)"), controller.refresh)
        self.empty = QLabel(tr("No trials yet: the trials you run are kept here, to reopen, resume or export."))
        self.empty.setWordWrap(True)
        table_panel(self, (self.open_button, self.resume_button, self.export_button, self.delete_button), self.table,
                    self.empty, right=(self.refresh_button,))
        self._selected_ids: list[str] = []
        controller.sig_trials.connect(model.set_trials)
        model.modelAboutToBeReset.connect(self._remember_selection)
        model.modelReset.connect(self._restore_selection)
        self._update_buttons()

    def selected(self) -> list[TrialSummary]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.model.trial(r) for r in rows]

    def select(self, trial_id: str) -> None:
        row = self.model.row_of(trial_id)
        if row >= 0:
            self.table.selectRow(row)

    def _remember_selection(self) -> None:
        self._selected_ids = [t.id for t in self.selected()]

    def _restore_selection(self) -> None:
        """A refresh keeps what was selected."""
        selection = self.table.selectionModel()
        for trial_id in self._selected_ids:
            row = self.model.row_of(trial_id)
            if row >= 0:
                selection.select(self.model.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                                 | QItemSelectionModel.SelectionFlag.Rows)
        self._update_buttons()

    def _emit(self, signal: SignalInstance) -> None:
        chosen = self.selected()
        if chosen:
            signal.emit(chosen[0].id)

    def _delete(self) -> None:
        chosen = self.selected()
        if chosen:
            self.sig_delete.emit([t.id for t in chosen])

    def _update_buttons(self, *args: object) -> None:
        chosen = self.selected()
        one = len(chosen) == 1
        self.open_button.setEnabled(one)
        self.export_button.setEnabled(one)
        self.resume_button.setEnabled(one and chosen[0].status in ("stopped", "paused", "running"))
        self.delete_button.setEnabled(bool(chosen))
        self.empty.setVisible(self.model.rowCount() == 0)
