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

Boxes end up in PyMuPDF's unrotated page space, in points, like the text layer's, so ``extract`` builds the same
``Line`` objects from them. Results are cached per page content (``OcrCache``, a table of the library's catalog), so
re-ingesting or re-indexing never reads a page twice.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

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
CJK = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FFFF))


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


@dataclass
class PageResult:
    lines: list[OcrLine] = field(default_factory=list)
    cached: bool = False
    seconds: float = 0.0


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


def page_key(page, options: OcrOptions) -> str:
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

        def options(config):
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

        width = max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[3] - quad[2]), 1.0)
        height = max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2]), 1.0)
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
            windows.extend(_windows(self._crop(gray, quad, condense=1.0)))
        _, votes, _ = self._ocr.text_cls(windows)
        flipped = sum(score for label, score in votes if label == "180")
        upright = sum(score for label, score in votes if label != "180")
        if not tall and flipped <= upright:
            return None  # the usual case: upright, and no more work
        # the recogniser is sure of text the right way up and unsure of it upside down
        as_is, _ = self._ocr.text_rec(windows)
        turned, _ = self._ocr.text_rec([np.ascontiguousarray(w[::-1, ::-1]) for w in windows])
        upside_down = _mean_conf(turned) > _mean_conf(as_is)
        if not tall:
            return cv2.ROTATE_180 if upside_down else None
        # the lines read upright with the page turned a quarter clockwise, or upside down: a quarter the other way
        return cv2.ROTATE_90_COUNTERCLOCKWISE if upside_down else cv2.ROTATE_90_CLOCKWISE

    def read(self, gray: np.ndarray, deadline: float = math.inf,
             check: Callable[[], None] = lambda: None) -> list[tuple[str, float, np.ndarray, list[float], int]]:
        """Lines of a grey page image: (text, confidence, quad in the image's pixels with its corners in reading
        order (tl, tr, br, bl as the text reads), character centres as fractions of the line's length, block).
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
        order = reading_order(quads)
        crops = [self._crop(image, quads[index]) for index, _ in order]
        results: list = []
        for start in range(0, len(crops), REC_BATCH):
            step()
            batch, _ = self._ocr.text_rec(crops[start:start + REC_BATCH], True)
            results.extend(batch)
        del crops
        lines = []
        height, width = image.shape
        previous: tuple[int, float | None] | None = None  # (block in reading order, size of the last line)
        block = -1
        for (index, spacing_block), result in zip(order, results):
            text, conf = result[0], float(result[1])
            if conf < TEXT_SCORE or not text.strip():
                continue
            centres = _centres(text, result)
            text, centres = _number_space(*_one_space(text, centres))
            size = _size_px(text, quads[index], centres)
            # a new paragraph where the spacing said so, or where the type size jumps (a heading just above its
            # text is often no further from it than two lines of a paragraph)
            if previous is None or spacing_block != previous[0] or (
                    size is not None and previous[1] is not None and not 0.8 <= size / previous[1] <= 1.25):
                block += 1
            previous = (spacing_block, size if size is not None else previous[1] if previous else None)
            quad = _unturn(quads[index], turn, width, height)
            lines.append((text, conf, quad, centres, block, size))
        return lines


def _size_px(text: str, quad: np.ndarray, centres: list[float]) -> float | None:
    """The type size of a line, in pixels: within each word, the distance from its first letter's centre to its
    last's (where the recogniser placed them) over the letters' widths in em between them, summed over the words,
    so the stretched spaces of justified text do not count; else the line's length over its characters' widths.
    None for a line too short to say."""
    length = float(np.linalg.norm(quad[1] - quad[0]))
    widths = char_widths(text)
    if len(centres) == len(text):
        span = ems = 0.0
        for word in re.finditer(r"\S{3,}", text):
            first, last = word.start(), word.end() - 1
            span += (centres[last] - centres[first]) * length
            ems += sum((widths[i] + widths[i + 1]) / 2 for i in range(first, last))
        if ems >= 2.0 and span > 0:
            return span / ems
    if len(text.strip()) < 4:
        return None
    return length / (sum(widths) or 1.0)


def _one_space(text: str, centres: list[float]) -> tuple[str, list[float]]:
    """Runs of blanks inside a line as one space (the recogniser writes two or three in the wide gaps of justified
    text); blanks at either end go."""
    keep = [i for i, char in enumerate(text) if not (char.isspace() and (i == 0 or text[i - 1].isspace()))]
    while keep and text[keep[-1]].isspace():
        keep.pop()
    cleaned = "".join(" " if text[i].isspace() else text[i] for i in keep)
    return cleaned, [centres[i] for i in keep] if len(centres) == len(text) else []


NUMBER_GLUED = re.compile(r"^(\s*\d+(?:\.\d+)*\.?)(?=[A-Z][a-z])")


def _number_space(text: str, centres: list[float]) -> tuple[str, list[float]]:
    """'2.1Participants' -> '2.1 Participants': the recogniser often drops the space after a section number (the
    space gets a centre between its neighbours')."""
    match = NUMBER_GLUED.match(text)
    if not match:
        return text, centres
    at = match.end(1)
    if len(centres) == len(text):
        centres = [*centres[:at], (centres[at - 1] + centres[at]) / 2, *centres[at:]]
    return text[:at] + " " + text[at:], centres


def _windows(crop: np.ndarray, count: int = 3, width: int = 192) -> list[np.ndarray]:
    """Up to ``count`` windows ``width`` pixels wide spread along a line's crop (the whole crop when narrower)."""
    if crop.shape[1] <= width:
        return [crop]
    starts = np.linspace(0, crop.shape[1] - width, count).astype(int)
    return [np.ascontiguousarray(crop[:, start:start + width]) for start in dict.fromkeys(starts.tolist())]


def _mean_conf(results) -> float:
    """The recogniser's confidence over some windows, weighted by the characters it read in each."""
    weight = sum(len(text) for text, *_ in results)
    return sum(float(conf) * len(text) for text, conf, *_ in results) / weight if weight else 0.0


def _unturn(quad: np.ndarray, turn: int | None, width: int, height: int) -> np.ndarray:
    """Points of the turned (upright) image, of ``width`` x ``height``, back on the image as it was."""
    import cv2

    quad = np.asarray(quad, dtype=np.float32)
    if turn is None:
        return quad
    x, y = quad[:, 0], quad[:, 1]
    if turn == cv2.ROTATE_180:  # (x, y) -> (W - x, H - y), its own inverse
        return np.stack([width - x, height - y], axis=1)
    if turn == cv2.ROTATE_90_COUNTERCLOCKWISE:  # original (x, y) -> (y, W0 - x) with W0 = the turned height
        return np.stack([height - y, x], axis=1)
    return np.stack([y, width - x], axis=1)  # ROTATE_90_CLOCKWISE: original (x, y) -> (H0 - y, x), H0 = turned width


def _centres(text: str, result) -> list[float]:
    """Where the recogniser emitted each character, as a fraction of the line's length (centres); [] when it did
    not say."""
    try:
        info = result[2]
        columns = float(info[0])
        positions = [col for word in info[2] for col in word]
    except (IndexError, TypeError, ValueError):
        return []
    if len(positions) != len(text) or columns <= 0:
        return []
    return [min(max((col + 0.5) / columns, 0.0), 1.0) for col in positions]


def char_widths(text: str) -> list[float]:
    """Advance widths in em: Helvetica's for what it has, one em for CJK and full-width characters."""
    widths = list(_font().char_lengths(text, fontsize=1.0)) if text else []
    out = []
    for char, width in zip(text, widths):
        code = ord(char)
        if any(lo <= code <= hi for lo, hi in CJK):
            out.append(1.0)
        else:
            out.append(width if width > 0 else 0.5)
    return out


_FONT = None


def _font():
    global _FONT
    if _FONT is None:
        import pymupdf

        _FONT = pymupdf.Font("helv")
    return _FONT


def _boundaries(text: str, centres: list[float]) -> list[tuple[float, float]]:
    """Each character's span along its line, as fractions (0..1): between the midpoints of neighbouring centres
    where the recogniser placed them, else in proportion to the characters' widths."""
    n = len(text)
    widths = char_widths(text)
    if len(centres) == n and n > 1 and all(b >= a for a, b in zip(centres, centres[1:])):
        total = sum(widths) or 1.0
        cuts = [0.0] * (n + 1)
        for i in range(1, n):
            cuts[i] = (centres[i - 1] + centres[i]) / 2
        cuts[0] = max(0.0, centres[0] - widths[0] / total / 2 - 0.004)
        cuts[n] = min(1.0, centres[-1] + widths[-1] / total / 2 + 0.004)
        return [(cuts[i], max(cuts[i], cuts[i + 1])) for i in range(n)]
    total = sum(widths) or 1.0
    spans, edge = [], 0.0
    for width in widths:
        spans.append((edge, edge + width / total))
        edge += width / total
    return spans


# ---------------------------------------------------------------- reading order

def reading_order(quads: list[np.ndarray]) -> list[tuple[int, int]]:
    """(index, block) of every line, in reading order: an XY cut (columns where a gutter runs down the whole group,
    else bands at wide gaps), then rows top to bottom and left to right; a new block (paragraph) where the spacing
    between lines or the type size jumps."""
    boxes = []
    for index, quad in enumerate(quads):
        xs, ys = quad[:, 0], quad[:, 1]
        height = float(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2]), 1.0))
        boxes.append((index, float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()), height))
    if not boxes:
        return []
    unit = float(np.median([b[5] for b in boxes]))
    groups: list[list[tuple]] = []
    _xy_cut(boxes, unit, groups)
    order: list[tuple[int, int]] = []
    block = -1
    for group in groups:
        rows = _rows(group)
        pitches = [b[0] - a[0] for a, b in zip(rows, rows[1:])]
        usual = float(np.median(pitches)) if pitches else unit
        previous = None
        for centre, row in rows:
            height = float(np.median([b[5] for b in row]))
            if previous is None or centre - previous[0] > max(usual * 1.3, previous[1] * 1.5):
                block += 1
            order.extend((b[0], block) for b in sorted(row, key=lambda b: b[1]))
            previous = (centre, height)
    return order


