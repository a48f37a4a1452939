"""OCR of pages that have no usable text layer (scans), in the extraction process.

RapidOCR (``rapidocr-onnxruntime`` 1.4: PP-OCRv4 detection and recognition for Chinese and English, and PP-OCR's
text direction classifier, as ONNX models inside the wheel: nothing is downloaded) reads a page rendered by
PyMuPDF. This module drives its three models itself rather than through ``RapidOCR.__call__``, so that:

- detection runs on a copy no larger than ``DET_MAX_SIDE`` pixels while lines are cut from the full render (line
  height is what recognition needs; detection cost grows with the pixel count);
- a page that is upside down or turned by 90 degrees is turned upright first (the direction classifier votes on the
  longest lines), and every box is mapped back onto the page as it is;
- recognition runs in small batches with the page's deadline and the cancel flag checked between them (a page that
  takes too long is given up, the document goes on);
- each character gets its own box from the position where the recogniser emitted it (the CTC column), so a passage
  that starts in the middle of a line is highlighted from its first character; where those positions are missing the
  line's box is split in proportion to the characters' widths (CJK characters one em each);
- lines are put in reading order (columns first, by an XY cut) and grouped into paragraphs by their spacing.

The geometry and text of the lines (character spans, type size, reading order, tidying) are in ``ocr_geometry``.

Boxes end up in PyMuPDF's unrotated page space, in points, like the text layer's, so ``extract`` builds the same
``Line`` objects from them. Results are cached per page content (``OcrCache``, a table of the library's catalog), so
re-ingesting or re-indexing never reads a page twice.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from courtroom_desktop.core.library.read import ocr_geometry as geo

if TYPE_CHECKING:
    import pymupdf

    from courtroom_desktop.core.library.read.extracted import Line

#: Part of every cache key: a change to the models or to how pages are read invalidates what was cached.
ENGINE_TAG = "rapidocr-onnxruntime-1.4/ppocrv4/5"
MODES = ("auto", "off", "force")
#: The most pixels one page is rendered to, whatever its size and ocr_dpi (a 2 m poster at 300 dpi would be 0.4
#: gigapixels); an A3 page at 300 dpi is 17 million. One byte a pixel (grey).
MAX_PIXELS = 24_000_000
#: Detection sees the page at most this many pixels on its long side (A4 at about 170 dpi).
DET_MAX_SIDE = 2000
#: Lines are cut out this many pixels high for recognition (the recogniser's own input height).
LINE_HEIGHT = 48
#: Lines are narrowed to this share of their width before recognition: PP-OCR's recogniser then keeps the spaces
#: between English words (at full width it drops about a third of them; docs/ocr.md).
CONDENSE = 0.75
REC_BATCH = 8
TEXT_SCORE = 0.5       # lines the recogniser is less sure of are dropped (RapidOCR's own default)
CLS_SAMPLE = 12        # lines the direction classifier looks at to find which way up the page is


class OcrGaveUp(Exception):
    """The page took longer than its deadline."""


@dataclass(frozen=True)
class OcrOptions:
    """How ``extract`` reads scanned pages (from LibrarySettings: ocr, ocr_dpi, ocr_page_timeout_s)."""

    mode: str = "auto"           # "auto": pages with no text layer; "force": every page; "off"
    dpi: int = 300
    page_timeout_s: float = 60.0
    cache: str = ""              # the SQLite file that holds the cache ("" : no cache)
    max_pixels: int = MAX_PIXELS
    threads: int = 0             # onnxruntime threads (0: one per core)


@dataclass
class OcrLine:
    """One line read from a page, in the unrotated page's space (points)."""

    text: str
    conf: float
    y0: float
    y1: float
    xs0: list[float]
    xs1: list[float]
    size: float
    block: int


# ---------------------------------------------------------------- the cache

CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS ocr_pages (key TEXT PRIMARY KEY, lines BLOB NOT NULL, at REAL NOT NULL);
"""


class OcrCache:
    """Pages already read, by content (``page_key``): a table of the library's catalog. Opened by the process that
    runs OCR (the extraction child), with its own connection; SQLite's WAL lets it write beside the library's."""

    def __init__(self, path: str | Path):
        from courtroom_desktop.core.sqlite import open_db

        self._lock = threading.Lock()
        self._db = open_db(Path(path), CACHE_SCHEMA)

    def get(self, key: str) -> list[OcrLine] | None:
        try:
            with self._lock:
                row = self._db.execute("SELECT lines FROM ocr_pages WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        try:
            return [OcrLine(*item) for item in json.loads(zlib.decompress(row[0]))]
        except (ValueError, TypeError, zlib.error):
            return None

    def put(self, key: str, lines: list[OcrLine]) -> None:
        data = zlib.compress(json.dumps([[line.text, round(line.conf, 4), round(line.y0, 2), round(line.y1, 2),
                                           [round(x, 2) for x in line.xs0], [round(x, 2) for x in line.xs1],
                                           round(line.size, 2), line.block] for line in lines],
                                         ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO ocr_pages (key, lines, at) VALUES (?, ?, ?)",
                                 (key, data, time.time()))
        except sqlite3.Error:  # a cache that cannot be written costs time, never the document
            pass

    def close(self) -> None:
        with self._lock:
            self._db.close()


def page_key(page: pymupdf.Page, options: OcrOptions) -> str:
    """What the page shows, as a hash: its content stream, the raw bytes of every image it draws, its size and
    rotation, and how it is read (engine, dpi). The same scan in another file, or the same file re-ingested, has the
    same key."""
    digest = hashlib.sha256()
    digest.update(f"{ENGINE_TAG}|{options.dpi}|{options.max_pixels}|{page.rotation}|"
                  f"{tuple(round(v, 2) for v in page.rect)}|{tuple(round(v, 2) for v in page.mediabox)}".encode())
    try:
        digest.update(page.read_contents() or b"")
    except Exception:  # noqa: BLE001 - a content stream PyMuPDF cannot give: the images alone identify the page
        pass
    document = page.parent
    for image in page.get_images(full=True):
        digest.update(str(image[1:]).encode())
        try:
            digest.update(hashlib.sha256(document.xref_stream_raw(image[0]) or b"").digest())
        except Exception:  # noqa: BLE001
            digest.update(str(image[0]).encode())
    return digest.hexdigest()


# ---------------------------------------------------------------- the engine

_ENGINE: Engine | None = None
_ENGINE_LOCK = threading.Lock()


def engine(threads: int = 0) -> Engine:
    """The process's engine (the models load once, about a second, and stay)."""
    global _ENGINE
    with _ENGINE_LOCK:
        if _ENGINE is None:
            _ENGINE = Engine(threads)
        return _ENGINE


