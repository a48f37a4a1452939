"""The settings dialog: the model setup (find the model servers on this computer, use the proposed model per role,
pull a model through Ollama: ``model_setup``), a provider per role (embedded, Ollama, OpenAI-compatible) with base
URL, the model picked from the list the server returns or, for embedded, any GGUF file chosen from disk, API key
(stored in the OS keyring) and a Test button that runs the doctor's checks and probes (with each role's rating);
retrieval, debate and library parameters (one table, ``TABS``: each field's widget comes from its pydantic
field); the data folder. It edits a copy of the AppConfig, validated by the config model itself; OK or Apply hands
the new config to the window, which applies it without a restart."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.ui.dialogs.fields import FieldEditor, field_editor
from courtroom_desktop.ui.qt_models.doctor import DoctorModel
from courtroom_desktop.ui.widgets import push_button

PROVIDERS = (("embedded", "Embedded (llama.cpp, no server)"), ("ollama", "Ollama"),
             ("openai", "OpenAI-compatible server"))
URL_HINTS = {"embedded": "not used", "ollama": "http://localhost:11434", "openai": "http://127.0.0.1:8000/v1"}
BUNDLED_LABEL = "(bundled SmolLM2-135M)"

#: The settings the Retrieval, Debate and Library tabs show, in order: (section of AppConfig, field). The widget, its
#: range, step, unit, label and tooltip come from the field itself (core/config.py, see ``dialogs.fields``).
TABS: dict[str, list[tuple[str, str]]] = {
    "Retrieval": [("retrieval", "k"), ("retrieval", "candidates"), ("retrieval", "fusion"),
                  ("retrieval", "bm25_weight"), ("retrieval", "vector_weight"), ("retrieval", "reranker"),
                  ("retrieval", "dedup_similarity")],
    "Debate": [("debate", "min_rounds"), ("debate", "max_rounds"), ("debate", "confidence_threshold"),
               ("debate", "max_switches"), ("debate", "queries_per_turn"), ("debate", "passages_per_turn"),
               ("debate", "novelty_min"),
               ("debate", "stall_rounds"), ("debate", "argument_format"), ("debate", "evidence_hierarchy")],
    "Library && data": [("library", "chunk_tokens"), ("library", "overlap_tokens"), ("library", "embed_batch")],
}
#: The ModelSpec fields each role's editor shows below its provider, URL, model and key.
ROLE_FIELDS = ("num_ctx", "max_tokens", "temperature", "read_timeout_s", "threads", "gpu_layers")
#: Of those, the ones only the embedded provider (llama.cpp in process) reads.
EMBEDDED_FIELDS = ("threads", "gpu_layers")


def _row(*widgets) -> QWidget:
    """Widgets side by side; text fields and labels take the room, buttons keep their size."""
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget, 1 if isinstance(widget, (QLineEdit, QComboBox, QLabel)) else 0)
    return box


class RoleEditor(QWidget):
    """One role's model: provider, base URL, model (listed from the server), API key, sizes and timeouts."""

    sig_list_requested = Signal(str)
    """This editor's role: list the models its server offers."""

    def __init__(self, role: str, spec: ModelSpec, inherits: bool | None, parent=None):
        super().__init__(parent)
        self.role = role
        self.inherit = None
        form = QFormLayout(self)
        if inherits is not None:
            self.inherit = QCheckBox("Use the default model")
            self.inherit.setChecked(inherits)
            self.inherit.toggled.connect(self._update)
            form.addRow(self.inherit)
        self.provider = QComboBox()
        self.provider.setObjectName(f"provider_{role}")
        for value, label in PROVIDERS:
            self.provider.addItem(label, value)
        self.provider.setCurrentIndex(max(0, self.provider.findData(spec.provider)))
        self.provider.currentIndexChanged.connect(self._update)
        self.base_url = QLineEdit(spec.base_url)
        self.base_url.setObjectName(f"baseUrl_{role}")
        self.model = QComboBox()
        self.model.setObjectName(f"model_{role}")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.set_model_names([], spec.model)
        self.list_button = push_button("List models", "Ask the server which models it has",
                                       lambda: self.sig_list_requested.emit(self.role), name=f"listModels_{role}")
        self.gguf_button = push_button("Choose GGUF\u2026", "Use any GGUF model file on this computer (llama.cpp "
                                       "runs it in the app; Test checks that it loads)", self.choose_gguf,
                                       name=f"chooseGguf_{role}")
        self.api_key = QLineEdit()
        self.api_key.setObjectName(f"apiKey_{role}")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText("leave empty to keep the stored key")
        self.api_key.setToolTip("Stored in the operating system's keyring, per server, never in the settings file")
        self.fields: dict[str, FieldEditor] = {name: field_editor(ModelSpec, name, f"{name}_{role}")
                                               for name in ROLE_FIELDS}
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self._widgets = (self.provider, self.base_url, self.model, self.list_button, self.gguf_button, self.api_key,
                         *(field.widget for field in self.fields.values()))
        self._spec = spec
        form.addRow("Provider:", self.provider)
        form.addRow("Base URL:", self.base_url)
        form.addRow("Model:", _row(self.model, self.list_button, self.gguf_button))
        self.api_key_label = QLabel("API key:")
        form.addRow(self.api_key_label, self.api_key)
        self.key_storage = QLabel("")
        self.key_storage.setObjectName(f"keyStorage_{role}")
        self.key_storage.setWordWrap(True)
        form.addRow("", self.key_storage)
        for field in self.fields.values():
            form.addRow(f"{field.label}:", field.widget)
        form.addRow(self.status)
        self._load_fields(spec)
        self._update()

    def provider_value(self) -> str:
        return self.provider.currentData()

    def inherits(self) -> bool:
        return self.inherit is not None and self.inherit.isChecked()

    def load(self, spec: ModelSpec, inherits: bool | None) -> None:
        if self.inherit is not None and inherits is not None:
            self.inherit.setChecked(inherits)
        self.provider.setCurrentIndex(max(0, self.provider.findData(spec.provider)))
        self.base_url.setText(spec.base_url)
        self.set_model_names([], spec.model)
        self.api_key.clear()
        self._load_fields(spec)
        self._update()

    def _load_fields(self, spec: ModelSpec) -> None:
        for name, field in self.fields.items():
            field.load(getattr(spec, name))

    def set_model_names(self, names: list[str], current: str | None = None) -> None:
        current = self.model_value() if current is None else current
        self.model.clear()
        if self.provider_value() == "embedded":
            self.model.addItem(BUNDLED_LABEL, "")
        for name in names:
            if name:
                self.model.addItem(name, name)
        index = self.model.findData(current) if current else 0
        if index >= 0:
            self.model.setCurrentIndex(index)
        else:
            self.model.setEditText(current)

    def model_value(self) -> str:
        text = self.model.currentText().strip()
        return "" if text == BUNDLED_LABEL else text

    def choose_gguf(self, path: str | None = None) -> str:
        """Pick a GGUF file (``path`` given: no file dialog, for tests and scripts); the provider becomes embedded."""
        if path is None:
            start = self.model_value() if self.provider_value() == "embedded" else ""
            path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model file", str(Path(start).parent) if start
                                                  else str(Path.home()), "GGUF models (*.gguf);;All files (*)")
        if not path:
            return ""
        self.provider.setCurrentIndex(self.provider.findData("embedded"))
        self.model.setEditText(str(path))
        self.status.setText(f"{Path(path).name}: press Test to check that it loads.")
        return str(path)

    def spec(self, base: ModelSpec) -> ModelSpec:
        """The edited spec (validated by pydantic; ConfigError-like ValueError on a bad value)."""
        data = base.model_dump()
        data.update(provider=self.provider_value(), base_url=self.base_url.text().strip(), model=self.model_value(),
                    **{name: field.value() for name, field in self.fields.items()})
        return ModelSpec.model_validate(data)

    def typed_key(self) -> str:
        return self.api_key.text().strip() if self.provider_value() == "openai" else ""

    def _update(self, *args) -> None:
        if getattr(self, "_shown_provider", None) != self.provider_value():
            self._shown_provider = self.provider_value()
            self.set_model_names([], self.model_value() if self.model.count() else self._spec.model)
        enabled = not self.inherits()
        for widget in self._widgets:
            widget.setEnabled(enabled)
        provider = self.provider_value()
        self.base_url.setPlaceholderText(URL_HINTS.get(provider, ""))
        self.base_url.setEnabled(enabled and provider != "embedded")
        self.gguf_button.setVisible(provider == "embedded")
        self.list_button.setVisible(provider != "embedded")
        for name in EMBEDDED_FIELDS:
            self.fields[name].widget.setEnabled(enabled and provider == "embedded")
        openai = provider == "openai"
        self.api_key.setVisible(openai)
        self.api_key_label.setVisible(openai)
        self.key_storage.setVisible(openai)


