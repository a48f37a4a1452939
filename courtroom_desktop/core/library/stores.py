"""The two search stores: a LanceDB table of chunks with vectors and a tantivy BM25 index.

Both are keyed by chunk id and carry the document id, so a document can be removed from each in one call.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pyarrow as pa

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.models import Chunk, Highlight

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
    ])


def _highlights_json(chunk: Chunk) -> str:
    return json.dumps([[h.page, [list(r) for r in h.rects]] for h in chunk.highlights], separators=(",", ":"))


def row_to_chunk(row: dict) -> Chunk:
    return Chunk(
        id=row["id"], doc_id=row["doc_id"], ordinal=row["ordinal"], section_path=row["section_path"] or "",
        page_start=row["page_start"], page_end=row["page_end"], char_start=row["char_start"],
        char_end=row["char_end"], text=row["text"],
        highlights=tuple(Highlight(page=p, rects=tuple(tuple(r) for r in rects))
                         for p, rects in json.loads(row["highlights"] or "[]")),
    )


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class VectorStore:
    def __init__(self, folder: Path, dim: int):
        import lancedb

        self.folder = folder
        self.dim = dim
        self._db = lancedb.connect(str(folder))
        self._lock = threading.Lock()
        try:
            names = self._db.list_tables()
            names = getattr(names, "tables", names)
            if TABLE in names:
                self.table = self._db.open_table(TABLE)
                existing = self.table.schema.field("vector").type.list_size
                if existing != dim:
                    raise LibraryError(
                        f"{folder}: the chunk table holds {existing}-dimensional vectors but the embedding model gives "
                        f"{dim}: run `courtroom library reindex` to rebuild it with the current model"
                    )
            else:
                self.table = self._db.create_table(TABLE, schema=chunk_schema(dim))
        except LibraryError:
            raise
        except Exception as exc:
            raise LibraryError(f"{folder}: cannot open the LanceDB chunk table ({exc})") from exc

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
        }, schema=chunk_schema(self.dim))
        with self._lock:
            self.table.add(data)

    def delete_doc(self, doc_id: str) -> None:
        with self._lock:
            self.table.delete(f"doc_id = {_quote(doc_id)}")

    def doc_ids(self) -> set[str]:
        return set(self.table.to_arrow().column("doc_id").unique().to_pylist()) if self.count() else set()

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

    def doc_chunks(self, doc_id: str) -> list[Chunk]:
        columns = [f for f in chunk_schema(self.dim).names if f != "vector"]
        rows = (self.table.search().where(f"doc_id = {_quote(doc_id)}").select(columns)
                .limit(1_000_000).to_list())
        return sorted((row_to_chunk(r) for r in rows), key=lambda c: c.ordinal)

    def optimize(self) -> None:
        with self._lock:
            try:
                self.table.optimize()
            except Exception:  # compaction is an optimisation: never fail an ingest over it
                pass


class TextIndex:
    """tantivy BM25 over chunk text (stemmed), section titles and document titles."""

    def __init__(self, folder: Path):
        import tantivy

        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
        builder.add_text_field("doc_id", stored=True, tokenizer_name="raw")
        builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
        builder.add_text_field("section", stored=False, tokenizer_name="en_stem")
        builder.add_text_field("title", stored=False, tokenizer_name="en_stem")
        self.schema = builder.build()
        try:
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
        except Exception as exc:
            raise LibraryError(f"{folder}: cannot open the tantivy index ({exc}); run `courtroom library reindex`") from exc
        self._lock = threading.Lock()

    def writer(self):
        try:
            return self.index.writer(heap_size=64_000_000, num_threads=1)
        except Exception as exc:
            raise LibraryError(
                f"{self.folder}: the text index is locked by another process ({exc}); wait for the other ingest to end"
            ) from exc

    def replace_doc(self, doc_id: str, chunks: list[Chunk], title: str) -> None:
        import tantivy

        with self._lock:
            writer = self.writer()
            try:
                writer.delete_documents("doc_id", doc_id)
                for chunk in chunks:
                    writer.add_document(tantivy.Document(
                        chunk_id=chunk.id, doc_id=doc_id, text=chunk.text, section=chunk.section_path, title=title,
                    ))
                writer.commit()
                writer.wait_merging_threads()
            finally:
                del writer
            self.index.reload()

    def delete_doc(self, doc_id: str) -> None:
        self.replace_doc(doc_id, [], "")

    def count(self, doc_id: str | None = None) -> int:
        self.index.reload()
        searcher = self.index.searcher()
        if doc_id is None:
            return searcher.num_docs
        import tantivy

        query = tantivy.Query.term_query(self.schema, "doc_id", doc_id)
        return searcher.search(query, limit=1, count=True).count

    def doc_ids(self) -> set[str]:
        import tantivy

        self.index.reload()
        searcher = self.index.searcher()
        if not searcher.num_docs:
            return set()
        result = searcher.search(tantivy.Query.all_query(), limit=searcher.num_docs)
        return {searcher.doc(address)["doc_id"][0] for _, address in result.hits}
