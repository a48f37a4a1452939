"""Text extraction in a child process with a hard deadline.

PyMuPDF runs in C and holds the interpreter while it works, so a deadline checked between pages cannot stop one
pathological page (a page of millions of text runs took over a minute in a probe; see docs/reliability.md), and a
crash in the C code would take the whole app with it. ``ExtractWorker`` runs ``extract`` in one long-lived child
process, started on first use and reused file after file:

- the parent waits for the answer in slices, checking ``cancelled()`` (the library's cancel token and its
  per-file deadline) between them; when it fires, the child is killed and a fresh one starts with the next file;
- a child that dies (a crash in MuPDF, the OOM killer) turns into an IngestError for that file only;
- the child also arms an alarm a little past the deadline, so it ends even if the parent was killed meanwhile, and
  it exits when its pipe to the parent closes.

The extracted document comes back pickled over a pipe (a few MB for a 3000-page PDF). Scanned pages are read by
OCR in the child too (``ocr``: core.library.read.ocr), one page at a time, each within its own deadline; the child reports
("ocr", done, total) after each, and the parent pushes the file's deadline back as they come.

A failure in the child is told apart by where it came from (``failure_kind``), and each kind is named with its own
fix: a PDF that PyMuPDF cannot open or parse ("corrupt PDF"), the OCR engine (RapidOCR, onnxruntime) failing, and
anything else, which is a bug in this app. The child sends its traceback with the error; the parent logs it (at
error level for an OCR failure or a bug, at info level for a corrupt file, which the failure list already names).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import queue
import signal
import subprocess
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from courtroom_desktop.core.errors import Cancelled, IngestError
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
from courtroom_desktop.core.library.read.extracted import ExtractedDoc, Line
from courtroom_desktop.core.library.read.ocr import OcrOptions

if TYPE_CHECKING:
    import pymupdf

log = logging.getLogger(__name__)

POLL_S = 0.05
#: The child's own alarm fires this long after the deadline the parent enforces (the parent normally acts first).
ALARM_GRACE_S = 10
#: argv[1] that makes a frozen app (PyInstaller) run as the extraction child; see courtroom_desktop.__main__.
WORKER_FLAG = "--courtroom-extract-worker"
#: Lines of an extracted document per message from the child (each message is unpickled in one go, holding the GIL).
LINES_PER_MESSAGE = 256
#: For tests only: "corrupt", "ocr" or "internal" makes the child's extraction raise as a broken PDF, the OCR engine
#: or a bug would (``_inject_test_fault``). Read by the child alone; nothing in the app sets it.
TEST_FAULT_ENV = "COURTROOM_TEST_EXTRACT_FAULT"
NO_ALARM_ENV = "COURTROOM_EXTRACT_NO_ALARM"
"""Set (by tests) to run the child as on Windows, where ``signal.alarm`` does not exist: the parent's deadline alone
ends a stuck file."""

#: Where an exception comes from: the exception's own module, or the modules of its traceback's frames.
PDF_MODULES = ("pymupdf", "fitz")
OCR_MODULES = ("rapidocr_onnxruntime", "onnxruntime", "cv2", "courtroom_desktop.core.library.read.ocr",
               "courtroom_desktop.core.library.read.ocr_geometry")
CORRUPT, OCR, INTERNAL = "corrupt", "ocr", "internal"
CORRUPT_FIX = Message("repair or re-export the PDF (save or print it again to a new PDF), then add it again")
OCR_FIX = Message('reinstall the OCR engine (pip install --force-reinstall "rapidocr-onnxruntime>=1.4.4,<1.5"), or '
                  'turn OCR off (Settings > Library > OCR of scanned pages: off, or `courtroom config set library.ocr '
                  'off`) and add the file again')
INTERNAL_FIX = Message("this is a bug in Courtroom Desktop, not a problem with the file: report it with the traceback "
                       "logged just before this error (logger courtroom_desktop.core.library.read.isolate, in the "
                       "app's log output) and, if you can share it, the file; the other files are not affected")


def _within(module: str, roots: tuple[str, ...]) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


def failure_kind(exc: BaseException) -> str:
    """CORRUPT, OCR or INTERNAL: what an exception raised while extracting a PDF says about its cause. An exception
    that PyMuPDF defines or raises in its own code: the file (corrupt). One from the OCR engine (RapidOCR,
    onnxruntime, OpenCV) or raised while the app's OCR code ran: OCR. Anything else: a bug in this app."""
    module = type(exc).__module__ or ""
    frames = [frame.f_globals.get("__name__", "") for frame, _ in traceback.walk_tb(exc.__traceback__)]
    if _within(module, PDF_MODULES):
        return CORRUPT
    if _within(module, OCR_MODULES) or any(_within(name, OCR_MODULES) for name in frames):
        return OCR
    if frames and _within(frames[-1], PDF_MODULES):
        return CORRUPT
    return INTERNAL


