"""What OCR's engine (core.library.read.ocr) does with the recogniser's raw output, apart from running the models: the
geometry and text of the lines it reads.

- each character's span along its line, from the column where the recogniser emitted it (``centres``,
  ``boundaries``), or else in proportion to the characters' advance widths (``char_widths``: Helvetica's, one em for
  CJK and full-width characters);
- the type size of a line from its letters' spacing (``size_px``);
- tidying the recognised text (runs of blanks as one space, the space after a section number);
- windows of a line for the direction classifier and the recogniser's mean confidence on them (``windows``,
  ``mean_conf``), and points of a turned page image back on the page as it was (``unturn``);
- reading order: columns first by an XY cut, rows, and paragraphs by the spacing (``reading_order``).

Pure functions of numpy arrays and strings (PyMuPDF only for Helvetica's widths, OpenCV only for its rotate codes).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pymupdf

#: a line's box in reading order: (index, x0, y0, x1, y1, height)
Box = tuple[int, float, float, float, float, float]
CJK = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FFFF))


def size_px(text: str, quad: np.ndarray, centres: list[float]) -> float | None:
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


def one_space(text: str, centres: list[float]) -> tuple[str, list[float]]:
    """Runs of blanks inside a line as one space (the recogniser writes two or three in the wide gaps of justified
    text); blanks at either end go."""
    keep = [i for i, char in enumerate(text) if not (char.isspace() and (i == 0 or text[i - 1].isspace()))]
    while keep and text[keep[-1]].isspace():
        keep.pop()
    cleaned = "".join(" " if text[i].isspace() else text[i] for i in keep)
    return cleaned, [centres[i] for i in keep] if len(centres) == len(text) else []


NUMBER_GLUED = re.compile(r"^(\s*\d+(?:\.\d+)*\.?)(?=[A-Z][a-z])")


def number_space(text: str, centres: list[float]) -> tuple[str, list[float]]:
    """'2.1Participants' -> '2.1 Participants': the recogniser often drops the space after a section number (the
    space gets a centre between its neighbours')."""
    match = NUMBER_GLUED.match(text)
    if not match:
        return text, centres
    at = match.end(1)
    if len(centres) == len(text):
        centres = [*centres[:at], (centres[at - 1] + centres[at]) / 2, *centres[at:]]
    return text[:at] + " " + text[at:], centres


def windows(crop: np.ndarray, count: int = 3, width: int = 192) -> list[np.ndarray]:
    """Up to ``count`` windows ``width`` pixels wide spread along a line's crop (the whole crop when narrower)."""
    if crop.shape[1] <= width:
        return [crop]
    starts = np.linspace(0, crop.shape[1] - width, count).astype(int)
    return [np.ascontiguousarray(crop[:, start:start + width]) for start in dict.fromkeys(starts.tolist())]


def mean_conf(results: Sequence[Sequence[Any]]) -> float:
    """The recogniser's confidence over some windows, weighted by the characters it read in each."""
    weight: int = sum(len(text) for text, *_ in results)
    return sum(float(conf) * len(text) for text, conf, *_ in results) / weight if weight else 0.0


def unturn(quad: np.ndarray, turn: int | None, width: int, height: int) -> np.ndarray:
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


def centres(text: str, result: Sequence[Any]) -> list[float]:
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
    out: list[float] = []
    for char, width in zip(text, widths):
        code = ord(char)
        if any(lo <= code <= hi for lo, hi in CJK):
            out.append(1.0)
        else:
            out.append(width if width > 0 else 0.5)
    return out


_FONT: pymupdf.Font | None = None


def _font() -> pymupdf.Font:
    global _FONT
    if _FONT is None:
        import pymupdf

        _FONT = pymupdf.Font("helv")
    return _FONT


def boundaries(text: str, centres: list[float]) -> list[tuple[float, float]]:
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
    boxes: list[Box] = []
    for index, quad in enumerate(quads):
        xs, ys = quad[:, 0], quad[:, 1]
        height = max(float(np.linalg.norm(quad[0] - quad[3])), float(np.linalg.norm(quad[1] - quad[2])), 1.0)
        boxes.append((index, float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()), height))
    if not boxes:
        return []
    unit = float(np.median([b[5] for b in boxes]))
    groups: list[list[Box]] = []
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


def _rows(group: list[Box]) -> list[tuple[float, list[Box]]]:
    """Boxes in rows (centres within half a line of each other), top to bottom: (centre, boxes)."""
    rows: list[tuple[float, list[Box]]] = []
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


def _xy_cut(boxes: list[Box], unit: float, out: list[list[Box]], depth: int = 0) -> None:
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
