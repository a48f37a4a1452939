"""The embedder in the settings dialog's Library tab: the bundled MiniLM, the bundled multilingual-e5-small, a
sentence-transformers folder, an Ollama server or an OpenAI-compatible one (``library.embedder`` and the fields beside
it, docs/embedders.md), with the server's URL, the model, the languages it reads and, for a server, an API key kept in
the OS keyring. Where the passages would go is said under it (a server on another machine: private documents are
refused).

After OK or Apply with another embedder, :func:`offer_reembed` asks whether to re-embed the library now; the re-embed
runs through the window's library controller (progress and Cancel in the library panel), and searches use the old
vectors until the new ones are complete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from courtroom_desktop.core.config import EMBEDDERS, LibrarySettings
from courtroom_desktop.core.services.library import OLLAMA_URL, describe
from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.dialogs.role_editor import _first_error, _row
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr

if TYPE_CHECKING:
    from courtroom_desktop.ui.controllers.library import LibraryController

FIELDS = ("embedder", "embedding_model", "embedding_url", "embedding_languages")
SUGGESTIONS = {"bundled": ["all-MiniLM-L6-v2"], "multilingual": ["multilingual-e5-small"],
               "crosslingual": ["universal-sentence-encoder-multilingual-3"], "local": [],
               "ollama": ["bge-m3", "nomic-embed-text", "mxbai-embed-large", "all-minilm"],
               "openai": ["text-embedding-3-small", "bge-m3"]}
#: core.config.EMBEDDERS' labels, for lupdate (shown through tr; tests/ui/test_translations.py keeps them equal)
EMBEDDER_WORDS = (QT_TRANSLATE_NOOP("", "Bundled all-MiniLM-L6-v2 (English)"),
                  QT_TRANSLATE_NOOP("", "Bundled multilingual-e5-small (Chinese, English and about 100 languages)"),
                  QT_TRANSLATE_NOOP("", "Bundled Universal Sentence Encoder multilingual (16 languages; best across languages)"),
                  QT_TRANSLATE_NOOP("", "A sentence-transformers folder on this computer"),
                  QT_TRANSLATE_NOOP("", "Ollama (/api/embed)"),
                  QT_TRANSLATE_NOOP("", "OpenAI-compatible server (/v1/embeddings)"))
NOT_USED = QT_TRANSLATE_NOOP("", "not used")
URL_HINTS = {"bundled": NOT_USED, "multilingual": NOT_USED, "crosslingual": NOT_USED, "local": NOT_USED,
             "ollama": OLLAMA_URL, "openai": "http://127.0.0.1:8000/v1"}


class EmbedderEditor(QWidget):
    def __init__(self, settings: LibrarySettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.provider = QComboBox()
        self.provider.setObjectName("embedder")
        for value, label in EMBEDDERS.items():
            self.provider.addItem(tr(label), value)
        self.model = QComboBox()
        self.model.setObjectName("embeddingModel")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        named(self.model, tr("Embedding model"))
        self.browse = push_button(tr("Choose folder\u2026"), tr("A sentence-transformers model folder on this computer"),
                                  self.choose_folder, name="embeddingFolder")
        self.url = QLineEdit()
        self.url.setObjectName("embeddingUrl")
        self.languages = QLineEdit()
        self.languages.setObjectName("embeddingLanguages")
        self.languages.setPlaceholderText(tr("empty: English for the bundled MiniLM, all for any other model"))
        self.languages.setToolTip(tr(LibrarySettings.model_fields["embedding_languages"].description or ""))
        self.api_key = QLineEdit()
        self.api_key.setObjectName("embeddingApiKey")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(tr("leave empty to keep the stored key (or for a server that needs none)"))
        self.api_key.setToolTip(tr("Stored in the operating system's keyring, per server, never in the settings file"))
        self.where = QLabel("")
        self.where.setObjectName("embedderWhere")
        self.where.setWordWrap(True)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(tr("Embedder:"), self.provider)
        form.addRow(tr("Model:"), _row(self.model, self.browse))
        form.addRow(tr("Server URL:"), self.url)
        form.addRow(tr("Languages:"), self.languages)
        self.key_label = QLabel(tr("API key:"))
        form.addRow(self.key_label, self.api_key)
        form.addRow(self.where)
        self.load(settings)
        self.provider.currentIndexChanged.connect(self._provider_changed)
        self.model.currentTextChanged.connect(self._update)
        self.url.textChanged.connect(self._update)

    def load(self, settings: LibrarySettings) -> None:
        self._shown: str = settings.embedder
        self.provider.blockSignals(True)
        self.provider.setCurrentIndex(max(0, self.provider.findData(settings.embedder)))
        self.provider.blockSignals(False)
        self._suggest(settings.embedding_model)
        self.url.setText(settings.embedding_url)
        self.languages.setText(settings.embedding_languages)
        self.api_key.clear()
        self._update()

    def provider_value(self) -> str:
        value: str = self.provider.currentData()  # an EMBEDDERS key
        return value

    def values(self) -> dict[str, str]:
        """The embedder fields as edited (validated with the rest of the config)."""
        return {"embedder": self.provider_value(), "embedding_model": self.model.currentText().strip(),
                "embedding_url": self.url.text().strip() if self.provider_value() in ("ollama", "openai") else "",
                "embedding_languages": self.languages.text().strip()}

    def typed_key(self) -> tuple[str, str]:
        """(server URL, API key typed) for an endpoint with a key typed; ('', '') otherwise."""
        key = self.api_key.text().strip()
        if not key or self.provider_value() not in ("ollama", "openai"):
            return "", ""
        return (self.url.text().strip() or OLLAMA_URL), key

    def choose_folder(self, path: str | None = None) -> str:
        if path is None:
            path = QFileDialog.getExistingDirectory(self, tr("A sentence-transformers model folder"))
        if path:
            self.provider.setCurrentIndex(self.provider.findData("local"))
            self.model.setEditText(str(path))
        return str(path or "")

    def _suggest(self, current: str) -> None:
        self.model.blockSignals(True)
        self.model.clear()
        self.model.addItems(SUGGESTIONS[self.provider_value()])
        self.model.setEditText(current)
        self.model.blockSignals(False)

    def _provider_changed(self) -> None:
        provider = self.provider_value()
        if provider != self._shown:  # the old model name means nothing to the new kind of embedder
            self._suggest(SUGGESTIONS[provider][0] if SUGGESTIONS[provider] else "")
            self._shown = provider
        self._update()

    def _update(self, *args: object) -> None:
        provider = self.provider_value()
        endpoint = provider in ("ollama", "openai")
        self.model.setEnabled(provider not in ("bundled", "multilingual", "crosslingual"))
        self.browse.setVisible(provider == "local")
        self.url.setEnabled(endpoint)
        self.url.setPlaceholderText(tr(URL_HINTS[provider]))
        self.api_key.setVisible(endpoint)
        self.key_label.setVisible(endpoint)
        try:
            settings = LibrarySettings.model_validate({k: v for k, v in self.values().items()
                                                       if v or k == "embedding_url"})
        except ValueError as exc:
            self.where.setText(_first_error(exc))
            return
        from courtroom_desktop.core.services.library import embedder_server

        server = embedder_server(settings)
        if server.local:
            self.where.setText(tr("Passages and queries are embedded by {embedder}, on this computer.").format(
                embedder=say(describe(settings))))
        else:
            self.where.setText(tr("Passages and queries are embedded by {embedder}: another machine receives the "
                                  "text of every passage, so private documents are refused while it is chosen.").format(
                embedder=say(describe(settings))))


def changed(before: LibrarySettings, after: LibrarySettings) -> bool:
    """Another embedder: another model or server, or a backend whose vectors differ (int8; 'torch' and 'onnx' make
    the same vectors)."""
    from courtroom_desktop.core.services.library import identity_of

    return (any(getattr(before, name) != getattr(after, name) for name in FIELDS)
            or identity_of("", before.embedding_backend) != identity_of("", after.embedding_backend))


def offer_reembed(parent: QWidget | None, library_controller: LibraryController | None,
                  settings: LibrarySettings) -> QMessageBox | None:
    """Ask whether to re-embed the library with ``settings``' embedder now (it opens, it does not block: returns
    the box). Yes: the library controller re-embeds (progress and Cancel in the library panel); the old vectors
    serve searches until the new ones are complete."""
    if library_controller is None:
        return None
    documents = len(library_controller.ready_documents())
    box = QMessageBox(QMessageBox.Icon.Question, tr("Re-embed the library?"),
                      tr("The embedder is now {embedder}. The library's {count} documents must be embedded again "
                         "before searches use it; until then, and if you cancel, searches use the current vectors."
                         "\n\nRe-embed now?").format(embedder=say(describe(settings)), count=documents),
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setObjectName("reembedBox")

    def answered(button: QAbstractButton) -> None:
        if box.standardButton(button) == QMessageBox.StandardButton.Yes:
            library_controller.reembed(settings)

    box.buttonClicked.connect(answered)
    box.open()
    return box
