"""A Zotero library for tests, two ways: served by a fake of Zotero 7's local API over real HTTP on loopback, and
written as a Zotero data folder (``zotero.sqlite`` with Zotero's own tables, and ``storage/KEY/file.pdf``).

    items = [ZItem("ABCD2345", "A title", [("Smith", "Jane")], "2020-03-15", pdf=path, collections=["Reviews"])]
    with FakeZotero(items, collections) as zotero: ...        # zotero.url -> http://127.0.0.1:PORT/api
    write_data_folder(folder, items, collections)

The fake answers GET /api/users/0/collections, /items/top, /collections/KEY/items/top, /items?itemType=attachment
(pages of ``page`` rows with a Total-Results header, as Zotero does) and /items/KEY/file (a 302 to the file:// URL);
half the attachments name their file in ``links.enclosure`` as Zotero's local API does, the others only through the
redirect. ``forbidden = True`` answers 403, as Zotero does until the user allows other applications. Items and
collections can be changed between requests (``items``, ``collections`` are plain lists)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from testkit.loopback import LoopbackServer


@dataclass
class ZCollection:
    key: str
    name: str
    parent: str | None = None


@dataclass
class ZItem:
    key: str
    title: str
    creators: list[tuple[str, str]] = field(default_factory=list)  # (last, first); first "" for one name
    date: str = ""
    doi: str = ""
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)  # collection keys
    pdf: Path | None = None  # the attachment's file (stored in storage/ATTACHKEY/ in a data folder)
    attachment_key: str = ""
    item_type: str = "journalArticle"
    trashed: bool = False
    retracted: dict | None = None  # Zotero's Retraction Watch data for the item (retractedItems.data), or None

    def __post_init__(self) -> None:
        if self.pdf is not None and not self.attachment_key:
            self.attachment_key = ("P" + self.key)[:8]


class FakeZotero(LoopbackServer):
    url_path = "/api"

    def __init__(self, items: list[ZItem], collections: list[ZCollection] | None = None, page: int = 2):
        super().__init__()
        self.items = items
        self.collections = collections or []
        self.page = page
        self.forbidden = False

    # ---------------------------------------------------------------- JSON as Zotero writes it
    def _item_json(self, item: ZItem) -> dict:
        creators = [{"creatorType": "author", "name": last} if not first else
                    {"creatorType": "author", "lastName": last, "firstName": first} for last, first in item.creators]
        return {"key": item.key, "version": 3, "library": {"type": "user", "id": 0, "name": "My Library"},
                "meta": {"parsedDate": item.date[:10]} if item.date else {},
                "data": {"key": item.key, "version": 3, "itemType": item.item_type, "title": item.title,
                         "creators": creators, "date": item.date, "DOI": item.doi,
                         "tags": [{"tag": t} for t in item.tags], "collections": list(item.collections)}}

    def _attachment_json(self, number: int, item: ZItem) -> dict:
        assert item.pdf is not None
        row = {"key": item.attachment_key, "version": 3, "library": {"type": "user", "id": 0},
               "data": {"key": item.attachment_key, "itemType": "attachment", "parentItem": item.key,
                        "linkMode": "imported_file", "contentType": "application/pdf", "filename": item.pdf.name}}
        if number % 2 == 0:
            row["links"] = {"enclosure": {"type": "application/pdf", "href": item.pdf.resolve().as_uri()}}
        return row

    def version(self) -> int:
        """The library's version as Zotero sends it: it changes whenever an item, its trash state, its collections
        or its PDF change (here: a checksum of what the API would serve)."""
        import zlib

        state = [(self._item_json(i), i.trashed, str(i.pdf)) for i in self.items]
        return zlib.crc32(json.dumps(state, sort_keys=True, default=str).encode())

    def _live(self) -> list[ZItem]:
        return [i for i in self.items if not i.trashed]

    # ---------------------------------------------------------------- HTTP
    def _get(self, h: BaseHTTPRequestHandler) -> None:
        if self.forbidden:
            self._send_text(h, 403, "Local API is not enabled")
            return
        parsed = urlparse(h.path)
        query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
        parts = parsed.path.strip("/").split("/")
        if parts[:3] != ["api", "users", "0"]:
            self._send_json(h, 404, {"error": "not found"})
            return
        rest = parts[3:]
        if rest == ["collections"]:
            rows = [{"key": c.key, "data": {"key": c.key, "name": c.name, "parentCollection": c.parent or False}}
                    for c in self.collections]
        elif rest == ["items", "top"]:
            rows = [self._item_json(i) for i in self._live()]
        elif len(rest) == 4 and rest[0] == "collections" and rest[2:] == ["items", "top"]:
            rows = [self._item_json(i) for i in self._live() if rest[1] in i.collections]
        elif rest == ["items"] and query.get("itemType") == "attachment":
            rows = [self._attachment_json(n, i) for n, i in enumerate(self._live()) if i.pdf is not None]
        elif len(rest) == 3 and rest[0] == "items" and rest[2] == "file":
            found = next((i for i in self._live() if i.attachment_key == rest[1] and i.pdf is not None), None)
            if found is None:
                self._send_json(h, 404, {"error": "not found"})
                return
            h.send_response(302)
            h.send_header("Location", found.pdf.resolve().as_uri())
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        else:
            self._send_json(h, 404, {"error": "not found"})
            return
        start, limit = int(query.get("start", 0)), min(int(query.get("limit", 25)), self.page)
        data = json.dumps(rows[start:start + limit]).encode()
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Total-Results", str(len(rows)))
        h.send_header("Last-Modified-Version", str(self.version()))
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    @staticmethod
    def _send_text(h: BaseHTTPRequestHandler, status: int, text: str) -> None:
        data = text.encode()
        h.send_response(status)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)


# ---------------------------------------------------------------- a data folder
SCHEMA = """
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP, libraryID INT NOT NULL,
    key TEXT NOT NULL, version INT NOT NULL DEFAULT 0);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT);
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, orderIndex));
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, tagID));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT
    DEFAULT NULL, libraryID INT NOT NULL, key TEXT NOT NULL);
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (collectionID, itemID));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT,
    path TEXT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE retractedItems (itemID INTEGER PRIMARY KEY, data TEXT, flag INT DEFAULT 0);
