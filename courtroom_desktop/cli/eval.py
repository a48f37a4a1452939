"""`courtroom eval ACTION ...`: evaluation harnesses. Each action is a subparser; `retrieval` scores the hybrid
retriever on a BEIR-layout folder. (Other actions, e.g. `verdicts`, register themselves in ``ACTIONS``.)"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

    from courtroom_desktop.cli import Context

_Settings = TypeVar("_Settings", bound="BaseModel")  # a settings section (RetrievalSettings, DebateSettings, ...)

# action name -> (module with add_action(actions) and run_action(args, ctx), or this module's own functions)
ACTIONS: dict[str, str] = {"retrieval": "courtroom_desktop.cli.eval", "verdicts": "courtroom_desktop.cli.eval_verdicts",
                           "passages": "courtroom_desktop.cli.eval_passages", "claims": "courtroom_desktop.cli.eval_claims"}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("eval", help="evaluation harnesses (retrieval on BEIR data, ...)",
                                   description="Evaluate parts of the courtroom on labelled data.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, module_name in ACTIONS.items():
        module = sys.modules[__name__] if module_name == __name__ else importlib.import_module(module_name)
        sub = getattr(module, f"add_{name}_action")(actions)
        sub.set_defaults(_action=getattr(module, f"run_{name}_action"))
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    return int(args._action(args, ctx) or 0)


# ---------------------------------------------------------------- retrieval
def add_retrieval_action(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = actions.add_parser(
        "retrieval", help="nDCG@10, recall@10/100, MRR@10 of bm25, vector, hybrid and reranked hybrid on BEIR data",
        description="Build a library from a BEIR folder's corpus.jsonl (each entry one document, its title as the "
        "section heading) and score BM25, vector, hybrid and hybrid + each reranker on the split's queries "
        "(queries.jsonl, qrels/SPLIT.tsv), at document level. The settings are the configured [retrieval] ones, "
        "overridable with --set; --tune-on first tunes fusion on other labelled queries.",
    )
    parser.add_argument("--beir", required=True, metavar="DIR", help="folder with corpus.jsonl, queries.jsonl, qrels/")
    parser.add_argument("--split", default="test", help="qrels/SPLIT.tsv to score (default: test)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N queries")
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help="keep the built library here and reuse it on later runs (default: a temporary folder)")
    parser.add_argument("--rerankers", nargs="*", default=None, metavar="NAME",
                        help="rerankers to add as rows: 'mmr', 'verifier' (the bundled claim verifier) and/or "
                        "cross-encoder folders (default: mmr, plus retrieval.reranker when it names a folder)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a retrieval setting for this run, e.g. --set rrf_k=30; repeatable")
    parser.add_argument("--chunk-tokens", type=int, default=None, metavar="N",
                        help="library.chunk_tokens for the built library (default: the configured one)")
    parser.add_argument("--tune-on", metavar="FILE", default=None,
                        help="claims file (SciFact claims_train.jsonl: cited_doc_ids as judgements) to tune fusion "
                        "on first; the split is then scored with the tuned settings")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def with_overrides(settings: _Settings, pairs: list[str], section: str, example: str) -> _Settings:
    """``settings`` (a settings section) with ``--set KEY=VALUE`` pairs applied (``section.`` before a key is
    allowed), validated: a malformed pair, an unknown key or a bad value is a ConfigError naming it."""
    from pydantic import ValidationError

    from courtroom_desktop.core.errors import ConfigError

    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: use KEY=VALUE, e.g. --set {example}")
        values[key.strip().removeprefix(f"{section}.")] = value.strip()
    try:
        return settings.model_validate({**settings.model_dump(), **values})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"--set: {problems}") from exc


def run_retrieval_action(args: argparse.Namespace, ctx: Context) -> int:
    import contextlib
    import json
    import tempfile

    from rich.console import Console

    from courtroom_desktop.core.errors import ConfigError
    from courtroom_desktop.core.services.evaluation import run_retrieval

    console = Console(stderr=True)
    beir = Path(args.beir).expanduser()
    if not (beir / "corpus.jsonl").exists():
        raise ConfigError(f"{beir}: no corpus.jsonl there (a BEIR folder holds corpus.jsonl, queries.jsonl, qrels/)")
    settings = with_overrides(ctx.config.retrieval, args.set, "retrieval", "rrf_k=30")
    library_settings = ctx.config.library
    if args.chunk_tokens:
        library_settings = library_settings.model_copy(update={"chunk_tokens": args.chunk_tokens})
    rerankers = args.rerankers
    if rerankers is None:
        rerankers = ["mmr"] + ([settings.reranker] if settings.reranker.lower() not in ("none", "mmr", "") else [])
    with contextlib.ExitStack() as stack:
        root = (Path(args.cache).expanduser() if args.cache else
                Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="courtroom-eval-"))) / "library")
        with console.status("starting ...") as status:
            run = run_retrieval(beir, args.split, settings, library_settings, rerankers, root, limit=args.limit,
                                tune_on=Path(args.tune_on).expanduser() if args.tune_on else None,
                                log=console.print, status=status.update)
    report, tuned, dropped = run.report, run.tuned, run.left_out
    settings = report.settings
    if args.json:
        print(json.dumps({
            "dataset": report.dataset, "split": report.split, "queries": report.queries,
            "documents": report.documents, "chunks": report.chunks,
            "settings": report.settings.model_dump(mode="json"),
            "systems": {s.name: s.metrics for s in report.systems},
            "tuned_on": {**tuned.summary(), "left_out": dropped} if tuned else None,
        }, indent=2))
        return 0
    print(f"{report.dataset} / {report.split}: {report.queries} queries, {report.documents} documents, "
          f"{report.chunks} chunks; document-level metrics\n")
    print(report.table())
    fixed = {k: getattr(settings, k) for k in ("fusion", "score_normalisation", "bm25_weight", "vector_weight", "rrf_k", "candidates",
                                                  "text_boost", "section_boost", "title_boost", "rerank_depth",
                                                  "mmr_lambda")}
    print("\nsettings: " + ", ".join(f"{k}={v}" for k, v in fixed.items()))
    return 0
