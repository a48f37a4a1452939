"""An exported ONNX embedding model run in a child process, for the window.

Loading it in the window's process holds the interpreter lock in one piece twice: onnxruntime's import (its pybind11
module's initialisation: 56 to 206 ms) and the tokenizer's (45 to 55 ms), long enough to stop the window's event
loop however the threads are arranged (docs/ui.md). In a child the window's process never imports onnxruntime or
the tokenizer; the child loads the model folder the parent found (exported, or shipped with the bundle) and answers
each call with the vectors. Only the window asks for it (``use(True)`` in ``ui/app.py``); the command line, the
tests and the benchmarks load the model in their own process as before.

Messages (``core/library/child_process.py``): the parent sends ``("load", folder, backend)`` and gets ``("ready",
dim)``; then ``("encode", texts, batch, length_batching)`` gets ``("vectors", array)``; a failure gets ``("error",
reason, fix)``. The child runs one request at a time, its own worker threads embedding a request's texts together,
and leaves when its input closes or its parent is gone. A child found dead before a call is replaced; one that dies
during a call fails that call with an error naming the model and what to do, and the next call starts a new one.
"""

from __future__ import annotations

import logging
import subprocess
import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from courtroom_desktop.core.errors import CourtroomError, LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.child_process import (
    child_streams,
    command,
    environment,
    exit_with_parent,
    read,
    stop,
    write,
)

if TYPE_CHECKING:
    import numpy as np

    from courtroom_desktop.core.library.embed.onnx import OnnxModel

log = logging.getLogger(__name__)

#: argv[1] that makes a frozen app (PyInstaller) run as the embedding child; see courtroom_desktop.__main__.
WORKER_FLAG = "--courtroom-embed-worker"
MODULE = "courtroom_desktop.core.library.embed.child"

_use = False


def use(on: bool) -> None:
    """Whether ONNX embedders made from now on run their model in a child process (the window turns it on)."""
    global _use
    _use = bool(on)


def in_use() -> bool:
    return _use


class ChildModel:
    """The parent's side: the model in ``folder`` run by a child process. Thread-safe (one call at a time)."""

    def __init__(self, folder: Path, backend: str):
        self.folder, self.backend = Path(folder), backend
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self.started = 0
        self.dim = 0
        with self._lock:
            self._running()  # started and loaded now: a folder it cannot load fails here, and dim is known

    def _fail(self, reason: str, fix: str = "") -> LibraryError:
        return LibraryError(Message("the embedding model {self.folder.name} ({self.backend}): {reason}",
                                    self.folder.name, self.backend, reason),
                            reason=reason, fix=fix or Message("try again; if it keeps failing, restart the app and "
                                                              "see its log"))

    def _answer_error(self, answer: Any, default: str) -> LibraryError:
        if answer is not None and answer[0] == "error":
            return self._fail(answer[1], answer[2])
        return self._fail(default)

    def _running(self) -> subprocess.Popen[bytes]:
        """The running child, started and its model loaded if there is none (a dead one is replaced)."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            return proc
        self._stop()
        proc = self._proc = subprocess.Popen(command(MODULE, WORKER_FLAG), stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, env=environment(), close_fds=True)
        self.started += 1
        assert proc.stdin is not None and proc.stdout is not None  # PIPE both
        write(proc.stdin, ("load", str(self.folder), self.backend))
        answer = read(proc.stdout)
        if answer is None or answer[0] != "ready":
            self._stop()
            raise self._answer_error(answer, "it did not start")
        self.dim = int(answer[1])
        return proc

    def encode_all(self, texts: list[str], batch: int, length_batching: bool) -> np.ndarray:
        """``texts``' vectors in their order; the child cuts them into batches for its workers."""
        import numpy as np

        with self._lock:
            proc = self._running()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                write(proc.stdin, ("encode", list(texts), int(batch), bool(length_batching)))
            except OSError as exc:
                self._stop()
                raise self._fail(f"its process stopped ({exc})") from exc
            answer = read(proc.stdout)
            if answer is None:
                code = proc.poll()
                self._stop()
                raise self._fail(f"its process stopped (exit code {code})")
        if answer[0] != "vectors":
            raise self._answer_error(answer, f"an unexpected answer {answer[0]!r}")
        return np.asarray(answer[1], dtype=np.float32)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            stop(proc)

    def close(self) -> None:
        with self._lock:
            self._stop()


def _load(folder: str, backend: str) -> OnnxModel:
    """In the child: the model in ``folder``; a folder it cannot load (damaged, partly written) is a LibraryError."""
    from courtroom_desktop.core.library.embed.onnx import OnnxModel

    try:
        return OnnxModel(Path(folder), backend)
    except CourtroomError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged or partial model folder
        raise LibraryError(Message("cannot load the model folder {folder} ({type(exc).__name__}: {exc})",
                                   folder, type(exc).__name__, exc),
                           fix=Message("delete that folder: the model is exported again on next use")) from exc


def serve() -> None:  # pragma: no cover - runs in the child process
    """The child: load the model named by the first message, then answer until the input closes."""
    from courtroom_desktop.core.library.embed.batches import encode_in_batches

    source, out = child_streams()
    exit_with_parent()
    model: OnnxModel | None = None
    while (request := read(source)) is not None:
        try:
            if request[0] == "load":
                model = _load(request[1], request[2])
                write(out, ("ready", model.dim))
            elif model is None:
                write(out, ("error", "no model loaded", ""))
            elif request[0] == "encode":
                _, texts, batch, length_batching = request
                write(out, ("vectors", encode_in_batches(model, texts, batch, length_batching)))
            else:
                write(out, ("error", f"unknown request {request[0]!r}", ""))
        except CourtroomError as exc:
            write(out, ("error", exc.reason or str(exc), exc.fix))
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises it as this model's error
            log.error("embedding child: %s", "".join(traceback.format_exception(exc)))
            write(out, ("error", f"{type(exc).__name__}: {exc}", ""))


if __name__ == "__main__":  # pragma: no cover - the child process
    serve()
