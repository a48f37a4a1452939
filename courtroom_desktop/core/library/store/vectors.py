"""The vector store: a LanceDB table of chunks with their vectors (the BM25 index is ``text_index.TextIndex``).

Both stores are keyed by chunk id and carry the document id, so a document can be removed from each in one call.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Chunk, Highlight

if TYPE_CHECKING:
    from lancedb.query import LanceVectorQueryBuilder

TABLE = "chunks"


def chunk_schema(dim: int) -> pa.Schema:
    return pa.schema([
        pa.field("id", pa.string(), nullable=False),
        pa.field("doc_id", pa.string(), nullable=False),
        pa.field("ordinal", pa.int32()),
        pa.field("section_path", pa.string()),
        pa.field("page_start", pa.int32()),
        pa.field("page_end", pa.int32()),
        pa.field("char_start", pa.int64()),
        pa.field("char_end", pa.int64()),
        pa.field("text", pa.string()),
        pa.field("highlights", pa.string()),  # JSON: [[page, [[x0, y0, x1, y1], ...]], ...]
        pa.field("vector", pa.list_(pa.float32(), dim)),
        pa.field("ocr_confidence", pa.float32()),  # null unless the text was read by OCR (added to older tables on open)
    ])


def _highlights_json(chunk: Chunk) -> str:
    return json.dumps([[h.page, [list(r) for r in h.rects]] for h in chunk.highlights], separators=(",", ":"))


def row_to_chunk(row: dict[str, Any]) -> Chunk:
    return Chunk(
        id=row["id"], doc_id=row["doc_id"], ordinal=row["ordinal"], section_path=row["section_path"] or "",
        page_start=row["page_start"], page_end=row["page_end"], char_start=row["char_start"],
        char_end=row["char_end"], text=row["text"],
        highlights=tuple(Highlight(page=p, rects=tuple(tuple(r) for r in rects))
                         for p, rects in json.loads(row["highlights"] or "[]")),
        ocr_confidence=round(row["ocr_confidence"], 4) if row.get("ocr_confidence") is not None else None,
    )


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class VectorStore:
    def __init__(self, folder: Path | str, dim: int, storage_options: dict[str, str] | None = None):
        """``folder``: a local folder, or a URI on object storage (``s3://bucket/library/vectors``) reached with
        ``storage_options`` (core.library.shared.location)."""
        import lancedb

        self.folder = folder
        self.dim = dim
        # on object storage other machines write too: a table looks for their commits at most every 2 s
        consistency = timedelta(seconds=2) if storage_options else None
        self._db = lancedb.connect(str(folder), storage_options=storage_options or None,
                                   read_consistency_interval=consistency)
        self._lock = threading.Lock()
        self._index_lock = threading.Lock()
        try:
            names = self._db.list_tables()
            names = getattr(names, "tables", names)
            if TABLE in names:
                self.table = self._db.open_table(TABLE)
                existing = self.table.schema.field("vector").type.list_size
                if existing != dim:
                    raise LibraryError(
                        Message("{folder}: the chunk table holds {existing}-dimensional vectors but the embedding "
                                "model gives {dim}: run `courtroom library reindex` to rebuild it with the current "
                                "model",
                                folder, existing, dim)
                    )
                if "ocr_confidence" not in self.table.schema.names:  # a table from before OCR: every chunk's is null
                    self.table.add_columns({"ocr_confidence": "CAST(NULL AS FLOAT)"})
            else:
                self.table = self._db.create_table(TABLE, schema=chunk_schema(dim))
        except LibraryError:
            raise
        except Exception as exc:
            raise LibraryError(Message("{folder}: cannot open the LanceDB chunk table ({exc})", folder, exc)) from exc

    def refresh(self) -> None:
        """See what other writers committed since (a table on object storage; local ones are this process's)."""
        self.table.checkout_latest()  # type: ignore[no-untyped-call]  # untyped in lancedb 0.40

    def count(self, doc_id: str | None = None) -> int:
        return self.table.count_rows(f"doc_id = {_quote(doc_id)}" if doc_id else None)

    def add(self, chunks: list[Chunk], vectors: np.ndarray) -> None:
        if not chunks:
            return
        data = pa.table({
            "id": [c.id for c in chunks], "doc_id": [c.doc_id for c in chunks],
            "ordinal": pa.array([c.ordinal for c in chunks], pa.int32()),
            "section_path": [c.section_path for c in chunks],
            "page_start": pa.array([c.page_start for c in chunks], pa.int32()),
            "page_end": pa.array([c.page_end for c in chunks], pa.int32()),
            "char_start": [c.char_start for c in chunks], "char_end": [c.char_end for c in chunks],
            "text": [c.text for c in chunks], "highlights": [_highlights_json(c) for c in chunks],
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1), pa.float32()), self.dim),
            "ocr_confidence": pa.array([c.ocr_confidence for c in chunks], pa.float32()),
        }, schema=chunk_schema(self.dim))
        with self._lock:
            self.table.add(data)

    def delete_doc(self, doc_id: str) -> None:
        self.delete_docs([doc_id])

    def delete_docs(self, doc_ids: list[str]) -> None:
        """Every chunk of these documents, in one delete per 500 (each delete is a new version of the table)."""
        with self._lock:
            for start in range(0, len(doc_ids), 500):
                part = doc_ids[start:start + 500]
                self.table.delete(f"doc_id IN ({', '.join(_quote(i) for i in part)})")

    def doc_ids(self) -> set[str]:
        if not self.count():
            return set()
        column = self.table.search().select(["doc_id"]).limit(None).to_arrow().column("doc_id")
        return set(column.unique().to_pylist())

    def get(self, ids: list[str]) -> dict[str, Chunk]:
        if not ids:
            return {}
        found: dict[str, Chunk] = {}
        columns = [f for f in chunk_schema(self.dim).names if f != "vector"]
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            rows = (self.table.search().where(f"id IN ({', '.join(_quote(i) for i in part)})")
                    .select(columns).limit(len(part)).to_list())
            found.update((r["id"], row_to_chunk(r)) for r in rows)
        return found

    def docs_chunks(self, doc_ids: list[str]) -> dict[str, list[Chunk]]:
        """The chunks of several documents (one query per 200), each document's in order."""
        columns = [f for f in chunk_schema(self.dim).names if f != "vector"]
        found: dict[str, list[Chunk]] = {doc_id: [] for doc_id in doc_ids}
        for start in range(0, len(doc_ids), 200):
            part = doc_ids[start:start + 200]
            rows = (self.table.search().where(f"doc_id IN ({', '.join(_quote(i) for i in part)})").select(columns)
                    .limit(10_000_000).to_list())
            for row in rows:
                found[row["doc_id"]].append(row_to_chunk(row))
        return {doc_id: sorted(chunks, key=lambda c: c.ordinal) for doc_id, chunks in found.items()}

    def doc_chunks(self, doc_id: str) -> list[Chunk]:
        columns = [f for f in chunk_schema(self.dim).names if f != "vector"]
        rows = (self.table.search().where(f"doc_id = {_quote(doc_id)}").select(columns)
                .limit(1_000_000).to_list())
        return sorted((row_to_chunk(r) for r in rows), key=lambda c: c.ordinal)

    # ---------------------------------------------------------------- search (used by core.retrieval)
    def vector_search(self, vector: np.ndarray, limit: int, where: str | None = None, ef: int | None = None,
                      nprobes: int | None = None, refine_factor: int | None = None, exact: bool = False,
                      row_ids: dict[str, int] | None = None) -> list[tuple[str, str, float]]:
        """Nearest chunks by cosine similarity: (chunk id, document id, cosine), best first. Uses the ANN index
        when there is one (``exact`` bypasses it); ``where`` is a prefilter in LanceDB's SQL. Pass a dict as
        ``row_ids`` to receive each hit's row id (for ``fetch``)."""
        if limit <= 0:
            return []
        # a local table's search of a vector is a vector query (lancedb types it as the base builder)
        query = cast("LanceVectorQueryBuilder", self.table.search(np.asarray(vector, dtype=np.float32)))
        query = query.distance_type("cosine").limit(limit)
        if exact:
            query = query.bypass_vector_index()
        else:
            if ef:
                query = query.ef(max(int(ef), limit))
            if nprobes:
                query = query.nprobes(int(nprobes))
            if refine_factor:
                query = query.refine_factor(int(refine_factor))
        if where:
            query = query.where(where, prefilter=True)
        if row_ids is not None:
            query = query.with_row_id(True)
        result = query.select(["id", "doc_id", "_distance"]).to_arrow()
        if row_ids is not None and result.num_rows:
            row_ids.update(zip(result.column("id").to_pylist(), result.column("_rowid").to_pylist()))
        return list(zip(result.column("id").to_pylist(), result.column("doc_id").to_pylist(),
                        (1.0 - np.asarray(result.column("_distance").to_numpy(zero_copy_only=False),
                                          dtype=np.float64)).tolist()))

    def fetch(self, ids: list[str], vectors: bool = True,
              row_ids: dict[str, int] | None = None) -> dict[str, tuple[Chunk, np.ndarray | None]]:
        """Chunks by id, with their vectors. When every id has a known row id (from ``vector_search``) they are
        taken by row id (about half the time of a lookup); otherwise, and for any row id that no longer holds its
        chunk (after a compaction), by an indexed lookup per 500 ids (no full scan once ``ensure_indices`` has
        run). One query either way."""
        found: dict[str, tuple[Chunk, np.ndarray | None]] = {}
        columns = [f for f in chunk_schema(self.dim).names if f != "vector"] + (["vector"] if vectors else [])
        unique = list(dict.fromkeys(ids))
        known = [(i, row_ids[i]) for i in unique if row_ids and i in row_ids]
        if known and len(known) == len(unique):
            try:
                self._collect(self.table.take_row_ids([r for _, r in known]).select(columns).to_arrow(), columns,
                              found, wanted={i for i, _ in known})
            except Exception:  # row ids are an optimisation: fall back to the lookup by id
                pass
        rest = [i for i in unique if i not in found]
        for start in range(0, len(rest), 500):
            part = rest[start:start + 500]
            rows = (self.table.search().where(f"id IN ({', '.join(_quote(i) for i in part)})")
                    .select(columns).limit(len(part)).to_arrow())
            self._collect(rows, columns, found)
        return found

    def _collect(self, rows: pa.Table, columns: list[str], found: dict[str, tuple[Chunk, np.ndarray | None]],
                 wanted: set[str] | None = None) -> None:
        if not rows.num_rows:
            return
        matrix = None
        if "vector" in columns:
            flat = rows.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
            matrix = np.asarray(flat, dtype=np.float32).reshape(rows.num_rows, self.dim)
        for index, row in enumerate(rows.select([c for c in columns if c != "vector"]).to_pylist()):
            if wanted is None or row["id"] in wanted:
                found[row["id"]] = (row_to_chunk(row), matrix[index] if matrix is not None else None)

    def ids_where(self, where: str) -> list[tuple[str, str, str]]:
        """(chunk id, document id, section path) of every chunk matching a LanceDB SQL filter."""
        rows = (self.table.search().where(where).select(["id", "doc_id", "section_path"])
                .limit(max(self.count(), 1)).to_arrow())
        return list(zip(rows.column("id").to_pylist(), rows.column("doc_id").to_pylist(),
                        rows.column("section_path").to_pylist()))

    def index_names(self) -> dict[str, str]:
        """Indexed column -> index type (e.g. {'vector': 'IvfHnswSq', 'id': 'BTree'})."""
        try:
            return {cfg.columns[0]: str(cfg.index_type) for cfg in self.table.list_indices()}
        except Exception:
            return {}

    def has_vector_index(self) -> bool:
        return "vector" in self.index_names()

    def ensure_indices(self, vector_min_rows: int, index_type: str = "IVF_HNSW_SQ",
                       num_partitions: int | None = None, m: int = 20, ef_construction: int = 150,
                       num_sub_vectors: int | None = None) -> list[str]:
        """Create what is missing: BTREE indexes on ``id`` and ``doc_id`` (so fetching chunks by id is no scan)
        and, once the table has ``vector_min_rows`` rows, an ANN index with cosine distance. Returns what it
        created. New rows reach the indexes at the next ``optimize()``; until then LanceDB searches them flat."""
        from lancedb.index import BTree, IvfHnswSq, IvfPq

        created: list[str] = []
        # not under self._lock: building a vector index takes tens of seconds and LanceDB commits it alongside
        # concurrent appends and deletes (rows added meanwhile are simply not indexed yet)
        with self._index_lock:
            rows = self.count()
            if not rows:
                return created
            present = self.index_names()
            for column in ("id", "doc_id"):
                if column not in present:
                    self.table.create_index(column, config=BTree(), replace=True)
                    created.append(f"{column}:BTREE")
            if rows >= vector_min_rows and "vector" not in present:
                partitions = num_partitions or max(1, min(256, round((rows / 4096) ** 0.5 * 2)))
                kind = index_type.upper()
                config: IvfHnswSq | IvfPq
                if kind == "IVF_HNSW_SQ":
                    config = IvfHnswSq(distance_type="cosine", num_partitions=partitions, m=m,
                                       ef_construction=ef_construction)
                elif kind == "IVF_PQ":
                    config = IvfPq(distance_type="cosine", num_partitions=partitions,
                                   num_sub_vectors=num_sub_vectors or max(1, self.dim // 8))
                else:
                    raise LibraryError(Message("unknown vector index type {index_type}: use IVF_HNSW_SQ or IVF_PQ",
                                               f'{index_type!r}'))
                self.table.create_index("vector", config=config, replace=True)
                created.append(f"vector:{kind}")
        return created

    def optimize(self) -> None:
        with self._lock:
            try:
                self.table.optimize()
            except Exception:  # compaction is an optimisation: never fail an ingest over it
                pass
