"""`courtroom eval verdicts`: the court, the verifier alone and chat-model baselines on labelled claims."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.court.records import VerdictLabel


class _Claim(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def gold(self) -> VerdictLabel: ...


class _ClaimResult(Protocol):
    """What is printed of a claim's result (core.eval.verdicts.ClaimResult, which no service exports)."""

    @property
    def claim(self) -> _Claim: ...
    @property
    def predictions(self) -> dict[str, str]: ...


def add_verdicts_action(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = actions.add_parser(
        "verdicts", help="accuracy, macro-F1 (95%% bootstrap CIs), calibration and speed of the court and baselines "
        "on labelled claims",
        description="Builds a library from a corpus (cached), then judges each claim by every method named, with the "
        "same models, retriever and claim verifier: the verifier alone, single-pass RAG, a majority vote, the court "
        "and its ablations. Prints, per method, accuracy and macro-F1 with 95%% bootstrap intervals, the expected "
        "calibration error, the gold-evidence recall of what it saw, claims per minute and tokens; then confusion "
        "matrices and per-claim figures.")
    parser.add_argument("--claims", required=True, help="claims JSONL (id, claim, label SUPPORT|CONTRADICT|NEI, cited_doc_ids)")
    parser.add_argument("--corpus", required=True, help="corpus.jsonl of a BEIR folder (or the folder)")
    parser.add_argument("--sample", type=int, default=12, help="claims to draw, balanced over labels (0: all)")
    parser.add_argument("--k", type=int, default=6, help="passages a single retrieval brings back (default: 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rounds", type=int, default=None,
                        help="round limit of each trial (default: debate.max_rounds, as a trial in the app)")
    parser.add_argument("--min-rounds", type=int, default=None,
                        help="rounds before a verdict may be given (default: debate.min_rounds, or --max-rounds if "
                        "lower)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a debate setting for this run, e.g. --set max_switches=0; repeatable")
    parser.add_argument("--methods", default="verifier,single,court",
                        help="comma-separated, of: verifier (retrieval, then the claim verifier and the label rule; "
                        "no chat model), single (one chat-model answer), majority (single answers at the trial's "
                        "token budget), court, court-fixed-sides (no role switching), court-one-search (no retrieval "
                        "after round 1)")
    parser.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="e.g. all=ollama:llama3.1:8b (the baselines use the judge's model)")
    parser.add_argument("--cache", metavar="DIR", help="where the corpus library is kept between runs "
                        "(default: DATA_DIR/eval-cache/verdicts)")
    parser.add_argument("--out", metavar="FILE", help="also write the Markdown report to FILE")
    return parser


def run_verdicts_action(args: argparse.Namespace, ctx: Context) -> int:
    import sys

    from courtroom_desktop.cli.eval import with_overrides
    from courtroom_desktop.core.config import with_model_overrides
    from courtroom_desktop.core.services.evaluation import run_verdicts

    def progress(result: _ClaimResult) -> None:
        print(f"claim {result.claim.id} ({result.claim.gold.value}): "
              + ", ".join(f"{m}={p}" for m, p in result.predictions.items()), file=sys.stderr)

    methods = tuple(m.strip() for m in args.methods.split(",") if m.strip())
    cache = Path(args.cache) if args.cache else ctx.data_dir / "eval-cache" / "verdicts"
    config = with_model_overrides(ctx.config, args.model)
    config = config.model_copy(update={"debate": with_overrides(config.debate, args.set, "debate", "max_switches=0")})
    report = run_verdicts(config, Path(args.corpus), Path(args.claims), cache,
                          methods, args.sample or None, args.seed, args.min_rounds, args.max_rounds,
                          log=lambda line: print(line, file=sys.stderr), on_result=progress, k=args.k)
    print(report)
    if args.out:
        Path(args.out).write_text(report + "\n", encoding="utf-8")
    return 0
