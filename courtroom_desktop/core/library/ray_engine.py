"""Ingest on Ray (``courtroom ingest --engine ray [--address ADDR]``): files are read (OCR included), chunked and
embedded by a pool of Ray actors, one per worker CPU, each holding the embedding model once; the process that asked
stores what they return through the library's one writer (under the commit lock on object storage).

Why actors and not one task per file: a task would load the embedding model for every file (seconds each); an actor
loads it once. Why the workers do not write: a write is the step that must happen exactly once, so it happens in one
place; a worker does pure work, which Ray may simply do again. An actor killed mid-file (its process gone, its node
lost) is restarted by Ray and the file asked of it again (``max_restarts``, ``max_task_retries``); nothing was
written for that file, so nothing is lost and nothing stored twice. A file that fails every retry is reported failed
with Ray's reason, like any unreadable file.

The vectors a worker returns go into the catalog's embedding cache, keyed by the embedder's identity (the worker's
must equal the library's: checked first), so that storing, here, finds every vector there and embeds nothing again.
The files travel to the workers as bytes through Ray's object store: a cluster needs no shared file system.

Without an address a local Ray instance is started with this machine's CPUs (``--workers`` of them); with one,
the workers of that cluster, which must have this package installed (docs/scale.md).
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import ConfigError, IngestError, LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.embed.embedder import Embedder, embedding_text, make_embedder
from courtroom_desktop.core.library.files import CancelToken, kind_of
from courtroom_desktop.core.library.read.ocr import OcrOptions
from courtroom_desktop.core.library.store.catalog import text_key
from courtroom_desktop.core.library.store.handoff import Prepared, PreparingLibrary
from courtroom_desktop.core.library.store.storing import EventSink
from courtroom_desktop.core.records import FileProgress, FileStarted, IngestStage

log = logging.getLogger(__name__)


def prepare_bytes(name: str, data: bytes, sha: str, path: str, settings: LibrarySettings,
                  embedder: Any) -> tuple[Prepared, np.ndarray]:
    """One file's whole preparation, on a worker: read (OCR by the settings), chunk, embed. The file arrives as
    bytes and is read from a temporary copy; ``path`` is its name in the library."""
    seconds = {"extract": 0.0, "ocr": 0.0, "chunk": 0.0, "embed": 0.0}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="courtroom-ray-") as folder:
        local = Path(folder) / name
        local.write_bytes(data)
        try:
            if kind_of(local) != "pdf":
                from courtroom_desktop.core.library.read.text_files import read_text_file

                doc = read_text_file(local)
            else:
                from courtroom_desktop.core.library.read.extract import extract

                doc = extract(local, ocr=OcrOptions(mode=settings.ocr, dpi=settings.ocr_dpi,
                                                    page_timeout_s=settings.ocr_page_timeout_s, threads=1))
        except IngestError as exc:
            return Prepared(Path(path), sha, error=exc.reason), np.zeros((0, 0), np.float32)
    doc.path = path
    seconds["ocr"] = min(doc.ocr_seconds, time.perf_counter() - began)
    seconds["extract"] = time.perf_counter() - began - seconds["ocr"]
    began = time.perf_counter()
    chunks = chunk_document(doc, sha[:16], settings.chunk_tokens, settings.overlap_tokens, settings.min_section_tokens)
    seconds["chunk"] = time.perf_counter() - began
    if not chunks:
        error = Message("no text found in the PDF") if kind_of(local) == "pdf" else Message("no text found in the file")
        return Prepared(Path(path), sha, error=error), np.zeros((0, 0), np.float32)
    began = time.perf_counter()
    texts = [embedding_text(doc.title, c) for c in chunks]
    batch = max(settings.embed_batch, 1)
    vectors = np.concatenate([embedder.encode(texts[i:i + batch]) for i in range(0, len(texts), batch)])
    seconds["embed"] = time.perf_counter() - began
    return Prepared(Path(path), sha, doc=doc, chunks=chunks, seconds=seconds), vectors.astype(np.float32)


class _Preparer:
    """A Ray actor: the embedding model loaded once, files prepared one at a time."""

    def __init__(self, settings_json: str):
        import os

        os.environ.setdefault("OMP_NUM_THREADS", "1")  # one CPU per actor: Ray gives each one
        self.settings = LibrarySettings.model_validate_json(settings_json)
        self.embedder = make_embedder(self.settings, Embedder)

    def identity(self) -> str:
        identity: str = self.embedder.identity
        return identity

    def prepare(self, name: str, data: bytes, sha: str, path: str) -> tuple[Prepared, np.ndarray]:
        return prepare_bytes(name, data, sha, path, self.settings, self.embedder)


@dataclass
class RayEngine:
    """``address``: a Ray cluster ('auto', 'ray://host:10001', 'host:6379'); None starts a local instance.
    ``workers``: actors (default: the cluster's CPUs). ``in_flight``: files asked of each actor at once."""

    address: str | None = None
    workers: int | None = None
    max_retries: int = 3
    in_flight: int = 2

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError:
            raise ConfigError(Message("--engine ray needs Ray: pip install 'courtroom-desktop[scale]' (make test "
                                      "installs it)")) from None
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "configure_logging": False}
            if self.address:
                ray.init(address=self.address, **options)
            else:
                ray.init(num_cpus=self.workers or None, **options)
        return ray

    def prepare(self, library: PreparingLibrary, files: list[Path], emit: EventSink, cancel: CancelToken,
                force: bool) -> Iterator[Prepared]:
        ray = self._ray()
        count = self.workers or max(int(ray.cluster_resources().get("CPU", 1)), 1)
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=self.max_retries)(_Preparer)
        actors = [actor.remote(library.settings.model_dump_json()) for _ in range(count)]
        try:
            identity = library.embedder.identity
            theirs = set(ray.get([a.identity.remote() for a in actors]))
            if theirs != {identity}:
                raise LibraryError(Message("the Ray workers embed with {', '.join(sorted(theirs))} but the "
                                           "library's vectors are {identity}: the workers build their embedder from "
                                           "library.embedder and embedding_model, which must name the library's",
                                           ', '.join(sorted(theirs)), identity))
            yield from self._run(ray, actors, library, files, emit, cancel, force, identity)
        finally:
            for a in actors:
                ray.kill(a)

    def _run(self, ray: Any, actors: list[Any], library: PreparingLibrary, files: list[Path], emit: EventSink,
             cancel: CancelToken, force: bool, identity: str) -> Iterator[Prepared]:
        from ray.exceptions import RayError

        pending: dict[Any, tuple[Path, str, int, bytes]] = {}
        load = [0] * len(actors)
        queue = list(enumerate(files))
        while queue or pending:
            while queue and not cancel.cancelled and min(load) < self.in_flight:
                index, path = queue.pop(0)
                emit(FileStarted(path=str(path), index=index, files=len(files)))
                try:  # read once: its hash, the bytes the worker gets, and a shared library's stored copy
                    data = path.read_bytes()
                except OSError as exc:
                    yield Prepared(path, "", error=Message("cannot read the file ({exc.strerror})", exc.strerror))
                    continue
                sha, done = library.triage(path, force, hashlib.sha256(data).hexdigest())
                if done is not None:
                    yield done
                    continue
                slot = load.index(min(load))
                ref = actors[slot].prepare.remote(path.name, data, sha, str(path))
                pending[ref] = (path, sha, slot, data)
                load[slot] += 1
            if cancel.cancelled:
                for ref in pending:
                    ray.cancel(ref)  # a queued call is dropped; a running one ends with its actor (finally)
                for path, sha, _, _ in pending.values():
                    yield Prepared(path, sha, error="cancelled")
                return
            if not pending:
                continue
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in ready:
                path, sha, slot, data = pending.pop(ref)
                load[slot] -= 1
                try:
                    item, vectors = ray.get(ref)
                except RayError as exc:
                    yield Prepared(path, sha, error=Message("the Ray worker failed {times} times ({problem})",
                                                            self.max_retries + 1,
                                                            f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"))
                    continue
                if item.storable:  # a shared library keeps the bytes read above: the writer reads no file
                    library.keep_file(path, sha, data)
                if item.storable and item.chunks:
                    texts = [embedding_text(item.doc.title, c) for c in item.chunks]
                    library.catalog.cache_vectors(identity, [(text_key(t), v) for t, v in zip(texts, vectors)])
                    pages = item.doc.pages
                    emit(FileProgress(path=str(path), stage=IngestStage.chunk, pages_done=pages, pages=pages,
                                      chunks=len(item.chunks)))
                yield item


def shutdown() -> None:
    """Stop the local Ray instance this process started (tests, the end of a CLI run)."""
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