class SettingsDialog(QDialog):
    sig_apply = Signal(object, str, dict)
    """(AppConfig, data folder, {base_url: API key typed}) when OK or Apply is pressed."""

    def __init__(self, config: AppConfig, data_dir: Path, controller, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Settings")
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
        self.role_tabs.addTab(default, "Default")
        for role in ROLES:
            own = getattr(self.config.models, role)
            editor = RoleEditor(role, own or self.config.models.default, inherits=own is None)
            self.editors[role] = editor
            self.role_tabs.addTab(editor, role.capitalize())
        for editor in self.editors.values():
            editor.sig_list_requested.connect(self.list_models)
        self.test_button = push_button("Test", "Run the doctor's checks on these settings: server, model, context, a "
                                       "call, a structured call (a typed API key is stored first)", self.test,
                                       name="testButton")
        self.test_status = QLabel("")
        self.test_status.setWordWrap(True)
        self.doctor_model = DoctorModel(self)
        self.doctor_table = QTableView()
        self.doctor_table.setObjectName("doctorTable")
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
        self.tabs.addTab(models, "Models")

        # retrieval, debate, library: one form each, from the field table
        self.fields: dict[str, FieldEditor] = {}
        forms: dict[str, QFormLayout] = {}
        for title, fields in TABS.items():
            page = QWidget()
            form = forms[title] = QFormLayout(page)
            for section, name in fields:
                field = field_editor(AppConfig.model_fields[section].annotation, name, f"{section}.{name}")
                self.fields[f"{section}.{name}"] = field
                form.addRow(f"{field.label}:", field.widget)
            self.tabs.addTab(page, title)
        self.load_fields(self.config)

        # the library tab also holds the data folder and names the embedding model (not plain fields)
        form = forms["Library && data"]
        self.data_dir = QLineEdit(str(data_dir))
        self.data_dir.setObjectName("dataDir")
        browse = push_button("Browse\u2026", slot=self._browse_data)
        embedding = QLabel(f"{self.config.library.embedding_model} (change it in the settings file, then re-index "
                           "everything)")
        embedding.setWordWrap(True)
        form.insertRow(0, "Data folder:", _row(self.data_dir, browse))
        form.insertRow(1, "Embedding model:", embedding)
        note = QLabel("Passage sizes apply to documents added or re-indexed from now on.")
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
        controller.sig_doctor_started.connect(lambda: self.test_status.setText("Running the checks\u2026"))
        controller.sig_doctor_rows.connect(self._on_doctor_rows)
        controller.sig_error.connect(self._on_error)
        controller.sig_key_storage.connect(self._on_key_storage)
        controller.find_key_storage()
        self.resize(940, 860)

    def _on_key_storage(self, where: str) -> None:
        for editor in self.editors.values():
            editor.key_storage.setText(f"Keys are stored in {where}; never in the settings file.")

    # ---------------------------------------------------------------- building the config
    def models_settings(self) -> ModelSettings:
        default = self.editors["default"].spec(self.config.models.default)
        values = {"default": default}
        for role in ROLES:
            editor = self.editors[role]
            values[role] = None if editor.inherits() else editor.spec(default)
        return ModelSettings(**values)

    def build_config(self) -> AppConfig:
        """The edited settings, validated by the config model. Raises ValueError (pydantic's ValidationError) on a
        bad value or combination (the minimum rounds above the round limit, an overlap not below the passage size)."""
        data = self.config.model_dump()
        for path, field in self.fields.items():
            section, name = path.split(".")
            data[section][name] = field.value()
        data["models"] = self.models_settings().model_dump()
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
            if key and url and not editor.inherits():
                keys[url] = key
        return keys

    # ---------------------------------------------------------------- buttons
    def apply(self) -> bool:
        try:
            config = self.build_config()
        except ValueError as exc:
            self.error.setText(f"Not applied: {self.explain(exc)}")
            return False
        self.error.setText("")
        self.config = config
        self.sig_apply.emit(config, self.data_dir.text().strip(), self.typed_keys())
        for editor in self.editors.values():
            editor.api_key.clear()
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

    def load_fields(self, config: AppConfig) -> None:
        for path, field in self.fields.items():
            section, name = path.split(".")
            field.load(getattr(getattr(config, section), name))

    def _browse_data(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Data folder", self.data_dir.text())
        if folder:
            self.data_dir.setText(folder)

    # ---------------------------------------------------------------- models and the doctor
    def list_models(self, role: str):
        editor = self.editors[role]
        try:
            spec = editor.spec(self.config.models.default)
        except ValueError as exc:
            editor.status.setText(_first_error(exc))
            return None
        editor.status.setText("Asking the server\u2026")
        return self.controller.list_models(role, spec, editor.typed_key() or None)

    def _on_models_listed(self, role: str, names: list) -> None:
        editor = self.editors.get(role)
        if editor is None:
            return
        editor.set_model_names([str(n) for n in names])
        editor.status.setText(f"The server offers {len(names)} model{'s' if len(names) != 1 else ''}.")

    def test(self):
        try:
            models = self.models_settings()
        except ValueError as exc:
            self.test_status.setText(_first_error(exc))
            return None
        self.test_button.setEnabled(False)
        self.test_status.setText("Starting the checks\u2026")
        self.doctor_model.set_rows([])
        task = self.controller.test(models, self.typed_keys())
        task.add_done_callback(lambda _t: _enable(self.test_button))
        return task

    def _on_doctor_rows(self, rows: list) -> None:
        self.doctor_model.set_rows(rows)
        failed = [r for r in rows if r.ok is False and getattr(r, "kind", "check") == "check"]
        text = (f"{len(failed)} check{'s' if len(failed) != 1 else ''} failed: fix them in order."
                if failed else "All checks passed.")
        rated = self.doctor_model.ratings()
        if rated:
            text += " Rating for this job: " + ", ".join(f"{role} {word}" for role, word in rated.items()) + "."
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
            if editor.provider_value() == "ollama" and editor.base_url.text().strip() and not editor.inherits():
                return editor.base_url.text().strip()
        detection = getattr(self.controller, "detection", None)
        for server in getattr(detection, "servers", []) or []:
            if server.provider == "ollama":
                return server.base_url
        return ""

    def use_proposal(self, proposal) -> ModelSettings:
        """Fill the role editors with the proposed models: counsel's as the default (prosecution and defense use
        it), the judge its own. Nothing is saved until OK or Apply."""
        models = proposal.settings(self._settings_for_proposal())
        self.editors["default"].load(models.default, None)
        for role in ROLES:
            own = getattr(models, role)
            self.editors[role].load(own or models.default, own is None)
        self.role_tabs.setCurrentWidget(self.editors["judge"])
        self.test_status.setText("The proposed models are in the editors: press Test to check and rate them, then OK "
                                 "to save.")
        return models

    def _on_error(self, title: str, message: str, fix: str) -> None:
        text = f"{title}: {message}" + (f" ({fix})" if fix else "")
        current = self.role_tabs.currentWidget()
        if title.startswith("Listing") and isinstance(current, RoleEditor):
            current.status.setText(text)
        else:
            self.test_status.setText(text)


def _enable(widget) -> None:
    """Enable a widget when a task ends, unless the dialog was closed (and the widget deleted) meanwhile."""
    try:
        widget.setEnabled(True)
    except RuntimeError:
        pass


def _first_error(exc: Exception) -> str:
    """Pydantic's first error as 'where: what'; a validator's own message (which names its fields) as it is."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            return message if message.startswith(where) else f"{where}: {message}"
        except (IndexError, KeyError, TypeError):
            pass
    return str(exc)
