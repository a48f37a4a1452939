"""Blocking calls from the window run in worker threads below the GUI thread's CPU priority (Linux: nice), and what
those workers start (llama.cpp's and torch's OpenMP pools, the extraction child) inherits it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading

import pytest

from courtroom_desktop.ui.tasks import WORKER_NICE, lower_thread_priority, worker_nice

from .conftest import run

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")


def thread_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux
def test_the_loops_workers_run_below_the_gui_thread(qloop):
    gui = thread_nice()

    def in_worker():
        seen = {"worker": thread_nice()}
        child = threading.Thread(target=lambda: seen.setdefault("its_thread", thread_nice()))
        child.start()
        child.join()
        seen["its_process"] = int(subprocess.run([sys.executable, "-c", "import os; print(os.nice(0))"],
                                                 capture_output=True, text=True, check=True).stdout)
        return seen

    seen = run(qloop, asyncio.to_thread(in_worker))
    expected = min(19, gui + WORKER_NICE)
    assert seen == {"worker": expected, "its_thread": expected, "its_process": expected}
    assert thread_nice() == gui, "the GUI thread keeps its priority"


@linux
def test_worker_nice_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("COURTROOM_WORKER_NICE", "0")
    assert worker_nice() == 0
    done = {}
    thread = threading.Thread(target=lambda: done.update(changed=lower_thread_priority(), nice=thread_nice()))
    before = thread_nice()
    thread.start()
    thread.join()
    assert done == {"changed": False, "nice": before}
    monkeypatch.setenv("COURTROOM_WORKER_NICE", "40")
    assert worker_nice() == 19
    monkeypatch.setenv("COURTROOM_WORKER_NICE", "soon")
    assert worker_nice() == WORKER_NICE


def test_every_controller_reports_its_failed_tasks_on_the_inherited_sig_error(qloop):
    from courtroom_desktop.core.errors import CourtroomError
    from courtroom_desktop.ui.controllers import Controller
    from courtroom_desktop.ui.controllers.export import ExportController
    from courtroom_desktop.ui.controllers.history import HistoryController
    from courtroom_desktop.ui.controllers.library import LibraryController
    from courtroom_desktop.ui.controllers.pages import PageRenderer
    from courtroom_desktop.ui.controllers.settings import SettingsController
    from courtroom_desktop.ui.controllers.trial import TrialController
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController

    async def fail():
        raise CourtroomError("it broke")

    kinds = (ExportController, HistoryController, LibraryController, PageRenderer, SettingsController, TrialController,
             WorkspaceController)
    for kind in kinds:
        assert issubclass(kind, Controller) and "sig_error" not in vars(kind), kind
    controllers = [ExportController(None), HistoryController(None), LibraryController(None), PageRenderer(),
                   SettingsController(None), TrialController(None)]
    seen = []
    for controller in controllers:
        controller.sig_error.connect(lambda *error, c=controller: seen.append((type(c), error)))
        run(qloop, controller.tasks.spawn(fail(), "Failing"))
    assert seen == [(type(c), ("Failing", "it broke", "")) for c in controllers]
