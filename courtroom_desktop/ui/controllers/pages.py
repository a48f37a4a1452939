"""Rendering PDF pages for the evidence inspector with PyMuPDF, in a worker thread. The highlight is not burnt
into the image: the page view paints the passage's page-relative rectangles over it, so it survives zoom. A text
document (Markdown, text, Word, a note) has no pages: its text is read instead (``load_text``)."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr

if TYPE_CHECKING:
    import pymupdf

#: Pixels per PDF point at zoom 1 (a 72-point inch shown at 108 pixels, about a printed page on a laptop).
BASE_SCALE = 1.5
MAX_PIXELS = 40_000_000


@dataclass(frozen=True)
class RenderedPage:
    path: str
    page: int       # 0-based
    pages: int
    zoom: float
    image: QImage


class PageRenderer(Controller):
    sig_rendered = Signal(int, object)
    """(request id, RenderedPage)."""
    sig_failed = Signal(int, str)
    """(request id, why the page, or the text, cannot be shown)."""
    sig_text = Signal(int, str)
    """(request id, the text of a text document: what its passages' character spans index)."""

    def __init__(self, parent: QObject | None = None, cache: int = 4):
        super().__init__(parent)
        self._lock = threading.Lock()  # a PyMuPDF document is used by one thread at a time
        self._docs: OrderedDict[str, pymupdf.Document] = OrderedDict()
        self._cache = cache
        self._next = 0
        # a path as the library records it -> a file this machine can open (a shared library's document fetched
        # into its cache: core.library.Library.local_file); called in the worker thread, never the window's
        self.resolve: Callable[[str], str] = lambda path: path

    def render(self, path: str, page: int, zoom: float = 1.0, device_ratio: float = 1.0) -> int:
        self._next += 1
        request = self._next
        self.tasks.spawn(self._render(request, path, page, zoom, device_ratio), QT_TRANSLATE_NOOP("", "Rendering the page"))
        return request

    def load_text(self, path: str) -> int:
        self._next += 1
        request = self._next
        self.tasks.spawn(self._load_text(request, path), QT_TRANSLATE_NOOP("", "Reading the document"))
        return request

    async def _load_text(self, request: int, path: str) -> None:
        from courtroom_desktop.core.errors import CourtroomError
        from courtroom_desktop.core.services.library import document_text

        try:
            text = await asyncio.to_thread(lambda: document_text(Path(self.resolve(path))))
        except (CourtroomError, OSError) as exc:
            self.sig_failed.emit(request, say(getattr(exc, "reason", "") or str(exc)))
            return
        self.sig_text.emit(request, text)

    async def _render(self, request: int, path: str, page: int, zoom: float, device_ratio: float) -> None:
        from courtroom_desktop.core.errors import CourtroomError

        try:
            result = await asyncio.to_thread(self._render_blocking, path, page, zoom, device_ratio)
        except CourtroomError as exc:  # a shared library's copy that cannot be fetched
            self.sig_failed.emit(request, say(getattr(exc, "reason", "") or str(exc)))
            return
        except _Unavailable as exc:
            self.sig_failed.emit(request, str(exc))
            return
        self.sig_rendered.emit(request, result)

    def _document(self, path: str) -> pymupdf.Document:
        import pymupdf

        doc = self._docs.get(path)
        if doc is None:
            local = self.resolve(path)
            if not Path(local).is_file():
                raise _Unavailable(tr("the PDF is no longer at {path}").format(path=path))
            try:
                doc = pymupdf.open(local)
            except Exception as exc:  # noqa: BLE001 - PyMuPDF raises its own types
                raise _Unavailable(tr("cannot open {path} ({problem})").format(path=path, problem=exc)) from None
            self._docs[path] = doc
            while len(self._docs) > self._cache:
                _, old = self._docs.popitem(last=False)
                old.close()
        self._docs.move_to_end(path)
        return doc

    def _render_blocking(self, path: str, page: int, zoom: float, device_ratio: float) -> RenderedPage:
        import pymupdf

        with self._lock:
            doc = self._document(path)
            pages = doc.page_count
            if pages == 0:
                raise _Unavailable(tr("{path} has no pages").format(path=path))
            page = max(0, min(page, pages - 1))
            pdf_page = doc[page]
            scale = BASE_SCALE * zoom * device_ratio
            area = pdf_page.rect.width * pdf_page.rect.height * scale * scale
            if area > MAX_PIXELS:
                scale *= (MAX_PIXELS / area) ** 0.5
            pix = pdf_page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
            image = QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888).copy()
        image.setDevicePixelRatio(device_ratio)
        return RenderedPage(path=path, page=page, pages=pages, zoom=zoom, image=image)

    def close(self) -> None:
        with self._lock:
            for doc in self._docs.values():
                doc.close()
            self._docs.clear()


class _Unavailable(Exception):
    pass
