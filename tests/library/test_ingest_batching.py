"""Small files are stored in batches (Library.ingest): one embedding call, one LanceDB append and one tantivy commit
for many one-page PDFs, with every guarantee of the file-by-file protocol kept: a failure fails only its own file, a
cancel leaves the stores and the catalog as they were, a crash mid-batch leaves only pending rows that the next open
purges. Real PDFs, the real model, real LanceDB and tantivy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import CancelToken, Embedder, Library
from courtroom_desktop.core.library.files import sha256_file
from courtroom_desktop.core.library.store.embedding_cache import embed_cached
from courtroom_desktop.core.library.store.handoff import Handoff
from courtroom_desktop.core.library.store.storing import BATCH_CHUNKS
from courtroom_desktop.core.records import DocStatus, FileFinished, FileOutcome, FileProgress
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

from .docs import paragraph

SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=2)


def make_small(path: Path, seed: int) -> None:
    """A one-page PDF of two short sections (two or three chunks), its text unlike any other seed's."""
    spec = DocSpec(title=f"Small Report {seed}", sections=[
        SectionSpec(1, "1 Background", [paragraph(seed * 3 + 100)]),
        SectionSpec(1, "2 Findings", [paragraph(seed * 3 + 101), paragraph(seed * 3 + 102)]),
    ])
    render_pdf(spec, path, outline=False)


def make_folder(folder: Path, count: int, first_seed: int = 0) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"small-{first_seed + i:03d}.pdf" for i in range(count)]
    for seed, path in enumerate(paths, start=first_seed):
        make_small(path, seed)
    return paths


class HeldEmbedder(Embedder):
    """The real model. While ``hold`` is set, the first encode of an ingest waits until every file has been
    prepared and handed to storing (``handed``, called by the ``held`` fixture's spy on Handoff.put; 30 s at most), so
    that the batches formed do not depend on how fast this machine extracts; counts what it embeds."""

    def __init__(self, inner: Embedder):
        super().__init__(inner.name, inner.batch)
        self._model = inner._model
        self.encoded = 0
        self.expected = 0
        self.prepared = 0
        self.all_prepared = threading.Event()
        self.hold = True

    def expect(self, files: int) -> None:
        self.expected, self.prepared = files, 0
        self.all_prepared.clear()
        self.released = False

    def handed(self) -> None:
        """A prepared file is in the hand-over to storing."""
        self.prepared += 1
        if self.prepared >= self.expected:
            self.all_prepared.set()

    def encode(self, texts):
        if self.hold and self.expected and not self.released:
            # (not for ever: an ingest that holds fewer files ahead would wait here in vain)
            self.all_prepared.wait(30)
            self.released = True
        self.encoded += len(texts)
        return super().encode(texts)


class Spy:
    """Counts the calls of a store's method (the documents of each) and can make it fail, before it writes, when
    one document is among them."""

    def __init__(self, target, name: str, fail_for: str | None = None):
        self.calls: list[list[str]] = []
        self.fail_for = fail_for
        self._real = getattr(target, name)
        setattr(target, name, self)

    def __call__(self, *args, **kwargs):
        doc_ids = sorted({item if isinstance(item, str) else getattr(item, "doc_id", None) or item[0]
                          for item in args[0]})
        self.calls.append(doc_ids)
        writing = [item[0] for item in args[0] if isinstance(item, tuple) and item[1]]  # tantivy: not a purge
        if self.fail_for and self.fail_for in (writing if self._real.__name__ == "add_docs" else doc_ids):
            raise OSError(f"disk full while writing {self.fail_for}")
        return self._real(*args, **kwargs)


@pytest.fixture
def held(embedder, monkeypatch):
    embedder = HeldEmbedder(embedder)
    put = Handoff.put

    def spied(handoff, item):
        put(handoff, item)
        if item is not None:
            embedder.handed()

    monkeypatch.setattr(Handoff, "put", spied)
    return embedder


@pytest.fixture
def library(tmp_path, held):
    lib = Library.open(tmp_path / "lib", SETTINGS, held)
    yield lib
    lib.close()


def ingest(library: Library, paths, cancel: CancelToken | None = None, on_event=None, force: bool = False):
    events: list = []
    paths = list(paths)
    library.embedder.expect(len([p for p in paths if Path(p).suffix == ".pdf"]))

    def sink(event):
        events.append(event)
        if on_event:
            on_event(event)

    finished = library.ingest(paths, on_event=sink, cancel=cancel, force=force)
    return finished, [e for e in events if isinstance(e, FileFinished)]


