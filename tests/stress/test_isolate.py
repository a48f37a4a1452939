"""Extraction in a child process (core.library.read.isolate): same result as in-thread, a hard deadline on a page
PyMuPDF never finishes, a crashed child reported for its file only, and the library wired to it."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from courtroom_desktop.core.errors import Cancelled, IngestError
from courtroom_desktop.core.library.read.extract import extract
from courtroom_desktop.core.library.read.isolate import LINES_PER_MESSAGE, ExtractWorker
from courtroom_desktop.core.records import FileFinished, FileOutcome
from stress.common import HashEmbedder, library_settings, write_baseline
from stress.fuzzpdf import FUZZ_WORDS, k_enormous_page, k_nested_outlines, k_odd_text


@pytest.fixture
def worker():
    w = ExtractWorker()
    yield w
    w.close()


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    """One page of two million text runs: PyMuPDF takes over a minute on it, in C."""
    folder = tmp_path_factory.mktemp("bomb")
    return next(f.path for f in k_enormous_page(random.Random(1), folder, 0) if "content-bomb" in f.path.name)


def test_same_document_as_in_thread_with_progress(worker, sample_pdfs):
    pages = []
    isolated = worker.extract(sample_pdfs[0], on_page=lambda done, total: pages.append((done, total)))
    local = extract(sample_pdfs[0])
    assert isolated.text == local.text and isolated.headings == local.headings and isolated.title == local.title
    assert list(isolated.line_of) == list(local.line_of)
    assert pages[-1] == (local.pages, local.pages)
    assert worker.started == 1
    worker.extract(sample_pdfs[1])
    assert worker.started == 1  # one child, reused


def test_a_long_document_arrives_whole_in_pieces(worker, sample_pdfs, tmp_path):
    """The child sends a document's lines in several messages (one big message held the GIL ~100 ms while it was
    unpickled, freezing the window): every line must arrive, in order, with its character boxes."""
    import pymupdf

    merged = pymupdf.open()
    for pdf in sample_pdfs:
        with pymupdf.open(pdf) as part:
            merged.insert_pdf(part)
    path = tmp_path / "merged.pdf"
    merged.save(path)
    local = extract(path)
    assert len(local.lines) > 2 * LINES_PER_MESSAGE
    isolated = worker.extract(path)
    assert isolated.lines == local.lines
    assert list(isolated.col_of) == list(local.col_of) and isolated.paragraph_breaks == local.paragraph_breaks


def test_a_page_that_never_finishes_is_cut_off_and_the_next_file_still_reads(worker, bomb, sample_pdfs):
    began = time.perf_counter()
    with pytest.raises(Cancelled):
        worker.extract(bomb, cancelled=lambda: time.perf_counter() - began > 1.0)
    assert time.perf_counter() - began < 4.0
    assert worker.killed == 1
    assert worker.extract(sample_pdfs[0]).text  # a fresh child
    assert worker.started == 2


def test_a_child_that_dies_fails_its_file_only(worker, bomb, sample_pdfs):
    worker.extract(sample_pdfs[0])
    pid = worker.pid
    threading.Timer(0.5, lambda: os.kill(pid, signal.SIGKILL)).start()
    with pytest.raises(IngestError, match=r"crashed the text extractor \(signal 9\)"):
        worker.extract(bomb, cancelled=lambda: False)
    assert worker.extract(sample_pdfs[1]).text


def test_errors_come_back_with_their_reason(worker, tmp_path):
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(IngestError, match="empty file"):
        worker.extract(empty)


def test_the_child_ends_with_its_parent_pipe(worker, sample_pdfs):
    """The child must leave by itself on the end of its input, soon: ``close()`` waits 5 s for that, then kills it,
    so only the exit status (0, not -SIGKILL) and the time tell the two apart."""
    worker.extract(sample_pdfs[0])
    proc = worker._proc
    began = time.monotonic()
    worker.close()
    assert proc.returncode == 0, f"the child did not exit by itself on EOF (status {proc.returncode})"
    assert time.monotonic() - began < 3.0


@pytest.mark.parametrize("isolate", [True, False])
def test_library_gives_up_on_a_pathological_file_and_keeps_the_rest(tmp_path, bomb, isolate):
    from courtroom_desktop.core.library import Library

    if not isolate:  # in-thread, the same file cannot be stopped: only a normal file is ingested
        bomb = None
    library = Library.open(tmp_path / "lib", library_settings(file_timeout_s=2.0, isolate_extraction=isolate),
                           HashEmbedder())
    try:
        good = write_baseline(tmp_path / "docs", 1)
        events = []
        began = time.perf_counter()
        library.ingest([p for p in (bomb, *good) if p], on_event=events.append)
        outcomes = {e.path: e for e in events if isinstance(e, FileFinished)}
        assert outcomes[str(good[0])].outcome == FileOutcome.added
        if bomb:
            assert outcomes[str(bomb)].outcome == FileOutcome.failed
            assert "gave up after 2 s" in outcomes[str(bomb)].reason
            assert time.perf_counter() - began < 20
        assert library.check_consistency()["consistent"] and len(library.documents()) == 1
        assert (library._extractor is not None) == isolate
    finally:
        library.close()


def test_outline_thousands_deep_falls_back_to_font_headings(tmp_path):
    path = next(f.path for f in k_nested_outlines(random.Random(2), tmp_path, 0) if "outline-5000" in f.path.name)
    doc = extract(path)  # PyMuPDF's get_toc recursed past Python's limit: the whole file used to be rejected
    assert doc.pages == 1 and any(w in doc.text for w in FUZZ_WORDS)


def test_an_enormous_title_is_capped(tmp_path):
    path = k_odd_text(random.Random(3), tmp_path, 0)[0].path
    doc = extract(path)
    assert 0 < len(doc.title) <= 300 and len(doc.authors) <= 300


def test_without_the_childs_alarm_the_parents_deadline_still_ends_a_stuck_file(bomb, sample_pdfs, monkeypatch):
    """As on Windows, where signal.alarm does not exist (isolate.NO_ALARM_ENV forces it here): the child reads a file
    as before, and a page it never finishes is ended by the parent's deadline, past the moment the child's own alarm
    would have fired. Break: the variable ignored (the alarm kept), and the child dies of SIGALRM first: the file is
    reported as a crash (signal 14) instead."""
    from courtroom_desktop.core.library.read.isolate import ALARM_GRACE_S, NO_ALARM_ENV

    monkeypatch.setenv(NO_ALARM_ENV, "1")  # the child copies the environment when it starts
    worker = ExtractWorker()
    try:
        assert worker.extract(sample_pdfs[0]).text
        began = time.perf_counter()
        with pytest.raises(Cancelled):
            worker.extract(bomb, deadline_s=1.0, cancelled=lambda: time.perf_counter() - began > ALARM_GRACE_S + 4)
        assert worker.killed == 1
    finally:
        worker.close()
