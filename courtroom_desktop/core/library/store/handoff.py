"""What passes between the two halves of an ingest (``Library.ingest``): a file prepared by the extracting thread
(``Prepared``), the hand-off that holds prepared files until the storing thread takes them in batches (``Handoff``),
a prepared file on its way into the stores (``Entry``), and who may prepare files instead of that thread
(``IngestEngine``: core.library.ray_engine)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from courtroom_desktop.core.library.read.extracted import ExtractedDoc
from courtroom_desktop.core.records import Chunk, Document


@dataclass
class Prepared:
    path: Path
    sha256: str
    doc: ExtractedDoc | None = None
    chunks: list[Chunk] | None = None
    error: str = ""
    seconds: dict[str, float] | None = None

    @property
    def storable(self) -> bool:
        return not self.error and self.doc is not None

    @property
    def weight(self) -> int:
        return len(self.chunks) if self.chunks else 1


@dataclass
class Entry:
    """A prepared file on its way into the stores: its catalog record (status pending), what it replaces."""

    item: Prepared
    record: Document
    previous: list[Document]  # other versions of the same path: removed once this one is ready
    replacing: Document | None  # the catalog's row of the same id (a re-index, or a crash's leftover)
    in_stores: bool  # chunks of this id may be in LanceDB and tantivy already: delete them first

    @property
    def chunks(self) -> list[Chunk]:
        return self.item.chunks or []


class Handoff:
    """Prepared files from the extracting thread to the storing one, held up to ``limit`` chunks (and always at
    least one file), so extraction runs ahead of storing by about a batch without holding many big documents."""

    def __init__(self, limit: int):
        self._items: deque[Prepared | None] = deque()
        self._held, self._limit = 0, limit
        self._changed = threading.Condition()
        self.closed = False

    def close(self) -> None:
        """The storing side is gone (an error): puts return at once, and the producer stops."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def put(self, item: Prepared | None) -> None:
        weight = item.weight if item is not None else 0
        with self._changed:
            while self._items and self._held + weight > self._limit and not self.closed:
                self._changed.wait()
            if self.closed:
                return
            self._items.append(item)
            self._held += weight
            self._changed.notify_all()

    def take(self, budget: int) -> list[Prepared | None]:
        """Wait for one file, then take the files already waiting, up to ``budget`` chunks (the first whatever its
        size); None marks the end. Never waits for more: when storing outpaces extraction, batches stay small."""
        with self._changed:
            while not self._items:
                self._changed.wait()
            taken: list[Prepared | None] = []
            chunks = 0
            while self._items:
                item = self._items[0]
                weight = item.weight if item is not None else 0
                if taken and chunks + weight > budget:
                    break
                self._items.popleft()
                self._held -= weight
                taken.append(item)
                chunks += weight
                if item is None:
                    break
            self._changed.notify_all()
            return taken


class PreparingLibrary(Protocol):
    """What an engine needs of the library it prepares files for (``core.library.Library``)."""

    @property
    def settings(self) -> Any: ...  # LibrarySettings

    @property
    def embedder(self) -> Any: ...  # its identity must be the workers'

    @property
    def catalog(self) -> Any: ...  # the embedding cache the workers' vectors go to

    def triage(self, path: Path, force: bool, sha: str = "") -> tuple[str, Prepared | None]: ...

    def keep_file(self, path: Path, sha: str, data: bytes) -> None:
        """A shared library keeps the file's bytes beside it now (read once by the engine); a local one: nothing."""
        ...


class IngestEngine(Protocol):
    """Who prepares an ingest's files (``Library.ingest(engine=...)``): yields one Prepared per file, in any order,
    after putting their vectors in the catalog's embedding cache."""

    def prepare(self, library: PreparingLibrary, files: list[Path], emit: Callable[[Any], None], cancel: Any,
                force: bool) -> Iterator[Prepared]: ...