def _rows(group: list[tuple]) -> list[tuple[float, list[tuple]]]:
    """Boxes in rows (centres within half a line of each other), top to bottom: (centre, boxes)."""
    rows: list[tuple[float, list[tuple]]] = []
    for box in sorted(group, key=lambda b: (b[2] + b[4]) / 2):
        centre = (box[2] + box[4]) / 2
        if rows and abs(centre - rows[-1][0]) < 0.5 * min(box[5], rows[-1][1][0][5]):
            rows[-1][1].append(box)
        else:
            rows.append((centre, [box]))
    return rows


def _gaps(spans: list[tuple[float, float]], least: float) -> list[float]:
    """Cut positions: the middles of the gaps of at least ``least`` between the merged spans."""
    cuts, end = [], None
    for lo, hi in sorted(spans):
        if end is not None and lo - end >= least:
            cuts.append((lo + end) / 2)
        end = hi if end is None else max(end, hi)
    return cuts


def _xy_cut(boxes: list[tuple], unit: float, out: list[list[tuple]], depth: int = 0) -> None:
    if len(boxes) <= 1 or depth > 40:
        out.append(boxes)
        return
    # columns: a gutter at least a line high (wide) that no box crosses
    cuts = _gaps([(b[1], b[3]) for b in boxes], unit * 1.0)
    if cuts:
        edges = [-math.inf, *cuts, math.inf]
        for lo, hi in zip(edges, edges[1:]):
            part = [b for b in boxes if lo <= (b[1] + b[3]) / 2 < hi]
            if part:
                _xy_cut(part, unit, out, depth + 1)
        return
    # bands: a gap of more than a line between the middles of the lines (their middle halves)
    cuts = _gaps([((b[2] + b[4]) / 2 - b[5] / 4, (b[2] + b[4]) / 2 + b[5] / 4) for b in boxes], unit * 1.2)
    if cuts:
        edges = [-math.inf, *cuts, math.inf]
        for lo, hi in zip(edges, edges[1:]):
            part = [b for b in boxes if lo <= (b[2] + b[4]) / 2 < hi]
            if part:
                _xy_cut(part, unit, out, depth + 1)
        return
    out.append(boxes)


