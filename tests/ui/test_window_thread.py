"""What the window's thread pays for: the light parts of the library it imports on its own thread (the cancel token
of an ingest, the folder watcher) bring no numpy, PyMuPDF or pyarrow with them, and full garbage collections wait
until the first preload is done (ui/collector.py). The stalls themselves are measured by bench/ui.py."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading

from courtroom_desktop.ui import collector, warmup

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
        "from courtroom_desktop.core.workspace import LibraryService\n"
        "class Parts:\n"  # the core's use case, on a library with nothing from Zotero
        "    library = Library()\n"
        "class Fake:\n"
        "    library = LibraryService(Parts())\n"
        "class Workspace:\n"
        "    workspace = Fake()\n"
        "    async def library(self): return None\n"
        "async def main():\n"
        "    await LibraryController(Workspace()).keep_zotero_in_step()\n"
        "asyncio.run(main())\n"
        "print(json.dumps(seen))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert ["courtroom_desktop.core.library.zotero", False] in seen  # it was imported, in a worker
    assert not [name for name, on_main in seen if on_main], seen


def test_the_window_workers_import_what_they_need_first_one_module_at_a_time():
    """The window's first worker imports the court's records, the library's stores, the embedder, retrieval, the
    engine and the report writer before its first task, in its own thread (the window's first trial event imported
    the report writer on the window's thread), and a second worker waits for it rather than importing beside it."""
    code = (
        "import asyncio, json, sys, threading, time\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from courtroom_desktop.ui import warmup\n"
        "from courtroom_desktop.ui.tasks import make_event_loop\n"
        "importing, overlaps, where = set(), [], {}\n"
        "class Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name in warmup.MODULES and name not in sys.modules:\n"
        "            where[name] = threading.current_thread().name\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hook())\n"
        "app = QApplication([])\n"
        "loop = make_event_loop(app)\n"
        "async def main():\n"
        "    first = [m for m in warmup.MODULES if m in sys.modules]\n"
        "    names = await asyncio.gather(*(asyncio.to_thread(lambda: (warmup.warmed(), threading.current_thread().name))"
        " for _ in range(3)))\n"
        "    return first, names\n"
        "first, names = loop.run_until_complete(main())\n"
        "print(json.dumps({'before': first, 'where': where, 'tasks': names,"
        " 'loaded': [m for m in warmup.MODULES if m in sys.modules]}))\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == []  # nothing of it came with the window's own imports
    assert seen["loaded"] == list(warmup.MODULES)
    assert set(seen["where"]) == set(warmup.MODULES)
    assert len(set(seen["where"].values())) == 1 and "courtroom-worker" in next(iter(seen["where"].values()))
    assert all(warmed for warmed, _ in seen["tasks"])  # every task ran after the imports, in whichever worker


def test_warm_up_imports_in_one_thread_while_the_others_wait(tmp_path, monkeypatch):
    """Two threads ask at once: one imports every module, in order, never two at a time; the other returns only
    once all are loaded. A module that fails to import is skipped (its user reports it) and nothing raises."""
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(warmup, "_lock", threading.Lock())
    monkeypatch.syspath_prepend(str(tmp_path))
    names = [f"warm_probe_{i}" for i in range(3)]
    for name in names:
        (tmp_path / f"{name}.py").write_text(
            "import threading, time, warm_probe_log as log\n"
            "log.events.append(('start', __name__, threading.current_thread().name))\n"
            "time.sleep(0.05)\n"
            "log.events.append(('end', __name__, threading.current_thread().name))\n")
    (tmp_path / "warm_probe_log.py").write_text("events = []\n")
    (tmp_path / "warm_probe_broken.py").write_text("raise RuntimeError('broken on purpose')\n")
    modules = (names[0], "warm_probe_broken", names[1], names[2])
    returned: dict[str, list] = {}

    def ask(label: str) -> None:
        warmup.ensure(modules)
        returned[label] = [n for n in names if n in sys.modules]

    threads = [threading.Thread(target=ask, args=(label,), name=label) for label in ("a", "b")]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        import warm_probe_log

        events = warm_probe_log.events
        assert [e[:2] for e in events] == [(kind, n) for n in names for kind in ("start", "end")]  # one at a time
        assert len({e[2] for e in events}) == 1
        assert returned == {"a": names, "b": names}
        assert warmup.warmed() and "warm_probe_broken" not in sys.modules
    finally:
        for name in (*names, "warm_probe_log", "warm_probe_broken"):
            sys.modules.pop(name, None)


def test_the_courts_text_checks_compile_no_pattern_where_they_are_called():
    """The engine runs on the window's event loop: its checks at the end of an argument (is it a question, trimmed
    repetition, sentences joined, the language of a text) must find their patterns compiled at import (by a worker,
    ui/warmup.py), not compile them on the window's thread (bench/ui.py: 30 ms late at the first argument's end, in
    Chinese and English alike). Run in a fresh process, re's cache emptied after the imports."""
    code = (
        "import re\n"
        "from re import _compiler\n"
        "from courtroom_desktop.core.court import checks\n"
        "from courtroom_desktop.core import text\n"
        "re.purge()\n"
        "compiled = []\n"
        "real = _compiler.compile\n"
        "_compiler.compile = lambda p, flags=0: compiled.append(p) or real(p, flags)\n"
        "checks.is_question('Why did the trial in round two ignore the 2015 cohort [E2]?')\n"
        "checks.is_question('Q1: see above')\n"  # too few words: the characters are counted
        "checks.is_question('\u6cd5\u5b98\u4e3a\u4ec0\u4e48\u5728\u7b2c\u4e8c\u8f6e\u5ffd\u7565\u4e86\u8fd9\u9879\u7814\u7a76\uff1f')\n"
        "checks.trim_repetition('The cohort was large. The cohort was large. '\n"
        "                       '\u6837\u672c\u5f88\u5927\u3002\u6837\u672c\u5f88\u5927\u3002')\n"
        "text.join_sentences(['\u6837\u672c\u5f88\u5927\u3002', 'It was large.'])\n"
        "text.language_of('\u6cd5\u5b98\u5728\u6bcf\u4e00\u8f6e\u7ed3\u675f\u540e\u7ed9\u51fa\u88c1\u51b3')\n"
        "checks.normalise('\u6cd5\u5b98 \u5728 round two')\n"
        "print(len(compiled), [str(p)[:60] for p in compiled if '\\\\u4e00' in str(p) or '\u4e00' in str(p)])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    count, cjk = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert cjk == "[]", cjk  # no CJK character class compiled at call time
