"""The trial history as a table over the trial store's summaries."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from courtroom_desktop.ui.models import ROOT, RecordRole
from courtroom_desktop.ui.text import VERDICT_WORDS, date_time
from courtroom_desktop.ui.theme import accent

COLUMNS = ("Claim or decision", "Case", "Status", "Verdict", "Confidence", "Started", "Events")
CLAIM, CASE, STATUS, VERDICT, CONFIDENCE, STARTED, EVENTS = range(len(COLUMNS))


class TrialsModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._trials: list = []  # TrialSummary, newest first

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(self._trials)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self._trials)):
            return None
        trial, column = self._trials[index.row()], index.column()
        if role == RecordRole:
            return trial
        if role == Qt.ItemDataRole.DisplayRole:
            if column == CLAIM:
                return trial.claim
            if column == CASE:
                return trial.case_type
            if column == STATUS:
                return trial.status
            if column == VERDICT:
                return VERDICT_WORDS.get(trial.label or "", trial.label or "")
            if column == CONFIDENCE:
                return "" if trial.confidence is None else f"{trial.confidence:.0%}"
            if column == STARTED:
                return date_time(trial.created_at)
            if column == EVENTS:
                return str(trial.events)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{trial.claim}\n{trial.id}" if column == CLAIM else None
        if role == Qt.ItemDataRole.ForegroundRole and column == VERDICT and trial.label:
            return accent({"supported": "support", "refuted": "refute"}.get(trial.label, "unclear"))
        return None

    def set_trials(self, trials: list) -> None:
        self.beginResetModel()
        self._trials = sorted(trials, key=lambda t: t.created_at, reverse=True)
        self.endResetModel()

    def trial(self, row: int):
        return self._trials[row]

    def row_of(self, trial_id: str) -> int:
        return next((i for i, t in enumerate(self._trials) if t.id == trial_id), -1)
