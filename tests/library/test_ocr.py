"""Scanned pages read by OCR (core.library.read.ocr, in the extraction child): small English and Chinese scans go in and
are found by search, their chunks are highlighted where the text really is on the scan and carry the recogniser's
confidence, a page is read once (then cached by content), ocr = "off" still refuses a scan, pages turned by /Rotate,
fed sideways or upside down come out in place, and a cancel during OCR leaves nothing behind.

The scans are small (A6, a dozen lines: OCR costs about a second a page on two idle cores) and made by
testkit.scans, which also gives the matrix from each born-digital page to its scan: the true position of any text.

Highlights are compared as intersection over union of the areas the rectangles cover (IoU): a chunk's rectangles
from the scan against the born-digital PDF's rectangles for the same text, carried onto the scan. The threshold,
0.5, is well below what a right answer gives (0.6 to 0.8: the recogniser's line boxes are a little taller than a
font's, and a skewed line's box is taller still) and far above a wrong one: a highlight one line off, or on the page
turned the wrong way, scores below 0.2.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import CancelToken, Library
from courtroom_desktop.core.library.read import ocr as ocr_module
from courtroom_desktop.core.library.read.extract import extract
from courtroom_desktop.core.library.read.ocr import OcrOptions
from courtroom_desktop.core.library.store.vectors import VectorStore, chunk_schema
from courtroom_desktop.core.records import Chunk, FileFinished, FileOutcome, FileProgress
from courtroom_desktop.core.retrieval import Retriever
from courtroom_desktop.core.retrieval.scope import Scope
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf
from testkit.scans import iou, points, scan_pdf, true_rect

from .docs import make_scanned

IOU_AT_LEAST = 0.5
EN = DocSpec(title="Amlodipine Trial", sections=[
    SectionSpec(1, "1 Methods", ["Nurses measured blood pressure in forty adults every week. Each patient took "
                                 "amlodipine or a placebo tablet for twelve weeks."]),
    SectionSpec(1, "2 Results", ["Systolic pressure fell by nine points with amlodipine. Ankle swelling was the most "
                                 "common adverse event, in six of the forty adults."]),
])
ZH = DocSpec(title="纯净水与矿物质", sections=[
    SectionSpec(1, "一、引言", ["长期饮用纯净水会导致人体矿物质流失吗？这是一个常见的说法。我们检索了十二项研究。"]),
    SectionSpec(1, "二、结论", ["人体所需的矿物质主要来自食物，而不是饮用水；饮用水只提供很少一部分。"]),
])
SETTINGS = LibrarySettings(chunk_tokens=60, overlap_tokens=0, min_section_tokens=5)


def _scan(folder: Path, spec: DocSpec, name: str, **scan) -> tuple[Path, Path, list[pymupdf.Matrix]]:
    source, scanned = folder / f"{name}-digital.pdf", folder / f"{name}.pdf"
    render_pdf(spec, source, outline=False, paper="a6")
    matrices = scan_pdf(source, scanned, **{"dpi": 200, "skew": 1.0, "noise": 6.0, "seed": 3, **scan})
    return source, scanned, matrices


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scans")
    return {"en": _scan(folder, EN, "en"), "zh": _scan(folder, ZH, "zh", skew=-1.5)}


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _true_rects(source: Path, text: str, matrix: pymupdf.Matrix, size: tuple[float, float]) -> list[pymupdf.Rect]:
    """Where ``text`` (whitespace aside) lies on the scan: the born-digital PDF's rectangles for it, through the
    scan's matrix."""
    digital = extract(source)
    squashed, offsets = [], []
    for offset, char in enumerate(digital.text):
        if not char.isspace():
            squashed.append(char)
            offsets.append(offset)
    start = "".join(squashed).find(_squash(text))
    assert start >= 0, f"{text!r} is not in the born-digital text"
    end = offsets[start + len(_squash(text)) - 1] + 1
    highlights = digital.highlights(offsets[start], end)
    width, height = digital.page_sizes[0]
    return [true_rect(r, matrix) for h in highlights for r in points(h.rects, (width, height))]


def _chunk_iou(chunk: Chunk, source: Path, matrix: pymupdf.Matrix, size: tuple[float, float]) -> float:
    assert [h.page for h in chunk.highlights] == [0]
    return iou(points(chunk.highlights[0].rects, size), _true_rects(source, chunk.text, matrix, size), size)


