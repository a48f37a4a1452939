"""Zotero's data folder, read while Zotero is closed: ``zotero.sqlite`` (copied first, with its write-ahead log when
there is one: the folder is never written to, and a running Zotero's lock does not stop the read) and ``storage/``,
where each stored attachment sits in a folder named by its key. Items in the trash are left out.

The tables read are Zotero's own (items, itemTypes, itemData/itemDataValues/fields, creators/itemCreators,
tags/itemTags, collections/collectionItems, itemAttachments, deletedItems, libraries/groups)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.zotero.items import Attachment, ZoteroItem, year_of
from courtroom_desktop.core.library.zotero.local_api import collection_keys
from courtroom_desktop.core.records import Notice

SKIPPED_TYPES = ("attachment", "note", "annotation")


def default_folder() -> Path:
    """Where Zotero keeps its data unless told otherwise: ~/Zotero on every platform."""
    return Path(os.environ.get("ZOTERO_DATA_DIR", "") or Path.home() / "Zotero")


def read_folder(folder: Path, collection: str | None = None) -> list[ZoteroItem]:
    folder = Path(folder).expanduser()
    database = folder / "zotero.sqlite"
    if not database.is_file():
        raise LibraryError(Message("{folder} is not a Zotero data folder (no zotero.sqlite in it)", folder),
                           fix=Message("point --zotero-dir at the folder Zotero shows under Settings -> Advanced -> "
                                       "Files and Folders -> Data Directory Location"))
    with tempfile.TemporaryDirectory(prefix="courtroom-zotero-") as tmp:
        copy = Path(tmp) / "zotero.sqlite"
        try:
            shutil.copyfile(database, copy)
            for suffix in ("-wal", "-journal"):
                if (folder / f"zotero.sqlite{suffix}").is_file():
                    shutil.copyfile(folder / f"zotero.sqlite{suffix}", Path(tmp) / f"zotero.sqlite{suffix}")
        except OSError as exc:
            raise LibraryError(Message("cannot copy {database}: {exc}", database, exc),
                               fix=Message("check that the file can be read")) from exc
        db = sqlite3.connect(copy)
        try:
            return _items(db, folder, collection)
        except sqlite3.DatabaseError as exc:
            raise LibraryError(Message("{database} cannot be read as a Zotero database: {exc}", database, exc),
                               fix=Message("open Zotero once so it repairs or upgrades its database, then try again")) from exc
        finally:
            db.close()


def _items(db: sqlite3.Connection, folder: Path, collection: str | None) -> list[ZoteroItem]:
    deleted = {row[0] for row in db.execute("SELECT itemID FROM deletedItems")} if _has(db, "deletedItems") else set()
    collections = {row[0]: (row[1], row[2], row[3]) for row in db.execute(
        "SELECT collectionID, collectionName, parentCollectionID, key FROM collections")}
    by_key = {key: (name, collections[parent][2] if parent in collections else None)
              for _, (name, parent, key) in collections.items()}
    wanted: set[int] | None = None
    if collection is not None:
        chosen = set(collection_keys(by_key, collection))
        ids = [cid for cid, (_, _, key) in collections.items() if key in chosen]
        wanted = {row[0] for cid in ids for row in db.execute(
            "SELECT itemID FROM collectionItems WHERE collectionID = ?", (cid,))}
    groups = {row[0]: row[1] for row in db.execute("SELECT libraryID, groupID FROM groups")} if _has(db, "groups") else {}
    rows = db.execute("SELECT i.itemID, i.key, t.typeName, i.libraryID FROM items i "
                      "JOIN itemTypes t ON t.itemTypeID = i.itemTypeID").fetchall()
    fields: dict[int, dict[str, str]] = {}
    for item_id, name, value in db.execute(
            "SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID "
            "JOIN itemDataValues v ON v.valueID = d.valueID"):
        fields.setdefault(item_id, {})[name] = str(value)
    creators: dict[int, list[str]] = {}
    for item_id, first, last, mode in db.execute(
            "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode FROM itemCreators ic "
            "JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex"):
        name = (last or "").strip() if mode == 1 or not first else f"{(last or '').strip()}, {first.strip()}"
        creators.setdefault(item_id, []).append(name)
    tags: dict[int, list[str]] = {}
    for item_id, name in db.execute("SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID"):
        tags.setdefault(item_id, []).append(name)
    in_collections: dict[int, list[str]] = {}
    for item_id, cid in db.execute("SELECT itemID, collectionID FROM collectionItems"):
        if cid in collections:
            in_collections.setdefault(item_id, []).append(collections[cid][0])
    keys = {item_id: key for item_id, key, _, _ in rows}
    attachments: dict[int, list[Attachment]] = {}
    for item_id, parent, mode, content_type, path in db.execute(
            "SELECT itemID, parentItemID, linkMode, contentType, path FROM itemAttachments"):
        if parent is None or item_id in deleted or item_id not in keys:
            continue
        attachments.setdefault(parent, []).append(
            Attachment(key=keys[item_id], path=_attachment_path(folder, keys[item_id], mode, path),
                       content_type=content_type or ""))
    retracted = _retracted(db)
    items = []
    for item_id, key, kind, library_id in rows:
        if kind in SKIPPED_TYPES or item_id in deleted or (wanted is not None and item_id not in wanted):
            continue
        data = fields.get(item_id, {})
        items.append(ZoteroItem(
            key=key, title=data.get("title", "").strip(), creators=tuple(creators.get(item_id, [])),
            year=year_of(data.get("date")), doi=data.get("DOI", "").strip(), tags=tuple(tags.get(item_id, [])),
            collections=tuple(in_collections.get(item_id, [])), attachments=tuple(attachments.get(item_id, [])),
            group=groups.get(library_id), retraction=retracted.get(item_id)))
    return items


def _retracted(db: sqlite3.Connection) -> dict[int, Notice]:
    """Zotero's Retraction Watch flags: the ``retractedItems`` table (itemID, data: JSON with the retraction's date
    and reasons, flag); an item the user chose to keep flagged still counts."""
    if not _has(db, "retractedItems"):
        return {}
    found: dict[int, Notice] = {}
    for item_id, data in db.execute("SELECT itemID, data FROM retractedItems"):
        try:
            info = json.loads(data) if data else {}
        except ValueError:
            info = {}
        reasons = info.get("reasons") if isinstance(info, dict) else None
        found[item_id] = Notice(kind="retraction", date=str(info.get("date", "") if isinstance(info, dict) else "")[:32],
                                reason="; ".join(str(r) for r in reasons)[:300] if isinstance(reasons, list) else "",
                                source="zotero")
    return found


def _attachment_path(folder: Path, key: str, mode: int | None, path: str | None) -> Path | None:
    """Where an attachment's file is: 'storage:NAME' in storage/KEY/ (stored files, modes 0 and 1), an absolute path
    for a linked file (mode 2); a path relative to the base directory ('attachments:...') is not resolved."""
    if not path:
        return None
    if path.startswith("storage:"):
        return folder / "storage" / key / path[len("storage:"):]
    if mode == 2 and not path.startswith("attachments:"):
        candidate = Path(path)
        return candidate if candidate.is_absolute() or sys.platform == "win32" else None
    return None


def _has(db: sqlite3.Connection, table: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is not None
