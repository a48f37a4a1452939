"""Choosing what a trial's evidence may come from: all documents, or a chosen set; optionally only sections whose
path starts with given prefixes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    from courtroom_desktop.core.records import Document


class ScopeDialog(QDialog):
    def __init__(self, documents: list[Document], chosen: list[str], sections: list[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Document scope"))
        self.setObjectName("scopeDialog")
        self.all_button = QRadioButton(tr("All documents in the library"))
        self.some_button = QRadioButton(tr("Only these documents:"))
        self.list = named(QListWidget(), tr("Documents to choose from"), tr("Check the documents the evidence may "
                                                                            "come from"))
        for doc in documents:
            item = QListWidgetItem(doc.title or doc.path.rsplit("/", 1)[-1])
            item.setData(Qt.ItemDataRole.UserRole, doc.id)
            item.setToolTip(doc.path)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if doc.id in chosen else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        (self.some_button if chosen else self.all_button).setChecked(True)
        self.list.setEnabled(bool(chosen))
        self.some_button.toggled.connect(self.list.setEnabled)
        self.sections = QLineEdit("; ".join(sections))
        self.sections.setObjectName("sectionsInput")
        named(self.sections, tr("Only sections starting with (separate with ;):"))
        self.sections.setPlaceholderText(tr("e.g. 3 Results; Discussion"))  # short: whole at twice the font size
        self.sections.setToolTip(tr("Empty: every section"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.all_button)
        layout.addWidget(self.some_button)
        layout.addWidget(self.list, 1)
        layout.addWidget(QLabel(tr("Only sections starting with (separate with ;):")))
        layout.addWidget(self.sections)
        layout.addWidget(buttons)
        fit_to_screen(self, 460, 420)

    def set_checked(self, doc_ids: list[str]) -> None:
        self.some_button.setChecked(True)
        for row in range(self.list.count()):
            item = self.list.item(row)
            checked = item.data(Qt.ItemDataRole.UserRole) in doc_ids
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def result_scope(self) -> tuple[list[str], list[str], list[str]]:
        """(doc ids, their titles, section prefixes); no ids: the whole library."""
        ids, titles = [], []
        if self.some_button.isChecked():
            for row in range(self.list.count()):
                item = self.list.item(row)
                if item.checkState() == Qt.CheckState.Checked:
                    ids.append(item.data(Qt.ItemDataRole.UserRole))
                    titles.append(item.text())
        sections = [s.strip() for s in self.sections.text().replace(",", ";").split(";") if s.strip()]
        return ids, titles, sections
