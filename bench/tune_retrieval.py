"""Tune the retrieval settings on SciFact's training claims (never on the 300 test queries), then print the tuned
settings as a [retrieval] TOML block, the best trials, and (with --report-split) the held-out scores.

    python bench/tune_retrieval.py [--beir ../shared/data/scifact] [--cache DIR] [--report-split test]

The library is built from corpus.jsonl with the configured library settings (default chunking) and cached in
--cache, so a second run takes only the search and fusion time (a few minutes on two cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings  # noqa: E402
from courtroom_desktop.core.eval.beir import read_claims, read_split  # noqa: E402
from courtroom_desktop.core.eval.library import build_beir_library  # noqa: E402
from courtroom_desktop.core.eval.retrieval import EvalReport, evaluate  # noqa: E402
from courtroom_desktop.core.eval.tune import TUNED, top_trials, tune  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beir", default=str(ROOT.parent / "shared" / "data" / "scifact"))
    parser.add_argument("--train", default=None, help="claims file to tune on (default: BEIR/claims_train.jsonl)")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "courtroom-eval" / "scifact"),
                        help="where the built library is kept between runs")
    parser.add_argument("--chunk-tokens", type=int, default=None)
    parser.add_argument("--from-defaults", action="store_true",
                        help="start from the untuned baseline (RRF k=60, equal weights, boosts 1) instead of the "
                        "current defaults")
    parser.add_argument("--report-split", default=None, help="after tuning, score this split (e.g. test)")
    args = parser.parse_args()

    beir = Path(args.beir)
    library_settings = LibrarySettings()
    if args.chunk_tokens:
        library_settings = library_settings.model_copy(update={"chunk_tokens": args.chunk_tokens})
    began = time.perf_counter()
    library, built = build_beir_library(beir, Path(args.cache), library_settings,
                                        on_progress=lambda d, c: print(f"\r  {d} documents, {c} chunks", end="",
                                                                       file=sys.stderr, flush=True))
    how = f"built in {built:.0f} s" if built else "cached"
    print(f"library: {library.vectors.count()} chunks ({how})")
    train, dropped = read_claims(Path(args.train) if args.train else beir / "claims_train.jsonl").without(
        read_split(beir, "test"))
    if dropped:  # two of SciFact's test claims are training claims too, with the same gold abstract
        print(f"left out {len(dropped)} training claims that are also test queries: {', '.join(dropped)}",
              file=sys.stderr)
    base = RetrievalSettings()
    if args.from_defaults:
        base = base.model_copy(update={"fusion": "rrf", "rrf_k": 60.0, "bm25_weight": 1.0, "vector_weight": 1.0,
                                       "text_boost": 1.0, "section_boost": 1.0, "title_boost": 1.0,
                                       "compound_phrases": True, "candidates": 100})
    result = tune(library, train, base, on_progress=lambda message: print(f"  {message}", file=sys.stderr, flush=True))
    print(f"\ntuned on {result.queries} queries of {train.name} in {result.seconds:.0f} s")
    print(f"  start : nDCG@10 {result.baseline['ndcg@10']:.4f}  recall@100 {result.baseline['recall@100']:.4f}")
    print(f"  tuned : nDCG@10 {result.best['ndcg@10']:.4f}  recall@100 {result.best['recall@100']:.4f}"
          f"  recall@10 {result.best['recall@10']:.4f}  MRR@10 {result.best['mrr@10']:.4f}")
    print("\nbest fusion trials (train):")
    for trial in top_trials(result, 8, lambda t: t.params.get("stage", "").endswith("fusion")):
        params = {k: v for k, v in trial.params.items() if k != "stage"}
        print(f"  nDCG@10 {trial.ndcg:.4f}  recall@100 {trial.recall100:.4f}  {params}")
    print("\nbest RRF trials (train), should fusion = \"rrf\" be chosen:")
    for trial in top_trials(result, 3, lambda t: t.params.get("fusion") == "rrf"):
        params = {k: v for k, v in trial.params.items() if k != "stage"}
        print(f"  nDCG@10 {trial.ndcg:.4f}  recall@100 {trial.recall100:.4f}  {params}")
    print("\nbest field trials (train):")
    for trial in top_trials(result, 5, lambda t: t.params.get("stage", "").endswith("fields")):
        params = {k: v for k, v in trial.params.items() if k != "stage"}
        print(f"  nDCG@10 {trial.ndcg:.4f}  recall@100 {trial.recall100:.4f}  {params}")
    print("\n[retrieval]")
    for key in TUNED:
        value = getattr(result.settings, key)
        print(f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, str) else value}"
              .replace("'", '"'))
    if args.report_split:
        split = read_split(beir, args.report_split)
        systems = evaluate(library, split, result.settings, rerankers=("mmr",))
        report = EvalReport(beir.name, split.name, len(split.queries), len(library.ready_ids()), library.vectors.count(),
                            result.settings, systems)
        print(f"\n{beir.name} / {split.name} ({len(split.queries)} queries) with the tuned settings:\n")
        print(report.table())
    library.close()
    print(f"\ntotal {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
