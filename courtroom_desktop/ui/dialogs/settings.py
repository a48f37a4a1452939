"""The settings dialog: a provider per role (embedded, Ollama, OpenAI-compatible) with base URL, the model picked
from the list the server returns, API key (stored in the OS keyring) and a Test button that runs the doctor's
checks; retrieval and debate parameters; the data folder. It edits a copy of the AppConfig; OK or Apply hands the
new config to the window, which applies it without a restart."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.ui.qt_models.doctor import DoctorModel
from courtroom_desktop.ui.widgets import push_button

PROVIDERS = (("embedded", "Embedded (llama.cpp, no server)"), ("ollama", "Ollama"),
             ("openai", "OpenAI-compatible server"))
URL_HINTS = {"embedded": "not used", "ollama": "http://localhost:11434", "openai": "http://127.0.0.1:8000/v1"}
BUNDLED_LABEL = "(bundled SmolLM2-135M)"


def _spin(low: int, high: int, value: int, step: int = 1) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setValue(value)
    return box


def _dspin(low: float, high: float, value: float, step: float = 0.05, decimals: int = 2) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setValue(value)
    return box


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
        self.api_key = QLineEdit()
        self.api_key.setObjectName(f"apiKey_{role}")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText("leave empty to keep the stored key")
        self.api_key.setToolTip("Stored in the operating system's keyring, per server, never in the settings file")
        self.num_ctx = _spin(512, 262_144, spec.num_ctx, 512)
        self.max_tokens = _spin(1, 32_768, spec.max_tokens, 64)
        self.temperature = _dspin(0.0, 2.0, spec.temperature, 0.1)
        self.read_timeout = _dspin(1.0, 3600.0, spec.read_timeout_s, 10.0, 0)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self._fields = (self.provider, self.base_url, self.model, self.list_button, self.api_key, self.num_ctx,
                        self.max_tokens, self.temperature, self.read_timeout)
        self._spec = spec
        form.addRow("Provider:", self.provider)
        form.addRow("Base URL:", self.base_url)
        form.addRow("Model:", _row(self.model, self.list_button))
        self.api_key_label = QLabel("API key:")
        form.addRow(self.api_key_label, self.api_key)
        form.addRow("Context (tokens):", self.num_ctx)
        form.addRow("Longest answer (tokens):", self.max_tokens)
        form.addRow("Temperature:", self.temperature)
        form.addRow("Read timeout (s):", self.read_timeout)
        form.addRow(self.status)
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
        self.num_ctx.setValue(spec.num_ctx)
        self.max_tokens.setValue(spec.max_tokens)
        self.temperature.setValue(spec.temperature)
        self.read_timeout.setValue(spec.read_timeout_s)
        self._update()

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

    def spec(self, base: ModelSpec) -> ModelSpec:
        """The edited spec (validated by pydantic; ConfigError-like ValueError on a bad value)."""
        data = base.model_dump()
        data.update(provider=self.provider_value(), base_url=self.base_url.text().strip(), model=self.model_value(),
                    num_ctx=self.num_ctx.value(), max_tokens=self.max_tokens.value(),
                    temperature=round(self.temperature.value(), 2), read_timeout_s=float(self.read_timeout.value()))
        return ModelSpec.model_validate(data)

    def typed_key(self) -> str:
        return self.api_key.text().strip() if self.provider_value() == "openai" else ""

    def _update(self, *args) -> None:
        if getattr(self, "_shown_provider", None) != self.provider_value():
            self._shown_provider = self.provider_value()
            self.set_model_names([], self.model_value() if self.model.count() else self._spec.model)
        enabled = not self.inherits()
        for widget in self._fields:
            widget.setEnabled(enabled)
        provider = self.provider_value()
        self.base_url.setPlaceholderText(URL_HINTS.get(provider, ""))
        self.base_url.setEnabled(enabled and provider != "embedded")
        openai = provider == "openai"
        self.api_key.setVisible(openai)
        self.api_key_label.setVisible(openai)


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
        models_layout.addWidget(self.role_tabs)
        models_layout.addWidget(_row(self.test_button, self.test_status))
        models_layout.addWidget(self.doctor_table, 1)
        self.tabs.addTab(models, "Models")

        # retrieval
        r = self.config.retrieval
        retrieval = QWidget()
        form = QFormLayout(retrieval)
        self.k = _spin(1, 200, r.k)
        self.candidates = _spin(10, 2000, r.candidates, 10)
        self.fusion = QComboBox()
        self.fusion.addItem("Weighted reciprocal rank fusion", "rrf")
        self.fusion.addItem("Weighted sum of normalised scores", "convex")
        self.fusion.setCurrentIndex(max(0, self.fusion.findData(r.fusion)))
        self.bm25_weight = _dspin(0.0, 10.0, r.bm25_weight, 0.1)
        self.vector_weight = _dspin(0.0, 10.0, r.vector_weight, 0.1)
        self.reranker = QComboBox()
        self.reranker.setEditable(True)
        self.reranker.addItems(["none", "mmr"])
        self.reranker.setCurrentText(r.reranker)
        self.reranker.setToolTip("none, mmr, or the folder of a cross-encoder model")
        self.dedup = _dspin(0.5, 1.0, r.dedup_similarity, 0.01)
        form.addRow("Passages per search:", self.k)
        form.addRow("Candidates per method:", self.candidates)
        form.addRow("Fusion:", self.fusion)
        form.addRow("BM25 weight:", self.bm25_weight)
        form.addRow("Vector weight:", self.vector_weight)
        form.addRow("Reranker:", self.reranker)
        form.addRow("Near-duplicate similarity:", self.dedup)
        self.tabs.addTab(retrieval, "Retrieval")

        # debate
        d = self.config.debate
        debate = QWidget()
        form = QFormLayout(debate)
        self.min_rounds = _spin(1, 20, d.min_rounds)
        self.max_rounds = _spin(1, 20, d.max_rounds)
        self.threshold = _dspin(0.0, 1.0, d.confidence_threshold, 0.05)
        self.max_switches = _spin(0, 10, d.max_switches)
        self.queries = _spin(1, 3, d.queries_per_turn)
        self.novelty = _dspin(0.0, 1.0, d.novelty_min, 0.05)
        self.stall_rounds = _spin(1, 10, d.stall_rounds)
        self.argument_format = QComboBox()
        for value, label in (("auto", "auto: JSON for the embedded model, else text"), ("text", "streaming text"),
                             ("json", "JSON with constrained citations")):
            self.argument_format.addItem(label, value)
        self.argument_format.setCurrentIndex(max(0, self.argument_format.findData(d.argument_format)))
        self.hierarchy = QLineEdit("; ".join(d.evidence_hierarchy))
        self.hierarchy.setToolTip("Evidence levels, strongest first, separated by ;")
        form.addRow("Minimum rounds:", self.min_rounds)
        form.addRow("Round limit:", self.max_rounds)
        form.addRow("Verdict at confidence:", self.threshold)
        form.addRow("Role switches at most:", self.max_switches)
        form.addRow("Model queries per turn:", self.queries)
        form.addRow("Novelty of new evidence:", self.novelty)
        form.addRow("Stall after rounds:", self.stall_rounds)
        form.addRow("Argument format:", self.argument_format)
        form.addRow("Evidence hierarchy:", self.hierarchy)
        self.tabs.addTab(debate, "Debate")

        # library and data
        lib = self.config.library
        library = QWidget()
        form = QFormLayout(library)
        self.data_dir = QLineEdit(str(data_dir))
        self.data_dir.setObjectName("dataDir")
        browse = push_button("Browse\u2026", slot=self._browse_data)
        self.chunk_tokens = _spin(32, 2000, lib.chunk_tokens, 10)
        self.overlap = _spin(0, 500, lib.overlap_tokens, 5)
        self.embed_batch = _spin(1, 1024, lib.embed_batch, 8)
        embedding = QLabel(f"{lib.embedding_model} (change it in the settings file, then re-index everything)")
        embedding.setWordWrap(True)
        form.addRow("Data folder:", _row(self.data_dir, browse))
        form.addRow("Embedding model:", embedding)
        form.addRow("Passage size (tokens):", self.chunk_tokens)
        form.addRow("Overlap (tokens):", self.overlap)
        form.addRow("Embedding batch:", self.embed_batch)
        note = QLabel("Passage sizes apply to documents added or re-indexed from now on.")
        note.setWordWrap(True)
        form.addRow(note)
        self.tabs.addTab(library, "Library && data")

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
        self.resize(760, 620)

    # ---------------------------------------------------------------- building the config
    def models_settings(self) -> ModelSettings:
        default = self.editors["default"].spec(self.config.models.default)
        values = {"default": default}
        for role in ROLES:
            editor = self.editors[role]
            values[role] = None if editor.inherits() else editor.spec(default)
        return ModelSettings(**values)

    def build_config(self) -> AppConfig:
        """The edited settings, validated. Raises ValueError (pydantic's ValidationError) on a bad combination."""
        retrieval = self.config.retrieval.model_dump()
        retrieval.update(k=self.k.value(), candidates=self.candidates.value(), fusion=self.fusion.currentData(),
                         bm25_weight=round(self.bm25_weight.value(), 2), vector_weight=round(self.vector_weight.value(), 2),
                         reranker=self.reranker.currentText().strip() or "none",
                         dedup_similarity=round(self.dedup.value(), 2))
        debate = self.config.debate.model_dump()
        levels = [level.strip() for level in self.hierarchy.text().split(";") if level.strip()]
        debate.update(min_rounds=self.min_rounds.value(), max_rounds=self.max_rounds.value(),
                      confidence_threshold=round(self.threshold.value(), 2), max_switches=self.max_switches.value(),
                      queries_per_turn=self.queries.value(), novelty_min=round(self.novelty.value(), 2),
                      stall_rounds=self.stall_rounds.value(), argument_format=self.argument_format.currentData(),
                      evidence_hierarchy=levels or self.config.debate.evidence_hierarchy)
        if debate["min_rounds"] > debate["max_rounds"]:
            raise ValueError("the minimum rounds exceed the round limit")
        library = self.config.library.model_dump()
        library.update(chunk_tokens=self.chunk_tokens.value(), overlap_tokens=self.overlap.value(),
                       embed_batch=self.embed_batch.value())
        if library["overlap_tokens"] >= library["chunk_tokens"]:
            raise ValueError("the overlap must be smaller than the passage size")
        return AppConfig.model_validate({
            "schema_version": self.config.schema_version, "library": library, "retrieval": retrieval,
            "models": self.models_settings().model_dump(), "debate": debate,
        })

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
            self.error.setText(f"Not applied: {_first_error(exc)}")
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
        r, d, lib = config.retrieval, config.debate, config.library
        for box, value in ((self.k, r.k), (self.candidates, r.candidates), (self.bm25_weight, r.bm25_weight),
                           (self.vector_weight, r.vector_weight), (self.dedup, r.dedup_similarity),
                           (self.min_rounds, d.min_rounds), (self.max_rounds, d.max_rounds),
                           (self.threshold, d.confidence_threshold), (self.max_switches, d.max_switches),
                           (self.queries, d.queries_per_turn), (self.novelty, d.novelty_min),
                           (self.stall_rounds, d.stall_rounds), (self.chunk_tokens, lib.chunk_tokens),
                           (self.overlap, lib.overlap_tokens), (self.embed_batch, lib.embed_batch)):
            box.setValue(value)
        self.fusion.setCurrentIndex(max(0, self.fusion.findData(r.fusion)))
        self.reranker.setCurrentText(r.reranker)
        self.argument_format.setCurrentIndex(max(0, self.argument_format.findData(d.argument_format)))
        self.hierarchy.setText("; ".join(d.evidence_hierarchy))

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
        task.add_done_callback(lambda _t: self.test_button.setEnabled(True))
        return task

    def _on_doctor_rows(self, rows: list) -> None:
        self.doctor_model.set_rows(rows)
        failed = [r for r in rows if r.ok is False]
        self.test_status.setText(f"{len(failed)} check{'s' if len(failed) != 1 else ''} failed: fix them in order."
                                 if failed else "All checks passed.")

    def _on_error(self, title: str, message: str, fix: str) -> None:
        text = f"{title}: {message}" + (f" ({fix})" if fix else "")
        current = self.role_tabs.currentWidget()
        if title.startswith("Listing") and isinstance(current, RoleEditor):
            current.status.setText(text)
        else:
            self.test_status.setText(text)


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
        except (IndexError, KeyError, TypeError):
            pass
    return str(exc)
