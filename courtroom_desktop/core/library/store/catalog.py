"""The catalog: one SQLite file that lists documents (and their status) and caches embeddings.

The catalog is the source of truth for "is this document in the library": a document counts only when its
status is ``ready``, which is written after its chunks are in LanceDB and tantivy. The embedding cache is what
lets an interrupted or repeated ingest finish without embedding the same passage twice.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from courtroom_desktop.core.lexicon import message
from courtroom_desktop.core.records import DocStatus, Document, Notice
from courtroom_desktop.core.sqlite import SqliteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL, title TEXT DEFAULT '', authors TEXT DEFAULT '',
    year INTEGER, pages INTEGER DEFAULT 0, chunks INTEGER DEFAULT 0, sections INTEGER DEFAULT 0,
    status TEXT NOT NULL, error TEXT DEFAULT '', added_at REAL NOT NULL, pages_without_text TEXT DEFAULT '',
    pages_ocr TEXT DEFAULT '', kind TEXT DEFAULT 'pdf', private INTEGER DEFAULT 0, added_by TEXT DEFAULT ''
);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS failures (path TEXT PRIMARY KEY, sha256 TEXT, error TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, key TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (model, key));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (doc_id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notices (doc_id TEXT PRIMARY KEY, notice TEXT NOT NULL);
"""
FIELDS = ("id", "path", "sha256", "title", "authors", "year", "pages", "chunks", "sections", "status", "error", "added_at",
          "pages_without_text", "pages_ocr", "kind", "private", "added_by")
