"""Zotero's local API: the read-only HTTP API that Zotero 7 serves on this computer (http://127.0.0.1:23119/api/) while
it runs, once the user allows it (Settings -> Advanced -> "Allow other applications on this computer to communicate
with Zotero"; until then it answers 403). It speaks the web API's JSON: items, collections, pages of at most 100 with
a Total-Results header; an attachment's file is named by a file:// link (``links.enclosure``, or the redirect of
``/items/KEY/file``).

Our own client, on httpx (already a dependency), rather than pyzotero: pyzotero 1.16 fixes the local API's address
(127.0.0.1:23119, so neither a user with another port nor a test's fake could be reached without patching it), and
brings feedparser, bibtexparser and whenever with it for the five GET requests this needs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import httpx

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.zotero.items import Attachment, ZoteroItem, year_of

DEFAULT_URL = "http://127.0.0.1:23119/api"
PAGE = 100
ALLOW = ("in Zotero: Settings -> Advanced -> tick 'Allow other applications on this computer to communicate with "
         "Zotero'")


class ZoteroUnavailable(LibraryError):
    """The local API cannot be reached (Zotero is not running) or refuses (not allowed)."""


def file_path(url: str | None) -> Path | None:
    if not url or not url.startswith("file:"):
        return None
    parsed = urlparse(url)
    path = unquote(parsed.path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///C:/... on Windows
        path = path[1:]
    return Path(path)


class LocalApi:
    def __init__(self, url: str = DEFAULT_URL, timeout: float = 10.0, library: str = "users/0"):
        self.url = url.rstrip("/")
        self.library = library
        self._client = httpx.Client(timeout=timeout, trust_env=False)  # loopback: no proxy

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> LocalApi:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- HTTP
    def _get(self, path: str, params: dict[str, Any] | None = None, follow: bool = True) -> httpx.Response:
        address = f"{self.url}/{self.library}/{path}"
        try:
            response = self._client.get(address, params=params, follow_redirects=follow)
        except httpx.TimeoutException as exc:
            raise ZoteroUnavailable(Message("Zotero's local API at {self.url} did not answer in time", self.url),
                                    fix=Message("check that Zotero is running and not busy, then try again")) from exc
        except httpx.HTTPError as exc:
            raise ZoteroUnavailable(
                Message("Zotero's local API at {self.url} cannot be reached ({type(exc).__name__})",
                        self.url, type(exc).__name__),
                fix="start Zotero 7 and allow the local API (" + ALLOW + "), or import its data folder with "
                "--zotero-dir (read-only, works while Zotero is closed)") from exc
        if response.status_code == 403:
            raise ZoteroUnavailable(Message("Zotero's local API at {self.url} refused the request (403)", self.url), fix=ALLOW)
        if response.status_code >= 400 and follow:
            raise ZoteroUnavailable(Message("Zotero's local API answered {response.status_code} for {address}",
                                            response.status_code, address),
                                    fix=Message("update Zotero to version 7 or later, which serves the local API"))
        return response

    def _pages(self, path: str, params: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        start = 0
        while True:
            response = self._get(path, {**(params or {}), "start": start, "limit": PAGE, "format": "json"})
            try:
                rows = response.json()
            except ValueError as exc:
                raise ZoteroUnavailable(Message("Zotero's local API sent something that is not JSON for {path}", path)) from exc
            if not isinstance(rows, list):
                raise ZoteroUnavailable(Message("Zotero's local API sent an unexpected answer for {path}", path))
            yield from (row for row in rows if isinstance(row, dict))
            total = int(response.headers.get("Total-Results", len(rows)) or 0)
            start += len(rows)
            if not rows or start >= total:
                return

    # ---------------------------------------------------------------- reading
    def version(self) -> int | None:
        """The library's version: Zotero raises it with every change (an item added, edited, trashed, moved between
        collections) and sends it as ``Last-Modified-Version``; None when it does not say. Asked with a one-item
        page, so a check costs one small request."""
        header = self._get("items/top", {"limit": 1}).headers.get("Last-Modified-Version", "")
        return int(header) if header.strip().isdigit() else None

    def collections(self) -> dict[str, tuple[str, str | None]]:
        """Collection key -> (name, parent key or None)."""
        found = {}
        for row in self._pages("collections"):
            data = row.get("data", {})
            parent = data.get("parentCollection") or None
            found[str(data.get("key") or row.get("key"))] = (str(data.get("name", "")), parent if parent else None)
        return found

    def items(self, collection: str | None = None) -> list[ZoteroItem]:
        """Every regular item of the library (or of ``collection``, a name: that collection and its subcollections),
        each with its attachments."""
        collections = self.collections()
        names = {key: name for key, (name, _) in collections.items()}
        if collection is None:
            parents = list(self._pages("items/top"))
        else:
            keys = collection_keys(collections, collection)
            seen: dict[str, dict[str, Any]] = {}
            for key in keys:
                for row in self._pages(f"collections/{key}/items/top"):
                    seen.setdefault(str(row.get("key")), row)
            parents = list(seen.values())
        by_parent: dict[str, list[Attachment]] = {}
        for row in self._pages("items", {"itemType": "attachment"}):
            data = row.get("data", {})
            parent = data.get("parentItem")
            if parent:
                by_parent.setdefault(str(parent), []).append(self._attachment(row))
        items = []
        for row in parents:
            data = row.get("data", {})
            if data.get("itemType") in ("attachment", "note", "annotation"):
                continue
            key = str(data.get("key") or row.get("key"))
            library = row.get("library") or {}
            items.append(ZoteroItem(
                key=key, title=str(data.get("title", "")).strip(), creators=tuple(_creator(c) for c in
                                                                                   data.get("creators", [])),
                year=year_of((row.get("meta") or {}).get("parsedDate") or data.get("date")),
                doi=str(data.get("DOI", "")).strip(),
                tags=tuple(str(t.get("tag", "")) for t in data.get("tags", []) if t.get("tag")),
                collections=tuple(names[c] for c in data.get("collections", []) if c in names),
                attachments=tuple(by_parent.get(key, [])),
                group=int(library["id"]) if library.get("type") == "group" and "id" in library else None))
        return items

    def _attachment(self, row: dict[str, Any]) -> Attachment:
        data = row.get("data", {})
        key = str(data.get("key") or row.get("key"))
        href = ((row.get("links") or {}).get("enclosure") or {}).get("href")
        path = file_path(href)
        if path is None and data.get("linkMode") in ("imported_file", "imported_url", "linked_file"):
            response = self._get(f"items/{key}/file", follow=False)  # a redirect to the file:// URL
            path = file_path(response.headers.get("Location"))
        return Attachment(key=key, path=path, content_type=str(data.get("contentType", "")))


def _creator(creator: dict[str, Any]) -> str:
    if creator.get("name"):
        return str(creator["name"]).strip()
    last, first = str(creator.get("lastName", "")).strip(), str(creator.get("firstName", "")).strip()
    return f"{last}, {first}" if first else last


def collection_keys(collections: dict[str, tuple[str, str | None]], name: str) -> list[str]:
    """The keys of the collections named ``name`` (case-insensitively) and of all their subcollections; LibraryError
    naming the collections there are when none is."""
    roots = [key for key, (title, _) in collections.items() if title.casefold() == name.strip().casefold()]
    if not roots:
        known = ", ".join(sorted(title for title, _ in collections.values())) or "none"
        raise LibraryError(Message("no Zotero collection named {name}", f'{name!r}'), fix=Message("the collections are: {known}", known))
    keys, queue = [], list(roots)
    while queue:
        key = queue.pop()
        if key in keys:
            continue
        keys.append(key)
        queue.extend(child for child, (_, parent) in collections.items() if parent == key)
    return keys
