"""The catalog of a library on object storage: its documents and its meta as two Lance tables beside the chunk table
(a SQLite file cannot be shared there), mirrored into this machine's SQLite catalog, which keeps what is this
machine's alone: the embedding cache, the OCR cache, the files that failed here, and the documents this writer has
``pending`` or ``removing``.

The shared table holds only documents that count: a row is written ``ready`` after the document's chunks are in
the chunk table (the commit point of an add), and deleted before its chunks are taken out (the commit point of a
removal), both under the commit lock (core.library.shared.commit_lock). Reads come from the mirror, refreshed from
the shared table at most every ``refresh_s`` seconds (and always under the lock, before a write): each refresh asks
the two tables' versions (one listing each) and reads their rows only when a version moved, so the rows are read once
per version, not once per refresh.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa

from courtroom_desktop.core.library.shared.location import LibraryLocation
from courtroom_desktop.core.library.store.catalog import FIELDS, Catalog, _column
from courtroom_desktop.core.records import DocStatus, Document

DOCUMENTS = "documents"
META = "meta"
DATABASE = "catalog"
SHARED_META = ("vectors_folder", "embedding_model", "embedding_dim", "embedder_settings")
"""The meta every machine must agree on (which vectors, made by which embedder); the rest stays local."""

_TYPES = {"year": pa.int64(), "pages": pa.int64(), "chunks": pa.int64(), "sections": pa.int64(),
          "added_at": pa.float64(), "private": pa.int64()}
DOCUMENT_SCHEMA = pa.schema([pa.field(f, _TYPES.get(f, pa.string()), nullable=f != "id") for f in FIELDS])
META_SCHEMA = pa.schema([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.string())])


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class SharedCatalog(Catalog):
    def __init__(self, path: Path, location: LibraryLocation, refresh_s: float = 2.0):
        super().__init__(path)
        import lancedb

        self.location = location
        self.refresh_s = refresh_s
        self._db_shared = lancedb.connect(location.child(DATABASE), storage_options=location.options)
        self._tables: dict[str, Any] = {}
        self._synced_at = 0.0
        self._versions: tuple[int, int] | None = None  # (documents, meta) as last read into the mirror
        self.reads = 0  # how many times the rows were read (tests: once per version)
        self._sync_lock = threading.Lock()
        self.sync(force=True)

    # ---------------------------------------------------------------- the shared tables
    def _table(self, name: str) -> Any:
        if name not in self._tables:
            names = self._db_shared.list_tables()
            names = getattr(names, "tables", names)
            schema = DOCUMENT_SCHEMA if name == DOCUMENTS else META_SCHEMA
            if name in names:
                self._tables[name] = self._db_shared.open_table(name)
                missing = [f for f in schema if f.name not in self._tables[name].schema.names]
                if missing:  # a table written by an earlier version: the newer columns, empty for its rows
                    try:
                        self._tables[name].add_columns(pa.schema(missing))
                    except Exception:  # noqa: BLE001 - another machine added them at the same moment
                        self._tables[name].checkout_latest()
            else:
                try:
                    self._tables[name] = self._db_shared.create_table(name, schema=schema)
                except Exception:  # noqa: BLE001 - created by another writer at the same moment
                    self._tables[name] = self._db_shared.open_table(name)
        return self._tables[name]

    def _shared_rows(self, name: str) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self._table(name).to_arrow().to_pylist()
        return rows

    def _latest_versions(self) -> tuple[int, int]:
        versions = []
        for name in (DOCUMENTS, META):
            table = self._table(name)
            table.checkout_latest()
            versions.append(int(table.version))
        return versions[0], versions[1]

    def sync(self, force: bool = False) -> bool:
        """Bring the mirror up to the shared tables (at most every ``refresh_s`` unless ``force``); True when the
        ready documents changed. This writer's own ``pending`` and ``removing`` rows are kept."""
        with self._sync_lock:
            if not force and time.monotonic() - self._synced_at < self.refresh_s:
                return False
            versions = self._latest_versions()
            if versions == self._versions:
                self._synced_at = time.monotonic()
                return False
            docs = [{f: row.get(f) for f in FIELDS} for row in self._shared_rows(DOCUMENTS)]
            meta = {r["key"]: r["value"] for r in self._shared_rows(META)}
            before = super().ready_ids()
            with self._lock:
                self._db.execute("BEGIN")
                try:
                    self._db.execute("DELETE FROM documents WHERE status = ?", (DocStatus.ready.value,))
                    self._db.executemany(
                        f"INSERT OR REPLACE INTO documents ({', '.join(FIELDS)}) "
                        f"VALUES ({', '.join('?' * len(FIELDS))})",
                        [tuple(row[f] for f in FIELDS) for row in docs])
                    self._db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                         [(k, v) for k, v in meta.items() if k in SHARED_META])
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            self._synced_at = time.monotonic()
            self._versions = versions
            self.reads += 1
            return super().ready_ids() != before

    def shared_ready_ids(self) -> set[str]:
        """The documents the shared table holds now (not the mirror's view)."""
        table = self._table(DOCUMENTS)
        table.checkout_latest()
        if not table.count_rows():
            return set()
        return set(table.search().select(["id"]).limit(None).to_arrow().column("id").to_pylist())

    def _push(self, doc: Document) -> None:
        row = {f: _column(doc, f) for f in FIELDS}
        row["private"] = int(doc.private)
        data = pa.Table.from_pylist([row], schema=DOCUMENT_SCHEMA)
        (self._table(DOCUMENTS).merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
         .execute(data))

    def _unpush(self, doc_id: str) -> None:
        self._table(DOCUMENTS).delete(f"id = {_quote(doc_id)}")

    # ---------------------------------------------------------------- reads: from the mirror, kept fresh
    def documents(self, status: DocStatus | None = None) -> list[Document]:
        self.sync()
        return super().documents(status)

    def ready_ids(self) -> frozenset[str]:
        self.sync()
        return super().ready_ids()

    # ---------------------------------------------------------------- writes: the commit points go to the table
    def put(self, doc: Document) -> None:
        super().put(doc)
        if doc.status == DocStatus.ready:
            self._push(doc)

    def set_status(self, doc_id: str, status: DocStatus, **fields: object) -> None:
        super().set_status(doc_id, status, **fields)
        if status == DocStatus.ready:
            doc = Catalog.get(self, doc_id)
            if doc is not None:
                self._push(doc)
        elif status == DocStatus.removing:
            self._unpush(doc_id)  # out of the library now; its chunks follow (a crash leaves them to the sweep)

    def set_private(self, doc_id: str, private: bool) -> None:
        super().set_private(doc_id, private)
        doc = Catalog.get(self, doc_id)
        if doc is not None and doc.status == DocStatus.ready:
            self._push(doc)

    def delete(self, doc_id: str) -> None:
        super().delete(doc_id)
        self._unpush(doc_id)

    def forget_local(self, doc_ids: Iterable[str]) -> None:
        """Drop rows from the mirror only (this writer's stuck ``pending`` rows after a crash)."""
        for doc_id in doc_ids:
            Catalog.delete(self, doc_id)

    # ---------------------------------------------------------------- meta
    def set_meta_many(self, values: dict[str, str]) -> None:
        super().set_meta_many(values)
        shared = {k: v for k, v in values.items() if k in SHARED_META}
        if shared:
            data = pa.Table.from_pylist([{"key": k, "value": v} for k, v in shared.items()], schema=META_SCHEMA)
            self._table(META).merge_insert("key").when_matched_update_all().when_not_matched_insert_all().execute(data)

    def set_meta(self, key: str, value: str) -> None:
        self.set_meta_many({key: value})
