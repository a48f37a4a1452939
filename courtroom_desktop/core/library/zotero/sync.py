"""A Zotero library (or one collection of it) brought into the court's library and kept in step with it.

    import_items(library, items, scope, on_event, cancel) -> ZoteroImport

Every item's PDF attachments that are on this computer are ingested as files (unchanged ones are skipped, changed
ones re-read, as any ingest does); each resulting document gets the item's title, authors and year in the catalog,
and a source record (``Catalog.set_source``: the item and attachment keys, the citation, the zotero://select link,
DOI, tags, collections, and the scopes it was imported under). Importing the same scope again removes the documents
whose item, or attachment, has left it (deleted, moved to the trash, taken out of the collection); a document that
another scope still holds stays. An item whose PDF is not on this computer is reported, not an error. Cancelling
keeps what was done and removes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.library.zotero.items import SourceRecord, ZoteroItem
from courtroom_desktop.core.records import DocStatus, IngestFinished

if TYPE_CHECKING:
    from courtroom_desktop.core.library.library import Library
    from courtroom_desktop.core.library.store.storing import EventSink

WHOLE_LIBRARY = "library"


def scope_of(collection: str | None) -> str:
    return WHOLE_LIBRARY if collection is None else f"collection:{collection.strip().casefold()}"


def collection_of(scope: str) -> str | None:
    """The collection a scope was imported from (its name, any case: lookups ignore case); None: the whole library."""
    return None if scope == WHOLE_LIBRARY else scope.removeprefix("collection:")


def imported_scopes(library: Library) -> list[str]:
    """The scopes the library holds documents of (the whole Zotero library, collections), in order: what a
    ``sync`` brings in step again."""
    found: set[str] = set()
    for text in library.catalog.sources().values():
        found.update(SourceRecord.from_json(text).scopes)
    return sorted(found)


@dataclass
class ZoteroImport:
    items: int = 0  # regular items read from Zotero
    pdfs: int = 0  # PDF attachments found on this computer
    added: int = 0
    updated: int = 0
    skipped: int = 0  # unchanged since the last import
    failed: int = 0
    removed: int = 0  # documents whose item or attachment left the scope
    linked: int = 0  # documents that now carry their item's metadata
    missing: list[str] = field(default_factory=list)  # "Title: why" for items with no PDF here
    cancelled: bool = False
    ingest: IngestFinished | None = None  # the ingest's own summary (pages, chunks, seconds, per stage)


def import_items(library: Library, items: list[ZoteroItem], scope: str, on_event: EventSink | None = None,
                 cancel: CancelToken | None = None) -> ZoteroImport:
    cancel = cancel or CancelToken()
    result = ZoteroImport(items=len(items))
    wanted: dict[str, tuple[ZoteroItem, str]] = {}  # file path -> (item, attachment key)
    for item in items:
        pdfs = item.pdfs
        if not pdfs:
            result.missing.append(Message("{item}: no PDF attachment", item.title or item.key))
        for attachment in pdfs:
            if attachment.path is None or not attachment.path.is_file():
                result.missing.append(
                    Message("{item}: its PDF is not on this computer ({path})", item.title or item.key, attachment.path)
                    if attachment.path is not None else
                    Message("{item}: its PDF is not on this computer", item.title or item.key))
                continue
            wanted[str(attachment.path)] = (item, attachment.key)
    result.pdfs = len(wanted)
    finished = library.ingest(sorted(wanted), on_event=on_event, cancel=cancel)
    result.added, result.updated, result.skipped = finished.added, finished.updated, finished.skipped
    result.failed, result.cancelled, result.ingest = finished.failed, finished.cancelled, finished

    catalog = library.catalog
    earlier = {doc_id: SourceRecord.from_json(text) for doc_id, text in catalog.sources().items()}
    # every PDF attachment Zotero still lists, whether or not its file is here this time (one not here is not gone)
    present = {(item.key, a.key) for item in items for a in item.pdfs}
    for path, (item, attachment_key) in wanted.items():
        for doc in catalog.by_path(path):
            if doc.status != DocStatus.ready:
                continue
            before = earlier.get(doc.id)
            scopes = tuple(sorted({*(before.scopes if before else ()), scope}))
            record = SourceRecord(item_key=item.key, attachment_key=attachment_key, title=item.title or doc.title,
                                  authors=item.authors, year=item.year, cite=item.cite, link=item.link, doi=item.doi,
                                  tags=item.tags, collections=item.collections, scopes=scopes)
            library.writer.set_source(doc.id, record.to_json(), (record.title, record.authors, record.year))
            if item.retraction is not None:
                library.writer.set_notice(doc.id, item.retraction)
            result.linked += 1
    if result.cancelled:
        return result
    for doc_id, record in earlier.items():
        if scope not in record.scopes or (record.item_key, record.attachment_key) in present:
            continue
        rest = tuple(s for s in record.scopes if s != scope)
        if rest:  # another scope (the whole library, another collection) still holds it
            library.writer.set_source(doc_id, replace(record, scopes=rest).to_json())
            continue
        library.remove(doc_id)
        library.writer.drop_sources([doc_id])
        result.removed += 1
    return result
