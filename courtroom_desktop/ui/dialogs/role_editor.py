"""One role's model in the settings dialog (``RoleEditor``: provider, base URL, model listed from the server or a
GGUF file, API key, sizes and timeouts), and the small helpers the dialog's editors share."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QWidget

from courtroom_desktop.core.config import ModelSpec
from courtroom_desktop.core.services.export import lexicon
from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.dialogs.fields import FieldEditor, field_editor
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr

PROVIDERS = (("embedded", QT_TRANSLATE_NOOP("", "Embedded (llama.cpp, no server)")), ("ollama", "Ollama"),
             ("openai", QT_TRANSLATE_NOOP("", "OpenAI-compatible server")))
URL_HINTS = {"embedded": QT_TRANSLATE_NOOP("", "not used"), "ollama": "http://localhost:11434", "openai": "http://127.0.0.1:8000/v1"}
BUNDLED_LABEL = QT_TRANSLATE_NOOP("", "(bundled SmolLM2-135M)")  # shown through tr
#: The ModelSpec fields each role's editor shows below its provider, URL, model and key.
ROLE_FIELDS = ("num_ctx", "max_tokens", "temperature", "read_timeout_s", "threads", "gpu_layers")
#: Of those, the ones only the embedded provider (llama.cpp in process) reads.
EMBEDDED_FIELDS = ("threads", "gpu_layers")


def _row(*widgets: QWidget) -> QWidget:
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

    def __init__(self, role: str, spec: ModelSpec, inherits: bool | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.inherit: QCheckBox | None = None
        form = QFormLayout(self)
        if inherits is not None:
            self.inherit = QCheckBox(tr("Use the default model"))
            self.inherit.setChecked(inherits)
            self.inherit.toggled.connect(self._update)
            form.addRow(self.inherit)
        self.provider = QComboBox()
        self.provider.setObjectName(f"provider_{role}")
        for value, label in PROVIDERS:
            self.provider.addItem(tr(label), value)
        self.provider.setCurrentIndex(max(0, self.provider.findData(spec.provider)))
        self.provider.currentIndexChanged.connect(self._update)
        self.base_url = QLineEdit(spec.base_url)
        self.base_url.setObjectName(f"baseUrl_{role}")
        self.model = QComboBox()
        self.model.setObjectName(f"model_{role}")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        named(self.model, tr("Model:"))
        self.set_model_names([], spec.model)
        self.list_button = push_button(tr("List models"), tr("Ask the server which models it has"),
                                       lambda: self.sig_list_requested.emit(self.role), name=f"listModels_{role}")
        self.gguf_button = push_button(tr("Choose GGUF\u2026"), tr("Use any GGUF model file on this computer (llama.cpp "
                                       "runs it in the app; Test checks that it loads)"), self.choose_gguf,
                                       name=f"chooseGguf_{role}")
        self.api_key = QLineEdit()
        self.api_key.setObjectName(f"apiKey_{role}")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(tr("leave empty to keep the stored key"))
        self.api_key.setToolTip(tr("Stored in the operating system's keyring, per server, never in the settings file"))
        self.fields: dict[str, FieldEditor] = {name: field_editor(ModelSpec, name, f"{name}_{role}")
                                               for name in ROLE_FIELDS}
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self._widgets = (self.provider, self.base_url, self.model, self.list_button, self.gguf_button, self.api_key,
                         *(field.widget for field in self.fields.values()))
        self._spec = spec
        form.addRow(tr("Provider:"), self.provider)
        form.addRow(tr("Base URL:"), self.base_url)
        form.addRow(tr("Model:"), _row(self.model, self.list_button, self.gguf_button))
        self.api_key_label = QLabel(tr("API key:"))
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
        value: str = self.provider.currentData()  # one of PROVIDERS' values
        return value

    # whether the role uses the default model: not QObject.inherits(class name), which it hides on this widget (the
    # settings dialog and the tests ask editors this)
    def inherits_role(self) -> bool:
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
            self.model.addItem(tr(BUNDLED_LABEL), "")
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
        return "" if text in (BUNDLED_LABEL, tr(BUNDLED_LABEL)) else text

    def choose_gguf(self, path: str | None = None) -> str:
        """Pick a GGUF file (``path`` given: no file dialog, for tests and scripts); the provider becomes embedded."""
        if path is None:
            start = self.model_value() if self.provider_value() == "embedded" else ""
            path, _ = QFileDialog.getOpenFileName(self, tr("Choose a GGUF model file"), str(Path(start).parent) if start
                                                  else str(Path.home()), tr("GGUF models (*.gguf);;All files (*)"))
        if not path:
            return ""
        self.provider.setCurrentIndex(self.provider.findData("embedded"))
        self.model.setEditText(str(path))
        self.status.setText(tr("{file}: press Test to check that it loads.").format(file=Path(path).name))
        return str(path)

    def spec(self, base: ModelSpec) -> ModelSpec:
        """The edited spec (validated by pydantic; ConfigError-like ValueError on a bad value)."""
        data = base.model_dump()
        data.update(provider=self.provider_value(), base_url=self.base_url.text().strip(), model=self.model_value(),
                    **{name: field.value() for name, field in self.fields.items()})
        return ModelSpec.model_validate(data)

    def typed_key(self) -> str:
        return self.api_key.text().strip() if self.provider_value() == "openai" else ""

    def _update(self, *args: object) -> None:
        if getattr(self, "_shown_provider", None) != self.provider_value():
            self._shown_provider = self.provider_value()
            self.set_model_names([], self.model_value() if self.model.count() else self._spec.model)
        enabled = not self.inherits_role()
        for widget in self._widgets:
            widget.setEnabled(enabled)
        provider = self.provider_value()
        self.base_url.setPlaceholderText(tr(URL_HINTS.get(provider, "")))
        self.base_url.setEnabled(enabled and provider != "embedded")
        self.gguf_button.setVisible(provider == "embedded")
        self.list_button.setVisible(provider != "embedded")
        for name in EMBEDDED_FIELDS:
            self.fields[name].widget.setEnabled(enabled and provider == "embedded")
        openai = provider == "openai"
        self.api_key.setVisible(openai)
        self.api_key_label.setVisible(openai)
        self.key_storage.setVisible(openai)


def _enable(widget: QWidget) -> None:
    """Enable a widget when a task ends, unless the dialog was closed (and the widget deleted) meanwhile."""
    try:
        widget.setEnabled(True)
    except RuntimeError:
        pass


def _first_error(exc: Exception) -> str:
    """Pydantic's first error as 'where: what'; a validator's own message (which names its fields) as it is; in the
    window's language where the core wrote it (a core message)."""
    return say(_first_error_text(exc))


def _first_error_text(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            message = lexicon.of_validation(first)
            return message if message.startswith(where) else lexicon.Message("{field}: {problem}", where, message)
        except (IndexError, KeyError, TypeError):
            pass
    return str(exc)
