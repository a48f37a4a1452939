"""Window tests, offscreen: a qasync loop per test, a library embedded with a fast hashing embedder (copied from one
ingested once per session), and scripted chat models, so every test but the real-model one takes seconds.

Async scenarios run as ``run(loop, scenario())``: the qasync loop drives Qt and asyncio together, so clicks, timers,
worker threads and the engine's tasks all make progress while the scenario awaits conditions with ``until``."""

from __future__ import annotations

import asyncio
import gc
import re
import shutil
import zlib
from pathlib import Path

import numpy as np
import pytest

from courtroom_desktop.core.config import AppConfig, DebateSettings, LibrarySettings
from courtroom_desktop.core.library import Embedder, Library
from courtroom_desktop.ui.tasks import wait_until

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
_CLOSED_LOOPS: list = []
FAST_DEBATE = DebateSettings(min_rounds=2, max_rounds=3, confidence_threshold=0.8, max_switches=1)


class HashEmbedder(Embedder):
    """Bag-of-words hashed into 64 dimensions: deterministic, instant, and good enough for BM25 + vector fusion."""

    def __init__(self):
        super().__init__("hash-test-64", 64)

    @property
    def dim(self) -> int:
        return 64

    def encode(self, texts):
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                out[row, zlib.crc32(word.encode()) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def open_library(data_dir: Path, settings: LibrarySettings | None = None) -> Library:
    return Library.open(data_dir / "library", settings or LibrarySettings(), HashEmbedder())


@pytest.fixture(scope="session")
def sample_library_template(tmp_path_factory) -> Path:
    """A data folder whose library holds the six sample PDFs (hash-embedded), ingested once per session."""
    data = tmp_path_factory.mktemp("sample-data")
    library = open_library(data)
    library.ingest(sorted(SAMPLES.glob("*.pdf")))
    library.close()
    return data


def scripted_router(config: AppConfig, judge=None, counsel_delay: float = 0.0):
    from courtroom_desktop.core.llm import ModelRouter, ScriptedChatModel
    from tests.court.fakes import assess_all, counsel, ruling, verdict

    judge_replies = judge if judge is not None else [
        ruling(0.55, questions=["Was the effect measured in a randomised trial?"]),
        ruling(0.85, ready=True, reason="the randomised trial [E1] decides it"),
        verdict(),
    ]
    return ModelRouter(config.models, overrides={
        "prosecution": ScriptedChatModel([counsel] * 60, role="prosecution", token_delay_s=counsel_delay),
        "defense": ScriptedChatModel([counsel] * 60, role="defense", token_delay_s=counsel_delay),
        "judge": ScriptedChatModel(judge_replies, role="judge", standing={"EvidenceAssessment": assess_all()}),
    })


def make_workspace(tmp_path: Path, template: Path | None = None, config: AppConfig | None = None, judge=None,
                   counsel_delay: float = 0.0):
    """A Workspace over a copy of ``template`` (or an empty data folder), hash-embedded, with scripted models and a
    scripted claim verifier that agrees with the scripted judge (it reads the first passage of each batch as
    supporting the claim, the rest as neither: a trial's label, by the label rule, is the judge's 'supported')."""
    from courtroom_desktop.core.workspace import Workspace
    from testkit.verifier import NEITHER, ScriptedVerifier, reading

    data = tmp_path / "data"
    if template is not None:
        shutil.copytree(template, data)
    config = config or AppConfig(debate=FAST_DEBATE)
    ws = Workspace(tmp_path / "config", data, config)
    ws.parts._library = open_library(data, config.library)  # tests pass collaborators in: the hashing embedder
    ws.parts._router = scripted_router(config, judge, counsel_delay)
    ws.parts._verifier = ScriptedVerifier(lambda claim, passage, position: reading(0.8) if position == 0 else NEITHER)
    return ws


@pytest.fixture(autouse=True)
def _no_model_servers(monkeypatch):
    """The window looks for model servers on first run: in tests, nowhere (a test that wants some names them)."""
    monkeypatch.setenv("COURTROOM_MODEL_SERVERS", "none")


@pytest.fixture
def qloop(qapp):
    from courtroom_desktop.ui.tasks import make_event_loop

    loop = make_event_loop(qapp)
    yield loop
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    finally:
        loop.close()
        asyncio.set_event_loop(None)
        # Closed loops are kept for the session: their QObjects (qasync's timer and signaller) must never be
        # destroyed in a worker thread that happened to hold the last reference (Qt then fires a timer into freed
        # memory); the application has one loop for its whole life, so only tests need this.
        _CLOSED_LOOPS.append(loop)
        gc.collect()


def run(loop, coro, timeout: float = 60.0):
    """Run ``coro`` on the window's loop until it finishes (``timeout`` seconds at most). Not qasync's
    run_until_complete: that ends with one more pass over Qt's events after the loop has stopped, which runs whatever
    asyncio callback is queued by then with no running loop; a task a click had just spawned then took its first step
    there and failed in asyncio.to_thread ("no running event loop": seen in test_record_navigation on a loaded
    machine). run_forever has no such tail: what is queued waits for the next run, as in the app, whose loop never
    stops."""
    future = asyncio.ensure_future(asyncio.wait_for(coro, timeout), loop=loop)
    future.add_done_callback(lambda _: loop.stop())
    loop.run_forever()
    if not future.done():
        raise RuntimeError("the event loop stopped before the scenario finished")
    return future.result()


def click(loop, widget) -> None:
    """A mouse click on ``widget`` made inside the running asyncio loop. QTest's click processes Qt events, and qasync
    runs asyncio callbacks from them: outside ``run`` the loop is not running, so work the click starts (a trial, an
    ingest) could take its first steps with no running loop ("bound to a different event loop"), which never happens
    in the app, whose loop always runs."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    async def clicked() -> None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)

    run(loop, clicked())


async def until(predicate, timeout: float = 20.0, what: str = "condition"):
    return await wait_until(predicate, timeout, what, poll_s=0.02)


async def opened(window, timeout: float = 30.0):
    """Start the window's background work inside the running loop (as run_app does once the window shows) and wait
    until the library is listed and the models are loaded."""
    window.start_background()
    await until(lambda: window.workspace.models_ready and not window.library.tasks.running, timeout,
                "the workspace to open")
    return window


@pytest.fixture
def ui_settings(tmp_path):
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat)
    yield settings
    settings.sync()


@pytest.fixture
def make_window(qloop, qtbot, ui_settings, tmp_path):
    """make_window(workspace=None, template=..., **workspace_kwargs) -> a shown MainWindow (``await opened(window)``
    in the scenario starts its background work); closed and shut down at the end of the test."""
    from courtroom_desktop.ui.app import create_window

    windows = []

    def factory(workspace=None, settings=None, **kwargs):
        ws = workspace or make_workspace(tmp_path, **kwargs)
        window = create_window(ws.config_dir, ws.data_dir, settings or ui_settings, workspace=ws)
        window.show()
        windows.append(window)
        return window

    yield factory
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from courtroom_desktop.ui import theme

    for window in windows:  # closed and shut down here, not by qtbot: shutdown needs the window's controllers
        window.close()
        run(qloop, window.shutdown(), 60)
        window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    theme.apply_appearance(QApplication.instance(), "system")


@pytest.fixture
def sample_window(make_window, sample_library_template):
    """A window over the sample library, its documents listed."""
    return make_window(template=sample_library_template)