# ---------------------------------------------------------------- pages

def render(page, options: OcrOptions):
    """The page as a grey pixmap at ``options.dpi``, scaled down to at most ``options.max_pixels``; with the matrix
    from its pixels to the unrotated page's space."""
    import pymupdf

    rect = page.rect
    zoom = options.dpi / 72.0
    pixels = max(rect.width * zoom, 1.0) * max(rect.height * zoom, 1.0)
    if pixels > options.max_pixels:
        zoom *= math.sqrt(options.max_pixels / pixels)
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    to_page = pymupdf.Matrix(rect.width / pix.width, 0, 0, rect.height / pix.height, rect.x0, rect.y0) \
        * page.derotation_matrix
    return pix, to_page


def read_page(page, options: OcrOptions, deadline: float = math.inf, check: Callable[[], None] = lambda: None,
              reader: Engine | None = None) -> list[OcrLine]:
    """OCR one PyMuPDF page: its lines in the unrotated page's space. Raises OcrGaveUp past ``deadline``."""
    import pymupdf

    pix, to_page = render(page, options)
    try:
        gray = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
        raw = (reader or engine(options.threads)).read(gray, deadline, check)
    finally:
        del pix
    lines = []
    scale = math.sqrt(abs(to_page.a * to_page.d - to_page.b * to_page.c))  # points per pixel
    for text, conf, quad, centres, block, size_px in raw:
        spans = _boundaries(text, centres)
        tl, tr, br, bl = (pymupdf.Point(float(x), float(y)) * to_page for x, y in quad)
        xs0, xs1, ys = [], [], [tl.y, tr.y, br.y, bl.y]
        for a, b in spans:
            corners = (tl + (tr - tl) * a, tl + (tr - tl) * b, bl + (br - bl) * a, bl + (br - bl) * b)
            xs0.append(min(p.x for p in corners))
            xs1.append(max(p.x for p in corners))
        # the type size from the letters' spacing (a box's height depends on which letters rise and fall), else
        # from the height of a line too short to say
        size = size_px * scale if size_px is not None else max(abs(bl - tl), abs(br - tr), 0.1) / 1.25
        lines.append(OcrLine(text, conf, min(ys), max(ys), xs0, xs1, size, block))
    return lines


def settle_sizes(lines: list) -> None:
    """Snap the sizes of lines read by OCR to the body's: a size measured from a scan varies by a few percent from
    line to line, and a body line measured a little large must not pass for a heading. Works on ``extract.Line``s
    (size and block attributes) in place: each block takes its lines' median size, then blocks within 20 % of the
    body size (the most common, weighted by characters) take the body's."""
    if not lines:
        return
    by_block: dict[tuple[int, int], list] = {}
    for line in lines:
        by_block.setdefault((line.page, line.block), []).append(line)
    for members in by_block.values():
        median = float(np.median([line.size for line in members]))
        for line in members:
            line.size = round(median * 2) / 2
    weights: dict[float, int] = {}
    for line in lines:
        weights[line.size] = weights.get(line.size, 0) + len(line.text)
    body = max(weights, key=weights.get)
    for line in lines:
        if abs(line.size - body) <= body * 0.2:
            line.size = body
