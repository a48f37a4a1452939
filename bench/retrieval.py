"""Retrieval benchmark: hybrid search latency (query embedding included) on a library of 100,000 chunks, memory,
and the ANN index's recall against exact (flat) search.

    python bench/retrieval.py [--chunks 100000] [--real 2000] [--queries 200] [--keep DIR]

The library is synthetic but built from real material: passages are sentences of SciFact abstracts recombined
(../shared/data/scifact/corpus.jsonl; a fixed vocabulary when that is absent). Embedding 100,000 passages takes
about 25 minutes on two cores, so only --real passages are embedded with the bundled model; every other chunk's
vector is a real passage vector mixed with a second one plus Gaussian noise, renormalised (its text mixes the same
two passages' sentences). The output says so. Chunks go into LanceDB, tantivy and the catalog in bulk, then the
retriever is timed exactly as the courtroom calls it: flat, then with the ANN index the table size calls for.
Target: hybrid p50 <= 50 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings  # noqa: E402
from courtroom_desktop.core.library import Library  # noqa: E402
from courtroom_desktop.core.records import Chunk, DocStatus, Document  # noqa: E402
from courtroom_desktop.core.retrieval import Retriever  # noqa: E402

SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
CHUNKS_PER_DOC = 10
FALLBACK = ("patients received the intervention or placebo and outcomes included mortality blood pressure adverse "
            "events quality of life hospital admission cost adherence inflammation cytokine expression tumour growth "
            "insulin resistance vitamin deficiency fracture risk infection vaccine response").split()


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_material(limit: int) -> tuple[list[tuple[str, list[str]]], list[str], str]:
    """(title, sentences) per abstract, claim texts for queries, and where they came from."""
    rng = random.Random(7)
    corpus = SCIFACT / "corpus.jsonl"
    if corpus.exists():
        abstracts = []
        with corpus.open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                sentences = [s.strip() for s in row.get("sentences") or [] if s.strip()]
                if len(sentences) >= 3:
                    abstracts.append((row["title"], sentences))
        queries = []
        with (SCIFACT / "claims_train.jsonl").open(encoding="utf-8") as handle:
            queries = [json.loads(line)["claim"] for line in handle if line.strip()]
        rng.shuffle(abstracts)
        return abstracts[:limit], queries, "SciFact abstracts (sentences recombined), SciFact training claims as queries"
    abstracts = []
    for i in range(limit):
        sentences = [" ".join(rng.choice(FALLBACK) for _ in range(14)).capitalize() + "." for _ in range(6)]
        abstracts.append((f"Synthetic report {i}", sentences))
    queries = [" ".join(rng.choice(FALLBACK) for _ in range(8)) for _ in range(300)]
    return abstracts, queries, "a fixed vocabulary (SciFact not found)"


def build(root: Path, chunks: int, real: int, noise: float) -> tuple[Library, dict]:
    figures: dict = {}
    library = Library.open(root, LibrarySettings())
    abstracts, queries, source = load_material(real)
    figures["source"] = source
    figures["queries"] = queries
    real = len(abstracts)
    texts = [" ".join(sentences[:3]) for _, sentences in abstracts]
    began = time.perf_counter()
    base = library.embedder.encode([f"{title}\n{text}" for (title, _), text in zip(abstracts, texts)])
    figures["embed_real_s"] = time.perf_counter() - began
    rng = np.random.default_rng(11)
    vectors_store = library.vectors
    began = time.perf_counter()
    docs = (chunks + CHUNKS_PER_DOC - 1) // CHUNKS_PER_DOC
    batch_docs = 1000
    position = 0
    for first_doc in range(0, docs, batch_docs):
        batch_chunks: list[Chunk] = []
        batch_vectors = []
        records = []
        text_items = []
        for d in range(first_doc, min(docs, first_doc + batch_docs)):
            doc_id = f"bench{d:06d}"
            members = []
            for ordinal in range(CHUNKS_PER_DOC):
                if position >= chunks:
                    break
                i = position % real
                if position < real:  # the real passages themselves
                    text, vector = texts[i], base[i]
                else:
                    j = int(rng.integers(real))
                    sentences = abstracts[i][1][3:6] + abstracts[j][1][:2]
                    text = " ".join(sentences)
                    vector = 0.65 * base[i] + 0.35 * base[j] + rng.normal(0, noise, base.shape[1]).astype(np.float32)
                    vector /= np.linalg.norm(vector)
                members.append(Chunk(id=f"{doc_id}-{ordinal:04d}", doc_id=doc_id, ordinal=ordinal,
                                     section_path=f"{1 + ordinal // 3} Section", page_start=ordinal // 2,
                                     page_end=ordinal // 2, char_start=0, char_end=len(text), text=text))
                batch_vectors.append(vector)
                position += 1
            if not members:
                continue
            title = abstracts[int(doc_id[5:]) % real][0]
            batch_chunks.extend(members)
            text_items.append((doc_id, members, title))
            records.append(Document(id=doc_id, path=f"bench:{doc_id}", sha256=doc_id, title=title, pages=5,
                                    chunks=len(members), sections=4, status=DocStatus.ready, added_at=time.time()))
        vectors_store.add(batch_chunks, np.stack(batch_vectors).astype(np.float32))
        library.text_index.add_docs(text_items)
        for record in records:
            library.catalog.put(record)
        print(f"\r  stored {position:,} chunks", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    vectors_store.optimize()
    figures["store_s"] = time.perf_counter() - began
    figures["real"] = real
    return library, figures


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def time_searches(retriever: Retriever, queries: list[str], per_search: int = 1) -> tuple[list[float], dict]:
    """Wall-clock ms per search, and the median ms of each part plus ``cpu`` (CPU time of this process, all its
    threads, per search: what the search costs when the cores are not shared)."""
    latencies = []
    parts: dict[str, list[float]] = {}
    for start in range(0, len(queries) - per_search + 1, per_search):
        group = queries[start:start + per_search]
        began, cpu = time.perf_counter(), time.process_time()
        retriever.search(group)
        latencies.append((time.perf_counter() - began) * 1000)
        parts.setdefault("cpu", []).append((time.process_time() - cpu) * 1000)
        for key, value in retriever.timings.items():
            parts.setdefault(key, []).append(value * 1000)
    return latencies, {k: statistics.median(v) for k, v in parts.items()}


def ann_recall(library: Library, settings: RetrievalSettings, queries: list[str], depth: int) -> dict[str, float]:
    vectors = library.embedder.encode(queries)
    at10, at_depth = [], []
    for vector in vectors:
        exact = [h[0] for h in library.vectors.vector_search(vector, depth, exact=True)]
        approx = [h[0] for h in library.vectors.vector_search(vector, depth, ef=settings.ann_ef or None,
                                                              refine_factor=settings.ann_refine_factor or None)]
        at10.append(len(set(exact[:10]) & set(approx[:10])) / 10)
        at_depth.append(len(set(exact) & set(approx)) / max(1, len(exact)))
    return {"recall@10": float(np.mean(at10)), f"recall@{depth}": float(np.mean(at_depth))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--real", type=int, default=2000, help="passages embedded for real")
    parser.add_argument("--noise", type=float, default=0.03, help="per-dimension noise of derived vectors")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--flat-queries", type=int, default=40, help="searches timed before the ANN index exists")
    parser.add_argument("--keep", metavar="DIR", help="build the library here and keep it (default: a temporary folder)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a retrieval setting for this run, e.g. --set ann_ef=64 --set ann_partitions=4")
    args = parser.parse_args()

    began = time.perf_counter()
    temp = None
    if args.keep:
        root = Path(args.keep)
        shutil.rmtree(root, ignore_errors=True)
    else:
        temp = tempfile.mkdtemp(prefix="courtroom-bench-")
        root = Path(temp)
    try:
        print(f"building a {args.chunks:,}-chunk library in {root} ...", file=sys.stderr)
        library, figures = build(root, args.chunks, args.real, args.noise)
        rng = random.Random(3)
        queries = rng.sample(figures["queries"], min(len(figures["queries"]), args.queries + args.flat_queries + 10))
        overrides = dict(pair.split("=", 1) for pair in args.set)
        settings = RetrievalSettings.model_validate({**RetrievalSettings().model_dump(), **overrides, "ann_build": "never"})
        retriever = Retriever(library, settings)
        retriever.search(queries[:3])  # load the model, open the stores
        memory_loaded = rss_mb()
        flat, flat_parts = time_searches(retriever, queries[10:10 + args.flat_queries])
        began_index = time.perf_counter()
        created = retriever.prepare_index()
        index_seconds = time.perf_counter() - began_index
        retriever.search(queries[:3])
        timed = queries[10 + args.flat_queries:]
        load_before = os.getloadavg()[0]
        hybrid, parts = time_searches(retriever, timed)
        three, three_parts = time_searches(retriever, timed, per_search=3)
        load_after = os.getloadavg()[0]
        recall = ann_recall(library, settings, timed[:100], settings.candidates)
        chunks = library.vectors.count()
        disk = sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) / 2**20
        library.close()
    finally:
        if temp:
            shutil.rmtree(temp, ignore_errors=True)

    print(f"\nretrieval benchmark: {chunks:,} chunks in {chunks // CHUNKS_PER_DOC:,} documents, {os.cpu_count()} CPUs")
    print(f"  material: {figures['source']}")
    print(f"  vectors: {figures['real']:,} passages embedded with the bundled model ({figures['embed_real_s']:.0f} s); "
          f"the other {chunks - figures['real']:,} are mixes of two real vectors plus N(0, {args.noise}) noise, "
          "renormalised (not real embeddings)")
    print(f"  stored in LanceDB + tantivy + catalog in {figures['store_s']:.0f} s; on disk {disk:.0f} MiB")
    print(f"  settings: fusion={settings.fusion} candidates={settings.candidates} k={settings.k} "
          f"ann={settings.ann_index} ef={settings.ann_ef} refine={settings.ann_refine_factor or 'off'}")
    print(f"\n  flat vector search ({len(flat)} searches, 1 query each): p50 {percentile(flat, 50):.1f} ms, "
          f"p95 {percentile(flat, 95):.1f} ms; parts (median ms): "
          + ", ".join(f"{k} {v:.1f}" for k, v in flat_parts.items()))
    print(f"  index build: {', '.join(created) or 'none needed'} in {index_seconds:.0f} s")
    print(f"\n  load average (1 min) while timing: {load_before:.1f} before, {load_after:.1f} after "
          f"(other processes on the {os.cpu_count()} CPUs slow every figure below)")
    print(f"\n  HYBRID, 1 query per search ({len(hybrid)} searches, query embedding included): "
          f"p50 {percentile(hybrid, 50):.1f} ms, p95 {percentile(hybrid, 95):.1f} ms")
    print("    parts (median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))
    print(f"  hybrid, 3 queries per search ({len(three)} searches): p50 {percentile(three, 50):.1f} ms, "
          f"p95 {percentile(three, 95):.1f} ms")
    print("    parts (median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in three_parts.items()))
    print("\n  ANN recall against flat search (100 queries): "
          + ", ".join(f"{k} {v:.3f}" for k, v in recall.items()))
    print(f"  memory: RSS {memory_loaded:.0f} MiB with model and stores loaded, peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (building included)")
    print(f"  total run time {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
