"""`courtroom eval verdicts`: the court and two baselines on labelled claims."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_verdicts_action(actions) -> argparse.ArgumentParser:
    parser = actions.add_parser(
        "verdicts", help="accuracy of the court vs single-pass RAG and a majority vote on labelled claims",
        description="Builds a library from a corpus (cached), then for each claim runs a trial and two baselines "
        "with the same models and retriever: single-pass RAG, and a majority vote of single-pass answers at the "
        "trial's token budget. Prints accuracy, macro-F1, confusion matrices and per-trial figures.")
    parser.add_argument("--claims", required=True, help="claims JSONL (id, claim, label SUPPORT|CONTRADICT|NEI, cited_doc_ids)")
    parser.add_argument("--corpus", required=True, help="corpus.jsonl of a BEIR folder (or the folder)")
    parser.add_argument("--sample", type=int, default=12, help="claims to draw, balanced over labels (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rounds", type=int, default=2, help="round limit of each trial (default: 2)")
    parser.add_argument("--min-rounds", type=int, default=None,
                        help="rounds before a verdict may be given (default: 1, or --max-rounds if lower)")
    parser.add_argument("--methods", default="court,single,majority", help="comma-separated: court, single, majority")
    parser.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="e.g. all=ollama:llama3.1:8b (the baselines use the judge's model)")
    parser.add_argument("--cache", metavar="DIR", help="where the corpus library is kept between runs "
                        "(default: DATA_DIR/eval-cache/verdicts)")
    parser.add_argument("--out", metavar="FILE", help="also write the Markdown report to FILE")
    return parser


def run_verdicts_action(args, ctx) -> int:
    import asyncio
    import sys

    from courtroom_desktop.core.config import with_model_overrides
    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.errors import ConfigError
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.eval.verdicts import evaluate_verdicts, format_report, load_claims
    from courtroom_desktop.core.llm import ModelRouter
    from courtroom_desktop.core.retrieval import Retriever

    corpus = Path(args.corpus)
    folder = corpus if corpus.is_dir() else corpus.parent
    if not (folder / "corpus.jsonl").exists():
        raise ConfigError(f"--corpus {args.corpus}: no corpus.jsonl there")
    methods = tuple(m.strip() for m in args.methods.split(",") if m.strip())
    config = with_model_overrides(ctx.config, args.model)
    cache = Path(args.cache) if args.cache else ctx.data_dir / "eval-cache" / "verdicts"
    print(f"building (or reusing) the corpus library in {cache} ...", file=sys.stderr)
    library, seconds = build_beir_library(folder, cache / "library", config.library)
    print(f"library ready ({len(library.ready_ids())} documents, built in {seconds:.0f} s)", file=sys.stderr)
    claims = load_claims(Path(args.claims), args.sample or None, args.seed)
    settings = config.debate.model_copy(update={"min_rounds": 1}).with_rounds(args.min_rounds, args.max_rounds)
    retriever = Retriever(library, config.retrieval)
    router = ModelRouter(config.models)
    store = TrialStore(cache / "trials.sqlite")

    def court_factory():
        return Court(router.for_role, retriever, store, settings, embed=library.embedder.encode,
                     covers=library.embedder.covers, k=settings.passages_per_turn)

    def progress(result) -> None:
        print(f"claim {result.claim.id} ({result.claim.gold.value}): "
              + ", ".join(f"{m}={p}" for m, p in result.predictions.items()), file=sys.stderr)

    async def main():
        try:
            return await evaluate_verdicts(claims, court_factory=court_factory, retriever=retriever,
                                           judge_model=router.for_role("judge"), store=store, methods=methods,
                                           on_result=progress)
        finally:
            await router.aclose()

    results = asyncio.run(main())
    labels = {role: f"{s.provider}:{s.model or 'bundled'}" for role, s in
              (("prosecution", config.models.for_role("prosecution")), ("defense", config.models.for_role("defense")),
               ("judge", config.models.for_role("judge")))}
    report = (f"Claims: {args.claims} (sample {len(claims)}, seed {args.seed}); models: {labels}; "
              f"rounds {settings.min_rounds}-{settings.max_rounds}\n\n" + format_report(results, methods))
    print(report)
    if args.out:
        Path(args.out).write_text(report + "\n", encoding="utf-8")
    store.close()
    library.close()
    return 0
