"""The tantivy BM25 index of the library, in any script.

Every chunk's text, section path and document title go into two sets of fields: ``text``/``section``/``title``
analysed with English stemming (any alphabetic language gets its words), and ``text_cjk``/``section_cjk``/``title_cjk``
holding the chunk's CJK words (Chinese segmented by rjieba in search mode, so a word is found by its parts too; kana
and Hangul as character bigrams, ``core.text.words``), which only a chunk with CJK text has. Chunk text with Chinese
characters also fills ``text_grams``: its characters and character bigrams (``core.text.han_grams``), which a query
searches at a lower weight, so a passage is still found when it and the query segment the same idea differently. A
query is analysed the same way (``core.retrieval.query``), so a Chinese query meets Chinese words and an English one
English stems.

The analyser is recorded with the index (``analyzer.json``): an index written by another analyser (an earlier version
of the app) is ``stale`` and the library rebuilds it from its stored chunks when it opens, without embedding again.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Chunk
from courtroom_desktop.core.text import han_grams, has_cjk, words

if TYPE_CHECKING:
    import tantivy

ANALYZER = {"latin": "en_stem", "cjk": "rjieba-search+bigrams", "han_grams": "chars+bigrams", "version": 3}
ANALYZER_FILE = "analyzer.json"
CJK_TOKENIZER = "cjk_words"
FIELDS = ("text", "section", "title")
GRAMS_FIELD = "text_grams"


def cjk_words(text: str) -> str:
    """The CJK words of ``text`` as the cjk fields hold them: search-mode words, space-separated."""
    if not has_cjk(text):
        return ""
    return " ".join(w for w in words(text, search=True) if has_cjk(w))


class TextIndex:
    """tantivy BM25 over chunk text, section paths and document titles (see the module's docstring)."""

    def __init__(self, folder: Path):
        import tantivy

        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.stale = (self.folder / "meta.json").exists() and self._recorded() != ANALYZER
        if self.stale:  # written by another analyser: start an empty index now, the library refills it
            shutil.rmtree(self.folder)
            self.folder.mkdir(parents=True)
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
        builder.add_text_field("doc_id", stored=True, tokenizer_name="raw")
        for field in FIELDS:
            builder.add_text_field(field, stored=False, tokenizer_name="en_stem")
            builder.add_text_field(f"{field}_cjk", stored=False, tokenizer_name=CJK_TOKENIZER)
        builder.add_text_field(GRAMS_FIELD, stored=False, tokenizer_name=CJK_TOKENIZER)
        self.schema = builder.build()
        try:
            self.index = tantivy.Index(self.schema, path=str(self.folder), reuse=True)
            self.index.register_tokenizer(
                CJK_TOKENIZER, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
                .filter(tantivy.Filter.lowercase()).build())
        except Exception as exc:
            raise LibraryError(Message("{self.folder}: cannot open the tantivy index ({exc}); run `courtroom "
                                       "library reindex`",
                                       self.folder, exc)) \
                from exc
        if not self.stale:
            self._record()
        self._lock = threading.Lock()
        self._collected = False

    def _recorded(self) -> object:
        try:
            return json.loads((self.folder / ANALYZER_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def _record(self) -> None:
        (self.folder / ANALYZER_FILE).write_text(json.dumps(ANALYZER), encoding="utf-8")

    def rebuilt(self, documents: Iterable[tuple[str, list[Chunk], str]]) -> None:
        """Refill a stale index: ``documents`` is (doc id, chunks, title) per ready document. The analyser is recorded
        last, so an interrupted rebuild is done again at the next open."""
        self.add_docs(list(documents))
        self._record()
        self.stale = False

    def writer(self) -> tantivy.IndexWriter:
        try:
            writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        except Exception as exc:
            raise LibraryError(
                Message("{self.folder}: the text index is locked by another process ({exc}); wait for the other "
                        "ingest to end",
                        self.folder, exc)
            ) from exc
        if not self._collected:
            # A process killed mid-commit leaves files no commit refers to, e.g. a delete file named after the next
            # opstamp: the next commit would fail with FileAlreadyExists. Tantivy removes them once asked.
            writer.garbage_collect_files()
            self._collected = True
        return writer

    @staticmethod
    def _document(doc_id: str, chunk: Chunk, title: str) -> tantivy.Document:
        import tantivy

        fields = {"chunk_id": chunk.id, "doc_id": doc_id, "text": chunk.text, "section": chunk.section_path,
                  "title": title}
        for field in FIELDS:
            cjk = cjk_words(fields[field])
            if cjk:
                fields[f"{field}_cjk"] = cjk
        grams = han_grams(chunk.text)
        if grams:
            fields[GRAMS_FIELD] = " ".join(grams)
        return tantivy.Document(**fields)

    def add_docs(self, items: Sequence[tuple[str, list[Chunk], str]]) -> None:
        """Replace many documents, (doc id, chunks, title) each, in one commit."""
        with self._lock:
            writer = self.writer()
            try:
                for doc_id, chunks, title in items:
                    writer.delete_documents("doc_id", doc_id)
                    for chunk in chunks:
                        writer.add_document(self._document(doc_id, chunk, title))
                writer.commit()
                writer.wait_merging_threads()
            finally:
                del writer
            self.index.reload()

    def search(self, query: tantivy.Query | None, limit: int, doc_ids: set[str] | None = None,
               chunk_ids: set[str] | None = None) -> list[tuple[str, str, float]]:
        """BM25 hits of a tantivy query (see ``core.retrieval.query``): (chunk id, document id, score), best
        first; optionally only within some documents or chunks."""
        import tantivy

        if query is None or limit <= 0:
            return []
        clauses = [(tantivy.Occur.Must, query)]
        if doc_ids is not None:
            if not doc_ids:
                return []
            clauses.append((tantivy.Occur.Must, tantivy.Query.term_set_query(self.schema, "doc_id", sorted(doc_ids))))
        if chunk_ids is not None:
            if not chunk_ids:
                return []
            clauses.append((tantivy.Occur.Must,
                            tantivy.Query.term_set_query(self.schema, "chunk_id", sorted(chunk_ids))))
        if len(clauses) > 1:
            query = tantivy.Query.boolean_query(clauses)
        searcher = self.index.searcher()
        result = searcher.search(query, limit=limit, count=False)
        hits = []
        for score, address in result.hits:
            doc = searcher.doc(address)
            hits.append((doc["chunk_id"][0], doc["doc_id"][0], float(score)))
        return hits

    def delete_doc(self, doc_id: str) -> None:
        self.delete_docs([doc_id])

    def delete_docs(self, doc_ids: Iterable[str]) -> None:
        """Every chunk of these documents, in one commit."""
        self.add_docs([(doc_id, [], "") for doc_id in doc_ids])

    def count(self, doc_id: str | None = None) -> int:
        self.index.reload()
        searcher = self.index.searcher()
        if doc_id is None:
            return searcher.num_docs
        import tantivy

        query = tantivy.Query.term_query(self.schema, "doc_id", doc_id)
        count: int = searcher.search(query, limit=1, count=True).count  # type: ignore[attr-defined]  # not in tantivy's stub
        return count

    def doc_ids(self) -> set[str]:
        import tantivy

        self.index.reload()
        searcher = self.index.searcher()
        if not searcher.num_docs:
            return set()
        result = searcher.search(tantivy.Query.all_query(), limit=searcher.num_docs)
        return {searcher.doc(address)["doc_id"][0] for _, address in result.hits}