def test_scans_in_english_and_chinese_go_in_and_are_found_highlighted_in_place(tmp_path, embedder, scans):
    """Through the extraction child, as the app runs it."""
    library = Library.open(tmp_path / "lib", SETTINGS, embedder)
    try:
        events = []
        finished = library.ingest([scans["en"][1], scans["zh"][1]], on_event=events.append)
        assert (finished.added, finished.failed) == (2, 0), [e for e in events if isinstance(e, FileFinished)]
        ocr_events = [e for e in events if isinstance(e, FileProgress) and e.stage.value == "ocr"]
        assert {(e.pages_done, e.pages) for e in ocr_events} >= {(0, 1), (1, 1)}  # per page, before and after
        retriever = Retriever(library)
        for key, query, expected in (("en", "amlodipine placebo tablet for twelve weeks", "placebo tablet"),
                                     ("zh", "矿物质主要来自哪些食物", "矿物质主要来自食物")):
            source, scanned, matrices = scans[key]
            doc = library.find(str(scanned))
            assert doc.pages_ocr == (0,) and doc.pages_without_text == () and doc.no_text_note() == ""
            found = retriever.search(query, k=3, scope=Scope.documents([doc.id]))
            assert found and _squash(expected) in _squash(found[0].chunk.text), [e.chunk.text for e in found]
            chunk = found[0].chunk
            assert chunk.ocr_confidence is not None and 0.8 < chunk.ocr_confidence <= 1.0
            size = pymupdf.open(scanned)[0].rect.width, pymupdf.open(scanned)[0].rect.height
            score = _chunk_iou(chunk, source, matrices[0], size)
            assert score >= IOU_AT_LEAST, (key, score, chunk.text)
        # the born-digital copy has no OCR confidence: the field says where text came from
        library.ingest([scans["en"][0]])
        digital = library.find(str(scans["en"][0]))
        assert all(c.ocr_confidence is None for c in library.doc_chunks(digital.id)) and digital.pages_ocr == ()
    finally:
        library.close()


def test_a_page_is_read_once_then_comes_from_the_cache(tmp_path, embedder, scans, monkeypatch):
    reads = []
    original = ocr_module.Engine.read

    def counting(self, gray, *args, **kwargs):
        reads.append(gray.shape)
        return original(self, gray, *args, **kwargs)

    monkeypatch.setattr(ocr_module.Engine, "read", counting)
    settings = SETTINGS.model_copy(update={"isolate_extraction": False})  # in this process, where reads are counted
    library = Library.open(tmp_path / "lib", settings, embedder)
    try:
        assert library.ingest([scans["en"][1]]).added == 1
        assert len(reads) == 1
        assert library.reindex().updated == 1              # re-extracted: the page comes from the cache
        copy = tmp_path / "another file.pdf"  # another file (another title), the same page: cached by content
        with pymupdf.open(scans["en"][1]) as scan:
            scan.set_metadata({"title": "Another file"})
            scan.save(copy)
        assert library.ingest([copy]).added == 1
        assert len(reads) == 1
        first = library.doc_chunks(library.find(str(scans["en"][1])).id)
        again = library.doc_chunks(library.find(str(copy)).id)
        assert [(c.text, c.highlights, c.ocr_confidence) for c in first] == \
            [(c.text, c.highlights, c.ocr_confidence) for c in again]
    finally:
        library.close()
    # a new dpi reads the page again (the cache key holds how it was read)
    library = Library.open(tmp_path / "lib", settings.model_copy(update={"ocr_dpi": 240}), embedder)
    try:
        assert library.reindex([library.find(str(copy)).id]).updated == 1
        assert len(reads) == 2
    finally:
        library.close()


def test_ocr_off_refuses_a_scan_and_a_blank_scan_is_refused_with_ocr_on(tmp_path, embedder, scans):
    library = Library.open(tmp_path / "lib", SETTINGS.model_copy(update={"ocr": "off"}), embedder)
    try:
        events = []
        finished = library.ingest([scans["en"][1]], on_event=events.append)
        assert finished.failed == 1 and library.documents() == []
        reason = next(e.reason for e in events if isinstance(e, FileFinished))
        assert "no text layer: the pages are images (a scan); needs OCR first" in reason and '"off"' in reason
        assert not [e for e in events if isinstance(e, FileProgress) and e.stage.value == "ocr"]
    finally:
        library.close()
    blank = tmp_path / "blank-scan.pdf"
    make_scanned(blank)  # a grey image: nothing to read
    library = Library.open(tmp_path / "lib2", SETTINGS, embedder)
    try:
        events = []
        assert library.ingest([blank], on_event=events.append).failed == 1
        reason = next(e.reason for e in events if isinstance(e, FileFinished))
        assert "a scan), and OCR read no text on them" in reason
    finally:
        library.close()


