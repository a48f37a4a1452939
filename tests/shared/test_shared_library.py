"""A library on object storage, for real: the chunk table, the catalog and the commit lock on a server on loopback,
once per store (``store``: moto's S3, fake-gcs-server's Google Cloud Storage, Azurite's Azure Blob Storage), PDFs
ingested with the bundled embedder, searched through the local BM25 cache and the shared vectors, seen by a second
machine (another cache folder) and kept consistent under two concurrent writers, a writer killed mid-commit and a
read-only opening; and the commit lock's conditional writes, which each store must honour."""

from __future__ import annotations

import threading

import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.records import DocStatus
from courtroom_desktop.core.retrieval import Retriever
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

from ..library.docs import paragraph

SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=8,
                           isolate_extraction=False)


TOPICS = {
    "Vitamin D and birth weight": "Vitamin D supplements taken in pregnancy raised birth weight by sixty grams in a "
                                  "randomised trial of two thousand women; the placebo group's infants were lighter.",
    "Statins in the elderly": "Statins lowered cholesterol in adults over seventy but muscle pain led a fifth of the "
                              "patients to stop the tablets within a year.",
    "睡眠与记忆": "睡眠不足会损害记忆巩固。一项针对大学生的研究发现，通宵学习后的测验成绩明显下降。",
}


@pytest.fixture
def pdfs(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for n, (title, text) in enumerate(TOPICS.items()):
        spec = DocSpec(title=title, sections=[SectionSpec(1, "1 Findings", [text, text.replace("。", "；") + " ."]),
                                              SectionSpec(1, "2 Methods", [paragraph(n + 1)])])
        render_pdf(spec, folder / f"doc{n}.pdf", outline=True)
    return sorted(folder.glob("*.pdf"))


def open_at(store, tmp_path, machine: str, embedder, prefix: str, read_only: bool = False) -> Library:
    return Library(tmp_path / machine, SETTINGS, embedder, location=store.location(prefix, read_only))


def test_ingest_search_and_a_second_machine_see_one_library(store, tmp_path, embedder, pdfs):
    first = open_at(store, tmp_path, "laptop-a", embedder, "one")
    finished = first.ingest(pdfs)
    assert finished.added == 3 and finished.failed == 0
    keys = store.keys("one/")
    assert any(k.startswith("one/lancedb/chunks.lance/") for k in keys)
    assert any(k.startswith("one/catalog/documents.lance/") for k in keys)
    assert not any("commit.lock" in k for k in keys)  # released
    assert first.check_consistency()["consistent"]

    second = open_at(store, tmp_path, "laptop-b", embedder, "one")  # another machine: an empty cache folder
    assert {d.id for d in second.documents(DocStatus.ready)} == {d.id for d in first.documents(DocStatus.ready)}
    assert second.check_consistency()["consistent"]  # its BM25 index was filled from the shared chunk table
    hits = Retriever(second).search("vitamin D birth weight", k=3)
    assert hits and "Vitamin D" in hits[0].doc_title
    chinese = Retriever(second).search("睡眠 记忆", k=3)  # Chinese words through the BM25 cache (jieba)
    assert chinese and chinese[0].doc_title == "睡眠与记忆"

    removed = second.remove(hits[0].chunk.doc_id)
    first.sync()
    assert removed.id not in first.ready_ids() and removed.id not in first.text_index.doc_ids()
    assert first.check_consistency()["consistent"]
    first.close()
    second.close()


def test_two_concurrent_writers_lose_nothing_and_duplicate_nothing(store, tmp_path, embedder, pdfs):
    writers = [open_at(store, tmp_path, f"writer-{n}", embedder, "two") for n in range(2)]
    results, errors = [], []

    def ingest(lib: Library) -> None:
        try:
            results.append(lib.ingest(pdfs))  # the same three files at once: each must land exactly once
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=ingest, args=(w,)) for w in writers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    reader = open_at(store, tmp_path, "reader", embedder, "two")
    docs = reader.documents(DocStatus.ready)
    assert len(docs) == 3
    vectors = reader.vectors
    for doc in docs:
        assert vectors.count(doc.id) == doc.chunks  # no chunk twice
    assert vectors.count() == sum(d.chunks for d in docs)
    assert reader.check_consistency()["consistent"]
    for lib in [*writers, reader]:
        lib.close()


def test_a_read_only_opening_refuses_writes_with_the_reason(store, tmp_path, embedder, pdfs):
    from courtroom_desktop.core.errors import LibraryError

    writer = open_at(store, tmp_path, "w", embedder, "three")
    writer.ingest(pdfs[:1])
    reader = open_at(store, tmp_path, "r", embedder, "three", read_only=True)
    assert len(reader.documents(DocStatus.ready)) == 1
    with pytest.raises(LibraryError, match="read-only"):
        reader.remove(reader.documents()[0].id)
    # marking a document private goes through the writer too (break: write the catalog directly, as the workspace
    # did, and a read-only opening changes what every machine sees)
    doc_id = reader.documents()[0].id
    with pytest.raises(LibraryError, match="read-only"):
        reader.set_private(doc_id, True)
    writer.set_private(doc_id, True)
    reader.catalog.sync(force=True)
    assert reader.catalog.get(doc_id).private
    writer.close()
    reader.close()


