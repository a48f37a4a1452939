"""Running core work from the window without blocking it.

Controllers own a :class:`Tasks` set: each async feature runs as an asyncio task on the qasync loop, blocking core
calls go to threads (``asyncio.to_thread``), and errors come back as ``(title, message, fix)`` for the window's
notice bar, never as an exception inside a Qt slot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)

ErrorSink = Callable[[str, str, str], None]


def describe(exc: BaseException) -> tuple[str, str]:
    """A message a person can act on, and the fix when the core gave one."""
    from courtroom_desktop.core.errors import CourtroomError

    fix = getattr(exc, "fix", "") or ""
    if isinstance(exc, CourtroomError):
        return str(exc), fix
    return f"{type(exc).__name__}: {exc}", fix or "this is a bug: please report it with the log"


class Tasks:
    """The tasks of one controller: tracked, cancellable together, and never failing silently."""

    def __init__(self, on_error: ErrorSink):
        self._tasks: set[asyncio.Task] = set()
        self._on_error = on_error

    def spawn(self, coro: Coroutine[Any, Any, Any], title: str) -> asyncio.Task:
        task = asyncio.ensure_future(self._guard(coro, title))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _guard(self, coro, title: str):
        try:
            return await coro
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the window, never lost in a slot
            if not _is_courtroom_error(exc):
                log.exception("%s failed", title)
            message, fix = describe(exc)
            self._on_error(title, message, fix)
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
