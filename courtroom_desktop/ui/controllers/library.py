"""The library feature: list, ingest (with progress and cancel), re-index and remove documents; write notes, mark
documents private, and keep the watched folders in step (core.library.watch, in its own thread).

``Library.ingest`` blocks, so it runs in a worker thread; its events are handed to the GUI thread with
``loop.call_soon_threadsafe`` and re-emitted as ``sig_ingest_event``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.tasks import call_soon_threadsafe

if TYPE_CHECKING:
    from courtroom_desktop.core.config import AppConfig, LibrarySettings
    from courtroom_desktop.core.records import Document, IngestEvent, IngestFinished, Notice
    from courtroom_desktop.core.services.library import CancelToken, FolderWatcher, WatchReport, ZoteroImport
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController

    EventSink = Callable[[IngestEvent], None]
    #: What a write to the library returns: an ingest's summary, a Zotero import's (and where it was read), or those
    #: of every Zotero scope brought in step again
    WriteResult = IngestFinished | tuple[ZoteroImport, str] | list[tuple[str | None, ZoteroImport, str]]

R = TypeVar("R", bound="WriteResult")

#: How often the window asks Zotero whether its library changed (one small request to its local API)
ZOTERO_CHECK_MS = 5 * 60 * 1000


class LibraryController(Controller):
    sig_documents = Signal(list, list)
    sig_notices = Signal(dict)  # doc id -> its Notice (retraction, correction, expression of concern)
    """(documents: list[Document], failures: list[(path, reason)]) after every change."""
    sig_busy = Signal(bool)
    """True while an ingest or re-index runs (one at a time)."""
    sig_ingest_event = Signal(object)
    """Each ingest event (IngestStarted, FileStarted, FileProgress, FileFinished, IngestFinished), on the GUI thread."""
    sig_watch = Signal(str)
    """A line about the watched folders: how many are watched, and what the last pass did."""
    sig_location = Signal(object, bool)  # where (a core message: an object, so that it is still one when said)
    """(where the library lives, in words; whether it is opened read-only) once it is open."""
    sig_use = Signal(dict)
    """doc id -> its use across the stored trials (core.court.coverage.LibraryUse): cited, never retrieved."""
    sig_zotero = Signal(str)
    """What the last Zotero import did, in a line."""

    def __init__(self, workspace: WorkspaceController, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace
        self._cancel: CancelToken | None = None
        self._busy = False
        self.documents: list[Document] = []
        self.failures: list[tuple[str, str]] = []
        self.last_result: WriteResult | None = None
        self.watcher: FolderWatcher | None = None
        self.watch_line = ""
        self.zotero_url: str | None = None  # Zotero's local API (None: its own address)
        # the Zotero library's version the library is in step with (its data folder's, a str, when the API is silent)
        self.zotero_version: int | str | None = None
        self._zotero_timer: QTimer | None = None
        for name, slot in (("sig_library_ready", self.start_watching), ("sig_library_ready", self._watch_zotero),
                           ("sig_config_applied", self._on_config)):
            signal = getattr(workspace, name, None)  # the window's WorkspaceController; tests may pass less
            if signal is not None:
                signal.connect(slot)

    @property
    def busy(self) -> bool:
        return self._busy

    def ready_documents(self) -> list[Document]:
        return [d for d in self.documents if d.status.value == "ready"]

    # ---------------------------------------------------------------- reading
    def use(self) -> asyncio.Task[None]:
        """Each document's use across the stored trials, read in a thread; ``sig_use`` brings it."""
        return self.tasks.spawn(self._use(), QT_TRANSLATE_NOOP("", "Reading the trials' use of the library"))

    async def _use(self) -> None:
        await self.workspace.library()
        await self.workspace.trials()
        self.sig_use.emit(await asyncio.to_thread(self.workspace.workspace.library.use))

    def refresh(self) -> asyncio.Task[None]:
        return self.tasks.spawn(self._refresh(), QT_TRANSLATE_NOOP("", "Reading the library"))

    async def _refresh(self) -> None:
        await self.workspace.library()
        core = self.workspace.workspace
        def read() -> tuple[list[Document], list[tuple[str, str]], str, bool, dict[str, Notice]]:
            if core.library.location.shared:
                core.library.catch_up()  # others' documents, and an embedder switch another machine made
            return (core.library.documents(), core.library.failures(), core.library.where(),
                    core.library.location.read_only, core.library.notices())

        docs, failures, where, read_only, notices = await asyncio.to_thread(read)
        self.documents, self.failures = list(docs), [(path, why) for path, why in failures]
        self.sig_location.emit(where, read_only)
        self.sig_notices.emit(notices)
        self.sig_documents.emit(self.documents, self.failures)

    # ---------------------------------------------------------------- writing
    def ingest(self, paths: Iterable[str | Path]) -> asyncio.Task[None] | None:
        paths = [str(p) for p in paths]
        if not paths:
            return None
        core = self.workspace.workspace
        return self._write(lambda on_event, cancel: core.library.ingest(paths, on_event=on_event, cancel=cancel),
                           QT_TRANSLATE_NOOP("", "Adding documents"))

    def reindex(self, doc_ids: list[str] | None = None) -> asyncio.Task[None] | None:
        core = self.workspace.workspace
        return self._write(lambda on_event, cancel: core.library.reindex(doc_ids or None, on_event=on_event, cancel=cancel),
                           QT_TRANSLATE_NOOP("", "Re-indexing"))

    def reembed(self, settings: LibrarySettings) -> asyncio.Task[None] | None:
        """Embed the whole library again with ``settings``' embedder (LibrarySettings), with progress and Cancel;
        searches use the current vectors until the new ones are complete."""
        core = self.workspace.workspace
        return self._write(lambda on_event, cancel: core.library.reembed(settings, on_event=on_event, cancel=cancel),
                           QT_TRANSLATE_NOOP("", "Re-embedding the library"))

    def import_zotero(self, collection: str | None = None, folder: str | None = None) -> asyncio.Task[None] | None:
        """A Zotero library, or one collection of it, in and in step (core.library.zotero): its local API, or its
        data folder ``folder``; progress and Cancel as for an ingest, the outcome in ``sig_zotero``."""
        core = self.workspace.workspace
        if folder:
            folder = str(Path(folder).expanduser())

        def work(on_event: EventSink, cancel: CancelToken) -> tuple[ZoteroImport, str]:
            return core.library.import_zotero(collection, None, folder, on_event, cancel)

        return self._write(work, QT_TRANSLATE_NOOP("", "Importing from Zotero"), done=self._zotero_done)

    def _zotero_done(self, outcome: tuple[ZoteroImport, str]) -> None:
        result, where = outcome
        line = tr("Zotero ({where}): {items} items, {linked} documents with their metadata, {added} added, {updated} "
                  "updated, {removed} removed.").format(where=where, items=result.items, linked=result.linked,
                                                        added=result.added, updated=result.updated,
                                                        removed=result.removed)
        if result.missing:
            line += " " + tr("{count} items without a PDF here.").format(count=len(result.missing))
        self.sig_zotero.emit(line)

    # ---------------------------------------------------------------- Zotero, kept in step
    def _watch_zotero(self) -> None:
        """Once the library is open: bring what came from Zotero in step now, then every ZOTERO_CHECK_MS."""
        if self._zotero_timer is None:
            self._zotero_timer = QTimer(self)
            self._zotero_timer.timeout.connect(self.keep_zotero_in_step)
            self._zotero_timer.start(ZOTERO_CHECK_MS)
        self.keep_zotero_in_step()

    def keep_zotero_in_step(self) -> asyncio.Task[None]:
        """If the library holds documents from Zotero and Zotero's library changed since (its version, from the
        local API; when that does not answer, its data folder's database), every scope imported is imported again,
        with progress and Cancel as for an ingest. Nothing is done while the library is busy (the next check tries
        again)."""
        return self.tasks.spawn(self._check_zotero(), QT_TRANSLATE_NOOP("", "Keeping Zotero in step"))

    async def _check_zotero(self) -> None:
        await self.workspace.library()
        url = self.zotero_url
        if self._busy:
            return
        core = self.workspace.workspace
        # in a worker thread, imports included: the Zotero reader brings httpx (0.15 s), which on the window's
        # thread was a 0.3 s stall right after the library opened (bench/ui.py's preload phase)
        version = await asyncio.to_thread(core.library.zotero_version, url)
        if version is None or version == self.zotero_version or self._busy:
            return

        def work(on_event: EventSink, cancel: CancelToken) -> list[tuple[str | None, ZoteroImport, str]]:
            return core.library.sync_zotero(url, None, on_event, cancel)

        def done(outcome: list[tuple[str | None, ZoteroImport, str]]) -> None:
            if all(not (result.failed or result.cancelled) for _, result, _ in outcome):
                self.zotero_version = version
            added = sum(result.added + result.updated for _, result, _ in outcome)
            removed = sum(result.removed for _, result, _ in outcome)
            self.sig_zotero.emit(tr("Zotero changed: the library is in step again ({added} added or updated, "
                                    "{removed} removed).").format(added=added, removed=removed))

        task = self._write(work, QT_TRANSLATE_NOOP("", "Keeping Zotero in step"), done=done)
        if task is not None:
            await task

    def _write(self, work: Callable[[EventSink, CancelToken], R], title: str,
               done: Callable[[R], None] | None = None) -> asyncio.Task[None] | None:
        """Run one write to the library (``title``: its source text, marked for lupdate; shown through tr)."""
        if self._busy:
            self.sig_error.emit(tr(title), tr("the library is busy with another ingest"), tr("wait for it, or cancel it"))
            return None
        from courtroom_desktop.core.services.library import CancelToken

        self._cancel = CancelToken()
        self._set_busy(True)
        return self.tasks.spawn(self._run_write(work, self._cancel, done), title)

    async def _run_write(self, work: Callable[[EventSink, CancelToken], R], cancel: CancelToken,
                         done: Callable[[R], None] | None = None) -> None:
        try:
            await self.workspace.library()  # opened in a thread, with the window's progress
            loop = asyncio.get_running_loop()

            def on_event(event: IngestEvent) -> None:  # worker thread
                call_soon_threadsafe(loop, self._deliver, event)

            result = self.last_result = await asyncio.to_thread(work, on_event, cancel)
            if done is not None:
                done(result)
        finally:
            self._cancel = None
            self._set_busy(False)
            await self._refresh()

    def _deliver(self, event: IngestEvent) -> None:
        self.sig_ingest_event.emit(event)
        if getattr(event, "kind", "") == "file_finished":
            self.refresh()

    def cancel(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    def remove(self, doc_ids: list[str], failure_paths: Iterable[str] = ()) -> asyncio.Task[None] | None:
        if self._busy:
            self.sig_error.emit(tr("Removing documents"), tr("the library is busy with an ingest"), tr("wait for it, or cancel it"))
            return None
        return self.tasks.spawn(self._remove(list(doc_ids), list(failure_paths)),
                                QT_TRANSLATE_NOOP("", "Removing documents"))

    async def _remove(self, doc_ids: list[str], failure_paths: list[str]) -> None:
        await self.workspace.library()
        core = self.workspace.workspace

        def work() -> None:
            core.library.remove(doc_ids, failure_paths)

        self._set_busy(True)
        try:
            await asyncio.to_thread(work)
        finally:
            self._set_busy(False)
            await self._refresh()

    async def shutdown(self, grace_s: float = 30.0) -> None:
        """Cancel an ingest and wait for its thread to notice (it checks between pages and batches), so the stores
        are closed only once nothing writes to them."""
        self.cancel()
        await self.stop_watching()
        try:
            await asyncio.wait_for(self.tasks.wait(), grace_s)
        except TimeoutError:
            await self.tasks.cancel_all()

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.sig_busy.emit(busy)

    # ---------------------------------------------------------------- notes and private documents
    def save_note(self, title: str, text: str, private: bool, path: str | None = None) -> asyncio.Task[None] | None:
        """Write the note (a new one, or the one at ``path``) and add it to the library, with progress like any file."""
        core = self.workspace.workspace
        return self._write(lambda on_event, cancel: core.library.save_note(title, text, path, private, on_event, cancel)[1],
                           QT_TRANSLATE_NOOP("", "Saving the note"))

    def set_private(self, doc_ids: list[str], private: bool) -> asyncio.Task[None]:
        return self.tasks.spawn(self._set_private(list(doc_ids), private), QT_TRANSLATE_NOOP("", "Marking documents private"))

    async def _set_private(self, doc_ids: list[str], private: bool) -> None:
        await self.workspace.library()
        core = self.workspace.workspace
        await asyncio.to_thread(lambda: [core.library.set_private(i, private) for i in doc_ids])
        await self._refresh()

    # ---------------------------------------------------------------- watched folders
    def watch_folder(self, path: str, private: bool = False) -> None:
        """Watch a folder from now on (saved in the settings: library.watched_folders)."""
        from courtroom_desktop.core.services.library import watching

        self.workspace.apply_config(watching(self.workspace.config, path, private))

    def unwatch_folder(self, path: str) -> None:
        from courtroom_desktop.core.services.library import unwatching

        self.workspace.apply_config(unwatching(self.workspace.config, path))

    def _on_config(self, config: AppConfig) -> None:
        folders = [(f.path, f.private) for f in config.library.watched_folders]
        running = [(str(f.path), f.private) for f in self.watcher.folders] if self.watcher is not None else []
        if folders != running:
            self.tasks.spawn(self._restart_watching(), QT_TRANSLATE_NOOP("", "Watching folders"))

    def start_watching(self) -> asyncio.Task[None]:
        return self.tasks.spawn(self._restart_watching(), QT_TRANSLATE_NOOP("", "Watching folders"))

    async def _restart_watching(self) -> None:
        await self.stop_watching()
        await self.workspace.library()  # opened in a thread, once
        loop = asyncio.get_running_loop()
        self.watcher = self.workspace.workspace.library.folder_watcher(
            on_report=lambda report: call_soon_threadsafe(loop, self._on_watch_report, report),
            on_error=lambda message: call_soon_threadsafe(loop, self._set_watch_line,
                                                              tr("Watched folders: {problem}").format(problem=message)))
        if self.watcher is None:
            self._set_watch_line("")
            return
        self._set_watch_line(_watching(len(self.watcher.folders)) + tr(": catching up\u2026"))
        self.watcher.start()

    async def stop_watching(self) -> None:
        watcher, self.watcher = self.watcher, None
        if watcher is not None:
            await asyncio.to_thread(watcher.stop)

    def _on_watch_report(self, report: WatchReport) -> None:
        import time

        count = len(self.watcher.folders) if self.watcher is not None else len(report.folders)
        head = _watching(count)
        summary = _watch_summary(report)
        self._set_watch_line(f"{head} \u00b7 {summary} ({time.strftime('%H:%M', time.localtime(report.at))})"
                             if summary else f"{head} \u00b7 " + tr("up to date"))
        self.refresh()

    def _set_watch_line(self, line: str) -> None:
        self.watch_line = line
        self.sig_watch.emit(line)


def _watch_summary(report: WatchReport) -> str:
    """What a pass of the folder watcher changed (core.library.watch.WatchReport), in the window's language:
    'notes: 1 added, 2 removed' ('' when nothing changed)."""
    parts = [tr(words).format(n=n) for n, words in (
        (report.added, QT_TRANSLATE_NOOP("", "{n} added")), (report.updated, QT_TRANSLATE_NOOP("", "{n} updated")),
        (report.removed, QT_TRANSLATE_NOOP("", "{n} removed")), (report.failed, QT_TRANSLATE_NOOP("", "{n} failed")))
        if n]
    parts += [tr("{folder} is missing (nothing removed)").format(folder=m) for m in report.missing]
    if not parts:
        return ""
    return tr("{folders}: {changes}").format(folders=", ".join(Path(f).name or f for f in report.folders),
                                             changes=tr(", ").join(parts))


def _watching(count: int) -> str:
    """'Watching 1 folder', 'Watching 3 folders', in the window's language."""
    return tr("Watching 1 folder") if count == 1 else tr("Watching {count} folders").format(count=count)