class Engine:
    def __init__(self, threads: int = 0):
        import logging

        from rapidocr_onnxruntime import RapidOCR
        from rapidocr_onnxruntime.utils import infer_engine

        logging.getLogger("RapidOCR").setLevel(logging.WARNING)
        original = infer_engine.OrtInferSession._init_sess_opts

        def options(config: Any) -> Any:
            opts = original(config)
            # no busy-waiting between operators: on a machine whose cores are busy (the window, embedding)
            # spinning threads cost more than they save
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return opts

        infer_engine.OrtInferSession._init_sess_opts = staticmethod(options)
        try:
            cores = os.cpu_count() or 1
            self._ocr = RapidOCR(intra_op_num_threads=min(threads or cores, cores), inter_op_num_threads=1)
        finally:
            infer_engine.OrtInferSession._init_sess_opts = staticmethod(original)
        self.pages = 0  # pages read (not from the cache)

    # ------------------------------------------------------------ models
    def _detect(self, gray: np.ndarray) -> list[np.ndarray]:
        import cv2

        height, width = gray.shape
        scale = min(1.0, DET_MAX_SIDE / max(height, width))
        small = gray if scale >= 1.0 else cv2.resize(gray, (max(1, round(width * scale)), max(1, round(height * scale))),
                                                      interpolation=cv2.INTER_AREA)
        boxes, _ = self._ocr.text_det(cv2.cvtColor(small, cv2.COLOR_GRAY2BGR))
        if boxes is None or len(boxes) == 0:
            return []
        return [np.asarray(box, dtype=np.float32) / scale for box in boxes]

    @staticmethod
    def _crop(gray: np.ndarray, quad: np.ndarray, condense: float = CONDENSE) -> np.ndarray:
        """The line inside ``quad`` (tl, tr, br, bl) straightened, LINE_HEIGHT pixels high, narrowed by
        ``condense``, as BGR."""
        import cv2

        width = max(float(np.linalg.norm(quad[0] - quad[1])), float(np.linalg.norm(quad[3] - quad[2])), 1.0)
        height = max(float(np.linalg.norm(quad[0] - quad[3])), float(np.linalg.norm(quad[1] - quad[2])), 1.0)
        w, h = max(1, int(round(width))), max(1, int(round(height)))
        target = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        crop = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad.astype(np.float32), target), (w, h),
                                   borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC)
        out_w = max(4, int(round(w * LINE_HEIGHT / h * condense)))
        interpolation = cv2.INTER_AREA if h > LINE_HEIGHT else cv2.INTER_CUBIC
        crop = cv2.resize(crop, (out_w, LINE_HEIGHT), interpolation=interpolation)
        return cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)

    def _turn_needed(self, gray: np.ndarray, quads: list[np.ndarray]) -> int | None:
        """The cv2.rotate code that turns the page upright (None: it is upright), from the shape of its lines and
        windows of its longest lines: the direction classifier votes on them (it reads 192 x 48 pixels, so a whole
        line squeezed into that would tell it little), and where it says the page is not upright, or the lines run
        down the page, the recogniser's confidence on the windows either way up decides."""
        import cv2

        sized = []
        for quad in quads:
            w = float(np.linalg.norm(quad[0] - quad[1]))
            h = float(np.linalg.norm(quad[0] - quad[3]))
            if max(w, h) >= 2.5 * max(min(w, h), 1.0):  # a line with a clear direction
                sized.append((max(w, h), w < h, quad))
        if not sized:
            return None
        tall = sum(length for length, is_tall, _ in sized if is_tall) > sum(length for length, is_tall, _ in sized
                                                                           if not is_tall)
        sample = sorted((item for item in sized if item[1] == tall), key=lambda item: -item[0])[:CLS_SAMPLE]
        windows = []
        for _, _, quad in sample:
            if tall:  # read it as a wide line, as if the page were turned a quarter clockwise
                quad = np.array([quad[3], quad[0], quad[1], quad[2]], dtype=np.float32)
            windows.extend(geo.windows(self._crop(gray, quad, condense=1.0)))
        _, votes, _ = self._ocr.text_cls(windows)
        flipped = sum(score for label, score in votes if label == "180")
        upright = sum(score for label, score in votes if label != "180")
        if not tall and flipped <= upright:
            return None  # the usual case: upright, and no more work
        # the recogniser is sure of text the right way up and unsure of it upside down
        as_is, _ = self._ocr.text_rec(windows)
        turned, _ = self._ocr.text_rec([np.ascontiguousarray(w[::-1, ::-1]) for w in windows])
        upside_down = geo.mean_conf(turned) > geo.mean_conf(as_is)
        if not tall:
            return cv2.ROTATE_180 if upside_down else None
        # the lines read upright with the page turned a quarter clockwise, or upside down: a quarter the other way
        return cv2.ROTATE_90_COUNTERCLOCKWISE if upside_down else cv2.ROTATE_90_CLOCKWISE

    def read(self, gray: np.ndarray, deadline: float = math.inf,
             check: Callable[[], None] = lambda: None) -> list[tuple[str, float, np.ndarray, list[float], int, float | None]]:
        """Lines of a grey page image: (text, confidence, quad in the image's pixels with its corners in reading
        order (tl, tr, br, bl as the text reads), character centres as fractions of the line's length, block, type
        size in pixels or None).
        Raises OcrGaveUp past ``deadline`` (checked between steps); ``check()`` may raise to cancel."""
        import cv2

        def step() -> None:
            check()
            if time.monotonic() > deadline:
                raise OcrGaveUp()

        self.pages += 1
        quads = self._detect(gray)
        if not quads:
            return []
        step()
        turn = self._turn_needed(gray, quads)
        image = gray
        if turn is not None:
            image = cv2.rotate(gray, turn)
            step()
            quads = self._detect(image)
            if not quads:
                return []
        step()
        order = geo.reading_order(quads)
        crops = [self._crop(image, quads[index]) for index, _ in order]
        results: list[Any] = []
        for start in range(0, len(crops), REC_BATCH):
            step()
            batch, _ = self._ocr.text_rec(crops[start:start + REC_BATCH], True)
            results.extend(batch)
        del crops
        lines: list[tuple[str, float, np.ndarray, list[float], int, float | None]] = []
        height, width = image.shape
        previous: tuple[int, float | None] | None = None  # (block in reading order, size of the last line)
        block = -1
        for (index, spacing_block), result in zip(order, results):
            text, conf = result[0], float(result[1])
            if conf < TEXT_SCORE or not text.strip():
                continue
            centres = geo.centres(text, result)
            text, centres = geo.number_space(*geo.one_space(text, centres))
            size = geo.size_px(text, quads[index], centres)
            # a new paragraph where the spacing said so, or where the type size jumps (a heading just above its
            # text is often no further from it than two lines of a paragraph)
            if previous is None or spacing_block != previous[0] or (
                    size is not None and previous[1] is not None and not 0.8 <= size / previous[1] <= 1.25):
                block += 1
            previous = (spacing_block, size if size is not None else previous[1] if previous else None)
            quad = geo.unturn(quads[index], turn, width, height)
            lines.append((text, conf, quad, centres, block, size))
        return lines


