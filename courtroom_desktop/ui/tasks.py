"""Running core work from the window without blocking it.

Controllers own a :class:`Tasks` set: each async feature runs as an asyncio task on the qasync loop, blocking core
calls go to threads (``asyncio.to_thread``), and errors come back as ``(title, message, fix)`` for the window's
notice bar, never as an exception inside a Qt slot.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    class QEventLoop(asyncio.AbstractEventLoop):
        """qasync's event loop, as the window uses it (qasync has no type hints): an asyncio loop that Qt runs, and a
        context manager that closes it."""

        def __enter__(self) -> QEventLoop: ...
        def __exit__(self, *args: object) -> None: ...

log = logging.getLogger(__name__)

#: How much lower than the window's thread the worker threads run (a nice increment, Linux: 0 to 19; 0 leaves them
#: equal). Model calls, embedding, retrieval and ingest all run in workers; on a machine whose cores they keep busy,
#: the scheduler then gives the GUI thread a core as soon as it wakes instead of sharing one with them. Nothing is
#: slower while the window is idle: priority only decides who waits when both want a core (other programs that keep
#: the cores busy at normal priority do slow a trial down more). `bench/worker_priority.py` measures it.
#: ``COURTROOM_WORKER_NICE`` overrides it.
WORKER_NICE = 10
WORKERS = 10  # threads for blocking calls (qasync's own default executor had ten as well)


def worker_nice() -> int:
    value = os.environ.get("COURTROOM_WORKER_NICE", "").strip()
    return max(0, min(19, int(value))) if value.isdigit() else WORKER_NICE


def lower_thread_priority(nice: int | None = None) -> bool:
    """Lower the calling thread's CPU priority by ``nice``; returns whether it changed.

    Linux: the thread's own nice value, which threads and processes it starts afterwards inherit (llama.cpp's and
    torch's OpenMP pools, the PDF extraction child). Windows: THREAD_PRIORITY_BELOW_NORMAL for this thread only.
    Elsewhere (macOS has no per-thread nice) nothing changes."""
    nice = worker_nice() if nice is None else nice
    if nice <= 0:
        return False
    if sys.platform.startswith("linux"):
        tid = threading.get_native_id()
        try:
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + nice))
        except OSError as exc:
            log.info("worker priority unchanged: %s", exc)
            return False
        return True
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        return bool(kernel32.SetThreadPriority(kernel32.GetCurrentThread(), -1))  # THREAD_PRIORITY_BELOW_NORMAL
    return False


def start_worker() -> None:
    """What every worker thread of the window does before its first task: lower its priority, then import the code
    the workers need, or wait until another worker has (``ui/warmup.py``: one import at a time)."""
    from courtroom_desktop.ui import warmup

    lower_thread_priority()
    warmup.ensure()


def make_event_loop(app: QApplication) -> QEventLoop:
    """The window's qasync event loop, set as the current loop, whose blocking calls (``asyncio.to_thread``,
    ``run_in_executor(None, ...)``) run in worker threads below the window's priority."""
    import qasync  # no type hints: pyproject.toml lets it be Any

    loop: QEventLoop = qasync.QEventLoop(app)
    loop.set_default_executor(ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="courtroom-worker",
                                                 initializer=start_worker))
    asyncio.set_event_loop(loop)
    return loop

ErrorSink = Callable[[str, str, str], None]


def describe(exc: BaseException) -> tuple[str, str]:
    """A message a person can act on, and the fix when the core gave one."""
    from courtroom_desktop.core.errors import CourtroomError

    fix = getattr(exc, "fix", "") or ""
    if isinstance(exc, CourtroomError):
        return str(exc), fix
    from courtroom_desktop.ui.i18n import tr

    return f"{type(exc).__name__}: {exc}", fix or tr("this is a bug: please report it with the log")


class Tasks:
    """The tasks of one controller: tracked, cancellable together, and never failing silently."""

    def __init__(self, on_error: ErrorSink) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_error = on_error

    def spawn(self, coro: Coroutine[Any, Any, Any], title: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(self._guard(coro, title))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _guard(self, coro: Coroutine[Any, Any, Any], title: str) -> Any:
        try:
            return await coro
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the window, never lost in a slot
            if not _is_courtroom_error(exc):
                log.exception("%s failed", title)
            from courtroom_desktop.ui.i18n import tr

            message, fix = describe(exc)
            self._on_error(tr(title), message, fix)
            return None

    @property
    def running(self) -> bool:
        return any(not t.done() for t in self._tasks)

    async def cancel_all(self) -> None:
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def wait(self) -> None:
        """Until every task has finished (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _is_courtroom_error(exc: BaseException) -> bool:
    from courtroom_desktop.core.errors import CourtroomError

    return isinstance(exc, CourtroomError)


def call_soon_threadsafe(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], *args: Any) -> None:
    """From a worker thread to the GUI thread; silently dropped once the loop is closed (the window is gone)."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        pass


async def wait_until(predicate: Callable[[], Any], timeout: float, what: str, poll_s: float = 0.05) -> Any:
    """Poll ``predicate`` on the event loop until it returns something true (returned), or raise TimeoutError naming
    ``what`` after ``timeout`` seconds: for tests, benchmarks and scripts that drive the window."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(poll_s)
    return value