def describe_failure(exc: BaseException) -> tuple[str, str, str]:
    """(kind, reason, fix) of an exception the child's extraction raised. An IngestError raised on purpose (no
    cause: an empty file, a password, no text) keeps its reason; one that wraps an exception (extract() reports
    whatever fails inside it as a corrupt PDF) is judged by the exception it wraps."""
    cause = exc.__cause__ if isinstance(exc, IngestError) and exc.__cause__ is not None else exc
    kind = failure_kind(cause)
    what = f"{type(cause).__name__}: {cause}"
    if kind == CORRUPT:
        reason = exc.reason if isinstance(exc, IngestError) else \
            Message("corrupt PDF, text extraction failed ({what}): repair or re-export it", what)
        return kind, reason, CORRUPT_FIX
    if kind == OCR:
        return kind, Message("OCR failed while reading the scanned pages ({what})", what), OCR_FIX
    return kind, Message("internal error in the text extractor ({what})", what), INTERNAL_FIX


def _inject_test_fault(kind: str) -> None:  # pragma: no cover - runs in the child process, for tests only
    """``TEST_FAULT_ENV``: every page's text layer raises what a broken PDF, the OCR engine or a bug raises."""
    from courtroom_desktop.core.library.read import extract as extract_module

    if kind == CORRUPT:
        import pymupdf

        error: Exception = pymupdf.FileDataError("injected test fault: a broken content stream")
    elif kind == OCR:
        from onnxruntime.capi.onnxruntime_pybind11_state import Fail

        error = Fail("injected test fault: the recogniser's session failed")
    elif kind == INTERNAL:
        error = TypeError("injected test fault: a bug")
    else:
        raise ValueError(Message("{TEST_FAULT_ENV}={kind}: expected {CORRUPT}, {OCR} or {INTERNAL}",
                                 TEST_FAULT_ENV, f'{kind!r}', CORRUPT, OCR, INTERNAL))

    def page_lines(page: pymupdf.Page, page_number: int) -> NoReturn:
        raise error

    extract_module._page_lines = page_lines


def _send_doc(out: IO[bytes], doc: ExtractedDoc) -> None:
    """The document in pieces: its lines (the bulk: a box per character) LINES_PER_MESSAGE at a time, then the rest.
    The parent's reader thread unpickles each message holding Python's global lock; one 300-page document in one
    message held it for about 100 ms, long enough to freeze the window's event loop."""
    lines = doc.lines
    for start in range(0, len(lines), LINES_PER_MESSAGE):
        write(out, ("lines", lines[start:start + LINES_PER_MESSAGE]))
    write(out, ("done", dataclasses.replace(doc, lines=[])))


def serve() -> None:  # pragma: no cover - runs in the child process
    """The child: extract files named on stdin until stdin closes; answers go to stdout, which nothing else may
    write to (fd 1 is pointed at stderr for the C libraries' chatter)."""
    from courtroom_desktop.core.errors import IngestError as ChildIngestError
    from courtroom_desktop.core.library.read.extract import extract

    source, out = child_streams()
    try:
        import pymupdf

        pymupdf.TOOLS.mupdf_display_errors(False)  # broken files make MuPDF chatty on stderr
    except Exception:  # noqa: BLE001 - quieter logs are a nicety
        pass

    exit_with_parent()
    if os.environ.get(TEST_FAULT_ENV):
        _inject_test_fault(os.environ[TEST_FAULT_ENV])
    # the child's own deadline, a backstop for a parent that died: SIGALRM where the system has it (not Windows)
    alarm = None if os.environ.get(NO_ALARM_ENV) else getattr(signal, "alarm", None)
    while True:
        request = read(source)
        if request is None:
            return
        path, deadline_s, ocr = request
        if alarm is not None:
            alarm(max(1, math.ceil(deadline_s) + ALARM_GRACE_S))

        def on_ocr(done: int, total: int, ocr: OcrOptions | None = ocr) -> None:
            # each page OCR starts on has its own deadline: the alarm must not fire before it (and its slack) ends
            if alarm is not None and ocr is not None and done < total:
                left = alarm(0)
                alarm(max(left, math.ceil(ocr.page_timeout_s * 1.5) + ALARM_GRACE_S + 10))
            write(out, ("ocr", done, total))

        try:
            doc = extract(Path(path), on_page=lambda done, total: write(out, ("page", done, total)), ocr=ocr,
                          on_ocr=on_ocr)
            _send_doc(out, doc)
        except ChildIngestError as exc:
            if exc.__cause__ is None:  # raised on purpose, with its reason and fix
                write(out, ("error", exc.reason, exc.fix, "", ""))
            else:  # extract() wraps whatever failed inside it: judged by what it wraps
                kind, reason, fix = describe_failure(exc)
                write(out, ("error", reason, fix, kind, "".join(traceback.format_exception(exc))))
        except MemoryError:
            write(out, ("error", "the PDF needs more memory to read than is available", "", "", ""))
        except Exception as exc:  # noqa: BLE001 - any failure is this file's, reported with its kind and traceback
            kind, reason, fix = describe_failure(exc)
            write(out, ("error", reason, fix, kind, "".join(traceback.format_exception(exc))))
        finally:
            if alarm is not None:
                alarm(0)


