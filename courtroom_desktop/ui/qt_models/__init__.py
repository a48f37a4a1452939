"""Qt item models: thin adapters over the core's records (Document, PoolEntry, TrialSummary, trial events,
DoctorRow). Each keeps the records as they are and only decides what a view shows of them."""

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from courtroom_desktop.ui.i18n import tr

#: The record behind a row (Document row, PoolEntry, TrialSummary, transcript item, DoctorRow).
RecordRole = Qt.ItemDataRole.UserRole + 1
#: An int 0..100 while a document is being ingested, else None.
ProgressRole = Qt.ItemDataRole.UserRole + 2

#: The invalid index that stands for "no parent" in flat models.
ROOT = QModelIndex()

#: The record type of a model's rows.
R = TypeVar("R")


class RecordTableModel(QAbstractTableModel, Generic[R]):
    """A flat table with one core record per row: subclasses name their ``COLUMNS`` and say what a cell shows in
    ``cell(record, column, role)``; the row's record itself comes back for :data:`RecordRole`."""

    COLUMNS: tuple[str, ...] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[R] = []

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = ROOT) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole \
                and 0 <= section < len(self.COLUMNS):
            return tr(self.COLUMNS[section])  # the tables mark their column names with QT_TRANSLATE_NOOP
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        record = self._rows[index.row()]
        if role == RecordRole:
            return record
        return self.cell(record, index.column(), role)

    def cell(self, record: R, column: int, role: int) -> Any:
        """What the cell shows for ``role`` (text, a colour, a font, ...: Qt's QVariant), None for nothing."""
        raise NotImplementedError

    def _replace_rows(self, rows: Iterable[R]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def _append_row(self, record: R) -> None:
        self.beginInsertRows(ROOT, len(self._rows), len(self._rows))
        self._rows.append(record)
        self.endInsertRows()
