"""A library built from a BEIR corpus (title as the section heading), optionally cached between runs."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.eval.beir import read_corpus
from courtroom_desktop.core.library.embed.embedder import LibraryEmbedder, make_embedder
from courtroom_desktop.core.library.library import Library
from courtroom_desktop.core.library.read.text_docs import TextDocument

BUILT_KEY = "eval_corpus"


def corpus_key(beir_dir: Path, settings: LibrarySettings, embedder_name: str) -> str:
    """Changes when the corpus file or anything that shapes chunks or vectors changes."""
    corpus = Path(beir_dir) / "corpus.jsonl"
    stat = corpus.stat()
    material = json.dumps({
        "corpus": [str(corpus.resolve()), stat.st_size, int(stat.st_mtime)], "model": embedder_name,
        "chunking": [settings.chunk_tokens, settings.overlap_tokens, settings.min_section_tokens], "format": 1,
    }, sort_keys=True)
    return hashlib.sha1(material.encode()).hexdigest()[:12]


def build_beir_library(beir_dir: Path, root: Path, settings: LibrarySettings, embedder: LibraryEmbedder | None = None,
                       on_progress: Callable[[int, int], None] | None = None) -> tuple[Library, float]:
    """Open the library at ``root`` if it already holds this corpus with these settings, else (re)build it.
    Each corpus entry becomes a document whose one section is headed by the entry's title.
    Returns the library and the seconds spent building (0 when reused)."""
    root = Path(root)
    # the model and how it runs (its identity: 'all-MiniLM-L6-v2@onnx-int8.v2'): a cache of one is never another's
    key = corpus_key(beir_dir, settings, (embedder or make_embedder(settings)).identity)
    if root.exists():
        library = Library.open(root, settings, embedder)
        if library.catalog.get_meta(BUILT_KEY) == key:
            return library, 0.0
        library.close()
        shutil.rmtree(root)
    began = time.perf_counter()
    library = Library.open(root, settings, embedder)
    docs = (TextDocument(id=d.id, title=d.title, sections=[(d.title, d.text)], path=f"beir:{d.id}")
            for d in read_corpus(beir_dir))
    library.add_text_documents(docs, batch_docs=512, on_progress=on_progress)
    library.writer.set_meta(BUILT_KEY, key)
    return library, time.perf_counter() - began
