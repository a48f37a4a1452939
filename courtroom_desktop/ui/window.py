"""The main window: the library and trial history on the left, the courtroom in the middle, the evidence inspector on
the right. It builds the controllers, models and widgets, wires their signals, and answers what they ask of the
window (dialogs, the first run, applying settings). Its actions, menus and shortcuts are the tables of ui/actions.py,
its remembered layout is ui/window_layout.py. It never awaits core code itself."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop import APP_NAME, __version__
from courtroom_desktop.ui import actions, theme, window_layout
from courtroom_desktop.ui.announce import announcer
from courtroom_desktop.ui.controllers.export import ExportController
from courtroom_desktop.ui.controllers.history import HistoryController
from courtroom_desktop.ui.controllers.library import LibraryController
from courtroom_desktop.ui.controllers.pages import PageRenderer
from courtroom_desktop.ui.controllers.settings import SettingsController
from courtroom_desktop.ui.controllers.trial import FINISHED, PAUSED, RUNNING, STARTING, STOPPED, TrialController
from courtroom_desktop.ui.controllers.workspace import WorkspaceController
from courtroom_desktop.ui.first_run import FirstRun
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.qt_models.documents import DocumentsModel
from courtroom_desktop.ui.qt_models.evidence import EvidenceModel
from courtroom_desktop.ui.qt_models.transcript import TranscriptModel
from courtroom_desktop.ui.qt_models.trials import TrialsModel
from courtroom_desktop.ui.samples import sample_files, suggested_claims
from courtroom_desktop.ui.widgets.courtroom_panel import CourtroomPanel
from courtroom_desktop.ui.widgets.history_panel import HistoryPanel
from courtroom_desktop.ui.widgets.inspector import EvidenceInspector
from courtroom_desktop.ui.widgets.library_panel import LibraryPanel
from courtroom_desktop.ui.widgets.model_offer import ModelOfferBar
from courtroom_desktop.ui.widgets.notice_bar import NoticeBar

if TYPE_CHECKING:
    from courtroom_desktop.core.config import AppConfig
    from courtroom_desktop.core.court.records import PoolEntry, TrialEvent, TrialSpec
    from courtroom_desktop.core.records import Document
    from courtroom_desktop.ui.check_window import CheckWindow
    from courtroom_desktop.ui.controllers.check import CheckController
    from courtroom_desktop.ui.dialogs.export import ExportDialog
    from courtroom_desktop.ui.dialogs.scope import ScopeDialog
    from courtroom_desktop.ui.dialogs.settings import SettingsDialog
    from courtroom_desktop.ui.dialogs.shortcuts import ShortcutsDialog

log = logging.getLogger(__name__)


class MainWindow(FirstRun, QMainWindow):
    sig_shown = Signal()
    """The window was painted for the first time (start-up timing)."""

    # made by actions.build (as act_<name>): those the window uses itself, and the View menu's choices
    act_start: QAction
    act_stop: QAction
    act_resume: QAction
    act_new: QAction
    act_export: QAction
    appearance_group: QActionGroup
    language_group: QActionGroup

    def __init__(self, workspace: WorkspaceController, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        # owned by the window in C++: a Python reference dropped in a worker thread must never destroy a QObject
        workspace.setParent(self)
        self.settings = settings or QSettings()
        self.setWindowTitle(f"{APP_NAME} {__version__}")
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self._start_after_ingest = False
        self._shown = False
        self._offering = False  # the first-run search for models is running
        self.dialogs: dict[str, QDialog] = {}
        self.checker: CheckController | None = None  # the check-a-draft controller and window, made when first asked
        self.check_window: CheckWindow | None = None

        # controllers
        self.library = LibraryController(workspace, self)
        self.trial = TrialController(workspace, self)
        self.history = HistoryController(workspace, self)
        self.exporter = ExportController(workspace, self)
        self.settings_controller = SettingsController(workspace.data_dir, self)
        self.pages = PageRenderer(self)
        self.pages.resolve = self._local_file

        # models
        self.documents_model = DocumentsModel(self)
        self.evidence_model = EvidenceModel(self)
        self.transcript_model = TranscriptModel(self)
        self.trials_model = TrialsModel(self)

        # widgets
        self.notice = NoticeBar()
        self.model_offer = ModelOfferBar()
        self.library_panel = LibraryPanel(self.documents_model, self.library)
        self.history_panel = HistoryPanel(self.trials_model, self.history)
        self.left_tabs = QTabWidget()
        self.left_tabs.setObjectName("leftTabs")
        self.left_tabs.addTab(self.library_panel, tr("Library"))
        self.left_tabs.addTab(self.history_panel, tr("Trial history"))
        self.courtroom = CourtroomPanel(self.trial, self.transcript_model, self.evidence_model.entry)
        self.courtroom.title_of = self._title_of
        self.inspector = EvidenceInspector(self.evidence_model, self.pages, self._locate, self.settings)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.left_tabs)
        self.splitter.addWidget(self.courtroom)
        self.splitter.addWidget(self.inspector)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 3)
        self.splitter.setCollapsible(1, False)
        self.splitter.setSizes([380, 640, 520])
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(self.notice)
        column.addWidget(self.model_offer)
        column.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.status_label = QLabel("")
        self.statusBar().addPermanentWidget(self.status_label)

        # the act_* actions, menus, toolbar and shortcuts
        self.appearance_group, self.language_group = actions.build(self, self.settings, self.set_appearance)
        self._wire()
        window_layout.fit_to_screen(self, 1480, 900)  # the first size; restore() brings back the last
        window_layout.reset(self)
        window_layout.restore(self)  # as it was left

    # ---------------------------------------------------------------- wiring
    def _wire(self) -> None:
        ws = self.workspace
        for controller in (ws, self.library, self.trial, self.history, self.exporter, self.pages):
            controller.sig_error.connect(self.notice.show_error)
        ws.sig_status.connect(self.statusBar().showMessage)
        ws.sig_status.connect(self.status_label.setText)
        ws.sig_library_ready.connect(self.refresh_all)
        ws.sig_workspace_changed.connect(self._on_workspace_changed)

        self.library.sig_documents.connect(self._on_documents)
        self.library.sig_notices.connect(self.documents_model.set_notices)
        self.library.sig_busy.connect(self._on_library_busy)
        self.library_panel.sig_add_files.connect(self.add_files)
        self.library_panel.sig_add_folder.connect(self.add_folder)
        self.library_panel.sig_add_samples.connect(self.add_samples)
        self.library_panel.sig_paths_dropped.connect(self.library.ingest)

        self.trial.sig_opened.connect(self._on_trial_opened)
        self.trial.sig_event.connect(self._on_trial_event)
        self.trial.sig_state.connect(self._on_trial_state)
        self.courtroom.sig_citation.connect(self.show_evidence)
        self.courtroom.sig_scope_requested.connect(self.choose_scope)
        self.courtroom.sig_try_samples.connect(self.try_samples)
        self.courtroom.sig_try_decision.connect(self.try_decision)
        self.courtroom.sig_setup_models.connect(self.open_model_setup)
        self.courtroom.claim.editTextChanged.connect(self._update_actions)
        self.trial.sig_opened.connect(self._update_demo)
        self.trial.sig_state.connect(self._update_demo)
        ws.sig_config_applied.connect(self._update_demo)
        self.model_offer.sig_accept.connect(self.use_proposed_models)
        self.model_offer.sig_dismiss.connect(lambda: self.settings.setValue("models/offer_dismissed", True))
        self.settings_controller.sig_detected.connect(self._on_models_detected)
        self._update_demo()

        self.history_panel.sig_open.connect(self.trial.open)
        self.history_panel.sig_resume.connect(self.trial.resume)
        self.history_panel.sig_export.connect(self.export_trial)
        self.history_panel.sig_delete.connect(self.delete_trials)
        self.inspector.sig_message.connect(lambda text: self.statusBar().showMessage(text, 5000))
        # what a screen reader is told (ui.announce), a sighted user reads here too
        announcer().sig_said.connect(self._echo_announcement)  # a method: the connection ends with the window
        self._update_actions()

    def _echo_announcement(self, text: str, _assertive: bool) -> None:
        self.statusBar().showMessage(text, 6000)

    def start_background(self) -> None:
        """Once the window shows: open the library and load the models off the GUI thread; on first run (no settings
        file yet), look for model servers on this computer too."""
        self.workspace.start()
        self.offer_models()

    def open_model_setup(self) -> SettingsDialog:
        """Settings, on the Models tab (its model setup at the top)."""
        from courtroom_desktop.ui.dialogs.settings import SettingsDialog

        dialog = self.dialogs.get("settings")
        if not isinstance(dialog, SettingsDialog):  # (none open: "settings" is only ever a SettingsDialog)
            dialog = self.open_settings()
        dialog.tabs.setCurrentIndex(0)
        return dialog

    def refresh_all(self) -> None:
        self.library.refresh()
        self.history.refresh()

    # ---------------------------------------------------------------- library
    def _title_of(self, doc_id: str) -> str:
        doc = next((d for d in self.library.documents if d.id == doc_id), None)
        return (doc.title or Path(doc.path).name) if doc is not None else f"document {doc_id[:8]}"

    def _locate(self, entry: PoolEntry) -> str:
        """Where the passage's PDF is now: the library's current path for the document, else where it was."""
        doc_id = entry.evidence.chunk.doc_id
        doc = next((d for d in self.library.documents if d.id == doc_id), None)
        return doc.path if doc is not None else entry.evidence.doc_path

    def _local_file(self, path: str) -> str:
        """A document's file as this machine can open it (the page renderer's thread calls this): a shared library
        fetches its stored copy into the cache (core.library.Library.local_file)."""
        return self.workspace.workspace.library.local_file(path)

    def _on_documents(self, documents: list[Document], failures: list[tuple[str, str]]) -> None:
        self.documents_model.set_documents(documents, failures)
        ready = [d for d in documents if d.status.value == "ready"]
        samples = {p.name for p in sample_files()}
        has_samples = any(Path(d.path).name in samples for d in ready)
        claims = [c.claim for c in suggested_claims()]
        self.courtroom.set_suggestions(claims if has_samples or not ready else [])
        first_run = not ready and not self.library.busy
        self.courtroom.set_first_run(first_run)
        if first_run and not self.courtroom.claim_text() and claims and self.trial.trial_id is None:
            self.courtroom.set_claim(claims[0])
        self.status_label.setText(tr("{count} documents in the library").format(count=len(ready)))

    def _on_library_busy(self, busy: bool) -> None:
        if busy:
            self.courtroom.set_first_run(False)
        elif self._start_after_ingest:
            self._start_after_ingest = False
            from courtroom_desktop.core.records import IngestFinished

            result = self.library.last_result  # the ingest's (never a Zotero import's: those do not start trials)
            if isinstance(result, IngestFinished) and not result.cancelled:
                QTimer.singleShot(0, self.courtroom.start)
        self._update_actions()

    def add_files(self) -> QFileDialog:
        """The file dialog for documents to add, opened without blocking the window (a keyboard user types a name or
        moves through the list and presses Enter); the chosen files are ingested."""
        start = str(self.settings.value("paths/last_add", str(Path.home()), type=str))
        dialog = QFileDialog(self, tr("Add documents"), start, tr("Documents (*.pdf *.md *.markdown *.txt *.docx);;"
                                                                   "PDF files (*.pdf);;All files (*)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setAccessibleName(tr("Add documents"))
        dialog.filesSelected.connect(self._ingest_chosen)
        self._open_dialog("add_files", dialog)
        return dialog

    def add_folder(self) -> QFileDialog:
        """The folder dialog: every document under the chosen folder is ingested."""
        start = str(self.settings.value("paths/last_add", str(Path.home()), type=str))
        dialog = QFileDialog(self, tr("Add every document under a folder"), start)
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        dialog.setAccessibleName(tr("Add every document under a folder"))
        dialog.filesSelected.connect(self._ingest_chosen)
        self._open_dialog("add_folder", dialog)
        return dialog

    def _ingest_chosen(self, paths: list[str]) -> None:
        if paths:
            first = Path(paths[0])
            self.settings.setValue("paths/last_add", str(first if first.is_dir() else first.parent))
            self.library.ingest(paths)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt's name
        self.library_panel.dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt's name
        self.library_panel.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt's name
        self.show_library()
        self.library_panel.dropEvent(event)

    # ---------------------------------------------------------------- trial
    def _on_trial_opened(self, trial_id: str, spec: TrialSpec, events: list[TrialEvent]) -> None:
        self.transcript_model.reset(spec, events)
        if events:
            from courtroom_desktop.core.services.trials import TrialState

            state = TrialState.from_events(trial_id, spec, events)
            self.evidence_model.reset(spec.case, state.pool, state.turns, state.verdict,
                                      list(state.assessments.values()))
        else:
            self.evidence_model.reset(spec.case)
        self.history_panel.select(trial_id)
        self.history.refresh()

    def _on_trial_event(self, event: TrialEvent) -> None:
        self.transcript_model.apply(event)
        if event.kind == "evidence_added":
            self.evidence_model.add(event.entry)
        elif event.kind == "evidence_assessed":
            self.evidence_model.note_assessed(event.assessments)
        elif event.kind == "turn_finished":
            self.evidence_model.note_turn(event.turn)
        elif event.kind == "verdict":
            self.evidence_model.note_verdict(event.verdict)

    def _on_trial_state(self, state: str) -> None:
        if state in (FINISHED, STOPPED, PAUSED):
            self.history.refresh()
        if state == FINISHED:
            self.statusBar().showMessage(tr("Verdict reached: export the report with Ctrl+E"), 8000)
        self._update_actions()

    def _update_actions(self, *args: object) -> None:
        running = self.trial.state in (STARTING, RUNNING)
        self.act_start.setEnabled(self.courtroom.start_button.isEnabled())
        self.act_stop.setEnabled(running)
        self.act_resume.setEnabled(self.courtroom.resume_button.isEnabled())
        self.act_new.setEnabled(not running)
        self.act_export.setEnabled(bool(self.trial.trial_id) and not running)

    def show_evidence(self, evidence_id: str) -> None:
        sizes = self.splitter.sizes()
        if sizes[2] < 120:
            self.splitter.setSizes([sizes[0], max(300, sizes[1] - 400), 400])
        self.inspector.show_evidence(evidence_id)

    def choose_scope(self) -> ScopeDialog:
        from courtroom_desktop.ui.dialogs.scope import ScopeDialog

        ready = self.library.ready_documents()
        dialog = ScopeDialog(ready, self.courtroom.scope_documents, self.courtroom.scope_sections, self)
        dialog.accepted.connect(lambda: self.courtroom.set_scope(*dialog.result_scope()))
        self._open_dialog("scope", dialog)
        return dialog

    def delete_trials(self, trial_ids: list[str]) -> QMessageBox:
        text = (tr("Delete this trial and every event it recorded? Exported reports are not touched.")
                if len(trial_ids) == 1 else
                tr("Delete {count} trials and every event they recorded? Exported reports are not touched.").format(
                    count=len(trial_ids)))

        def delete() -> None:
            if self.trial.trial_id in trial_ids and not self.trial.running:
                self.courtroom.new_trial()
            self.history.delete([t for t in trial_ids if not (self.trial.running and t == self.trial.trial_id)])

        return self.confirm(tr("Delete trials"), text, delete)

    def confirm(self, title: str, text: str, on_yes: Callable[[], object]) -> QMessageBox:
        """A window-modal question that does not block the event loop (open(), not exec())."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setObjectName("confirmBox")
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.finished.connect(lambda _r: on_yes() if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes)
                             else None)
        self._open_dialog("confirm", box)
        return box

    # ---------------------------------------------------------------- checking a draft
    def check_draft(self) -> CheckWindow:
        """The check window (non-modal, its own top-level window): made once, then shown and raised."""
        if self.check_window is None:
            from courtroom_desktop.ui.check_window import CheckWindow
            from courtroom_desktop.ui.controllers.check import CheckController

            self.checker = CheckController(self.workspace, self)
            self.checker.sig_state.connect(lambda state: self.history.refresh()
                                           if state in ("finished", "paused", "cancelled") else None)
            self.check_window = CheckWindow(self.checker, self.pages, self._locate, self.settings,
                                            self.open_trial_of_check)
        self.check_window.show()
        self.check_window.raise_()
        self.check_window.activateWindow()
        return self.check_window

    def open_trial_of_check(self, trial_id: str) -> None:
        """A claim's full trial, shown in the courtroom as the history opens one."""
        self.trial.open(trial_id)
        self.history_panel.select(trial_id)
        self.raise_()
        self.activateWindow()

    # ---------------------------------------------------------------- export
    def export_current(self) -> ExportDialog | None:
        if self.trial.trial_id and not self.trial.running:
            return self.export_trial(self.trial.trial_id)
        self.statusBar().showMessage(tr("Open or finish a trial first"), 4000)
        return None

    def export_trial(self, trial_id: str) -> ExportDialog:
        from courtroom_desktop.ui.dialogs.export import ExportDialog

        claim = next((t.claim for t in self.history.trials if t.id == trial_id), "")
        dialog = ExportDialog(self.exporter, trial_id, claim, self.settings, self)
        self._open_dialog("export", dialog)
        return dialog

    # ---------------------------------------------------------------- settings
    def open_settings(self) -> SettingsDialog:
        from courtroom_desktop.ui.dialogs.settings import SettingsDialog

        dialog = SettingsDialog(self.workspace.config, self.workspace.data_dir, self.settings_controller, self)
        dialog.sig_apply.connect(self.apply_settings)
        self._open_dialog("settings", dialog)
        return dialog

    def apply_settings(self, config: AppConfig, data_dir: str, api_keys: dict[str, str]) -> None:
        try:
            self.workspace.apply_config(config)
        except Exception as exc:  # noqa: BLE001 - shown to the person, e.g. an unwritable config folder
            self.notice.show_error(tr("Saving the settings"), str(exc), tr("check that the config folder is writable"))
            return
        if api_keys:
            self.settings_controller.store_keys(api_keys)
        if self.trial.running:
            self.statusBar().showMessage(tr("Settings saved: the running trial keeps its models; the next one uses the "
                                         "new settings"), 8000)
        else:
            self.statusBar().showMessage(tr("Settings saved and applied"), 5000)
        if data_dir and Path(data_dir).expanduser().resolve() != self.workspace.data_dir.resolve():
            if self.trial.running or self.library.busy:
                self.notice.show_error(tr("Data folder"), tr("cannot switch while a trial or an ingest runs"),
                                       tr("stop it, then apply the settings again"))
                return
            self.settings.setValue("paths/data_dir", str(Path(data_dir).expanduser()))
            self.workspace.switch_data_dir(Path(data_dir).expanduser())

    def _on_workspace_changed(self) -> None:
        self.trial.clear()
        self.transcript_model.reset()
        self.evidence_model.reset()
        self.documents_model.set_documents([], [])
        self.trials_model.set_trials([])
        self.settings_controller.data_dir = self.workspace.data_dir

    # ---------------------------------------------------------------- view
    def show_library(self) -> None:
        self._show_left(0)

    def show_history(self) -> None:
        self._show_left(1)

    def _show_left(self, index: int) -> None:
        self.left_tabs.setCurrentIndex(index)
        if self.splitter.sizes()[0] < 80:
            sizes = self.splitter.sizes()
            self.splitter.setSizes([340, max(300, sizes[1] - 340), sizes[2]])

    def focus_claim(self) -> None:
        self.courtroom.claim.setFocus()
        line = self.courtroom.claim.lineEdit()
        if line is not None:  # (the claim's box is editable: it has one)
            line.selectAll()

    def focus_evidence(self) -> None:
        self.inspector.table.setFocus()

    def reset_layout(self) -> None:
        window_layout.reset(self)

    def set_appearance(self, appearance: str) -> None:
        self.settings.setValue("appearance", appearance)
        app = QApplication.instance()
        assert isinstance(app, QApplication)  # a window lives in a QApplication
        theme.apply_appearance(app, appearance)

    def show_shortcuts(self) -> ShortcutsDialog:
        from courtroom_desktop.ui.dialogs.shortcuts import ShortcutsDialog

        dialog = ShortcutsDialog(actions.shortcut_actions(self), self)
        self._open_dialog("shortcuts", dialog)
        return dialog

    def show_about(self) -> QMessageBox:
        about = tr("Put a claim on trial against your own PDF library: a Prosecution, a Defense and a Judge, every "
                   "citation highlighted in its source.")
        folder = tr("Data folder: {folder}").format(folder=html.escape(str(self.workspace.data_dir)))
        box = QMessageBox(QMessageBox.Icon.Information, tr("About {app}").format(app=APP_NAME),
                          f"<b>{APP_NAME} {__version__}</b><br>{about}<br><br>{folder}",
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("aboutBox")
        self._open_dialog("about", box)
        return box

    def _open_dialog(self, name: str, dialog: QDialog) -> None:
        self.dialogs[name] = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _r, n=name, d=dialog: self.dialogs.pop(n, None) if self.dialogs.get(n) is d
                                else None)
        dialog.open()

    # ---------------------------------------------------------------- lifecycle
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            window_layout.restore_splits(self)
            QTimer.singleShot(0, self.sig_shown.emit)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        window_layout.save(self)
        self.trial.stop()       # the trial is persisted: Resume continues it next time
        self.library.cancel()   # what was ingested stays
        for dialog in list(self.dialogs.values()):
            dialog.close()
        if self.check_window is not None:
            self.check_window.close()
        event.accept()

    async def shutdown(self) -> None:
        """After the window closed: let cancelled work finish, then close the stores."""
        await self.trial.shutdown()
        if self.check_window is not None:
            await self.check_window.shutdown()  # a running check pauses: it resumes next time
            self.check_window.deleteLater()
        await self.library.shutdown()
        for controller in (self.history, self.exporter, self.settings_controller, self.pages):
            await controller.tasks.cancel_all()
        self.pages.close()
        await self.workspace.close()
