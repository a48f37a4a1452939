"""The library for real: LanceDB, tantivy and the catalog on disk, the bundled embedding model."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import CancelToken, Embedder, Library
from courtroom_desktop.core.library.store.catalog import Catalog
from courtroom_desktop.core.records import DocStatus, FileFinished, FileOutcome, FileProgress

from .docs import (
    make_corrupt,
    make_empty,
    make_encrypted,
    make_not_pdf,
    make_partly_scanned,
    make_scanned,
    make_structured,
)

SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=8)


class CountingEmbedder(Embedder):
    """The real model, counting what it is asked to embed."""

    def __init__(self, inner: Embedder):
        super().__init__(inner.name, inner.batch)
        self._model = inner._model  # the same model, loaded once
        self.encoded = 0

    def encode(self, texts):
        self.encoded += len(texts)
        return super().encode(texts)


@pytest.fixture
def library(tmp_path, embedder):
    lib = Library.open(tmp_path / "lib", SETTINGS, CountingEmbedder(embedder))
    yield lib
    lib.close()


@pytest.fixture
def folder(tmp_path):
    docs = tmp_path / "docs"
    (docs / "nested").mkdir(parents=True)
    make_structured(docs / "one.pdf", outline=True, title="First Report")
    make_structured(docs / "nested" / "two.pdf", outline=False, title="Second Report", paragraphs_per_section=4)
    return docs


def _counts(lib: Library) -> tuple[int, int, int]:
    ready = lib.documents(DocStatus.ready)
    return len(ready), lib.vectors.count(), lib.text_index.count()


def test_ingest_folder_recursively_into_all_three_stores(library, folder):
    events = []
    finished = library.ingest([folder], on_event=events.append)
    assert (finished.added, finished.failed) == (2, 0)
    docs = library.documents(DocStatus.ready)
    assert sorted(d.title for d in docs) == ["First Report", "Second Report"]
    total_chunks = sum(d.chunks for d in docs)
    assert _counts(library) == (2, total_chunks, total_chunks)
    assert library.check_consistency()["consistent"]
    # progress went through every stage, per file
    stages = {e.stage.value for e in events if isinstance(e, FileProgress)}
    assert stages == {"extract", "chunk", "embed", "index"}
    # chunks come back whole, with their positions
    chunk = library.doc_chunks(docs[0].id)[0]
    assert chunk.highlights and chunk.text
    assert library.chunks([chunk.id])[chunk.id] == chunk


def test_unchanged_skipped_changed_reingested_removed_leaves_nothing(library, folder, tmp_path):
    library.ingest([folder])
    encoded = library.embedder.encoded
    again = library.ingest([folder])
    assert (again.skipped, again.added, again.updated) == (2, 0, 0)
    assert library.embedder.encoded == encoded  # nothing embedded twice

    one = folder / "one.pdf"
    old_id = library.find(str(one)).id
    make_structured(one, outline=True, title="First Report, revised", paragraphs_per_section=2)
    changed = library.ingest([folder])
    assert (changed.updated, changed.skipped) == (1, 1)
    new = library.find(str(one))
    assert new.id != old_id and new.title == "First Report, revised"
    assert library.catalog.get(old_id) is None
    assert library.vectors.count(old_id) == 0 and library.text_index.count(old_id) == 0

    library.remove(new.id)
    assert library.vectors.count(new.id) == 0 and library.text_index.count(new.id) == 0
    assert len(library.documents()) == 1
    assert library.check_consistency()["consistent"]


def test_reindex_rebuilds_from_files_with_new_chunk_settings(library, folder):
    library.ingest([folder])
    before = {d.id: d.chunks for d in library.documents()}
    library.settings = SETTINGS.model_copy(update={"chunk_tokens": 60})
    finished = library.reindex()
    assert finished.updated == 2
    after = {d.id: d.chunks for d in library.documents()}
    assert after.keys() == before.keys()
    assert all(after[k] > before[k] for k in before)
    assert library.check_consistency()["consistent"]


def test_bad_files_are_reported_and_never_stop_the_batch(library, folder):
    bad = folder / "bad"
    bad.mkdir()
    makers = {"empty.pdf": make_empty, "text.pdf": make_not_pdf, "locked.pdf": make_encrypted,
              "broken.pdf": make_corrupt, "scan.pdf": make_scanned}
    for name, maker in makers.items():
        maker(bad / name)
    library.ingest([folder / "one.pdf"])
    before = _counts(library)
    events = []
    finished = library.ingest([folder], on_event=events.append)
    assert (finished.failed, finished.added, finished.skipped) == (5, 1, 1)
    reasons = {Path(e.path).name: e.reason for e in events if isinstance(e, FileFinished)
               and e.outcome == FileOutcome.failed}
    assert "empty file" in reasons["empty.pdf"]
    assert "not a PDF" in reasons["text.pdf"]
    assert "encrypted" in reasons["locked.pdf"]
    assert "corrupt" in reasons["broken.pdf"]
    assert "a scan), and OCR read no text on them" in reasons["scan.pdf"]  # OCR ran (library.ocr = "auto")
    assert _counts(library)[0] == before[0] + 1
    assert library.check_consistency()["consistent"]
    assert {Path(p).name for p, _ in library.catalog.failures()} == set(makers)


def test_cancel_leaves_no_half_document(library, folder):
    cancel = CancelToken()

    def on_event(event):
        if isinstance(event, FileProgress) and event.stage.value == "embed":
            cancel.cancel()

    finished = library.ingest([folder], on_event=on_event, cancel=cancel)
    assert finished.cancelled
    assert library.documents() == []
    assert _counts(library) == (0, 0, 0)
    # running it again finishes the job, reusing what was embedded before the cancel
    encoded = library.embedder.encoded
    total = library.ingest([folder])
    assert total.added == 2
    assert library.embedder.encoded - encoded < sum(d.chunks for d in library.documents())


KILL_SCRIPT = """
import sys, json
from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
settings = LibrarySettings(chunk_tokens=60, overlap_tokens=0, min_section_tokens=10, embed_batch=2)
lib = Library.open(sys.argv[1], settings)
def show(event):
    print(json.dumps(event.model_dump(mode="json")), flush=True)
