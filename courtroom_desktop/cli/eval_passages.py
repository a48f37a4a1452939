"""`courtroom eval passages --pdfs DIR --queries FILE`: passage-level retrieval on a labelled PDF set."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context

METRICS = ("ndcg@10", "recall@10", "mrr@10", "hit@1")


def add_passages_action(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = actions.add_parser(
        "passages", help="nDCG@10, recall@10, MRR@10 and hit@1 of bm25, vector and hybrid on labelled PDFs",
        description="Ingest a folder of PDFs into a library (cached with --cache) and score BM25, vector and hybrid "
        "retrieval of passages for labelled queries: a JSONL file of {query, doc (a PDF's file name), answer (a "
        "verbatim phrase of it)}; a passage is relevant when it holds the answer. The Chinese set: --pdfs "
        "resources/samples-zh --queries tests/retrieval/data/zh_queries.jsonl.")
    parser.add_argument("--pdfs", required=True, metavar="DIR", help="folder of the labelled PDFs")
    parser.add_argument("--queries", required=True, metavar="FILE", help="labelled queries (JSONL)")
    parser.add_argument("--cache", metavar="DIR", default=None, help="keep the built library here between runs")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run_passages_action(args: argparse.Namespace, ctx: Context) -> int:
    from courtroom_desktop.core.services.evaluation import run_passages

    run = run_passages(Path(args.pdfs).expanduser(), Path(args.queries).expanduser(), ctx.config.library,
                       ctx.config.retrieval, Path(args.cache).expanduser() if args.cache else None)
    queries, embedder, build, systems = run.queries, run.embedder, run.build_seconds, run.systems
    if args.json:
        print(json.dumps({"queries": queries, "embedder": embedder,
                          "systems": {s.name: s.metrics for s in systems}}, indent=2))
        return 0
    print(f"{queries} queries, {Path(args.pdfs).name}, embedder {embedder}; library built or checked in "
          f"{build:.0f} s; passage level\n")
    print("| system | " + " | ".join(METRICS) + " |")
    print("|---|" + "---:|" * len(METRICS))
    for system in systems:
        print(f"| {system.name} | " + " | ".join(f"{system.metrics[m]:.3f}" for m in METRICS) + " |")
    return 0