# ---------------------------------------------------------------- pages

def render(page: pymupdf.Page, options: OcrOptions) -> tuple[pymupdf.Pixmap, pymupdf.Matrix]:
    """The page as a grey pixmap at ``options.dpi``, scaled down to at most ``options.max_pixels``; with the matrix
    from its pixels to the unrotated page's space."""
    import pymupdf

    rect = page.rect
    zoom = options.dpi / 72.0
    pixels = max(rect.width * zoom, 1.0) * max(rect.height * zoom, 1.0)
    if pixels > options.max_pixels:
        zoom *= math.sqrt(options.max_pixels / pixels)
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom),
                           colorspace=pymupdf.csGRAY, alpha=False)
    to_page = (pymupdf.Matrix(rect.width / pix.width, 0, 0, rect.height / pix.height, rect.x0, rect.y0)
               * page.derotation_matrix)
    return pix, to_page


def read_page(page: pymupdf.Page, options: OcrOptions, deadline: float = math.inf, check: Callable[[], None] = lambda: None,
              reader: Engine | None = None) -> list[OcrLine]:
    """OCR one PyMuPDF page: its lines in the unrotated page's space. Raises OcrGaveUp past ``deadline``."""
    import pymupdf

    pix, to_page = render(page, options)
    try:
        gray = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
        raw = (reader or engine(options.threads)).read(gray, deadline, check)
    finally:
        del pix
    lines: list[OcrLine] = []
    scale = math.sqrt(abs(to_page.a * to_page.d - to_page.b * to_page.c))  # points per pixel
    for text, conf, quad, centres, block, size_px in raw:
        spans = geo.boundaries(text, centres)
        tl, tr, br, bl = (pymupdf.Point(float(x), float(y)) * to_page for x, y in quad)
        xs0: list[float] = []
        xs1: list[float] = []
        ys = [tl.y, tr.y, br.y, bl.y]
        for a, b in spans:
            corners = (tl + (tr - tl) * a, tl + (tr - tl) * b, bl + (br - bl) * a, bl + (br - bl) * b)
            xs0.append(min(p.x for p in corners))
            xs1.append(max(p.x for p in corners))
        # the type size from the letters' spacing (a box's height depends on which letters rise and fall), else
        # from the height of a line too short to say
        size = size_px * scale if size_px is not None else max(abs(bl - tl), abs(br - tr), 0.1) / 1.25
        lines.append(OcrLine(text, conf, min(ys), max(ys), xs0, xs1, size, block))
    return lines


def settle_sizes(lines: list[Line]) -> None:
    """Snap the sizes of lines read by OCR to the body's: a size measured from a scan varies by a few percent from
    line to line, and a body line measured a little large must not pass for a heading. Works on ``extract.Line``s
    (size and block attributes) in place: each block takes its lines' median size, then blocks within 20 % of the
    body size (the most common, weighted by characters) take the body's."""
    if not lines:
        return
    by_block: dict[tuple[int, int], list[Line]] = {}
    for line in lines:
        by_block.setdefault((line.page, line.block), []).append(line)
    for members in by_block.values():
        median = float(np.median([line.size for line in members]))
        for line in members:
            line.size = round(median * 2) / 2
    weights: dict[float, int] = {}
    for line in lines:
        weights[line.size] = weights.get(line.size, 0) + len(line.text)
    body = max(weights, key=lambda size: weights[size])
    for line in lines:
        if abs(line.size - body) <= body * 0.2:
            line.size = body
