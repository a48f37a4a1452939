"""The export dialogs: what every one is (``FolderExportDialog``: formats, folder, Export, what was written), and a
trial's verdict report (``ExportDialog``: with the audience). The draft check's is ``check_window.CheckExportDialog``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

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

from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtCore import SignalInstance

    from courtroom_desktop.ui.controllers.export import ExportController

FORMATS = (("md", "Markdown"), ("html", QT_TRANSLATE_NOOP("", "HTML (self-contained)")), ("pdf", "PDF"),
           ("json", QT_TRANSLATE_NOOP("", "JSON (data)")))  # shown through tr


class ExportingController(Protocol):
    """What an export dialog listens to: its controller's busy, exported and error signals."""

    @property
    def sig_busy(self) -> SignalInstance: ...
    @property
    def sig_exported(self) -> SignalInstance: ...
    @property
    def sig_error(self) -> SignalInstance: ...


class FolderExportDialog(QDialog):
    """What every export dialog is: the formats to write (check boxes), rows a kind of report adds (``rows``), the
    folder (with Browse), then Export: a busy bar while the controller works, the files written listed (double-click
    opens one), Open folder, and the controller's error. The controller has ``sig_busy(bool)``,
    ``sig_exported(paths[, notes])`` and ``sig_error(title, message, fix)``; subclasses start the export (``start``)
    and say what was written (``written_text``)."""

    written_list: QListWidget

    def __init__(self, controller: ExportingController, formats: Iterable[tuple[str, str]], name: str,
                 folder_name: str, rows: list[tuple[str, QWidget]], settings: QSettings | None = None,
                 parent: QWidget | None = None, checked: Callable[[str], bool] = lambda value: True,
                 size: tuple[int, int] = (620, 300)) -> None:
        super().__init__(parent)
        self.controller = controller
        self.settings = settings
        self.folder_name = folder_name
        self.written: list[Path] = []
        self.notes: list[str] = []

        self.formats: dict[str, QCheckBox] = {}
        format_row = QHBoxLayout()
        format_row.setContentsMargins(0, 0, 0, 0)
        for value, label in formats:
            box = QCheckBox(tr(label))
            box.setChecked(checked(value))
            box.toggled.connect(self._update)
            self.formats[value] = box
            format_row.addWidget(box)
        format_box = QWidget()
        format_box.setLayout(format_row)
        base = (Path(str(settings.value("export/dir", str(Path.home()), type=str))) if settings is not None
                else Path.home())
        self.folder = QLineEdit(str(base / folder_name))
        self.folder.setObjectName(f"{name}Folder")
        named(self.folder, tr("Folder:"))  # its form row's label names the row, not the field
        self.folder.textChanged.connect(self._update)
        browse = push_button(tr("Browse\u2026"), slot=self._browse)
        folder_row = QHBoxLayout()
        folder_row.setContentsMargins(0, 0, 0, 0)
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        folder_box = QWidget()
        folder_box.setLayout(folder_row)

        form = QFormLayout()
        first, *rest = rows
        form.addRow(*first)
        form.addRow(tr("Formats:"), format_box)
        for label, widget in rest:
            form.addRow(label, widget)
        form.addRow(tr("Folder:"), folder_box)

        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setVisible(False)
        self.written_list = QListWidget()
        self.written_list.setObjectName(f"{name}Result")
        self.written_list.setVisible(False)
        self.written_list.itemDoubleClicked.connect(lambda item: QDesktopServices.openUrl(QUrl.fromLocalFile(item.text())))
        self.message = QLabel("")
        self.message.setObjectName(f"{name}Message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # an error's message may hold a document's words

        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(tr("Export"), QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.setObjectName(f"{name}Button")
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
        layout.addWidget(self.written_list, 1)
        layout.addWidget(self.buttons)
        controller.sig_busy.connect(self._on_busy)
        controller.sig_exported.connect(self._on_exported)
        controller.sig_error.connect(self._on_error)
        fit_to_screen(self, *size)
        self._update()

    def chosen_formats(self) -> list[str]:
        return [value for value, box in self.formats.items() if box.isChecked()]

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Report folder"), str(Path(self.folder.text()).parent))
        if folder:
            self.folder.setText(str(Path(folder) / self.folder_name))

    def _update(self, *args: object) -> None:
        self.export_button.setEnabled(bool(self.chosen_formats()) and bool(self.folder.text().strip()))

    def export(self) -> asyncio.Task[list[Path] | None] | None:
        out = Path(self.folder.text().strip()).expanduser()
        if self.settings is not None:
            self.settings.setValue("export/dir", str(out.parent))
        self.message.setText("")
        return self.start(out)

    def start(self, out: Path) -> asyncio.Task[list[Path] | None] | None:
        """The controller's export of this kind of report into ``out``."""
        raise NotImplementedError

    def written_text(self) -> str:  # what was written, in a sentence, after an export
        raise NotImplementedError

    def _on_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)
        self.export_button.setEnabled(not busy)

    def _on_exported(self, paths: list[Path | str], notes: list[str] | None = None) -> None:
        self.written, self.notes = [Path(p) for p in paths], list(notes or [])
        self.written_list.clear()
        self.written_list.addItems([str(p) for p in self.written])
        self.written_list.setVisible(True)
        self.open_button.setVisible(True)
        self.message.setText("\n".join([self.written_text(), *self.notes]))
        self._update()

    def _on_error(self, title: str, message: str, fix: str) -> None:
        self.message.setText(tr("{title} failed: {message}").format(title=title, message=message)
                             + (f"\n{fix}" if fix else ""))

    def open_folder(self) -> bool:
        return QDesktopServices.openUrl(QUrl.fromLocalFile(self.folder.text().strip()))


class ExportDialog(FolderExportDialog):
    """A trial's verdict report: the formats, the audience (general or expert) and the folder."""

    controller: ExportController

    def __init__(self, controller: ExportController, trial_id: str, claim: str = "", settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        self.trial_id = trial_id
        claim_label = QLabel(claim or trial_id)
        claim_label.setWordWrap(True)
        claim_label.setTextFormat(Qt.TextFormat.PlainText)
        self.audience = QComboBox()
        self.audience.addItem(tr("General reader: the plain-language summary"), "general")
        self.audience.addItem(tr("Expert: also every round's assessment, levels and weights"), "expert")
        super().__init__(controller, FORMATS, "export", f"report-{trial_id}",
                         [(tr("Trial:"), claim_label), (tr("Audience:"), self.audience)], settings, parent)
        self.setWindowTitle(tr("Export the verdict report"))
        self.setObjectName("exportDialog")

    def start(self, out: Path) -> asyncio.Task[list[Path] | None]:
        return self.controller.export(self.trial_id, self.chosen_formats(), out, self.audience.currentData())

    def written_text(self) -> str:
        reports = [p for p in self.written if p.parent == Path(self.folder.text().strip()).expanduser()]
        return tr("Wrote {reports} report files and {sources} highlighted source page files. "
                  "Double-click one to open it.").format(reports=len(reports), sources=len(self.written) - len(reports))
