"""Ingest on a real local Ray instance (two CPUs), into a library on the S3 server on loopback: files read, chunked
and embedded by Ray actors, stored once by the process that asked; a worker killed in the middle of a file loses no
document and duplicates none; cancel stops it."""

from __future__ import annotations

import os
import signal
import threading
import time

import psutil
import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import CancelToken, Library
from courtroom_desktop.core.records import DocStatus, FileFinished, FileOutcome

from ..library.docs import make_structured

SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=8,
                           isolate_extraction=False)


@pytest.fixture(scope="module")
def ray_engine():
    pytest.importorskip("ray")
    from courtroom_desktop.core.library.ray_engine import RayEngine, shutdown

    engine = RayEngine(workers=2)
    engine._ray()
    yield engine
    shutdown()


@pytest.fixture
def many_pdfs(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    for n in range(5):
        make_structured(folder / f"paper{n}.pdf", outline=n % 2 == 0, title=f"Report number {n}",
                        paragraphs_per_section=3 + n)
    return sorted(folder.glob("*.pdf"))


class Counting:
    """The library's embedder, counting what storing asks of it: with Ray, nothing (the workers embedded)."""

    def __init__(self, inner):
        self.inner, self.encoded = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def encode(self, texts):
        self.encoded += len(texts)
        return self.inner.encode(texts)


def test_ray_fills_a_shared_library_and_the_driver_embeds_nothing(s3, tmp_path, embedder, many_pdfs, ray_engine):
    counting = Counting(embedder)
    lib = Library(tmp_path / "driver", SETTINGS, counting, location=s3.location("ray-one"))
    events = []
    finished = lib.ingest(many_pdfs, on_event=events.append, engine=ray_engine)
    assert finished.added == len(many_pdfs) and finished.failed == 0
    assert counting.encoded == 0
    assert sum(1 for e in events if isinstance(e, FileFinished)) == len(many_pdfs)
    assert lib.check_consistency()["consistent"]
    # the same vectors as a local ingest of the same files: the workers ran the library's embedder
    local = Library(tmp_path / "local", SETTINGS, embedder)
    local.ingest(many_pdfs[:1])
    doc_id = local.documents()[0].id
    import numpy as np

    ids = [c.id for c in local.doc_chunks(doc_id)]
    ours, theirs = lib.vectors.fetch(ids), local.vectors.fetch(ids)
    assert set(ours) == set(theirs) == set(ids)
    for chunk_id in ids:
        assert ours[chunk_id][0].text == theirs[chunk_id][0].text
        assert np.allclose(ours[chunk_id][1], theirs[chunk_id][1], atol=1e-4)
    again = lib.ingest(many_pdfs, engine=ray_engine)
    assert again.skipped == len(many_pdfs) and again.added == 0
    lib.close()
    local.close()


def _kill_a_busy_worker(stop: threading.Event, killed: list[int]) -> None:
    """SIGKILL the first Ray worker seen preparing a file (Ray names the process after the method it runs)."""
    while not stop.is_set() and not killed:
        for proc in psutil.process_iter(["pid", "cmdline"]):
            cmdline = " ".join(proc.info.get("cmdline") or [])
            if "_Preparer.prepare" in cmdline and proc.pid != os.getpid():
                os.kill(proc.pid, signal.SIGKILL)
                killed.append(proc.pid)
                return
        time.sleep(0.01)


def test_a_worker_killed_mid_file_loses_nothing_and_duplicates_nothing(s3, tmp_path, embedder, many_pdfs,
                                                                       ray_engine):
    lib = Library(tmp_path / "driver", SETTINGS, embedder, location=s3.location("ray-two"))
    stop, killed = threading.Event(), []
    killer = threading.Thread(target=_kill_a_busy_worker, args=(stop, killed))
    killer.start()
    try:
        finished = lib.ingest(many_pdfs, engine=ray_engine)
    finally:
        stop.set()
        killer.join()
    assert killed, "no worker was seen preparing a file"
    assert finished.added == len(many_pdfs) and finished.failed == 0
    docs = lib.documents(DocStatus.ready)
    assert len(docs) == len(many_pdfs)
    assert lib.vectors.count() == sum(d.chunks for d in docs)
    assert lib.check_consistency()["consistent"]
    lib.close()


def test_cancel_stops_a_ray_ingest_and_stores_nothing_half(s3, tmp_path, embedder, many_pdfs, ray_engine):
    lib = Library(tmp_path / "driver", SETTINGS, embedder, location=s3.location("ray-three"))
    cancel = CancelToken()
    outcomes = []

    def on_event(event):
        if isinstance(event, FileFinished):
            outcomes.append(event.outcome)
            cancel.cancel()  # after the first file is stored

    finished = lib.ingest(many_pdfs, on_event=on_event, cancel=cancel, engine=ray_engine)
    assert finished.cancelled and FileOutcome.cancelled in outcomes
    assert 1 <= finished.added < len(many_pdfs)
    assert lib.check_consistency()["consistent"]
    assert len(lib.documents(DocStatus.ready)) == finished.added
    lib.close()


def test_ray_workers_embed_through_an_openai_compatible_server_in_batches(s3, tmp_path, many_pdfs, ray_engine):
    """With library.embedder = 'openai' every actor sends its passages to the embedding server (a TEI or vLLM server
    in a team; the fake one on loopback here), embed_batch at a time, and the driver sends none."""
    from testkit.fake_embed import FakeEmbedServer

    with FakeEmbedServer() as server:
        settings = SETTINGS.model_copy(update={"embedder": "openai", "embedding_model": server.model,
                                               "embedding_url": server.openai_url})
        lib = Library(tmp_path / "driver", settings, location=s3.location("ray-four"))
        finished = lib.ingest(many_pdfs[:3], engine=ray_engine)
        assert finished.added == 3 and finished.failed == 0
        sizes = [len(r["input"]) for r in server.requests if "input" in r and r["input"] != ["dimension probe"]]
        docs = lib.documents(DocStatus.ready)
        assert sum(sizes) == sum(d.chunks for d in docs)  # every passage once, all through the server
        assert max(sizes) <= settings.embed_batch and len(sizes) >= 3
        assert lib.embedder.identity.startswith("openai:fake-embed@")
        assert lib.check_consistency()["consistent"]
        lib.close()


def test_the_driver_reads_each_file_once(s3, tmp_path, embedder, many_pdfs, ray_engine, monkeypatch):
    """The driver's reads of the files it hands to Ray: one each (its hash, the bytes the worker gets and the shared
    library's stored copy come from that one read). Break: the driver hashing the file on its own again (triage
    without the sha), and each file is read twice."""
    from collections import Counter
    from pathlib import Path

    opened: Counter[str] = Counter()
    real_open = Path.open

    def counting_open(self, *args, **kwargs):
        if self.suffix == ".pdf" and str(self) in {str(p) for p in many_pdfs}:
            opened[str(self)] += 1
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counting_open)
    lib = Library(tmp_path / "driver", SETTINGS, embedder, location=s3.location("ray-once"))
    finished = lib.ingest(many_pdfs, engine=ray_engine)
    assert finished.added == len(many_pdfs)
    assert opened == Counter({str(p): 1 for p in many_pdfs})
    assert all(k.startswith("ray-once/files/") for k in s3.keys("ray-once/files/")) and len(
        s3.keys("ray-once/files/")) == len(many_pdfs)  # the stored copies
    lib.close()
