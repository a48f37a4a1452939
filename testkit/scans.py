"""Scanned copies of born-digital PDFs: every page rendered to a grey image at a scanner's resolution, turned by a
small skew, with noise and JPEG compression, and put back as an image-only page (no text layer): what a scanner
without OCR produces. Used by the OCR tests, ``scripts/make_scans.py`` and the OCR figures (docs/ocr.md).

Each page of the copy comes with the matrix that maps a point of the source page (PyMuPDF's unrotated page space, in
points) to the place where it landed on the scanned page (same space), so the true position of any source text on the
scan is known: the born-digital PDF's character boxes, through the matrix.

- ``skew``: degrees, counter-clockwise as seen on screen (a page laid crooked on the glass);
- ``turn``: 0, 90, 180 or 270: the content turned clockwise by that much inside the image, and nothing in the PDF says
  so (a page fed sideways or upside down);
- ``page_rotation``: the page's /Rotate; the image is stored counter-turned so that a viewer shows it upright (what
  many scanners write for landscape or sideways pages).
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image


def _turned(size: tuple[float, float], quarter_turns: int) -> tuple[float, float]:
    return size if quarter_turns % 2 == 0 else (size[1], size[0])


def _turn_matrix(width: float, height: float, degrees: int) -> pymupdf.Matrix:
    """Maps a point of a width x height box to the same point after the box is turned clockwise by ``degrees`` (a
    multiple of 90) about its corner, then moved back to the origin (y down)."""
    degrees %= 360
    if degrees == 0:
        return pymupdf.Matrix(1, 0, 0, 1, 0, 0)
    if degrees == 90:   # (x, y) -> (height - y, x)
        return pymupdf.Matrix(0, 1, -1, 0, height, 0)
    if degrees == 180:  # (x, y) -> (width - x, height - y)
        return pymupdf.Matrix(-1, 0, 0, -1, width, height)
    return pymupdf.Matrix(0, -1, 1, 0, 0, width)  # 270: (x, y) -> (y, width - x)


def _skew_matrix(width: float, height: float, degrees: float) -> pymupdf.Matrix:
    """Rotation about the centre, counter-clockwise on screen (y down), as PIL's Image.rotate does."""
    theta = math.radians(degrees)
    cos, sin = math.cos(theta), math.sin(theta)
    cx, cy = width / 2, height / 2
    # on screen counter-clockwise with y down: x' = cx + (x-cx)cos + (y-cy)sin ; y' = cy - (x-cx)sin + (y-cy)cos
    return pymupdf.Matrix(cos, -sin, sin, cos, cx - cx * cos - cy * sin, cy + cx * sin - cy * cos)


def scan_page(page: pymupdf.Page, dpi: int, skew: float = 0.0, noise: float = 8.0, rng: random.Random | None = None,
              quality: int = 80) -> tuple[bytes, tuple[int, int]]:
    """The page as a scanner sees it: grey, at ``dpi``, skewed, noisy, JPEG-compressed. Returns the JPEG and its
    size in pixels."""
    rng = rng or random.Random(0)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    del pix
    if skew:
        image = image.rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=255)
    if noise:
        pixels = np.asarray(image, dtype=np.float32)
        generator = np.random.default_rng(rng.randrange(1 << 30))
        pixels = pixels + generator.normal(0.0, noise, pixels.shape)
        # a little dirt: sparse dark specks, as dust on the glass
        specks = generator.random(pixels.shape) < 0.0004
        pixels[specks] = generator.uniform(0, 120, int(specks.sum()))
        image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "L")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality)
    return out.getvalue(), image.size


def scan_pdf(source: Path, target: Path, dpi: int = 150, skew: float | Sequence[float] = 0.0, noise: float = 8.0,
             seed: int = 0, quality: int = 80, turn: int = 0, page_rotation: int = 0,
             pages: Sequence[int] | None = None) -> list[pymupdf.Matrix]:
    """Write an image-only copy of ``source`` to ``target``; returns, per page of the copy, the matrix from the source
    page's space to the copy's (unrotated) page space. ``skew`` is one angle for every page or one per page."""
    rng = random.Random(seed)
    matrices: list[pymupdf.Matrix] = []
    with pymupdf.open(str(source)) as src, pymupdf.open() as out:
        chosen = list(pages) if pages is not None else list(range(src.page_count))
        for number, index in enumerate(chosen):
            page = src.load_page(index)
            angle = skew if isinstance(skew, int | float) else skew[number % len(skew)]
            data, (w_px, h_px) = scan_page(page, dpi, angle, noise, rng, quality)
            width, height = page.rect.width, page.rect.height
            # the source page -> the skewed image (in points, the page's own size)
            matrix = _skew_matrix(width, height, angle)
            # the content turned inside the image, as fed sideways: the image is turned, so is its box
            content_turn = turn % 360
            # the image is stored in the unrotated page turned against the /Rotate, so that it shows upright
            stored_turn = (content_turn - page_rotation) % 360
            matrix = matrix * _turn_matrix(width, height, stored_turn)
            box_w, box_h = _turned((width, height), stored_turn // 90)
            image = Image.open(io.BytesIO(data))
            if stored_turn:
                image = image.transpose({90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
                                         270: Image.Transpose.ROTATE_90}[stored_turn])  # PIL turns counter-clockwise
                buffer = io.BytesIO()
                image.save(buffer, format="JPEG", quality=quality)
                data = buffer.getvalue()
            new = out.new_page(width=box_w, height=box_h)
            new.insert_image(pymupdf.Rect(0, 0, box_w, box_h), stream=data)
            if page_rotation:
                new.set_rotation(page_rotation)
            matrices.append(matrix)
            del w_px, h_px
        out.save(str(target), garbage=3, deflate=True)
    return matrices


def true_rect(rect: Sequence[float], matrix: pymupdf.Matrix) -> pymupdf.Rect:
    """Where a rectangle of the source page lies on the scan: the bounding box of its four corners through ``matrix``."""
    quad = pymupdf.Rect(rect).quad * matrix
    return quad.rect


def points(rects: Sequence[Sequence[float]], size: tuple[float, float]) -> list[pymupdf.Rect]:
    """Page-relative rectangles (0..1, as Highlight holds them) in points of a page of ``size``."""
    width, height = size
    return [pymupdf.Rect(r[0] * width, r[1] * height, r[2] * width, r[3] * height) for r in rects]


def iou(first: Sequence[pymupdf.Rect], second: Sequence[pymupdf.Rect], size: tuple[float, float],
        step: float = 0.5) -> float:
    """Intersection over union of the areas two sets of rectangles cover (each set's union), on a grid of ``step``
    points over a page of ``size``."""
    width, height = size
    shape = (int(math.ceil(height / step)) + 1, int(math.ceil(width / step)) + 1)

    def mask(rects) -> np.ndarray:
        grid = np.zeros(shape, dtype=bool)
        for rect in rects:
            x0, x1 = sorted((rect.x0, rect.x1))
            y0, y1 = sorted((rect.y0, rect.y1))
            grid[max(0, int(round(y0 / step))):max(0, int(round(y1 / step))),
                 max(0, int(round(x0 / step))):max(0, int(round(x1 / step)))] = True
        return grid

    a, b = mask(first), mask(second)
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 0.0
