"""The list of keyboard shortcuts, read from the window's actions (so it never goes stale)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.window_layout import fit_to_screen


class ShortcutsDialog(QDialog):
    def __init__(self, actions: Iterable[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Keyboard shortcuts"))
        self.setObjectName("shortcutsDialog")
        rows = [(a.text().replace("&", "").rstrip("\u2026."), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
                for a in actions if not a.shortcut().isEmpty()]
        self.table = named(QTableWidget(len(rows), 2), tr("Keyboard shortcuts"))
        self.table.setTabKeyNavigation(False)
        self.table.setHorizontalHeaderLabels([tr("Action"), tr("Shortcut")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (name, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        fit_to_screen(self, 420, 460)
        self.rows = rows
