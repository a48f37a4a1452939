"""The settings dialog: the model setup (find the model servers on this computer, use the proposed model per role,
pull a model through Ollama: ``model_setup``), a provider per role (embedded, Ollama, OpenAI-compatible) with base
URL, the model picked from the list the server returns or, for embedded, any GGUF file chosen from disk, API key
(stored in the OS keyring) and a Test button that runs the doctor's checks and probes (with each role's rating);
retrieval, debate and library parameters (one table, ``TABS``: each field's widget comes from its pydantic
field); the embedder (``embedder_editor``: another one offers to re-embed the library); the data folder. It edits a
copy of the AppConfig, validated by the config model itself; OK or Apply hands the new config to the window, which
applies it without a restart. The role editors are ``role_editor.RoleEditor``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QScrollArea,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.dialogs.embedder_editor import EmbedderEditor, changed, offer_reembed
from courtroom_desktop.ui.dialogs.fields import FieldEditor, field_editor
from courtroom_desktop.ui.dialogs.role_editor import (  # noqa: F401 - PROVIDERS and the rest: this module's API too
    BUNDLED_LABEL,
    PROVIDERS,
    URL_HINTS,
    RoleEditor,
    _enable,
    _first_error,
    _row,
)
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models.doctor import DoctorModel
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    import asyncio

    from courtroom_desktop.core.services.models import DoctorRow, Proposal
    from courtroom_desktop.ui.controllers.settings import SettingsController

#: The settings the Retrieval, Debate and Library tabs show, in order: (section of AppConfig, field). The widget, its
#: range, step, unit, label and tooltip come from the field itself (core/config.py, see ``dialogs.fields``).
TABS: dict[str, list[tuple[str, str]]] = {
    QT_TRANSLATE_NOOP("", "Retrieval"): [("retrieval", "k"), ("retrieval", "candidates"), ("retrieval", "fusion"),
                  ("retrieval", "bm25_weight"), ("retrieval", "vector_weight"), ("retrieval", "reranker"),
                  ("retrieval", "dedup_similarity")],
    QT_TRANSLATE_NOOP("", "Debate"): [("debate", "min_rounds"), ("debate", "max_rounds"), ("debate", "confidence_threshold"),
               ("debate", "max_switches"), ("debate", "queries_per_turn"), ("debate", "passages_per_turn"),
               ("debate", "novelty_min"), ("debate", "tendency_rounds"), ("debate", "stall_delta"),
               ("debate", "stall_rounds"), ("debate", "min_new_evidence"), ("debate", "new_evidence_rounds"),
               ("debate", "controversy_rounds"), ("debate", "confidence_disagreement"),
               ("debate", "argument_format"), ("debate", "evidence_hierarchy")],
    QT_TRANSLATE_NOOP("", "Library && data"): [("library", "uri"), ("library", "endpoint"), ("library", "read_only"),
                        ("library", "replica"), ("library", "replica_limit_gb"), ("library", "ingest_engine"),
                        ("library", "ray_address"), ("library", "ray_workers"),
                        ("library", "chunk_tokens"), ("library", "overlap_tokens"), ("library", "embed_batch"),
                        ("library", "ocr"), ("library", "ocr_dpi"), ("library", "ocr_page_timeout_s")],
}


class SettingsDialog(QDialog):
    sig_apply = Signal(object, str, dict)
    """(AppConfig, data folder, {base_url: API key typed}) when OK or Apply is pressed."""

    def __init__(self, config: AppConfig, data_dir: Path, controller: SettingsController,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Settings"))
        self.setObjectName("settingsDialog")
        self.original = config
        self.config = config.model_copy(deep=True)  # the dialog edits a copy
        self.controller = controller
        self.tabs = QTabWidget()

        # models
        models = QWidget()
        models_layout = QVBoxLayout(models)
        self.role_tabs = QTabWidget()
        self.editors: dict[str, RoleEditor] = {}
        default = RoleEditor("default", self.config.models.default, None)
        self.editors["default"] = default
        self.role_tabs.addTab(default, tr("Default"))
        for role in ROLES:
            own = getattr(self.config.models, role)
            editor = RoleEditor(role, own or self.config.models.default, inherits=own is None)
            self.editors[role] = editor
            self.role_tabs.addTab(editor, tr(role.capitalize()))
        for editor in self.editors.values():
            editor.sig_list_requested.connect(self.list_models)
        self.test_button = push_button(tr("Test"), tr("Run the doctor's checks on these settings: server, model, context, a "
                                       "call, a structured call (a typed API key is stored first)"), self.test,
                                       name="testButton")
        self.test_status = QLabel("")
        self.test_status.setWordWrap(True)
        self.doctor_model = DoctorModel(self)
        self.doctor_table = QTableView()
        self.doctor_table.setObjectName("doctorTable")
        named(self.doctor_table, tr("The doctor's checks"))
        self.doctor_table.setModel(self.doctor_model)
        self.doctor_table.verticalHeader().setVisible(False)
        self.doctor_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.doctor_table.horizontalHeader().setStretchLastSection(True)
        self.doctor_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((90, 110, 60, 300)):
            self.doctor_table.setColumnWidth(column, width)
        from courtroom_desktop.ui.dialogs.model_setup import ModelSetupPanel

        self.model_setup = ModelSetupPanel(controller, self._settings_for_proposal,
                                           self.config.library.embedding_model, self._ollama_url)
        self.model_setup.sig_use.connect(self.use_proposal)
        models_layout.addWidget(self.model_setup, 2)
        models_layout.addWidget(self.role_tabs)
        models_layout.addWidget(_row(self.test_button, self.test_status))
        models_layout.addWidget(self.doctor_table, 1)
        self.tabs.addTab(_scrolled(models, tr("Models")), tr("Models"))

        # retrieval, debate, library: one form each, from the field table
        self.fields: dict[str, FieldEditor] = {}
        forms: dict[str, QFormLayout] = {}
        for title, fields in TABS.items():
            page = QWidget()
            form = forms[title] = QFormLayout(page)
            for section, name in fields:
                model = AppConfig.model_fields[section].annotation  # the section's settings model
                assert isinstance(model, type) and issubclass(model, BaseModel)
                field = field_editor(model, name, f"{section}.{name}")
                self.fields[f"{section}.{name}"] = field
                form.addRow(f"{field.label}:", field.widget)
            self.tabs.addTab(_scrolled(page, tr(title)), tr(title))
        self.load_fields(self.config)

        # the library tab also holds the data folder and the embedder (ui.dialogs.embedder_editor)
        form = forms[QT_TRANSLATE_NOOP("", "Library && data")]
        self.data_dir = QLineEdit(str(data_dir))
        self.data_dir.setObjectName("dataDir")
        named(self.data_dir, tr("Data folder:"))
        browse = push_button(tr("Browse\u2026"), slot=self._browse_data)
        self.embedder = EmbedderEditor(self.config.library)
        self.reembed_box: QMessageBox | None = None
        form.insertRow(0, tr("Data folder:"), _row(self.data_dir, browse))
        form.insertRow(1, self.embedder)
        note = QLabel(tr("Passage sizes apply to documents added or re-indexed from now on."))
        note.setWordWrap(True)
        form.addRow(note)

        self.error = QLabel("")
        self.error.setObjectName("settingsError")
        self.error.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                        | QDialogButtonBox.StandardButton.Apply
                                        | QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.restore_defaults)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        controller.sig_models_listed.connect(self._on_models_listed)
        controller.sig_doctor_started.connect(lambda: self.test_status.setText(tr("Running the checks\u2026")))
        controller.sig_doctor_rows.connect(self._on_doctor_rows)
        controller.sig_error.connect(self._on_error)
        controller.sig_key_storage.connect(self._on_key_storage)
        controller.find_key_storage()
        fit_to_screen(self, 940, 860)

    def _on_key_storage(self, where: str) -> None:
        for editor in self.editors.values():
            editor.key_storage.setText(tr("Keys are stored in {where}; never in the settings file.").format(where=where))

    # ---------------------------------------------------------------- building the config
    def models_settings(self) -> ModelSettings:
        default = self.editors["default"].spec(self.config.models.default)
        values: dict[str, ModelSpec | None] = {"default": default}
        for role in ROLES:
            editor = self.editors[role]
            values[role] = None if editor.inherits_role() else editor.spec(default)
        return ModelSettings.model_validate(values)

    def build_config(self) -> AppConfig:
        """The edited settings, validated by the config model. Raises ValueError (pydantic's ValidationError) on a
        bad value or combination (the minimum rounds above the round limit, an overlap not below the passage size)."""
        data = self.config.model_dump()
        for path, field in self.fields.items():
            section, name = path.split(".")
            data[section][name] = field.value()
        data["models"] = self.models_settings().model_dump()
        data["library"].update(self.embedder.values())
        return AppConfig.model_validate(data)

    def explain(self, exc: Exception) -> str:
        """The config model's message, its field names (debate.min_rounds) in the dialog's words (Minimum rounds)."""
        labels = {path: field.label for path, field in self.fields.items()}
        return re.sub(r"\b[a-z_]+\.[a-z_]+\b", lambda m: labels.get(m[0], m[0]), _first_error(exc))

    def typed_keys(self) -> dict[str, str]:
        keys = {}
        for editor in self.editors.values():
            key = editor.typed_key()
            url = editor.base_url.text().strip()
            if key and url and not editor.inherits_role():
                keys[url] = key
        url, key = self.embedder.typed_key()
        if key:
            keys[url] = key
        return keys

    # ---------------------------------------------------------------- buttons
    def apply(self) -> bool:
        try:
            config = self.build_config()
        except ValueError as exc:
            self.error.setText(tr("Not applied: {problem}").format(problem=self.explain(exc)))
            return False
        self.error.setText("")
        before, self.config = self.config, config
        self.sig_apply.emit(config, self.data_dir.text().strip(), self.typed_keys())
        for editor in self.editors.values():
            editor.api_key.clear()
        if changed(before.library, config.library):  # another embedder: re-embed now? (the window's controller)
            self.reembed_box = offer_reembed(self, getattr(self.parent(), "library", None), config.library)
        self.embedder.api_key.clear()
        return True

    def _ok(self) -> None:
        if self.apply():
            self.accept()

    def restore_defaults(self) -> None:
        """Every field back to the app's defaults (the data folder stays); nothing is saved until OK or Apply."""
        self.load(AppConfig())

    def load(self, config: AppConfig) -> None:
        self.editors["default"].load(config.models.default, None)
        for role in ROLES:
            own = getattr(config.models, role)
            self.editors[role].load(own or config.models.default, own is None)
        self.load_fields(config)
        self.embedder.load(config.library)

    def load_fields(self, config: AppConfig) -> None:
        for path, field in self.fields.items():
            section, name = path.split(".")
            field.load(getattr(getattr(config, section), name))

    def _browse_data(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Data folder"), self.data_dir.text())
        if folder:
            self.data_dir.setText(folder)

    # ---------------------------------------------------------------- models and the doctor
    def list_models(self, role: str) -> asyncio.Task[list[str] | None] | None:
        editor = self.editors[role]
        try:
            spec = editor.spec(self.config.models.default)
        except ValueError as exc:
            editor.status.setText(_first_error(exc))
            return None
        editor.status.setText(tr("Asking the server\u2026"))
        return self.controller.list_models(role, spec, editor.typed_key() or None)

    def _on_models_listed(self, role: str, names: list[object]) -> None:
        editor = self.editors.get(role)
        if editor is None:
            return
        editor.set_model_names([str(n) for n in names])
        editor.status.setText(tr("The server offers {count} models.").format(count=len(names)))

    def test(self) -> asyncio.Task[list[DoctorRow] | None] | None:
        try:
            models = self.models_settings()
        except ValueError as exc:
            self.test_status.setText(_first_error(exc))
            return None
        self.test_button.setEnabled(False)
        self.test_status.setText(tr("Starting the checks\u2026"))
        self.doctor_model.set_rows([])
        task = self.controller.test(models, self.typed_keys())
        task.add_done_callback(lambda _t: _enable(self.test_button))
        return task

    def _on_doctor_rows(self, rows: list[DoctorRow]) -> None:
        self.doctor_model.set_rows(rows)
        failed = [r for r in rows if r.ok is False and getattr(r, "kind", "check") == "check"]
        if not failed:
            text = tr("All checks passed.")
        elif len(failed) == 1:
            text = tr("1 check failed: fix it.")
        else:
            text = tr("{count} checks failed: fix them in order.").format(count=len(failed))
        rated = self.doctor_model.ratings()
        if rated:
            text += " " + tr("Rating for this job: {ratings}.").format(
                ratings=", ".join(f"{tr(role)} {tr(word)}" for role, word in rated.items()))
        self.test_status.setText(text)

    # ---------------------------------------------------------------- the model setup
    def _settings_for_proposal(self) -> ModelSettings:
        """The models as edited now (the proposal keeps their other settings); the saved ones if an edit is bad."""
        try:
            return self.models_settings()
        except ValueError:
            return self.config.models

    def _ollama_url(self) -> str:
        """Where to pull: the Ollama the edited settings name, else the one found, else Ollama's default."""
        for editor in self.editors.values():
            if editor.provider_value() == "ollama" and editor.base_url.text().strip() and not editor.inherits_role():
                return editor.base_url.text().strip()
        detection = getattr(self.controller, "detection", None)
        for server in getattr(detection, "servers", []) or []:
            if server.provider == "ollama":
                url: str = server.base_url
                return url
        return ""

    def use_proposal(self, proposal: Proposal) -> ModelSettings:
        """Fill the role editors with the proposed models: counsel's as the default (prosecution and defense use
        it), the judge its own. Nothing is saved until OK or Apply."""
        models = proposal.settings(self._settings_for_proposal())
        self.editors["default"].load(models.default, None)
        for role in ROLES:
            own = getattr(models, role)
            self.editors[role].load(own or models.default, own is None)
        self.role_tabs.setCurrentWidget(self.editors["judge"])
        self.test_status.setText(tr("The proposed models are in the editors: press Test to check and rate them, then OK "
                                 "to save."))
        return models

    def _on_error(self, title: str, message: str, fix: str) -> None:
        text = f"{title}: {message}" + (f" ({fix})" if fix else "")
        current = self.role_tabs.currentWidget()
        if title.startswith("Listing") and isinstance(current, RoleEditor):
            current.status.setText(text)
        else:
            self.test_status.setText(text)


def _scrolled(page: QWidget, name: str) -> QScrollArea:
    """A tab's page that scrolls when the screen is too short for it (a 720-pixel laptop), rather than making the
    dialog taller than the screen; it takes focus to scroll, so it bears its tab's name."""
    area = named(QScrollArea(), name.replace("&&", "&"))
    area.setWidget(page)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area
