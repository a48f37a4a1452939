"""The library panel: drop files and folders, add, remove, re-index; per document its status, pages, sections and
any error with its reason; progress bars with cancel while ingesting. Notes are written here (New note, or Edit note
from a note's context menu), documents marked private from the context menu, and folders watched (Watch folder)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale, QModelIndex, QPersistentModelIndex, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QDragMoveEvent, QDropEvent, QPainter
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QProgressBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.announce import announce
from courtroom_desktop.ui.controls import named, push_button, record_table, table_panel
from courtroom_desktop.ui.dialogs.note_editor import NoteEditor
from courtroom_desktop.ui.i18n import say, tr
from courtroom_desktop.ui.qt_models import ProgressRole
from courtroom_desktop.ui.qt_models.documents import COLUMNS, DocRow, DocumentsModel, LibraryUse, ingest_progress

if TYPE_CHECKING:
    from courtroom_desktop.core.records import IngestEvent
    from courtroom_desktop.ui.controllers.library import LibraryController
    from courtroom_desktop.ui.dialogs.zotero_import import ZoteroImportDialog


class ProgressDelegate(QStyledItemDelegate):
    """The status cell shows a progress bar while its file is being ingested."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        progress = index.data(ProgressRole)
        if progress is None:
            super().paint(painter, option, index)
            return
        bar = QStyleOptionProgressBar()
        bar.rect = QRect(option.rect.adjusted(2, 3, -2, -3))
        bar.minimum, bar.maximum, bar.progress = 0, 100, int(progress)
        bar.text = str(index.data() or "")
        bar.textVisible = True
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, option.widget)