PAGE_LISTS = ("pages_without_text", "pages_ocr")  # tuples of page numbers, stored as "2,7"
ADDED_COLUMNS = {"pages_without_text": "TEXT DEFAULT ''", "pages_ocr": "TEXT DEFAULT ''",  # newer than a catalog may be
                 "kind": "TEXT DEFAULT 'pdf'", "private": "INTEGER DEFAULT 0", "added_by": "TEXT DEFAULT ''"}


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class Catalog(SqliteFile):
    SCHEMA = SCHEMA

    # ---------------------------------------------------------------- meta
    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def name_vectors(self, folder: str, identity: str, dim: int, spec: str) -> None:
        """The meta that names the library's vectors (core.library.store.reembed): their folder, the embedder's
        identity and dimension, and the settings that build it, in one transaction."""
        self.set_meta_many({"vectors_folder": folder, "embedding_model": identity, "embedding_dim": str(int(dim)),
                            "embedder_settings": spec})

    def set_meta_many(self, values: dict[str, str]) -> None:
        """Several meta keys in one transaction: all of them, or (an error, a crash) none."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", list(values.items()))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ---------------------------------------------------------------- documents
    def __init__(self, path: Path):
        super().__init__(path)
        with self._lock:
            have = {row[1] for row in self._db.execute("PRAGMA table_info(documents)")}
            for column, kind in ADDED_COLUMNS.items():
                if column not in have:  # a catalog made by an earlier version: add the column, keep every row
                    self._db.execute(f"ALTER TABLE documents ADD COLUMN {column} {kind}")

    def _row(self, row: Sequence[Any]) -> Document:
        values = dict(zip(FIELDS, row))
        for name in PAGE_LISTS:
            values[name] = tuple(int(p) for p in (values[name] or "").split(",") if p)
        values["status"] = DocStatus(values["status"])
        values["authors"] = values["authors"] or ""
        values["error"] = values["error"] or ""
        values["kind"] = values["kind"] or "pdf"
        values["private"] = bool(values["private"])
        values["added_by"] = values["added_by"] or ""
        return Document(**values)

    def documents(self, status: DocStatus | None = None) -> list[Document]:
        sql = f"SELECT {', '.join(FIELDS)} FROM documents"
        args: tuple[str, ...] = ()
        if status is not None:
            sql += " WHERE status = ?"
            args = (status.value,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY added_at, id", args).fetchall()
        return [self._row(r) for r in rows]

    def get(self, doc_id: str) -> Document | None:
        with self._lock:
            row = self._db.execute(f"SELECT {', '.join(FIELDS)} FROM documents WHERE id = ?", (doc_id,)).fetchone()
        return self._row(row) if row else None

    def by_path(self, path: str) -> list[Document]:
        with self._lock:
            rows = self._db.execute(f"SELECT {', '.join(FIELDS)} FROM documents WHERE path = ?", (path,)).fetchall()
        return [self._row(r) for r in rows]

    def put(self, doc: Document) -> None:
        with self._lock:
            self._db.execute(
                f"INSERT OR REPLACE INTO documents ({', '.join(FIELDS)}) VALUES ({', '.join('?' * len(FIELDS))})",
                tuple(_column(doc, f) for f in FIELDS),
            )

    def set_status(self, doc_id: str, status: DocStatus, **fields: object) -> None:
        assignments = ", ".join(f"{k} = ?" for k in ("status", *fields))
        values = [message.dump(v) if k == "error" and isinstance(v, str) else v for k, v in fields.items()]
        with self._lock:
            self._db.execute(f"UPDATE documents SET {assignments} WHERE id = ?", (status.value, *values, doc_id))

    def set_private(self, doc_id: str, private: bool) -> None:
        with self._lock:
            self._db.execute("UPDATE documents SET private = ? WHERE id = ?", (int(private), doc_id))

    def private_ids(self, ids: Iterable[str]) -> frozenset[str]:
        """Which of these documents are private. ``ids`` may be document ids or chunk ids ('<doc id>-0007')."""
        doc_ids = sorted({i if self._is_doc(i) else i.rsplit("-", 1)[0] for i in ids})
        found: set[str] = set()
        with self._lock:
            for start in range(0, len(doc_ids), 500):
                part = doc_ids[start:start + 500]
                rows = self._db.execute(f"SELECT id FROM documents WHERE private != 0 AND id IN "
                                        f"({', '.join('?' * len(part))})", part).fetchall()
                found.update(row[0] for row in rows)
        return frozenset(found)

    def _is_doc(self, ref: str) -> bool:
        return "-" not in ref or self.get(ref) is not None

    def delete(self, doc_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    # ---------------------------------------------------------------- where a document came from
    def set_source(self, doc_id: str, record: str) -> None:
        """The record (JSON, core.library.zotero.items.SourceRecord) of the reference manager a document came
        from: its item, citation and link; kept apart from the document's row, which an ingest rewrites."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO sources (doc_id, record) VALUES (?, ?)", (doc_id, record))

    def sources(self, doc_ids: Iterable[str] | None = None) -> dict[str, str]:
        """Document id -> source record (JSON), for these documents (all when None); documents gone are left out."""
        sql = "SELECT s.doc_id, s.record FROM sources s JOIN documents d ON d.id = s.doc_id"
        if doc_ids is None:
            with self._lock:
                return dict(self._db.execute(sql).fetchall())
        ids = sorted(set(doc_ids))  # a search asks for its hits' documents only: read those rows, not the table
        found: dict[str, str] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                part = ids[start:start + 500]
                found.update(self._db.execute(f"{sql} WHERE s.doc_id IN ({', '.join('?' * len(part))})", part))
        return found

    def set_notice(self, doc_id: str, notice: Notice | None) -> None:
        """A retraction, correction or expression of concern on a document (None: it has none any more)."""
        with self._lock:
            if notice is None:
                self._db.execute("DELETE FROM notices WHERE doc_id = ?", (doc_id,))
            else:
                self._db.execute("INSERT OR REPLACE INTO notices (doc_id, notice) VALUES (?, ?)",
                                 (doc_id, notice.model_dump_json()))

    def notices(self, doc_ids: Iterable[str] | None = None) -> dict[str, Notice]:
        """Document id -> its notice, for these documents (all when None)."""
        with self._lock:
            rows = self._db.execute("SELECT doc_id, notice FROM notices").fetchall()
        wanted = None if doc_ids is None else set(doc_ids)
        return {doc_id: Notice.model_validate_json(notice) for doc_id, notice in rows
                if wanted is None or doc_id in wanted}

    def drop_sources(self, doc_ids: Iterable[str]) -> None:
        with self._lock:
            self._db.executemany("DELETE FROM sources WHERE doc_id = ?", [(d,) for d in doc_ids])

    def set_citation(self, doc_id: str, title: str, authors: str, year: int | None) -> None:
        with self._lock:
            self._db.execute("UPDATE documents SET title = ?, authors = ?, year = ? WHERE id = ?",
                             (title, authors, year, doc_id))

    # ---------------------------------------------------------------- failures (files that never made it in)
    def record_failure(self, path: str, sha256: str, error: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)",
                             (path, sha256, message.dump(error), time.time()))

    def clear_failure(self, path: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM failures WHERE path = ?", (path,))

    def failures(self) -> list[tuple[str, str]]:
        """(path, why) of each file that could not be ingested; the why a core message where the core wrote one."""
        with self._lock:
            rows = self._db.execute("SELECT path, error FROM failures ORDER BY path").fetchall()
        return [(path, message.load(error)) for path, error in rows]

    # ---------------------------------------------------------------- embedding cache
    def cached_vectors(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                rows = self._db.execute(
                    f"SELECT key, vector FROM embeddings WHERE model = ? AND key IN ({', '.join('?' * len(part))})",
                    (model, *part),
                ).fetchall()
                found.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        return found

    def cache_vectors(self, model: str, items: list[tuple[str, np.ndarray]]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT OR REPLACE INTO embeddings (model, key, vector) VALUES (?, ?, ?)",
                [(model, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items],
            )
            self._db.execute("COMMIT")

    def forget_vectors(self, keys: list[str]) -> None:
        with self._lock:
            self._db.executemany("DELETE FROM embeddings WHERE key = ?", [(k,) for k in keys])

    def ready_ids(self) -> frozenset[str]:
        """Ids of ready documents. Every search asks, so: ids only (building each Document record cost tens of ms on
        thousands of documents), and reused while the catalog is unchanged: data_version moves when another
        connection commits, total_changes when this one writes."""
        with self._lock:
            version = (self._db.execute("PRAGMA data_version").fetchone()[0], self._db.total_changes)
            cached = getattr(self, "_ready_cache", None)
            if cached is None or cached[0] != version:
                rows = self._db.execute("SELECT id FROM documents WHERE status = ?", (DocStatus.ready.value,)).fetchall()
                cached = (version, frozenset(row[0] for row in rows))
                self._ready_cache = cached
            return cached[1]


def _column(doc: Document, name: str) -> object:
    value = getattr(doc, name)
    if name == "status":
        return value.value
    if name in PAGE_LISTS:
        return ",".join(str(p) for p in value)
    if name == "error":  # a core message keeps its code (read back by Document's validator)
        return message.dump(value)
    return value
