"""The window over a team's library on object storage (the S3 server on loopback), opened read-only from the
settings: it says where the library lives, offers nothing that writes, lists the documents another machine stored,
and renders a page of a PDF that exists only on object storage (fetched into the cache off the window's thread)."""

from __future__ import annotations

import shutil

import pytest

from courtroom_desktop.core.config import AppConfig, LibrarySettings
from courtroom_desktop.core.library import Library
from testkit.s3 import ACCESS_KEY, SECRET_KEY

from .conftest import FAST_DEBATE, SAMPLES, HashEmbedder, run, until


@pytest.fixture(scope="module")
def s3():
    from testkit.s3 import S3Server

    with S3Server() as server:
        yield server


def test_a_read_only_shared_library_in_the_window(s3, tmp_path, make_window, qloop, monkeypatch):
    from courtroom_desktop.core.workspace import Workspace
    from tests.ui.conftest import scripted_router

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    papers = tmp_path / "papers"
    shutil.copytree(SAMPLES, papers)
    writer = Library(tmp_path / "office", LibrarySettings(), HashEmbedder(), location=s3.location("window"))
    writer.ingest(sorted(papers.glob("*.pdf"))[:2])
    stored = writer.documents()
    writer.close()
    shutil.rmtree(papers)  # only the shared library has them now

    library = LibrarySettings(uri=s3.uri("window"), endpoint=s3.endpoint, read_only=True)
    config = AppConfig(debate=FAST_DEBATE, library=library)
    ws = Workspace(tmp_path / "config", tmp_path / "data", config)
    location = ws.library.location
    ws.parts._library = Library(location.cache_folder(ws.data_dir), library, HashEmbedder(), location=location)
    ws.parts._router = scripted_router(config, None, 0.0)
    window = make_window(workspace=ws)
    panel = window.library_panel
    rendered, failed = [], []
    window.pages.sig_rendered.connect(lambda request, page: rendered.append(page))
    window.pages.sig_failed.connect(lambda request, why: failed.append(why))

    async def scenario():
        window.start_background()
        await until(lambda: len(window.library.documents) == 2, 30, "the shared documents to be listed")
        await until(lambda: "read-only" in panel.location.text(), 10, "where the library lives")
        window.pages.render(stored[0].path, 0)
        await until(lambda: rendered or failed, 30, "the page")

    run(qloop, scenario(), 90)
    assert "S3: s3://team-library/window" in panel.location.text()
    assert not panel.add_button.isEnabled() and not panel.folder_button.isEnabled()
    assert not failed and rendered[0].pages >= 1 and not rendered[0].image.isNull()


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray instance of two CPUs, started here in the main thread (as `courtroom ingest` does) and shut down
    at the end; the window's engine joins it."""
    pytest.importorskip("ray")
    from courtroom_desktop.core.library.ray_engine import RayEngine, shutdown

    RayEngine(workers=2)._ray()
    yield
    shutdown()


def test_the_window_adds_to_a_shared_library_on_ray_with_progress_and_cancel(s3, tmp_path, make_window, qloop,
                                                                             monkeypatch, ray_local, embedder):
    """library.ingest_engine = ray from the settings: the window's Add runs on Ray actors into the shared library,
    its progress reaches the panel, Cancel stops it with nothing stored by half, and adding again finishes the rest.
    Break: the service ignoring library.ingest_engine (the files read in this process: the ingest never touches
    Ray, and the test's check that the Ray engine ran fails)."""
    from courtroom_desktop.core.records import DocStatus, FileFinished, FileProgress, IngestFinished
    from courtroom_desktop.core.workspace import Workspace
    from tests.library.docs import make_structured
    from tests.ui.conftest import scripted_router

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    papers = tmp_path / "papers"
    papers.mkdir()
    for n in range(6):
        make_structured(papers / f"paper{n}.pdf", outline=n % 2 == 0, title=f"Report number {n}", paragraphs_per_section=4 + n)
    files = sorted(papers.glob("*.pdf"))
    library = LibrarySettings(uri=s3.uri("window-ray"), endpoint=s3.endpoint, ingest_engine="ray", ray_workers=2,
                              isolate_extraction=False)
    config = AppConfig(debate=FAST_DEBATE, library=library)
    ws = Workspace(tmp_path / "config", tmp_path / "data", config)
    location = ws.library.location
    # the bundled embedder: the Ray workers build theirs from the same settings, and the two must agree
    ws.parts._library = Library(location.cache_folder(ws.data_dir), library, embedder, location=location)
    ws.parts._router = scripted_router(config, None, 0.0)
    engine = ws.library.engine()
    assert type(engine).__name__ == "RayEngine" and engine.workers == 2
    prepared: list[str] = []
    real_prepare = type(engine).prepare

    def counting_prepare(self, lib, paths, emit, cancel, force):
        for item in real_prepare(self, lib, paths, emit, cancel, force):
            prepared.append(str(item.path))
            yield item

    monkeypatch.setattr(type(engine), "prepare", counting_prepare)
    window = make_window(workspace=ws)
    events: list[object] = []
    window.library.sig_ingest_event.connect(events.append)

    async def scenario():
        window.start_background()
        await until(lambda: not window.library.tasks.running, 30, "the library to open")
        window.library.ingest(files)
        await until(lambda: any(isinstance(e, FileFinished) for e in events), 120, "a first file stored")
        window.library_panel.cancel_button.click()
        await until(lambda: any(isinstance(e, IngestFinished) for e in events), 60, "the ingest to stop")
        await until(lambda: not window.library.tasks.running, 30, "the panel to refresh")

    run(qloop, scenario(), 240)
    first = next(e for e in events if isinstance(e, IngestFinished))
    assert first.cancelled and prepared and any(isinstance(e, FileProgress) for e in events)
    stored = ws.parts.library.documents(DocStatus.ready)
    assert 1 <= len(stored) < len(files)
    for doc in stored:  # nothing stored by half
        assert ws.parts.library.vectors.count(doc.id) == doc.chunks
    events.clear()

    async def again():
        window.library.ingest(files)
        await until(lambda: any(isinstance(e, IngestFinished) for e in events), 180, "the second ingest")
        await until(lambda: not window.library.tasks.running, 30, "the panel to refresh")

    run(qloop, again(), 240)
    second = next(e for e in events if isinstance(e, IngestFinished))
    assert not second.cancelled and second.added + len(stored) == len(files) and second.skipped == len(stored)
    assert len(window.library.documents) == len(files)
