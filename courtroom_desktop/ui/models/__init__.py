"""Qt item models: thin adapters over the core's records (Document, PoolEntry, TrialSummary, trial events,
DoctorRow). Each keeps the records as they are and only decides what a view shows of them."""

from PySide6.QtCore import QModelIndex, Qt

#: The record behind a row (Document row, PoolEntry, TrialSummary, transcript item, DoctorRow).
RecordRole = Qt.ItemDataRole.UserRole + 1
#: An int 0..100 while a document is being ingested, else None.
ProgressRole = Qt.ItemDataRole.UserRole + 2

#: The invalid index that stands for "no parent" in flat models.
ROOT = QModelIndex()