def test_a_writer_that_dies_mid_commit_leaves_nothing_the_next_writer_does_not_sweep(store, tmp_path, embedder, pdfs):
    """A writer killed after its chunks reached the table and before its catalog row did: its lease stops being
    renewed, the next writer takes the lock over once the lease has run out, and removes the orphaned chunks before
    it commits its own. Break: drop the sweep from SharedWriter._locked, and the orphans stay (the counts differ)."""
    dying = open_at(store, tmp_path, "dying", embedder, "four")
    dying.ingest(pdfs[:1])
    lock = dying.writer.commit_lock
    lock.lease_s = 1.0
    lock.acquire()
    orphan = dying.vectors.doc_chunks(dying.documents()[0].id)
    orphan = [c.model_copy(update={"doc_id": "deadbeefdeadbeef", "id": f"deadbeefdeadbeef-{c.ordinal:04d}"})
              for c in orphan]
    import numpy as np

    dying.vectors.add(orphan, np.zeros((len(orphan), dying.vectors.dim), np.float32))
    lock._stop.set()  # the process is gone: no renewal, no release
    lock._etag = None
    assert any(k.endswith("_courtroom/commit.lock") for k in store.keys("four/"))

    survivor = open_at(store, tmp_path, "survivor", embedder, "four")
    survivor.writer.commit_lock.poll_s = 0.1
    events = []
    finished = survivor.ingest(pdfs[1:2], on_event=events.append)
    assert finished.added == 1, [e for e in events if e.kind == "file_finished"]
    assert "deadbeefdeadbeef" not in survivor.vectors.doc_ids()
    assert survivor.vectors.count() == sum(d.chunks for d in survivor.documents(DocStatus.ready))
    assert survivor.check_consistency()["consistent"]
    dying.close()
    survivor.close()


def test_a_pdf_that_lives_only_on_object_storage_opens_with_its_passage_highlighted(store, tmp_path, embedder, pdfs):
    """The PDF is kept beside the library by content; a machine without it fetches it on first use into its cache
    and the passage's rectangles cover the passage's words there. Break: skip the upload in SharedWriter.write."""
    import shutil

    import pymupdf

    writer = open_at(store, tmp_path, "office", embedder, "five")
    writer.ingest(pdfs)
    assert sum(k.startswith("five/files/") and k.endswith(".pdf") for k in store.keys("five/")) == 3
    shutil.rmtree(pdfs[0].parent)  # the files are gone from where they were ingested

    home = open_at(store, tmp_path, "home", embedder, "five")
    hit = Retriever(home).search("statins muscle pain", k=1)[0]
    local = home.local_file(hit.doc_path)
    assert local != hit.doc_path and local.startswith(str(tmp_path / "home"))
    chunk = hit.chunk
    with pymupdf.open(local) as pdf:
        page = pdf[chunk.highlights[0].page]
        w, h = page.rect.width, page.rect.height
        words = " ".join(page.get_textbox(pymupdf.Rect(x0 * w, y0 * h, x1 * w, y1 * h))
                         for x0, y0, x1, y1 in (r for hl in chunk.highlights for r in hl.rects))
    assert "muscle pain" in " ".join(words.split())
    assert home.local_file(hit.doc_path) == local  # from the cache the second time
    home.close()
    writer.close()


def test_the_commit_lock_is_refused_renewed_and_taken_over_by_exactly_one(store):
    """The store's conditional writes, as the commit lock makes them through obstore: a second writer cannot create
    the lock while the first holds it (S3 and Azure ``If-None-Match: *``, GCS ``ifGenerationMatch=0``); the holder's
    renewals (``If-Match`` on its etag; on GCS its generation) keep it past its lease; once the holder is gone a writer
    takes it over, and another one taking over from the same stale lease is refused; the dead holder's late release
    leaves the new holder's lock alone. Break: make the create in CommitLock._try_acquire unconditional (mode
    "overwrite"), and the second writer takes a held lock; drop the version from CommitLock._match, and on GCS the
    renewals fail and the lock is lost."""
    import time

    import obstore
    from obstore.exceptions import PreconditionError

    from courtroom_desktop.core.errors import LibraryError
    from courtroom_desktop.core.library.shared.commit_lock import LOCK_PATH, CommitLock

    location = store.location("lock")

    def writer() -> CommitLock:
        return CommitLock(location, lease_s=1.0, wait_s=0.5, poll_s=0.1)

    first, second = writer(), writer()
    assert first.acquire() is False  # taken from nobody: nothing to sweep
    with pytest.raises(LibraryError, match="commit lock"):
        second.acquire()
    time.sleep(1.5)  # past the lease: only the renewals keep it
    with pytest.raises(LibraryError, match="commit lock"):
        second.acquire()
    assert first.holding

    first._stop.set()  # the holder dies: no more renewals, no release
    assert first._renewer is not None
    first._renewer.join()
    stale = obstore.head(first.store, LOCK_PATH)
    time.sleep(1.2)
    third = writer()
    assert third.acquire() is True  # taken over: dirty, the next writer sweeps
    with pytest.raises(PreconditionError):  # a fourth writer that read the same stale lease loses
        writer()._put(CommitLock._match(stale["e_tag"], stale.get("version")))
    first.release()  # the dead holder's late release: not its lock any more
    assert any(k.endswith(LOCK_PATH) for k in store.keys("lock/"))
    third.release()
    assert not any(k.endswith(LOCK_PATH) for k in store.keys("lock/"))
