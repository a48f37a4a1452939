"""The doctor's checks (core.llm.doctor.DoctorRow) as a table, for the settings dialog's Test button."""

from __future__ import annotations

from PySide6.QtCore import Qt

from courtroom_desktop.ui.qt_models import RecordTableModel
from courtroom_desktop.ui.theme import accent

COLUMNS = ("Role", "Check", "Result", "Detail", "Fix")
ROLE, CHECK, RESULT, DETAIL, FIX = range(len(COLUMNS))
RESULT_WORDS = {True: "ok", False: "FAILED", None: "skipped"}


class DoctorModel(RecordTableModel):
    COLUMNS = COLUMNS

    def cell(self, row, column: int, role: int):
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == ROLE:
                return row.role if role == Qt.ItemDataRole.DisplayRole else f"{row.role}: {row.provider}, {row.model}"
            return {CHECK: row.check, RESULT: RESULT_WORDS[row.ok], DETAIL: row.detail, FIX: row.fix}[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == RESULT:
            return accent({True: "ok", False: "error", None: "unclear"}[row.ok])
        return None

    def set_rows(self, rows: list) -> None:
        self._replace_rows(rows)

    def failed(self) -> bool:
        return any(r.ok is False for r in self._rows)
