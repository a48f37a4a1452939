"""OCR figures (docs/ocr.md): character error rate, highlight overlap, pages/s, retrieval on scanned copies, memory.

    python bench/ocr.py accuracy  [--pages 4] [--dpi 150 300]      CER per language and scan dpi, IoU, pages/s
    python bench/ocr.py retrieval [--claims 30 --distractors 20]  nDCG@10 of scanned copies against born-digital
    python bench/ocr.py memory    [--pages 300] [--lines 12]      peak RSS of the extraction child on a long scan
    (each takes --json FILE to keep the figures; --work DIR keeps the PDFs)

The scans are made by testkit.scans from born-digital PDFs: every page rendered grey at the scan's dpi, skewed by a
random angle within +-2 degrees, with noise and dust, JPEG-compressed, into an image-only PDF. English: SciFact
abstracts laid out by testkit.pdfgen; Chinese: the sample library resources/samples-zh/. OCR runs as the library runs
it (library.ocr = "auto", ocr_dpi 300), without its cache.

- CER: edit distance between the OCR text of a page and the born-digital text of the same page, over the latter's
  length; English both with single spaces kept and with all whitespace removed, Chinese with whitespace removed.
- IoU: every chunk of the OCR'd document (default chunk settings), on every page it covers, against the born-digital
  rectangles of the same text (characters matched by aligning the page's OCR text with its born-digital text) carried
  onto the scan through the scan's matrix; intersection over union of the areas covered.
- pages/s: pages OCR'd over OCR wall time (models loaded beforehand), with the CPU seconds per page and the machine's
  load average beside it (the figures are only comparable at equal load); the baseline: pages/s of reading the
  born-digital source's text layer (digital_pages_per_s).
- retrieval: SciFact claims (scripts/make_scifact_pdfs.py: the abstracts the first --claims claims cite plus
  --distractors others, one PDF each) ingested born-digital into one library and scanned (200 dpi) into another;
  document-level nDCG@10 of each, and the ratio. Chinese: the 46 labelled queries of
  tests/retrieval/data/zh_queries.jsonl over resources/samples-zh/, passage-level nDCG@10 (a chunk is relevant when it
  holds the answer, allowing OCR's errors: edit distance at most 15 % of the answer's length, whitespace aside).
- memory: a --pages page scan (150 dpi, --lines lines of text a page) read by the extraction child as the library
  runs it; the child's peak RSS (getrusage of the reaped child) and the parent's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pymupdf  # noqa: E402

from courtroom_desktop.core.config import LibrarySettings  # noqa: E402
from courtroom_desktop.core.library.chunking import chunk_document  # noqa: E402
from courtroom_desktop.core.library.read.extract import extract  # noqa: E402
from courtroom_desktop.core.library.read.ocr import OcrOptions, engine  # noqa: E402
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf  # noqa: E402
from testkit.scans import iou, points, scan_pdf, true_rect  # noqa: E402

SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
ZH_SAMPLES = ROOT / "resources" / "samples-zh"
ZH_QUERIES = ROOT / "tests" / "retrieval" / "data" / "zh_queries.jsonl"
SPACE = re.compile(r"\s+")


# ---------------------------------------------------------------- edit distance and alignment

def _table(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The full Levenshtein table of two code arrays (rows vectorised: the left moves by a running minimum)."""
    n, m = len(a), len(b)
    table = np.empty((n + 1, m + 1), dtype=np.int32)
    table[0] = np.arange(m + 1)
    steps = np.arange(m + 1, dtype=np.int32)
    for i in range(1, n + 1):
        prev = table[i - 1]
        row = np.empty(m + 1, dtype=np.int32)
        row[0] = i
        row[1:] = np.minimum(prev[:-1] + (b != a[i - 1]), prev[1:] + 1)
        table[i] = np.minimum.accumulate(row - steps) + steps
    return table


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def edit_distance(a: str, b: str) -> int:
    return int(_table(_codes(a), _codes(b))[-1, -1]) if a and b else max(len(a), len(b))


