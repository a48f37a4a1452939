"""The export dialog, over the report exporter: formats, audience and folder; shows what was written."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import push_button
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.window_layout import fit_to_screen

FORMATS = (("md", "Markdown"), ("html", QT_TRANSLATE_NOOP("", "HTML (self-contained)")), ("pdf", "PDF"),
           ("json", QT_TRANSLATE_NOOP("", "JSON (data)")))  # shown through tr


class ExportDialog(QDialog):
    def __init__(self, controller, trial_id: str, claim: str = "", settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Export the verdict report"))
        self.setObjectName("exportDialog")
        self.controller = controller
        self.trial_id = trial_id
        self.settings = settings
        self.written: list[Path] = []

        self.formats = {}
        format_row = QHBoxLayout()
        for value, label in FORMATS:
            box = QCheckBox(tr(label))
            box.setChecked(True)
            box.toggled.connect(self._update)
            self.formats[value] = box
            format_row.addWidget(box)
        format_box = QWidget()
        format_box.setLayout(format_row)
        format_row.setContentsMargins(0, 0, 0, 0)
        self.audience = QComboBox()
        self.audience.addItem(tr("General reader: the plain-language summary"), "general")
        self.audience.addItem(tr("Expert: also every round's assessment, levels and weights"), "expert")
        base = Path(settings.value("export/dir", str(Path.home()), type=str)) if settings is not None else Path.home()
        self.folder = QLineEdit(str(base / f"report-{trial_id}"))
        self.folder.setObjectName("exportFolder")
        self.folder.textChanged.connect(self._update)
        browse = push_button(tr("Browse\u2026"), slot=self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        folder_box = QWidget()
        folder_box.setLayout(folder_row)
        folder_row.setContentsMargins(0, 0, 0, 0)

        form = QFormLayout()
        claim_label = QLabel(claim or trial_id)
        claim_label.setWordWrap(True)
        form.addRow(tr("Trial:"), claim_label)
        form.addRow(tr("Formats:"), format_box)
        form.addRow(tr("Audience:"), self.audience)
        form.addRow(tr("Folder:"), folder_box)

        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setVisible(False)
        self.result = QListWidget()
        self.result.setObjectName("exportResult")
        self.result.setVisible(False)
        self.result.itemDoubleClicked.connect(lambda item: QDesktopServices.openUrl(QUrl.fromLocalFile(item.text())))
        self.message = QLabel("")
        self.message.setWordWrap(True)

        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(tr("Export"), QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.setObjectName("exportButton")
        self.open_button = self.buttons.addButton(tr("Open folder"), QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setVisible(False)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.export_button.clicked.connect(self.export)
        self.open_button.clicked.connect(self.open_folder)
        self.close_button.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.busy)
        layout.addWidget(self.message)
        layout.addWidget(self.result, 1)
        layout.addWidget(self.buttons)
        controller.sig_busy.connect(self._on_busy)
        controller.sig_exported.connect(self._on_exported)
        controller.sig_error.connect(self._on_error)
        fit_to_screen(self, 620, 300)
        self._update()

    def chosen_formats(self) -> list[str]:
        return [value for value, box in self.formats.items() if box.isChecked()]

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Report folder"), str(Path(self.folder.text()).parent))
        if folder:
            self.folder.setText(str(Path(folder) / f"report-{self.trial_id}"))

    def _update(self, *args) -> None:
        self.export_button.setEnabled(bool(self.chosen_formats()) and bool(self.folder.text().strip()))

    def export(self):
        out = Path(self.folder.text().strip()).expanduser()
        if self.settings is not None:
            self.settings.setValue("export/dir", str(out.parent))
        self.message.setText("")
        return self.controller.export(self.trial_id, self.chosen_formats(), out, self.audience.currentData())

    def _on_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)
        self.export_button.setEnabled(not busy)

    def _on_exported(self, paths: list) -> None:
        self.written = [Path(p) for p in paths]
        self.result.clear()
        self.result.addItems([str(p) for p in self.written])
        self.result.setVisible(True)
        self.open_button.setVisible(True)
        reports = [p for p in self.written if p.parent == Path(self.folder.text().strip()).expanduser()]
        sources = len(self.written) - len(reports)
        self.message.setText(tr("Wrote {reports} report files and {sources} highlighted source page files. "
                                "Double-click one to open it.").format(reports=len(reports), sources=sources))
        self._update()

    def _on_error(self, title: str, message: str, fix: str) -> None:
        self.message.setText(f"<b>{title} failed:</b> {message}" + (f"<br>{fix}" if fix else ""))
        self.message.setTextFormat(Qt.TextFormat.RichText)

    def open_folder(self) -> bool:
        return QDesktopServices.openUrl(QUrl.fromLocalFile(self.folder.text().strip()))
