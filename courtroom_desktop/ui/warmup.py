"""The code the window's workers will need, imported first, in one of them, one module at a time.

Importing an extension module holds the interpreter lock while it initialises (pyarrow's about 20 ms), and so does
building pydantic's record models. Right after the window shows, "Try the sample library"
and the preload start several workers at once; each imported what it needed, and the window's thread waited behind
two or three of those holds in a row (``bench/ui.py --trace-stalls``: 80 to 120 ms late ticks with three threads in
the import machinery). The window's first trial event also imported the report writer on the window's own thread.

So the first worker thread of the window's pool imports :data:`MODULES` before its first task, one at a time with a
short pause between them for the window's thread to take the lock; every other worker thread waits for it before
its own first task (``ui/tasks.py`` runs :func:`ensure` as the pool's initializer). Later work finds the modules
loaded. A module that fails to import is left to the code that uses it, which reports the failure with its fix."""

from __future__ import annotations

import importlib
import logging
import sys
import threading
import time

from courtroom_desktop.core.services import FIRST_IMPORTS

log = logging.getLogger(__name__)

#: What the core's use cases import on first use, in the order a first run needs them (the core names them:
#: ``core.services.FIRST_IMPORTS``). The extension libraries these load on first use (LanceDB, tantivy, onnxruntime,
#: llama.cpp) are not imported here: the embedding model runs in a child process in the window
#: (``core/library/embed/child.py``).
MODULES = FIRST_IMPORTS

#: Seconds between two modules: long enough for a waiting thread (the window's) to take the interpreter lock.
PAUSE_S = 0.005

_lock = threading.Lock()
_done = threading.Event()


def ensure(modules: tuple[str, ...] | None = None) -> None:
    """Import ``modules`` (default :data:`MODULES`) once per process, the first caller doing it and the others
    waiting until it has. Never raises: this runs as a thread pool's initializer, where an exception would break
    the pool."""
    if _done.is_set():
        return
    with _lock:
        if _done.is_set():
            return
        started = time.perf_counter()
        try:
            for name in MODULES if modules is None else modules:
                if name in sys.modules:
                    continue
                try:
                    importlib.import_module(name)
                except Exception as exc:  # noqa: BLE001 - the code that uses the module reports it with its fix
                    log.info("warm-up: importing %s failed: %s", name, exc)
                time.sleep(PAUSE_S)
        finally:
            _done.set()
        log.debug("warm-up imports took %.2f s", time.perf_counter() - started)


def warmed() -> bool:
    return _done.is_set()