lib.ingest([sys.argv[2]], on_event=show)
"""


def test_ingest_killed_mid_embedding_resumes_without_reembedding(tmp_path, folder, embedder):
    root = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(root), str(folder)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    embedded = 0
    deadline = time.time() + 240
    for line in proc.stdout:
        event = json.loads(line)
        if event["kind"] == "file_progress" and event["stage"] == "embed" and event["chunks_done"] >= 6:
            embedded = event["chunks_done"]
            os.kill(proc.pid, signal.SIGKILL)
            break
        assert time.time() < deadline
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL and embedded

    settings = LibrarySettings(chunk_tokens=60, overlap_tokens=0, min_section_tokens=10, embed_batch=2)
    lib = Library.open(root, settings, CountingEmbedder(embedder))
    try:
        assert lib.documents() == []  # the half-written document is gone from every store
        assert lib.check_consistency()["consistent"]
        finished = lib.ingest([folder])
        assert finished.added == 2
        total = sum(d.chunks for d in lib.documents())
        assert lib.embedder.encoded <= total - embedded
        assert lib.check_consistency()["consistent"]
    finally:
        lib.close()


def test_sample_library_ingests(tmp_path, embedder, sample_pdfs):
    lib = Library.open(tmp_path / "samples", LibrarySettings(), embedder)
    try:
        copies = tmp_path / "copies"
        copies.mkdir()
        for pdf in sample_pdfs:
            shutil.copy(pdf, copies / pdf.name)
        finished = lib.ingest([copies])
        assert finished.added == len(sample_pdfs) and finished.failed == 0
        for doc in lib.documents():
            paths = {c.section_path for c in lib.doc_chunks(doc.id)}
            # every sample is a dossier of numbered abstracts: sections were found with or without an outline
            assert sum(1 for p in paths if p[:1].isdigit()) >= 4, (doc.path, paths)
    finally:
        lib.close()


def test_pages_without_a_text_layer_are_reported_per_document(library, tmp_path):
    """A partly scanned document goes in with its text pages, and says which pages hold only an image (a blank page
    and a page with a small figure and a caption are not reported)."""
    path = tmp_path / "partly-scanned.pdf"
    make_partly_scanned(path)
    events = []
    finished = library.ingest([path], on_event=events.append)
    assert finished.added == 1
    doc = library.documents()[0]
    assert doc.pages == 5 and doc.pages_without_text == (2,)
    done = next(e for e in events if e.kind == "file_finished")
    assert done.note == doc.no_text_note() and "1 of 5 pages has no text layer (page 3)" in done.note
    library.close()
    reopened = Catalog(tmp_path / "lib" / "catalog.sqlite")
    assert reopened.get(doc.id).pages_without_text == (2,)  # kept in the catalog
    reopened.close()


def test_a_catalog_from_before_the_column_keeps_its_documents(tmp_path):
    import sqlite3

    path = tmp_path / "catalog.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE documents (id TEXT PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL,
        title TEXT DEFAULT '', authors TEXT DEFAULT '', year INTEGER, pages INTEGER DEFAULT 0, chunks INTEGER DEFAULT 0,
        sections INTEGER DEFAULT 0, status TEXT NOT NULL, error TEXT DEFAULT '', added_at REAL NOT NULL);
        INSERT INTO documents VALUES ('d1', '/x.pdf', 'abc', 'Old', '', NULL, 3, 4, 1, 'ready', '', 1.0);""")
    db.commit()
    db.close()
    catalog = Catalog(path)
    assert catalog.get("d1").title == "Old" and catalog.get("d1").pages_without_text == ()
    catalog.close()


def test_two_threads_asking_for_the_vectors_of_a_new_library_open_one_table(tmp_path, embedder, monkeypatch):
    """The window preloads the library while the first-run ingest starts: both ask for the vector table of a fresh
    library at once, and only one may create it (the other failed, and the preload never reported ready)."""
    import threading

    from courtroom_desktop.core.library import library as library_module

    made = []
    real = library_module.VectorStore

    def slow_store(*args, **kwargs):
        made.append(args)
        time.sleep(0.3)  # the window in which a second thread would create the table too
        return real(*args, **kwargs)

    monkeypatch.setattr(library_module, "VectorStore", slow_store)
    lib = Library.open(tmp_path / "lib", SETTINGS, CountingEmbedder(embedder))
    try:
        got, errors = [], []

        def ask() -> None:
            try:
                got.append(lib.vectors)
            except Exception as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)

        threads = [threading.Thread(target=ask) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert not errors and len(made) == 1 and len(got) == 3 and all(v is got[0] for v in got)
    finally:
        lib.close()