def state(library: Library) -> dict:
    check = library.check_consistency()
    assert check["consistent"], check
    assert not library.documents(DocStatus.pending) and not library.documents(DocStatus.removing)
    return {d.id: (d.path, d.chunks) for d in library.documents(DocStatus.ready)}


def test_many_small_files_are_stored_in_a_few_commits(library, tmp_path):
    paths = make_folder(tmp_path / "docs", 12)
    tantivy = Spy(library.text_index, "add_docs")
    appends = Spy(library.vectors, "add")
    deletes = Spy(library.vectors, "delete_docs")
    version = library.vectors.table.version
    finished, done = ingest(library, paths)

    assert (finished.added, finished.failed) == (12, 0)
    assert sorted(Path(e.path).name for e in done) == sorted(p.name for p in paths)  # one event per file
    assert all(e.outcome == FileOutcome.added and e.chunks for e in done)
    # the first file goes as soon as it is ready, the other eleven together: not a commit per file
    assert len(tantivy.calls) <= 3 and len(appends.calls) == len(tantivy.calls), (tantivy.calls, appends.calls)
    assert max(len(ids) for ids in tantivy.calls) >= 8
    ready = state(library)
    assert len(ready) == 12 and finished.chunks == sum(chunks for _, chunks in ready.values()) < BATCH_CHUNKS
    assert deletes.calls == []  # new documents: nothing to delete first
    # LanceDB: a version per append, and the one optimize() of the ingest (not one per file)
    assert library.vectors.table.version - version <= len(appends.calls) + 4
    # every file's chunks went through the embedder once, and search finds each document's own text
    assert library.embedder.encoded == finished.chunks
    for doc_id in ready:
        assert library.text_index.count(doc_id) == library.vectors.count(doc_id) == ready[doc_id][1]


def test_a_file_that_fails_to_store_fails_alone(library, tmp_path):
    first = make_folder(tmp_path / "first", 3)
    ingest(library, first)
    before = state(library)
    paths = make_folder(tmp_path / "docs", 8, first_seed=10)
    bad = sha256_file(paths[5])[:16]  # the sixth file's document id
    # tantivy fails after LanceDB took the batch: the batch must come out of LanceDB again
    tantivy = Spy(library.text_index, "add_docs", fail_for=bad)
    finished, done = ingest(library, paths)

    assert (finished.added, finished.failed) == (7, 1)
    outcomes = {Path(e.path).name: (e.outcome, e.reason) for e in done}
    assert len(done) == 8 and outcomes[paths[5].name][0] == FileOutcome.failed
    assert "could not be stored (disk full while writing" in outcomes[paths[5].name][1]
    assert [p for p, _ in library.catalog.failures()] == [str(paths[5])]
    after = state(library)
    assert before.items() <= after.items()  # nothing that was ready is lost
    assert len(after) == 3 + 7 and bad not in after
    assert library.vectors.count(bad) == 0 and library.text_index.count(bad) == 0
    assert max(len(ids) for ids in tantivy.calls) >= 6  # it was a batch, then one file at a time
    # one file at a time took the vectors from the catalog's cache: every chunk was embedded once
    assert library.embedder.encoded == sum(c for _, c in before.values()) + finished.chunks + _chunks_of(
        library, paths[5])


def _chunks_of(library: Library, path: Path) -> int:
    """How many chunks a file makes (it is prepared again, nothing is stored)."""
    return len(library._prepare(path, lambda event: None, CancelToken(), True).chunks)


def test_cancel_in_the_middle_of_a_batch_writes_nothing_and_loses_nothing(library, tmp_path):
    first = make_folder(tmp_path / "first", 3)
    ingest(library, first)
    before = state(library)
    paths = make_folder(tmp_path / "docs", 8, first_seed=10)
    cancel = CancelToken()
    embedded = []

    def on_event(event):
        if isinstance(event, FileProgress) and event.stage.value == "embed":
            embedded.append(event.path)
            if len(set(embedded)) >= 2:  # inside the batch of the other seven files
                cancel.cancel()

    finished, done = ingest(library, paths, cancel=cancel, on_event=on_event)
    assert finished.cancelled
    assert len(done) == 8 and len({e.path for e in done}) == 8  # every file is reported, once
    stored = [e for e in done if e.outcome == FileOutcome.added]
    assert len(stored) <= 1 and all(e.outcome == FileOutcome.cancelled for e in done if e not in stored)
    after = state(library)
    assert after == {**before, **{e.doc_id: after[e.doc_id] for e in stored}}
    assert library.catalog.failures() == []

    # a re-index cancelled mid-batch keeps every document as it was (the old code purged the one being embedded)
    library.settings = SETTINGS.model_copy(update={"chunk_tokens": 60})
    cancel = CancelToken()
    embedded.clear()
    finished, done = ingest(library, list(first) + paths, cancel=cancel, on_event=on_event, force=True)
    assert finished.cancelled and len(done) == 11
    changed = {e.doc_id for e in done if e.outcome in (FileOutcome.updated, FileOutcome.added)}
    assert len(changed) <= 1 and all(e.outcome == FileOutcome.cancelled for e in done if e.doc_id not in changed)
    now = state(library)
    assert after.keys() <= now.keys()
    assert {k: v for k, v in now.items() if k not in changed} == {k: v for k, v in after.items() if k not in changed}