"""
TYPES = {"attachment": 3, "journalArticle": 22, "book": 7, "note": 28, "report": 31}
FIELDS = {"title": 1, "date": 6, "DOI": 26, "url": 13}


def write_data_folder(folder: Path, items: list[ZItem], collections: list[ZCollection] | None = None) -> Path:
    """A Zotero data folder holding ``items`` (their PDFs copied into storage/), written anew each call."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "zotero.sqlite"
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO itemTypes VALUES (?, ?)", [(i, n) for n, i in TYPES.items()])
    db.executemany("INSERT INTO fields VALUES (?, ?)", [(i, n) for n, i in FIELDS.items()])
    db.execute("INSERT INTO libraries VALUES (1, 'user')")
    ids: dict[str, int] = {}
    for number, collection in enumerate(collections or [], start=1):
        ids[collection.key] = number
    for collection in collections or []:
        db.execute("INSERT INTO collections VALUES (?, ?, ?, 1, ?)", (ids[collection.key], collection.name,
                                                                    ids.get(collection.parent or ""), collection.key))
    values: dict[str, int] = {}

    def value(text: str) -> int:
        if text not in values:
            values[text] = len(values) + 1
            db.execute("INSERT INTO itemDataValues VALUES (?, ?)", (values[text], text))
        return values[text]

    next_id = 1
    for item in items:
        item_id, next_id = next_id, next_id + 1
        db.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
                   (item_id, TYPES[item.item_type], item.key))
        for name, text in (("title", item.title), ("date", _sql_date(item.date)), ("DOI", item.doi)):
            if text:
                db.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item_id, FIELDS[name], value(text)))
        for order, (last, first) in enumerate(item.creators):
            creator = db.execute("INSERT INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)",
                                 (first, last, 0 if first else 1)).lastrowid
            db.execute("INSERT INTO itemCreators VALUES (?, ?, 1, ?)", (item_id, creator, order))
        for tag in item.tags:
            db.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (tag,))
            tag_id = db.execute("SELECT tagID FROM tags WHERE name = ?", (tag,)).fetchone()[0]
            db.execute("INSERT INTO itemTags (itemID, tagID) VALUES (?, ?)", (item_id, tag_id))
        for key in item.collections:
            db.execute("INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)", (ids[key], item_id))
        if item.trashed:
            db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        if item.retracted is not None:
            db.execute("INSERT INTO retractedItems (itemID, data) VALUES (?, ?)", (item_id, json.dumps(item.retracted)))
        if item.pdf is not None:
            attachment_id, next_id = next_id, next_id + 1
            db.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
                       (attachment_id, TYPES["attachment"], item.attachment_key))
            db.execute("INSERT INTO itemAttachments VALUES (?, ?, 0, 'application/pdf', ?)",
                       (attachment_id, item_id, f"storage:{item.pdf.name}"))
            stored = folder / "storage" / item.attachment_key / item.pdf.name
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_bytes(item.pdf.read_bytes())
    db.commit()
    db.close()
    return folder


def _sql_date(date: str) -> str:
    """Zotero stores a date as 'YYYY-MM-DD original' (its multipart form)."""
    return f"{date[:10]} {date}" if date else ""
