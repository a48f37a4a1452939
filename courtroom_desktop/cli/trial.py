"""`courtroom trial "CLAIM"`"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.court.records import TrialEvent
    from courtroom_desktop.core.services.trials import TrialRun, Workspace


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "trial", help="put a claim (or a decision) on trial against the library",
        description="Prosecution and Defense argue from evidence retrieved from your library, the Judge rules each "
        "round and gives a verdict. The transcript streams to the terminal; every event is saved, so a trial that "
        "stops (Ctrl+C, a crash, a model server down) can be resumed with `courtroom trials resume ID`.",
    )
    parser.add_argument("claim", help="the claim to verify, or the decision to weigh with --case decision")
    parser.add_argument("--case", choices=["claim", "decision"], default="claim",
                        help="claim: is it true? decision: should I do it? (inner court: counsel for and against)")
    parser.add_argument("--option", action="append", default=[], metavar="TEXT",
                        help="a decision's option (2 to 5, repeatable; implies --case decision): each is heard in "
                        "turn and scored on every criterion")
    parser.add_argument("--criterion", action="append", default=[], metavar="NAME[=WEIGHT]",
                        help="what the options are judged on, with its weight (default 1), e.g. cost=3 (repeatable)")
    parser.add_argument("--constraint", action="append", default=[], metavar="TEXT",
                        help="a hard constraint: an option shown to break it is out (repeatable, up to 5)")
    parser.add_argument("--background", metavar="TEXT", default="",
                        help="context every role sees (as data): your situation, what you already know; the court "
                        "reads the first 2,000 characters")
    parser.add_argument("--background-file", metavar="FILE", help="the background from a text file")
    parser.add_argument("--documents", nargs="+", metavar="DOC", help="limit evidence to these documents (ids or paths)")
    parser.add_argument("--sections", nargs="+", metavar="PREFIX", help="limit evidence to sections starting so")
    parser.add_argument("--max-rounds", type=int, metavar="N", help="round limit (default: debate.max_rounds)")
    parser.add_argument("--min-rounds", type=int, metavar="N", help="rounds before a verdict may be given")
    parser.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="model for a role, e.g. judge=ollama:llama3.1 or all=openai:gpt-4o-mini (repeatable)")
    parser.add_argument("--report", metavar="DIR", help="write the verdict report into DIR when the trial ends")
    parser.add_argument("--no-stream", action="store_true", help="print whole turns instead of streaming tokens")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    case, decision, background = args.case, None, args.background
    if args.option or args.criterion or args.constraint:
        from courtroom_desktop.core.services.trials import Criterion, DecisionSpec, problem_of

        if len(args.option) < 2 or not args.criterion:
            print("courtroom trial: a decision needs at least two --option and one --criterion, e.g. --option "
                  "Lisbon --option Berlin --criterion cost=3", file=sys.stderr)
            return 2
        try:
            decision = DecisionSpec(options=tuple(args.option), constraints=tuple(args.constraint),
                                    criteria=tuple(Criterion.parse(c) for c in args.criterion))
        except ValueError as exc:
            print(f"courtroom trial: {problem_of(exc)}", file=sys.stderr)
            return 2
        case = "decision"
    if args.background_file:
        try:
            background = Path(args.background_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"courtroom trial: cannot read the background file {args.background_file}: {exc}", file=sys.stderr)
            return 2
    from courtroom_desktop.core.services.trials import BACKGROUND_CHARS

    total = len(background.strip())
    if total > BACKGROUND_CHARS:  # the court reads the first BACKGROUND_CHARS characters: never cut silently
        print(f"courtroom trial: the background is {total:,} characters long: the court reads only the first "
              f"{BACKGROUND_CHARS:,} (kept {BACKGROUND_CHARS:,} of {total:,} characters); put what matters first",
              file=sys.stderr)
    workspace = ctx.workspace(args.model)
    try:
        settings = workspace.config.debate.with_rounds(args.min_rounds, args.max_rounds)
        run = workspace.trials.start(args.claim, case, args.documents, args.sections, settings, background=background,
                                    decision=decision)
        return drive(workspace, run, args.report, stream=not args.no_stream)
    finally:
        workspace.close()


def drive(workspace: Workspace, run: TrialRun, report: str | None, stream: bool) -> int:
    """Print a trial's events as they come; write the report at the verdict. Ctrl+C stops it (resumable)."""
    import asyncio

    from courtroom_desktop.cli.render import TranscriptPrinter
    from courtroom_desktop.core.services.models import demo_line

    # the demo model, when the trial began on it or goes on with it now (a resumed trial uses today's settings)
    note = demo_line(getattr(run.spec, "models", None)) or demo_line(workspace.config.models)
    printer = TranscriptPrinter(show_tokens=stream, demo_note=note)
    if note:
        from rich.markup import escape

        printer.console.print(f"[yellow]{escape(note)}[/]")
    last: TrialEvent | None = None

    async def main() -> None:
        nonlocal last
        async for event in run.events():
            printer(event)
            last = event

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        print(f"\nstopped; `courtroom trials resume {run.trial_id}` continues the trial")
        return 130
    if last is None or last.kind != "verdict":
        return 1
    if report:
        from courtroom_desktop.cli.export import print_export

        print_export(workspace.trials.export(run.trial_id, ["md", "html", "pdf", "json"], report))
    return 0
