"""The doctor's checks (core.llm.doctor.DoctorRow) as a table, for the settings dialog's Test button."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from courtroom_desktop.ui.models import ROOT, RecordRole
from courtroom_desktop.ui.theme import accent

COLUMNS = ("Role", "Check", "Result", "Detail", "Fix")
ROLE, CHECK, RESULT, DETAIL, FIX = range(len(COLUMNS))
RESULT_WORDS = {True: "ok", False: "FAILED", None: "skipped"}


class DoctorModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row, column = self._rows[index.row()], index.column()
        if role == RecordRole:
            return row
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == ROLE:
                return row.role if role == Qt.ItemDataRole.DisplayRole else f"{row.role}: {row.provider}, {row.model}"
            return {CHECK: row.check, RESULT: RESULT_WORDS[row.ok], DETAIL: row.detail, FIX: row.fix}[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == RESULT:
            return accent({True: "ok", False: "error", None: "unclear"}[row.ok])
        return None

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def failed(self) -> bool:
        return any(r.ok is False for r in self._rows)
