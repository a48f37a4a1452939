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
