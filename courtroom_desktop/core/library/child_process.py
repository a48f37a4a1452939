"""The library's own child processes (the PDF reader of ``read/isolate.py``, the embedding model of
``embed/child.py``): how one starts (``python -m module``, or the frozen app with its flag), the messages on its pipes
(length-prefixed pickles), and the child's side (its answers on a copy of stdout, the C libraries' chatter on stderr,
an exit when the parent is gone)."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

_HEADER = struct.Struct("<Q")


def write(stream: IO[bytes], message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def read(stream: IO[bytes]) -> Any:
    """One message, or None at the end of the stream."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    size = _HEADER.unpack(header)[0]
    data = stream.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # noqa: S301 - our own child process, over a private pipe


def command(module: str, frozen_flag: str) -> list[str]:
    """How to start the child that ``module`` serves (``courtroom_desktop.__main__`` dispatches ``frozen_flag``)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, frozen_flag]
    return [sys.executable, "-m", module]


def environment() -> dict[str, str]:
    """The parent's environment, with the folder this package is imported from first on the child's path."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[3])  # the folder holding courtroom_desktop/
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def stop(proc: subprocess.Popen[bytes], kill: bool = False) -> None:
    """End a child (killed first with ``kill``): its input closed, so that it leaves its loop, then waited for (killed
    after 5 s), its output closed."""
    if kill and proc.poll() is None:
        proc.kill()
    try:
        if proc.stdin is not None:
            proc.stdin.close()  # the child sees the end of its input and leaves its loop
    except OSError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
    if proc.stdout is not None:
        proc.stdout.close()


def child_streams() -> tuple[IO[bytes], IO[bytes]]:
    """In the child: (requests, answers). Answers go to a copy of stdout, which nothing else may write to: fd 1 is
    pointed at stderr for the C libraries' chatter."""
    out = os.fdopen(os.dup(1), "wb")
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr (a windowed executable on Windows): the chatter goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    source = sys.stdin.buffer if sys.stdin is not None else os.fdopen(0, "rb")  # None in a windowed executable
    return source, out


def exit_with_parent() -> None:
    """In the child: leave as soon as the parent process is gone (killed before it could close the pipe)."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()