def align(a: str, b: str) -> list[int]:
    """For each character of ``a``, the index of the character of ``b`` it aligns with (-1: none)."""
    out = [-1] * len(a)
    if not a or not b:
        return out
    ca, cb = _codes(a), _codes(b)
    table = _table(ca, cb)
    i, j = len(a), len(b)
    while i > 0 and j > 0:
        if table[i, j] == table[i - 1, j - 1] + (ca[i - 1] != cb[j - 1]):
            out[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif table[i, j] == table[i - 1, j] + 1:
            i -= 1
        else:
            j -= 1
    return out


def substring_distance(needle: str, haystack: str) -> int:
    """The least edit distance between ``needle`` and any stretch of ``haystack``."""
    if not needle:
        return 0
    if not haystack:
        return len(needle)
    a, b = _codes(needle), _codes(haystack)
    prev = np.zeros(len(b) + 1, dtype=np.int32)  # a stretch may start anywhere
    steps = np.arange(len(b) + 1, dtype=np.int32)
    for i in range(1, len(a) + 1):
        row = np.empty(len(b) + 1, dtype=np.int32)
        row[0] = i
        row[1:] = np.minimum(prev[:-1] + (b != a[i - 1]), prev[1:] + 1)
        prev = np.minimum.accumulate(row - steps) + steps
    return int(prev.min())


# ---------------------------------------------------------------- documents

def _corpus(limit: int) -> list[dict]:
    rows = []
    with (SCIFACT / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if len(row.get("text", "")) > 600:
                rows.append(row)
            if len(rows) >= limit:
                break
    return rows


def english_source(path: Path, pages: int) -> Path:
    """SciFact abstracts as numbered sections, enough for ``pages`` A4 pages."""
    rows = _corpus(pages * 3 + 2)
    sections = [SectionSpec(1, f"{n} {row['title'][:80].rstrip('.')}", [row["text"]]) for n, row in enumerate(rows, 1)]
    render_pdf(DocSpec(title="Abstracts for OCR", sections=sections), path, outline=False)
    return path


def page_text(doc, page: int, joiner: str) -> str:
    return joiner.join(line.text for line in doc.lines if line.page == page)


def _flat(text: str) -> str:
    return SPACE.sub("", text)


def _spaced(text: str) -> str:
    return SPACE.sub(" ", text).strip()


def _load_average() -> float:
    try:
        return round(os.getloadavg()[0], 1)
    except OSError:
        return float("nan")


# ---------------------------------------------------------------- accuracy

def accuracy(args) -> dict:
    work = Path(args.work or tempfile.mkdtemp(prefix="ocr-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    sources = {"en": english_source(work / "en-digital.pdf", args.pages)}
    zh = sorted(ZH_SAMPLES.glob("*.pdf"))
    if zh:
        sources["zh"] = zh[0]
    engine()  # load the models before timing
    settings = LibrarySettings()
    results: dict = {"load_average_before": _load_average(), "runs": []}
    for language, source in sources.items():
        began = time.perf_counter()
        digital = extract(source)  # the baseline: the born-digital text layer, read the ordinary way
        digital_rate = digital.pages / max(time.perf_counter() - began, 1e-9)
        for dpi in args.dpi:
            rng = random.Random(dpi)
            pages = list(range(min(args.pages, digital.pages)))
            skews = [round(rng.uniform(-2.0, 2.0), 2) for _ in pages]
            scanned = work / f"{language}-{dpi}.pdf"
            matrices = scan_pdf(source, scanned, dpi=dpi, skew=skews, noise=8.0, seed=dpi, pages=pages)
            began, cpu = time.perf_counter(), time.process_time()
            doc = extract(scanned, ocr=OcrOptions(dpi=args.ocr_dpi))
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
            seconds = doc.ocr_seconds or wall
            errors = {"spaced": [0, 0], "flat": [0, 0]}
            for page in range(len(pages)):
                truth = page_text(digital, pages[page], " ")
                read = page_text(doc, page, " ")
                for kind, norm in (("spaced", _spaced), ("flat", _flat)):
                    errors[kind][0] += edit_distance(norm(read), norm(truth))
                    errors[kind][1] += len(norm(truth))
            scores = chunk_ious(doc, digital, pages, matrices, settings)
            run = {
                "language": language, "scan_dpi": dpi, "ocr_dpi": args.ocr_dpi, "pages": len(pages), "skews": skews,
                "cer_spaced": round(errors["spaced"][0] / max(errors["spaced"][1], 1), 4),
                "cer_no_space": round(errors["flat"][0] / max(errors["flat"][1], 1), 4),
                "chunks": len(scores), "iou_mean": round(float(np.mean(scores)), 3) if scores else None,
                "iou_median": round(float(np.median(scores)), 3) if scores else None,
                "iou_at_least_0_5": round(float(np.mean([s >= 0.5 for s in scores])), 3) if scores else None,
                "ocr_seconds": round(seconds, 1), "pages_per_s": round(len(pages) / seconds, 3),
                "cpu_s_per_page": round(cpu / len(pages), 1), "load_average": _load_average(),
                "digital_pages_per_s": round(digital_rate, 1),
                "pages_without_text": doc.pages_without_text,
            }
            results["runs"].append(run)
            print(json.dumps(run), flush=True)
    return results


def chunk_ious(doc, digital, pages: list[int], matrices, settings: LibrarySettings) -> list[float]:
    """IoU of each chunk of the OCR'd ``doc`` on each page it covers against the born-digital rectangles of the same
    characters (found by aligning the page's characters, whitespace aside), carried through the scan's matrix."""
    mapping: dict[int, int] = {}  # OCR text offset -> born-digital text offset
    for page, source_page in enumerate(pages):
        ocr_offsets = [i for i, line in enumerate(doc.line_of) if line >= 0 and doc.lines[line].page == page
                       and not doc.text[i].isspace()]
        src_offsets = [i for i, line in enumerate(digital.line_of) if line >= 0
                       and digital.lines[line].page == source_page and not digital.text[i].isspace()]
        matched = align("".join(doc.text[i] for i in ocr_offsets), "".join(digital.text[i] for i in src_offsets))
        for k, j in enumerate(matched):
            if j >= 0:
                mapping[ocr_offsets[k]] = src_offsets[j]
    scores = []
    for chunk in chunk_document(doc, "ocr", settings.chunk_tokens, settings.overlap_tokens, settings.min_section_tokens):
        for highlight in chunk.highlights:
            page = highlight.page
            mine = [mapping[i] for i in range(chunk.char_start, chunk.char_end)
                    if i in mapping and doc.lines[doc.line_of[i]].page == page]
            if len(mine) < 10:
                continue
            size = doc.page_sizes[page]
            truth = [true_rect(r, matrices[page]) for h in digital.highlights(min(mine), max(mine) + 1)
                     if h.page == pages[page] for r in points(h.rects, digital.page_sizes[h.page])]
            scores.append(iou(points(highlight.rects, size), truth, size))
    return scores


# ---------------------------------------------------------------- retrieval

def _scan_folder(pdfs: list[Path], out: Path, dpi: int, seed: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    made = []
    for pdf in pdfs:
        target = out / pdf.name
        if not target.exists():
            with pymupdf.open(pdf) as opened:
                count = opened.page_count
            scan_pdf(pdf, target, dpi=dpi, skew=[round(rng.uniform(-2, 2), 2) for _ in range(count)], noise=8.0,
                     seed=rng.randrange(1 << 30))
        made.append(target)
    return made


def _library(root: Path, files: list[Path]):
    from courtroom_desktop.core.library import Library
    from courtroom_desktop.core.library.embed.embedder import make_embedder

    library = Library.open(root, LibrarySettings(), make_embedder(LibrarySettings()))
    began = time.perf_counter()
    finished = library.ingest(files)
    print(f"  {root.name}: {finished.added} added, {finished.failed} failed, {finished.pages} pages in "
          f"{time.perf_counter() - began:.0f} s (ocr {finished.stage_seconds.get('ocr', 0):.0f} s)", flush=True)
    return library, finished


def retrieval(args) -> dict:
    from courtroom_desktop.core.eval.metrics import ndcg_at
    from courtroom_desktop.core.retrieval import Retriever

    work = Path(args.work or tempfile.mkdtemp(prefix="ocr-retrieval-"))
    results: dict = {"load_average_before": _load_average()}
    if not args.skip_scifact:
        made = work / "scifact"
        if not (made / "queries.jsonl").exists():
            subprocess.run([sys.executable, str(ROOT / "scripts" / "make_scifact_pdfs.py"), str(made), "--claims",
                            str(args.claims), "--distractors", str(args.distractors)], check=True)
        queries = [json.loads(line) for line in (made / "queries.jsonl").read_text().splitlines() if line.strip()]
        digital_pdfs = sorted((made / "pdfs").glob("*.pdf"))
        scanned_pdfs = _scan_folder(digital_pdfs, work / "scifact-scanned", 200, 7)
        figures = {}
        for name, pdfs in (("digital", digital_pdfs), ("scanned", scanned_pdfs)):
            library, finished = _library(work / f"lib-scifact-{name}", pdfs)
            try:
                retriever = Retriever(library)
                corpus_id = {d.id: Path(d.path).stem for d in library.documents()}
                scores = []
                for query in queries:
                    found = retriever.search(query["claim"], k=100)
                    ranked = list(dict.fromkeys(corpus_id.get(e.chunk.doc_id, "") for e in found))
                    scores.append(ndcg_at(ranked, {str(r): 1 for r in query["relevant"]}, 10))
                figures[name] = {"ndcg@10": round(float(np.mean(scores)), 4), "queries": len(scores),
                                 "documents": len(pdfs), "pages": finished.pages,
                                 "ocr_seconds": round(finished.stage_seconds.get("ocr", 0.0), 1)}
            finally:
                library.close()
        figures["ratio"] = round(figures["scanned"]["ndcg@10"] / max(figures["digital"]["ndcg@10"], 1e-9), 4)
        results["scifact"] = figures
        print(json.dumps({"scifact": figures}), flush=True)
    if not args.skip_zh and ZH_QUERIES.exists():
        results["zh"] = _zh_retrieval(work)
        print(json.dumps({"zh": results["zh"]}), flush=True)
    return results


def _zh_retrieval(work: Path) -> dict:
    from courtroom_desktop.core.eval.metrics import ndcg_at
    from courtroom_desktop.core.retrieval import Retriever

    queries = [json.loads(line) for line in ZH_QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    digital_pdfs = sorted(ZH_SAMPLES.glob("*.pdf"))
    scanned_pdfs = _scan_folder(digital_pdfs, work / "zh-scanned", 200, 11)
    figures: dict = {}
    for name, pdfs in (("digital", digital_pdfs), ("scanned", scanned_pdfs)):
        library, finished = _library(work / f"lib-zh-{name}", pdfs)
        try:
            retriever = Retriever(library)
            docs = {Path(d.path).name: d.id for d in library.documents()}
            chunks = {doc_id: library.doc_chunks(doc_id) for doc_id in docs.values()}
            scores, unanswerable = [], 0
            for query in queries:
                answer = _flat(query["answer"]).casefold()
                allowed = int(len(answer) * 0.15)
                relevant = {c.id: 1 for c in chunks.get(docs.get(query["doc"], ""), [])
                            if substring_distance(answer, _flat(c.text).casefold()) <= allowed}
                if not relevant:
                    unanswerable += 1
                found = retriever.search(query["query"], k=10)
                scores.append(ndcg_at([e.chunk.id for e in found], relevant, 10) if relevant else 0.0)
            figures[name] = {"ndcg@10": round(float(np.mean(scores)), 4), "queries": len(scores),
                             "answer_in_no_chunk": unanswerable, "documents": len(pdfs), "pages": finished.pages,
                             "ocr_seconds": round(finished.stage_seconds.get("ocr", 0.0), 1)}
        finally:
            library.close()
    figures["ratio"] = round(figures["scanned"]["ndcg@10"] / max(figures["digital"]["ndcg@10"], 1e-9), 4)
    return figures


# ---------------------------------------------------------------- memory

def long_scan(path: Path, pages: int, lines: int, dpi: int) -> Path:
    """A ``pages``-page image-only scan, ``lines`` lines of English text a page (SciFact abstracts)."""
    source = path.with_name(path.stem + "-digital.pdf")
    text = " ".join(row["text"] for row in _corpus(60)).split()
    with pymupdf.open() as doc:
        cursor = 0
        for number in range(pages):
            page = doc.new_page()  # A4
            words = []
            while len(" ".join(words)) < lines * 80:
                words.append(text[cursor % len(text)])
                cursor += 1
            page.insert_textbox(pymupdf.Rect(60, 60, 535, 790), f"Page {number + 1}. " + " ".join(words),
                                fontsize=10.5, fontname="tiro")
        doc.save(str(source))
    scan_pdf(source, path, dpi=dpi, skew=0.8, noise=6.0, seed=pages)
    return path


def memory(args) -> dict:
    import threading

    import psutil

    from courtroom_desktop.core.library.read.isolate import ExtractWorker

    work = Path(args.work or tempfile.mkdtemp(prefix="ocr-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / f"scan-{args.pages}p-{args.lines}l.pdf"
    if not path.exists():
        long_scan(path, args.pages, args.lines, 150)
    worker = ExtractWorker()
    samples: list[tuple[int, float]] = []
    progress = {"done": 0}
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.25):
            pid = worker.pid
            if pid:
                try:
                    samples.append((progress["done"], psutil.Process(pid).memory_info().rss / 2**20))
                except psutil.Error:
                    pass

    def on_ocr(done: int, total: int) -> None:
        progress["done"] = done
        if done and done % 25 == 0:
            peak = max((rss for _, rss in samples), default=0.0)
            print(f"  {done}/{total} pages, child RSS now {samples[-1][1] if samples else 0:.0f} MiB, peak "
                  f"{peak:.0f} MiB, {time.perf_counter() - began:.0f} s", flush=True)

    threading.Thread(target=watch, daemon=True).start()
    began = time.perf_counter()
    doc = worker.extract(path, on_ocr=on_ocr, deadline_s=10**6, ocr=OcrOptions(page_timeout_s=args.page_timeout))
    seconds = time.perf_counter() - began
    stop.set()
    worker.close()  # the child exits and is reaped: its peak RSS enters RUSAGE_CHILDREN
    child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    by_tenth = {}
    for done, rss in samples:
        by_tenth[done * 10 // max(args.pages, 1)] = max(by_tenth.get(done * 10 // max(args.pages, 1), 0.0), rss)
    figures = {
        "pages": doc.pages, "lines_per_page": args.lines, "pages_ocr": len(doc.ocr_pages),
        "pages_without_text": len(doc.pages_without_text), "notes": doc.ocr_notes[:5], "chars": len(doc.text),
        "seconds": round(seconds, 1), "pages_per_s": round(doc.pages / seconds, 3),
        "child_peak_rss_mib": round(child_peak, 1),
        "child_rss_mib_by_tenth": {k: round(v) for k, v in sorted(by_tenth.items())},
        "parent_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "file_mb": round(path.stat().st_size / 1e6, 1), "load_average": _load_average(),
    }
    print(json.dumps(figures), flush=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    acc = sub.add_parser("accuracy", help="CER, IoU and pages/s on scanned English and Chinese pages")
    acc.add_argument("--pages", type=int, default=4)
    acc.add_argument("--dpi", type=int, nargs="+", default=[150, 300], help="resolutions of the scans")
    acc.add_argument("--ocr-dpi", type=int, default=LibrarySettings().ocr_dpi, help="the resolution OCR renders at")
    ret = sub.add_parser("retrieval", help="nDCG@10 on scanned copies against born-digital ones")
    ret.add_argument("--claims", type=int, default=30)
    ret.add_argument("--distractors", type=int, default=20)
    ret.add_argument("--skip-scifact", action="store_true")
    ret.add_argument("--skip-zh", action="store_true")
    mem = sub.add_parser("memory", help="peak RSS of the extraction child on a long scan")
    mem.add_argument("--pages", type=int, default=300)
    mem.add_argument("--lines", type=int, default=12, help="lines of text a page (a full A4 page holds about 55)")
    mem.add_argument("--page-timeout", type=float, default=120.0)
    for command in (acc, ret, mem):
        command.add_argument("--work", help="keep the PDFs and libraries here")
        command.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = {"accuracy": accuracy, "retrieval": retrieval, "memory": memory}[args.command](args)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