def test_pages_turned_by_rotate_fed_sideways_or_upside_down_are_read_in_place(tmp_path, scans):
    """One page with /Rotate 90 (stored sideways, shown upright), one scanned a quarter turn sideways, one upside
    down: each is read, and its text highlighted where it is on the page as stored (the unrotated page space)."""
    source = scans["en"][0]
    merged, matrices = pymupdf.open(), []
    for index, how in enumerate(({"page_rotation": 90}, {"turn": 90}, {"turn": 180})):
        part = tmp_path / f"turned-{index}.pdf"
        matrices += scan_pdf(source, part, dpi=200, skew=1.0, noise=6.0, seed=index, **how)
        with pymupdf.open(part) as opened:
            merged.insert_pdf(opened)
    path = tmp_path / "turned.pdf"
    merged.save(path)
    doc = extract(path, ocr=OcrOptions())
    assert doc.ocr_pages == [0, 1, 2] and doc.pages_without_text == []
    with pymupdf.open(path) as opened:
        assert [page.rotation for page in opened] == [90, 0, 0]
    sentence = "Each patient took amlodipine or a placebo tablet for twelve weeks."
    # the sentence on each page, in the OCR text (a letter or two may be misread: found by its ends)
    found = list(re.finditer(r"Each.{20,70}?weeks", doc.text, flags=re.S))
    assert len(found) == 3, doc.text
    for page_number, match in enumerate(found):
        words = set(match.group(0).split())
        assert len(words & set(sentence.rstrip(".").split())) >= 8, match.group(0)
        highlights = doc.highlights(match.start(), match.end())
        assert [h.page for h in highlights] == [page_number]
        size = doc.page_sizes[page_number]
        score = iou(points(highlights[0].rects, size), _true_rects(source, sentence, matrices[page_number], size),
                    size)
        assert score >= IOU_AT_LEAST, (page_number, score)


def test_cancel_during_ocr_leaves_no_half_document(tmp_path, embedder):
    spec = DocSpec(title="Long Scan", sections=[SectionSpec(1, f"{n} Part", [EN.sections[0].paragraphs[0] * 2])
                                                for n in range(1, 7)])
    source, scanned = tmp_path / "long-digital.pdf", tmp_path / "long.pdf"
    render_pdf(spec, source, outline=False, paper="a6")
    pages = len(scan_pdf(source, scanned, dpi=150, noise=4.0))
    assert pages >= 3
    library = Library.open(tmp_path / "lib", SETTINGS, embedder)
    try:
        cancel = CancelToken()
        events = []

        def on_event(event):
            events.append(event)
            if isinstance(event, FileProgress) and event.stage.value == "ocr" and event.pages_done >= 1:
                cancel.cancel()

        finished = library.ingest([scanned], on_event=on_event, cancel=cancel)
        assert finished.cancelled
        done = [e for e in events if isinstance(e, FileFinished)]
        assert [e.outcome for e in done] == [FileOutcome.cancelled]
        assert library.documents() == [] and library.vectors.count() == 0 and library.text_index.count() == 0
        assert library.check_consistency()["consistent"]
        assert library._extractor.killed == 1  # the child was stopped in the middle of the document
    finally:
        library.close()


def test_a_chunk_table_from_before_ocr_opens_and_reads_its_chunks_as_not_ocr(tmp_path):
    import lancedb
    import numpy as np
    import pyarrow as pa

    folder = tmp_path / "lancedb"
    old = pa.schema([f for f in chunk_schema(4) if f.name != "ocr_confidence"])
    table = lancedb.connect(str(folder)).create_table("chunks", schema=old)
    table.add(pa.table({
        "id": ["d-0000"], "doc_id": ["d"], "ordinal": pa.array([0], pa.int32()), "section_path": [""],
        "page_start": pa.array([0], pa.int32()), "page_end": pa.array([0], pa.int32()), "char_start": [0],
        "char_end": [4], "text": ["text"], "highlights": ["[]"],
        "vector": pa.FixedSizeListArray.from_arrays(pa.array([1, 0, 0, 0], pa.float32()), 4),
    }, schema=old))
    store = VectorStore(folder, 4)
    assert store.get(["d-0000"])["d-0000"].ocr_confidence is None
    scanned = Chunk(id="e-0000", doc_id="e", ordinal=0, section_path="", page_start=0, page_end=0, char_start=0,
                    char_end=4, text="scan", ocr_confidence=0.93)
    store.add([scanned], np.array([[0, 1, 0, 0]], dtype=np.float32))
    assert store.get(["e-0000"])["e-0000"].ocr_confidence == pytest.approx(0.93)
    assert [c.ocr_confidence for c in store.doc_chunks("d")] == [None]
