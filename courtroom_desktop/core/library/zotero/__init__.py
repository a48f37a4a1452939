"""A Zotero library as the court's library: its items' PDFs with their metadata, kept in step on each import.

    read_zotero(collection=None, url=None, folder=None) -> (items, where they were read)
    import_items(library, items, scope_of(collection), on_event, cancel) -> ZoteroImport
    imported_scopes(library) -> the scopes imported so far (what a sync brings in step again)
    library_version(url=None) -> Zotero's library version (it grows with every change), None when not running
    folder_version(folder=None) -> what changes with the data folder's database (its files' times and sizes)

Zotero's local API is asked first (Zotero 7, running, with the local API allowed); when it cannot be reached, the data
folder is read instead (copied first; never written). ``folder`` reads a data folder without asking the API."""

from __future__ import annotations

from pathlib import Path

from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.zotero.data_folder import default_folder, read_folder
from courtroom_desktop.core.library.zotero.items import Attachment, SourceRecord, ZoteroItem, citation
from courtroom_desktop.core.library.zotero.local_api import DEFAULT_URL, LocalApi, ZoteroUnavailable
from courtroom_desktop.core.library.zotero.sync import (
    WHOLE_LIBRARY,
    ZoteroImport,
    collection_of,
    import_items,
    imported_scopes,
    scope_of,
)

__all__ = ["DEFAULT_URL", "WHOLE_LIBRARY", "Attachment", "LocalApi", "SourceRecord", "ZoteroImport", "ZoteroItem",
           "ZoteroUnavailable", "citation", "collection_of", "default_folder", "import_items", "imported_scopes",
           "folder_version", "library_version", "read_folder", "read_zotero", "scope_of"]


def read_zotero(collection: str | None = None, url: str | None = None,
                folder: str | Path | None = None) -> tuple[list[ZoteroItem], str]:
    """The items of the Zotero library (or of one collection and its subcollections) and where they were read:
    the local API at ``url`` (default: Zotero's own address), else, when it cannot be reached and no ``url`` was
    named, the default data folder; ``folder``: that data folder only."""
    if folder is not None:
        return read_folder(Path(folder), collection), Message("the Zotero data folder {folder}", folder)
    try:
        with LocalApi(url or DEFAULT_URL) as api:
            return api.items(collection), Message("Zotero's local API at {api.url}", api.url)
    except ZoteroUnavailable as exc:
        fallback = default_folder()
        if url is not None or not (fallback / "zotero.sqlite").is_file():
            raise
        items = read_folder(fallback, collection)
        return items, Message("the Zotero data folder {fallback} ({exc})", fallback, exc)


def library_version(url: str | None = None) -> int | None:
    """The Zotero library's version from its local API (``LocalApi.version``); None when Zotero is not running or
    does not say: then nothing can tell a change but an import."""
    try:
        with LocalApi(url or DEFAULT_URL, timeout=3.0) as api:
            return api.version()
    except ZoteroUnavailable:
        return None


def folder_version(folder: str | Path | None = None) -> str | None:
    """What changes whenever Zotero writes its database in the data folder (default: the one an import falls back
    to): the modification times and sizes of ``zotero.sqlite`` and its journal, as text; None without a database.
    For telling a change while the local API does not answer (Zotero closed, or its local API not allowed, as it
    is out of the box): only Zotero writes that database, so an unchanged one needs no import."""
    where = Path(folder) if folder is not None else default_folder()
    parts = []
    for name in ("zotero.sqlite", "zotero.sqlite-wal", "zotero.sqlite-journal"):
        try:
            stat = (where / name).stat()
        except OSError:
            if name == "zotero.sqlite":
                return None
            continue
        parts.append(f"{name}:{stat.st_mtime_ns}:{stat.st_size}")
    return " ".join(parts)
