"""Ingestion benchmark: pages/s, chunks/s, time per stage, peak memory, and the ratio of end-to-end throughput
to embedding-only throughput of the same chunks, measured in the same run.

    python bench/ingest.py [FOLDER ...] [--pages 300]

With no folder: a generated multi-section PDF of --pages pages plus the sample library. Target: ratio >= 0.8
(everything but embedding overlaps with it or is negligible).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from courtroom_desktop.core.config import LibrarySettings  # noqa: E402
from courtroom_desktop.core.library import Library  # noqa: E402
from courtroom_desktop.core.library.embed.embedder import BACKENDS, embedding_text, make_embedder  # noqa: E402
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf  # noqa: E402

VOCAB = ("patients received the intervention or a placebo and were followed for outcomes including mortality "
         "blood pressure adverse events quality of life hospital admission cost and adherence while investigators "
         "adjusted for age sex baseline risk and site using mixed models with robust errors").split()


def big_spec(pages: int) -> DocSpec:
    sections = []
    seed = 0
    # about 2.3 paragraphs of ~110 words fill one A4 page at 10.5 pt
    for number in range(1, int(pages / 2.85) + 2):
        sections.append(SectionSpec(1, f"{number} Study {number}", []))
        for sub in range(1, 4):
            paragraphs = []
            for _ in range(5):
                sentences = []
                for _ in range(6):
                    seed += 1
                    words = [VOCAB[(seed * 13 + i * 7) % len(VOCAB)] for i in range(18)]
                    sentences.append(" ".join(words).capitalize() + f" (observation {seed}).")
                paragraphs.append(" ".join(sentences))
            sections.append(SectionSpec(2, f"{number}.{sub} Part {sub}", paragraphs))
    return DocSpec(title="A Long Multi-Section Report", sections=sections, authors="Bench", year=2024)


def generated_pdf(pages: int, out: Path) -> Path:
    path = out / f"generated-{pages}.pdf"
    if not path.exists():
        out.mkdir(parents=True, exist_ok=True)
        render_pdf(big_spec(pages), path, outline=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", help="folders or PDFs to ingest (default: generated PDF + samples)")
    parser.add_argument("--pages", type=int, default=300, help="pages of the generated PDF")
    parser.add_argument("--backend", choices=BACKENDS, default=LibrarySettings().embedding_backend,
                        help="library.embedding_backend (default: the settings' default, %(default)s)")
    args = parser.parse_args()
    inputs = [Path(f) for f in args.folders]
    if not inputs:
        generated = generated_pdf(args.pages, ROOT / "bench" / "out")
        inputs = [generated, ROOT / "resources" / "samples"]
    settings = LibrarySettings(embedding_backend=args.backend)
    embedder = make_embedder(settings)  # as the app makes it
    print(f"embedder: {settings.embedding_model} on {settings.embedding_backend}")
    embedder.encode(["warm up the model so that loading it is not measured"])

    with tempfile.TemporaryDirectory() as tmp:
        library = Library.open(Path(tmp) / "lib", settings, embedder)
        began = time.perf_counter()
        finished = library.ingest(inputs)
        wall = time.perf_counter() - began
        texts = []
        for doc in library.documents():
            texts.extend(embedding_text(doc.title, c) for c in library.doc_chunks(doc.id))
        library.close()
        shutil.rmtree(Path(tmp) / "lib", ignore_errors=True)

    began = time.perf_counter()
    for start in range(0, len(texts), settings.embed_batch):
        embedder.encode(texts[start:start + settings.embed_batch])
    embed_only = time.perf_counter() - began

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"inputs: {', '.join(str(i) for i in inputs)}")
    print(f"files: {finished.added} added, {finished.failed} failed; pages: {finished.pages}; chunks: {finished.chunks}")
    print(f"end-to-end: {wall:.2f} s  ->  {finished.pages / wall:.1f} pages/s, {finished.chunks / wall:.1f} chunks/s")
    for stage, seconds in finished.stage_seconds.items():
        print(f"  stage {stage:<8} {seconds:7.2f} s")
    print(f"embedding only (same {len(texts)} chunks): {embed_only:.2f} s  ->  {len(texts) / embed_only:.1f} chunks/s")
    print(f"ratio end-to-end / embedding-only throughput: {embed_only / wall:.3f}  (target >= 0.8)")
    print(f"peak memory (RSS): {peak_mb:.0f} MiB")


if __name__ == "__main__":
    main()
