"""What the window's thread pays for: the light parts of the library it imports on its own thread (the cancel token
of an ingest, the folder watcher) bring no numpy, PyMuPDF or pyarrow with them, and full garbage collections wait
until the first preload is done (ui/collector.py). The stalls themselves are measured by bench/ui.py."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

from courtroom_desktop.ui import collector

HEAVY = ("numpy", "pymupdf", "pyarrow", "lancedb", "onnxruntime", "llama_cpp", "tantivy")


def test_what_the_window_imports_on_its_thread_brings_nothing_heavy():
    code = (
        "import json, sys\n"
        "import courtroom_desktop.ui.app\n"
        "from courtroom_desktop.core.services.library import CancelToken, FolderWatcher, folders_of\n"
        "import courtroom_desktop.core.library\n"
        "CancelToken().cancel()\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_full_collections_wait_for_the_first_preload(monkeypatch):
    monkeypatch.setattr(collector, "_held", None)
    monkeypatch.setattr(collector, "_settled", False)
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        collector.defer_full_collections()
        assert collector.deferring() and gc.get_threshold()[:2] == before[:2] and gc.get_threshold()[2] >= 10**6
        assert gc.get_freeze_count() >= frozen
        made = [[i] for i in range(1000)]  # objects of the preload
        collector.settle()
        assert not collector.deferring() and gc.get_threshold() == before
        assert gc.get_freeze_count() >= frozen + len(made)  # what the preload loaded is frozen too
        collector.defer_full_collections()  # once settled, never deferred again (a second window, a reload)
        assert gc.get_threshold() == before
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_zotero_check_imports_its_reader_off_the_window_thread():
    """The window's Zotero check (once the library opens, then every few minutes) imports the Zotero reader, and
    with it httpx, in a worker thread: on the window's thread that was a 0.3 s stall (bench/ui.py)."""
    code = (
        "import asyncio, json, sys, threading\n"
        "from courtroom_desktop.ui.controllers.library import LibraryController\n"
        "seen = []\n"
        "class Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name in ('httpx', 'courtroom_desktop.core.library.zotero') and name not in sys.modules:\n"
        "            seen.append((name, threading.current_thread() is threading.main_thread()))\n"
        "sys.meta_path.insert(0, Hook())\n"
        "class Catalog:\n"
        "    def sources(self): return {}\n"
        "class Library: catalog = Catalog()\n"
        "class Workspace:\n"
        "    async def library(self): return Library()\n"
        "async def main():\n"
        "    await LibraryController(Workspace()).keep_zotero_in_step()\n"
        "asyncio.run(main())\n"
        "print(json.dumps(seen))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert ["courtroom_desktop.core.library.zotero", False] in seen  # it was imported, in a worker
    assert not [name for name, on_main in seen if on_main], seen