class ExtractWorker:
    """``extract`` in a child process. Thread-safe (one file at a time); ``close()`` stops the child."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._inbox: queue.Queue[Any] = queue.Queue()
        self.started = 0   # children started (a new one after every kill or crash)
        self.killed = 0    # children killed at a deadline or on cancel

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _ensure(self) -> subprocess.Popen[bytes]:
        """The running child, started if there is none."""
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self._stop()
        proc = subprocess.Popen(command("courtroom_desktop.core.library.read.isolate", WORKER_FLAG),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment(),
                                close_fds=True)
        stdout = proc.stdout
        assert stdout is not None  # stdout=PIPE
        inbox: queue.Queue[Any] = queue.Queue()

        def pump() -> None:  # every message of this child, then None when its stdout closes
            try:
                while (message := read(stdout)) is not None:
                    inbox.put(message)
            except Exception:  # noqa: BLE001 - a torn message is a dead child
                pass
            inbox.put(None)

        threading.Thread(target=pump, name="courtroom-extract-pump", daemon=True).start()
        self._proc, self._inbox = proc, inbox
        self.started += 1
        return proc

    def _stop(self, kill: bool = False) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        stop(proc, kill)

    def close(self) -> None:
        with self._lock:
            self._stop()

    def extract(self, path: Path, on_page: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False, deadline_s: float = 300.0,
                ocr: OcrOptions | None = None, on_ocr: Callable[[int, int], None] | None = None) -> ExtractedDoc:
        """Like ``extract.extract``; ``cancelled()`` is polled every few ms and kills the child when true (raising
        Cancelled). ``deadline_s`` arms the child's own alarm (a backstop for a parent that died); each page the
        child reads by OCR re-arms it for that page."""
        with self._lock:
            for attempt in (0, 1):  # a child that died between files: one fresh start
                stdin = self._ensure().stdin
                assert stdin is not None  # stdin=PIPE
                try:
                    write(stdin, (str(path), float(deadline_s), ocr))
                    break
                except (OSError, ValueError):
                    self._stop(kill=True)
                    if attempt:
                        raise IngestError(str(path), Message("the text extractor could not be started")) from None
            inbox = self._inbox
            lines: list[Line] = []
            while True:
                if cancelled():
                    self.killed += 1
                    self._stop(kill=True)
                    raise Cancelled()
                try:
                    message = inbox.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                if message is None:
                    code = self._proc.wait(timeout=5) if self._proc is not None else None
                    self._stop(kill=True)
                    how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                    log.warning("%s: the text extractor died (%s)", path, how)
                    raise IngestError(str(path), Message("the PDF crashed the text extractor ({how}): repair or "
                                                         "re-export it",
                                                         how))
                kind = message[0]
                if kind == "page":
                    if on_page is not None:
                        on_page(message[1], message[2])
                elif kind == "ocr":
                    if on_ocr is not None:
                        on_ocr(message[1], message[2])
                elif kind == "lines":
                    lines.extend(message[1])
                elif kind == "done":
                    doc: ExtractedDoc = message[1]
                    return dataclasses.replace(doc, lines=lines)
                else:
                    raise _child_error(path, *message[1:])


def _child_error(path: Path, reason: str, fix: str = "", kind: str = "", child_traceback: str = "") -> IngestError:
    """The IngestError for an error the child sent; its traceback, if it sent one, goes to the log."""
    if child_traceback:
        level = logging.INFO if kind == CORRUPT else logging.ERROR
        log.log(level, "%s: text extraction failed (%s): %s\ntraceback in the extraction child:\n%s", path,
                {CORRUPT: "corrupt PDF", OCR: "OCR failure", INTERNAL: "internal error"}.get(kind, kind), reason,
                child_traceback.rstrip())
    return IngestError(str(path), reason, fix=fix)


if __name__ == "__main__":  # pragma: no cover - the child process
    serve()