CRASH_SCRIPT = """
import sys, threading, time
from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.store.handoff import Handoff
settings = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=2)
lib = Library.open(sys.argv[1], settings)
lib.ingest([sys.argv[2]])
print("first done", flush=True)
prepared, first_taken, files, handed = threading.Event(), threading.Event(), [0], [0]
def on_event(event):
    # the second file waits until storing has taken the first alone (its first encode), whatever the load; the
    # first encode then waits for every file to be prepared and handed to storing, so the other nine go as one batch
    if event.kind == "file_progress" and event.stage.value == "chunk":
        files[0] += 1
        if files[0] == 2:
            first_taken.wait(120)
put = Handoff.put
def spied(handoff, item):
    put(handoff, item)
    if item is not None:
        handed[0] += 1
        if handed[0] == int(sys.argv[4]):
            prepared.set()
Handoff.put = spied
encode = lib.embedder.encode
def held(texts):
    if not prepared.is_set():
        first_taken.set()
        prepared.wait(120)
    return encode(texts)
lib.embedder.encode = held
real = lib.text_index.add_docs
def add_docs(items):
    if len(items) > 1:  # a batch, after its LanceDB append: the process dies here
        print("batch", len(items), lib.vectors.count(), flush=True)
        time.sleep(600)
    return real(items)
lib.text_index.add_docs = add_docs
lib.ingest([sys.argv[3]], on_event=on_event)
print("second done", flush=True)
"""


def test_killed_in_the_middle_of_a_batch_leaves_only_what_was_ready(tmp_path, held):
    first = make_folder(tmp_path / "first", 3)
    second = make_folder(tmp_path / "second", 10, first_seed=20)
    root = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", CRASH_SCRIPT, str(root), str(first[0].parent),
                             str(second[0].parent), str(len(second))], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = []
    deadline = time.time() + 300
    for line in proc.stdout:
        lines.append(line.strip())
        if line.startswith("batch"):
            os.kill(proc.pid, signal.SIGKILL)
            break
        assert time.time() < deadline, lines
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, lines
    assert lines[0] == "first done" and lines[-1].startswith("batch")

    lib = Library.open(root, SETTINGS, held)
    try:
        ready = state(lib)  # the pending batch is purged from LanceDB (it was appended) and the catalog
        names = {Path(p).parent.name: set() for p, _ in ready.values()}
        for path, _ in ready.values():
            names[Path(path).parent.name].add(Path(path).name)
        assert names.pop("first") == {p.name for p in first}  # nothing that was ready is lost
        assert len(names.pop("second", ())) <= 1 and not names  # the batch left nothing (a lone first file may)
        batch, appended = (int(x) for x in lines[-1].split()[1:])
        assert batch >= 8 and appended > lib.vectors.count()  # the batch was in LanceDB when it died
        held.hold = False
        finished, _ = ingest(lib, second)
        assert finished.added + finished.skipped == 10 and finished.failed == 0
        assert held.encoded == 0  # every vector of the killed batch was cached before anything was written
        assert len(state(lib)) == 13
    finally:
        lib.close()


def test_texts_are_embedded_longest_first_and_each_vector_is_its_own_texts(library):
    """Within one call (a batch of files), texts go to the model by length, so that a batch of ``embed_batch`` pads
    little (one-page files each end with a short chunk); the vectors come back in the order of the texts."""
    texts = [paragraph(200 + i, sentences=1 + 5 * (i % 2)) for i in range(8)]  # short, long, short, long, ...
    calls = []
    real = library.embedder.encode

    def encode(batch):
        calls.append([len(t) for t in batch])
        return real(batch)

    library.embedder.encode = encode
    vectors = embed_cached(library.catalog, library.embedder, texts, CancelToken(), batch=2)
    del library.embedder.encode
    assert len(calls) == 4 and all(min(a) >= max(b) for a, b in zip(calls, calls[1:]))  # longest first
    assert calls[0] == sorted((len(t) for t in texts), reverse=True)[:2]
    for text, vector in zip(texts, vectors):
        alone = real([text])[0]
        assert float(vector @ alone) > 0.9999  # its own text's vector (padding moves the last digits)
