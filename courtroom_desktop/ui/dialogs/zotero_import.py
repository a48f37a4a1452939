"""Import from Zotero: the whole library or one collection (and its subcollections), from Zotero's local API while
Zotero runs, or from its data folder (read from a copy, never written) while it is closed; run again to keep in step
(core.library.zotero, through the library controller: progress and Cancel in the library panel)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.window_layout import fit_to_screen


class ZoteroImportDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Import from Zotero"))
        self.setObjectName("zoteroDialog")
        intro = QLabel(tr("The PDFs of your Zotero library come in with their title, authors, year, DOI and tags; "
                       "citations then read \u2018Smith et al. 2020\u2019 and open the item in Zotero. Import again "
                       "to keep in step: items deleted or taken out of the collection leave the library."))
        intro.setWordWrap(True)
        self.collection = QLineEdit()
        self.collection.setObjectName("zoteroCollection")
        self.collection.setPlaceholderText(tr("the whole library"))
        self.collection.setToolTip(tr("A collection's name (any case); its subcollections come too"))
        self.use_folder = QCheckBox(tr("Read the data folder (Zotero is closed)"))
        self.use_folder.setObjectName("zoteroUseFolder")
        self.folder = QLineEdit()
        self.folder.setObjectName("zoteroFolder")
        named(self.folder, tr("Zotero data folder"))
        self.folder.setPlaceholderText(tr("~/Zotero"))
        self.folder.setEnabled(False)
        browse = push_button(tr("Browse\u2026"), tr("The folder that holds zotero.sqlite"), self._browse)
        browse.setEnabled(False)
        self.use_folder.toggled.connect(self.folder.setEnabled)
        self.use_folder.toggled.connect(browse.setEnabled)
        folder_row = QWidget()
        row = QHBoxLayout(folder_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        note = QLabel(tr("While Zotero runs, allow it first: Settings \u2192 Advanced \u2192 \u2018Allow other "
                      "applications on this computer to communicate with Zotero\u2019."))
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(tr("Collection:"), self.collection)
        form.addRow(self.use_folder)
        form.addRow(tr("Data folder:"), folder_row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("Import"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        fit_to_screen(self, 560, 300)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Zotero's data folder"))
        if folder:
            self.folder.setText(folder)

    def values(self) -> tuple[str | None, str | None]:
        """(collection or None for the whole library, data folder or None for the local API)."""
        collection = self.collection.text().strip() or None
        folder = (self.folder.text().strip() or "~/Zotero") if self.use_folder.isChecked() else None
        return collection, folder