class LibraryPanel(QWidget):
    sig_add_files = Signal()
    """The user wants to pick files to add."""
    sig_add_folder = Signal()
    """The user wants to pick a folder to add."""
    sig_add_samples = Signal()
    """The user wants the sample library."""
    sig_paths_dropped = Signal(list)
    """Files or folders dropped on the panel (list[str])."""

    def __init__(self, model: DocumentsModel, controller: LibraryController, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.controller = controller
        self.setAcceptDrops(True)

        self.table = named(record_table(model, "documentsTable", (190,)),  # the last column: why a file failed
                           tr("Documents in the library"))
        self.table.setItemDelegateForColumn(COLUMNS.index("Status"), ProgressDelegate(self.table))
        # status, pages, sections: sized to their contents when the list changes (size_columns), not on every
        # progress event of an ingest (ResizeToContents asked the model for every row's cells each time)
        self.table.setColumnHidden(COLUMNS.index("Chunks"), True)  # in the row's tooltip
        self.table.setColumnHidden(COLUMNS.index("In trials"), True)  # until asked (Use in trials)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)

        self.empty = QLabel(tr("Your library is empty. Drop PDFs, Markdown, text or Word files or folders here, use Add, "
                            "write a note, or try the sample library (six short articles and a suggested claim)."))
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.samples_button = push_button(tr("Add the sample library"), slot=self.sig_add_samples, name="samplesButton")

        self.add_button = push_button(tr("Add files\u2026"), tr("Add PDF, Markdown, text or Word files (Ctrl+O)"), self.sig_add_files)
        self.folder_button = push_button(tr("Add folder\u2026"), tr("Add every PDF, Markdown, text and Word file under a folder "
                                         "(Ctrl+Shift+O)"), self.sig_add_folder)
        self.remove_button = push_button(tr("Remove"), tr("Remove the selected documents from the library (Delete)"), self.remove_selected)
        self.reindex_button = push_button(tr("Re-index"), tr("Extract and embed the selected documents again (all when none is "
                                          "selected)"), self.reindex_selected)
        self.note_button = push_button(tr("New note\u2026"), tr("Write or paste a note: it becomes evidence like any document"),
                                       self.new_note, name="newNoteButton")
        self.watch_button = push_button(tr("Watch folder\u2026"), tr("Keep a folder in step with the library: files added or "
                                        "changed there are ingested, files removed leave it"), self.watch_folder,
                                        name="watchButton")
        self.zotero_button = push_button(tr("From Zotero…"), tr("Import the PDFs of your Zotero library, or of one "
                                         "collection, with their metadata; again to keep in step"), self.import_zotero,
                                         name="zoteroButton")
        self.use_button = push_button(tr("Use in trials"), tr("Which documents the stored trials cited most, and which they "
                                      "never retrieved (sorts the list by it)"), controller.use, name="useButton")
        controller.sig_use.connect(self._on_use)
        self.watch_status = QLabel(controller.watch_line)
        self.watch_status.setObjectName("watchStatus")
        self.watch_status.setWordWrap(True)
        self.watch_status.setVisible(bool(controller.watch_line))
        controller.sig_watch.connect(self._on_watch_line)

        self.progress_label = QLabel("")
        self.progress_label.setWordWrap(False)
        self.file_bar = QProgressBar()
        self.file_bar.setObjectName("fileProgress")
        self.file_bar.setRange(0, 100)
        self.total_bar = QProgressBar()
        self.total_bar.setObjectName("totalProgress")
        self.total_bar.setFormat(tr("%v of %m files"))
        self.cancel_button = push_button(tr("Cancel"), tr("Stop adding documents (what is done stays)"), controller.cancel)
        self.progress_box = QWidget()
        progress = QVBoxLayout(self.progress_box)
        progress.setContentsMargins(0, 0, 0, 0)
        progress.addWidget(self.progress_label)
        row = QHBoxLayout()
        bars = QVBoxLayout()
        bars.addWidget(self.file_bar)
        bars.addWidget(self.total_bar)
        row.addLayout(bars, 1)
        row.addWidget(self.cancel_button)
        progress.addLayout(row)
        self.progress_box.setVisible(False)

        self.summary = QLabel("")
        self.location = QLabel("")  # where the library lives: this computer, or a shared one on object storage
        self.location.setObjectName("libraryLocation")
        self.location.setWordWrap(True)
        self.read_only = False
        self.last_run = QLabel("")
        self.last_run.setObjectName("lastRun")
        self.last_run.setWordWrap(True)
        layout = table_panel(self, (self.add_button, self.folder_button, self.note_button, self.remove_button,
                                    self.reindex_button), self.table, self.empty,
                             (self.use_button, self.watch_button, self.zotero_button))
        layout.addWidget(self.samples_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.progress_box)
        layout.addWidget(self.last_run)
        layout.addWidget(self.watch_status)
        layout.addWidget(self.summary)
        layout.addWidget(self.location)

        controller.sig_location.connect(self._on_location)
        controller.sig_zotero.connect(self._on_zotero)
        controller.sig_busy.connect(self._on_busy)
        controller.sig_ingest_event.connect(self._on_event)
        model.modelReset.connect(self._on_rows)
        model.rowsInserted.connect(self._on_rows)
        self._files_done = 0
        self._on_rows()
        self._update_buttons()

    def _on_use(self, use: Mapping[str, LibraryUse]) -> None:
        """The documents' use across the stored trials: shown in its column, the list sorted by it."""
        self.model.set_use(use)
        self.table.setColumnHidden(COLUMNS.index("In trials"), False)
        self.table.resizeColumnToContents(COLUMNS.index("In trials"))

    # ---------------------------------------------------------------- drag and drop
    def dragEnterEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt's name (a QDragEnterEvent, or a move)
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt's name
        self.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.sig_paths_dropped.emit(paths)

    # ---------------------------------------------------------------- actions
    def selected_rows(self) -> list[DocRow]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.model.row(r) for r in rows]

    def remove_selected(self) -> None:
        rows = self.selected_rows()
        if rows:
            self.controller.remove([r.doc_id for r in rows if r.doc_id], [r.path for r in rows if not r.doc_id])

    def reindex_selected(self) -> None:
        ids = [r.doc_id for r in self.selected_rows() if r.doc_id]
        self.controller.reindex(ids or None)

    # ---------------------------------------------------------------- notes, private, watched folders
    def new_note(self) -> NoteEditor:
        return self.open_note_editor(NoteEditor(parent=self))

    def edit_note(self, row: DocRow) -> NoteEditor | None:
        from courtroom_desktop.core.services.library import read_note

        try:
            note = read_note(Path(row.path))
        except OSError as exc:
            QMessageBox.warning(self, tr("Edit note"), f"The note cannot be read: {exc}")
            return None
        assert row.doc is not None  # a note in the library (the context menu offers no other)
        return self.open_note_editor(NoteEditor(note.title, note.text, row.doc.private, row.path, parent=self))

    def open_note_editor(self, editor: NoteEditor) -> NoteEditor:
        """Show the editor (not modal: the window goes on); its Save writes the note and adds it to the library."""
        def save() -> None:
            title, text, private = editor.values()
            self.controller.save_note(title, text, private, editor.path)

        editor.accepted.connect(save)
        editor.open()
        return editor

    def set_private(self, rows: list[DocRow], private: bool) -> None:
        ids = [r.doc_id for r in rows if r.doc_id]
        if ids:
            self.controller.set_private(ids, private)

    def watch_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Watch a folder"))
        if folder:
            private = QMessageBox.question(
                self, tr("Watch a folder"), tr("Mark every document from this folder private? Private documents are never "
                "sent to a model server on another machine.")) == QMessageBox.StandardButton.Yes
            self.controller.watch_folder(folder, private)

    def _context_menu(self, point: QPoint) -> QMenu | None:
        index = self.table.indexAt(point)
        rows = self.selected_rows() if index.isValid() else []
        menu = QMenu(self)
        docs = [r for r in rows if r.doc is not None]
        documents = [r.doc for r in docs if r.doc is not None]  # theirs, in the same order
        if len(docs) == 1 and documents[0].kind == "note":
            menu.addAction(tr("Edit note\u2026"), lambda: self.edit_note(docs[0]))
        if docs:
            private = all(d.private for d in documents)
            menu.addAction(tr("Not private") if private else tr("Mark private"),
                           lambda: self.set_private(docs, not private))
        menu.addAction(tr("New note\u2026"), self.new_note)
        menu.addAction(tr("Watch a folder\u2026"), self.watch_folder)
        for folder in self.controller.workspace.config.library.watched_folders:
            def unwatch(f: str = folder.path) -> None:
                self.controller.unwatch_folder(f)

            menu.addAction(tr("Stop watching {folder}").format(folder=folder.path), unwatch)
        menu.popup(self.table.viewport().mapToGlobal(point))
        return menu

    def import_zotero(self) -> ZoteroImportDialog:
        """Ask which collection and from where, then import (the controller runs it: progress and Cancel here)."""
        from courtroom_desktop.ui.dialogs.zotero_import import ZoteroImportDialog

        dialog = ZoteroImportDialog(self)
        dialog.accepted.connect(lambda: self.controller.import_zotero(*dialog.values()))
        dialog.open()
        return dialog

    def _on_zotero(self, line: str) -> None:
        self.last_run.setText(line)
        self.last_run.setVisible(True)

    def _on_watch_line(self, line: str) -> None:
        self.watch_status.setText(line)
        self.watch_status.setVisible(bool(line))

    # ---------------------------------------------------------------- progress
    def _on_busy(self, busy: bool) -> None:
        self.progress_box.setVisible(busy)
        if busy:
            self.progress_label.setText(tr("Starting\u2026"))
            self.file_bar.setValue(0)
            self.total_bar.setRange(0, 1)
            self.total_bar.setValue(0)
        self._update_buttons()

    def _on_event(self, event: IngestEvent) -> None:
        from courtroom_desktop.core.records import (
            FileFinished,
            FileProgress,
            FileStarted,
            IngestFinished,
            IngestStarted,
        )

        self.model.apply_ingest_event(event)
        # each kind of event is its own class ('started': IngestStarted, 'file_started': FileStarted, ...)
        if isinstance(event, IngestStarted):
            self._files_done = 0
            self.total_bar.setRange(0, max(event.files, 1))
            self.total_bar.setValue(0)
        elif isinstance(event, FileStarted):
            self.progress_label.setText(tr("{file}: starting").format(file=Path(event.path).name))
            self.file_bar.setValue(0)
        elif isinstance(event, FileProgress):
            status, value = ingest_progress(event)
            self.progress_label.setText(f"{Path(event.path).name}: {status}")
            self.file_bar.setValue(value)
        elif isinstance(event, FileFinished):
            self._files_done += 1
            self.total_bar.setValue(self._files_done)
            self.file_bar.setValue(100)
        elif isinstance(event, IngestFinished):
            counts = tr("{added} added, {updated} updated, {skipped} unchanged, {failed} failed").format(
                added=event.added, updated=event.updated, skipped=event.skipped, failed=event.failed)
            took = tr(" ({pages} pages in {seconds} s)").format(pages=event.pages,
                                                               seconds=QLocale().toString(event.seconds, "f", 1))
            self.last_run.setText((tr("Cancelled: ") if event.cancelled else tr("Done: ")) + counts + took)
            announce(self, tr("Adding documents: ") + self.last_run.text())

    def _on_rows(self, *args: object) -> None:
        self.size_columns()
        empty = self.model.rowCount() == 0
        self.empty.setVisible(empty)
        self.samples_button.setVisible(empty)
        ready = sum(1 for r in self.model.rows() if r.status == "ready")
        failed = sum(1 for r in self.model.rows() if r.status == "failed")
        if not empty and not self.controller.busy:
            pages = sum(r.doc.pages for r in self.model.rows() if r.doc is not None)
            self.summary.setText(tr("{ready} documents ready, {pages} pages").format(ready=ready, pages=pages)
                                 + (tr(", {failed} failed").format(failed=failed) if failed else ""))
        self._update_buttons()

    def size_columns(self) -> None:
        """Status, pages and sections fit their contents (the status keeps room for "embedding 120/480")."""
        for column in (1, 2, 3):
            self.table.resizeColumnToContents(column)
        self.table.setColumnWidth(1, max(self.table.columnWidth(1), self.fontMetrics().horizontalAdvance("embedding 000/000") + 16))

    def _on_location(self, where: str, read_only: bool) -> None:
        self.location.setText(tr("Library: {where}").format(where=say(where)))
        self.location.setToolTip(tr("Settings > Library & data: Library location (library.uri); docs/scale.md"))
        self.read_only = read_only
        self._update_buttons()

    def _update_buttons(self, *args: object) -> None:
        busy = self.controller.busy or self.read_only  # a read-only shared library: nothing to add or remove
        has_selection = bool(self.table.selectionModel().selectedRows())
        self.remove_button.setEnabled(has_selection and not busy)
        self.reindex_button.setEnabled(not busy and self.model.rowCount() > 0)
        self.samples_button.setEnabled(not busy)
        for button in (self.add_button, self.folder_button, self.note_button):
            button.setEnabled(not self.read_only)
