"""Watched folders: a file added to or changed in a watched folder is ingested, a file removed (or moved away, or
renamed) leaves the library, with the library's own all-or-nothing guarantee (``Library.ingest`` and
``Library.remove``: a kill at any point leaves the catalog, LanceDB and tantivy in agreement, and the next pass
finishes the job).

``FolderWatcher`` runs in its own thread (never the GUI's): first a catch-up pass over each folder (what changed while
nobody watched), then watchfiles' notifications, grouped over ``debounce_ms`` (an editor that saves through a
temporary file and a rename gives one batch). Every batch reconciles the folders it touches:

1. documents whose file is gone from a folder that still exists are removed (a folder that is missing altogether,
   an unplugged drive say, removes nothing);
2. the changed files (in the catch-up pass: every file), and any file of the folder that the library does not list by
   its path (a file copied in, or the survivor of two files with the same content), are ingested: unchanged content
   is skipped by its hash.

Removals come before ingests, so a rename (the same content under a new name) ends with the new path in the library.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from courtroom_desktop.core.library.files import CancelToken, find_files, in_folder_scan

if TYPE_CHECKING:  # for the annotations only: importing this module stays light
    from courtroom_desktop.core.config import AppConfig, LibrarySettings
    from courtroom_desktop.core.library.store.catalog import Catalog
    from courtroom_desktop.core.library.store.storing import EventSink
    from courtroom_desktop.core.library.store.writer import LibraryWriter
    from courtroom_desktop.core.records import Document, IngestFinished


class WatchedLibrary(Protocol):
    """What a pass uses of the library (a ``core.library.Library``): its write lock, its catalog, removing a document
    and ingesting files."""

    @property
    def writer(self) -> LibraryWriter: ...

    @property
    def catalog(self) -> Catalog: ...

    def remove(self, doc_id: str) -> Document: ...

    def ingest(self, paths: Iterable[str], *, on_event: EventSink | None = None, cancel: CancelToken | None = None,
               private: bool | None = None) -> IngestFinished: ...


@dataclass(frozen=True)
class Folder:
    path: Path
    private: bool = False


@dataclass
class WatchReport:
    """What one pass did to the library."""

    folders: list[str] = field(default_factory=list)
    added: int = 0
    updated: int = 0
    removed: int = 0
    failed: int = 0
    missing: list[str] = field(default_factory=list)  # watched folders that do not exist (nothing removed)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    at: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.failed)

    def summary(self) -> str:
        """'notes: 1 added, 2 removed' ('' when nothing changed)."""
        parts = [f"{n} {what}" for n, what in ((self.added, "added"), (self.updated, "updated"),
                                               (self.removed, "removed"), (self.failed, "failed")) if n]
        parts += [f"{m} is missing (nothing removed)" for m in self.missing]
        if not parts:
            return ""
        return f"{', '.join(Path(f).name or f for f in self.folders)}: {', '.join(parts)}"


def folders_of(settings: LibrarySettings) -> list[Folder]:
    """The watched folders of LibrarySettings (or of an AppConfig's ``library``)."""
    return [Folder(Path(f.path).expanduser().resolve(), f.private) for f in settings.watched_folders]


def watching(config: AppConfig, path: str | os.PathLike[str], private: bool = False) -> AppConfig:
    """``config`` (an AppConfig) with ``path`` among its watched folders (its private flag set as given)."""
    from courtroom_desktop.core.config import WatchedFolder

    where = str(Path(path).expanduser().resolve())
    folders = [f for f in config.library.watched_folders if f.path != where]
    folders.append(WatchedFolder(path=where, private=private))
    return config.model_copy(update={"library": config.library.model_copy(update={"watched_folders": folders})})


def unwatching(config: AppConfig, path: str | os.PathLike[str]) -> AppConfig:
    """``config`` without ``path`` among its watched folders (its documents stay in the library)."""
    where = str(Path(path).expanduser().resolve())
    folders = [f for f in config.library.watched_folders if f.path != where]
    return config.model_copy(update={"library": config.library.model_copy(update={"watched_folders": folders})})


def _under(path: str, folder: Path) -> bool:
    return Path(path).is_relative_to(folder)


def reconcile(library: WatchedLibrary, folder: Folder, changed: Iterable[str] | None = None,
              cancel: CancelToken | None = None, on_event: EventSink | None = None,
              report: WatchReport | None = None) -> WatchReport:
    """One pass over ``folder`` (see the module's docstring); ``changed``: paths notified as added or modified, or
    None for a catch-up pass, where every file may have changed (the unchanged ones are skipped by their hash)."""
    report = report or WatchReport()
    report.folders.append(str(folder.path))
    report.at = time.time()
    if not folder.path.is_dir():
        report.missing.append(str(folder.path))
        return report
    with library.writer.lock:  # not while an ingest from the window writes: it holds the same lock
        for doc in library.catalog.documents():
            if _under(doc.path, folder.path) and not (Path(doc.path).is_file() and in_folder_scan(Path(doc.path))):
                library.remove(doc.id)
                report.removed += 1
        failed = dict(library.catalog.failures())
        for path in failed:
            if _under(path, folder.path) and not Path(path).is_file():
                library.catalog.clear_failure(path)
    listed = {d.path for d in library.catalog.documents()}
    present = find_files([folder.path])
    candidates: Iterable[str | Path] = present if changed is None else changed
    wanted = {str(p) for p in candidates if Path(p).is_file() and _under(str(p), folder.path) and in_folder_scan(Path(p))}
    wanted |= {str(p) for p in present if str(p) not in listed and str(p) not in failed}
    if wanted:
        finished = library.ingest(sorted(wanted), on_event=on_event, cancel=cancel, private=True if folder.private else None)
        report.added += finished.added
        report.updated += finished.updated
        report.failed += finished.failed
        report.failures.extend((p, e) for p, e in library.catalog.failures() if p in wanted)
    return report


class FolderWatcher:
    """Keeps ``folders`` in step with ``library`` from a thread of its own; ``on_report(WatchReport)`` after each pass
    that changed something (and after the catch-up pass, whatever it did), ``on_error(message)`` when a pass fails."""

    def __init__(self, library: WatchedLibrary, folders: list[Folder],
                 on_report: Callable[[WatchReport], None] | None = None, on_error: Callable[[str], None] | None = None,
                 debounce_ms: int = 800, on_event: EventSink | None = None):
        self.library = library
        self.folders = list(folders)
        self.on_report = on_report or (lambda report: None)
        self.on_error = on_error or (lambda message: None)
        self.on_event = on_event
        self.debounce_ms = debounce_ms
        self._stop = threading.Event()
        self._cancel = CancelToken()
        self._thread: threading.Thread | None = None
        self.ready = threading.Event()  # set once the catch-up pass is done and notifications are being watched

    def start(self) -> FolderWatcher:
        self._thread = threading.Thread(target=self.run, name="courtroom-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> None:
        """Stop watching; an ingest under way is cancelled (what it finished stays, the rest is rolled back)."""
        self._stop.set()
        self._cancel.cancel()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> None:
        """Catch up, then watch until ``stop()`` (in the calling thread: ``courtroom watch`` runs it in the main one)."""
        import watchfiles

        self._pass({f.path: None for f in self.folders}, always=True)
        existing = [str(f.path) for f in self.folders if f.path.is_dir()]
        if not existing:
            self.ready.set()
            self._stop.wait()
            return
        self.ready.set()
        try:
            for changes in watchfiles.watch(*existing, debounce=self.debounce_ms, stop_event=self._stop,
                                            raise_interrupt=False, ignore_permission_denied=True):
                touched: dict[Path, list[str]] = {}
                for change, path in changes:
                    folder = next((f for f in self.folders if _under(path, f.path)), None)
                    if folder is not None:
                        paths = touched.setdefault(folder.path, [])
                        if change != watchfiles.Change.deleted:
                            paths.append(path)
                if touched and not self._stop.is_set():
                    self._pass(touched)
        except Exception as exc:  # noqa: BLE001 - a watch that breaks is reported, never raised into the app
            if not self._stop.is_set():
                self.on_error(f"watching stopped: {exc}")

    def sync(self) -> WatchReport:
        """One catch-up pass over every folder, in this thread."""
        return self._pass({f.path: None for f in self.folders}, always=True)

    def _pass(self, touched: Mapping[Path, Iterable[str] | None], always: bool = False) -> WatchReport:
        report = WatchReport()
        try:
            for folder in self.folders:
                if folder.path in touched and not self._stop.is_set():
                    reconcile(self.library, folder, touched[folder.path], self._cancel, self.on_event, report)
        except Exception as exc:  # noqa: BLE001 - reported, and the next change tries again
            self.on_error(f"a watched folder could not be brought up to date: {exc}")
            return report
        if report.changed or report.missing or always:
            self.on_report(report)
        return report
