"""`courtroom export TRIAL_ID --format md|html|pdf|json --out DIR`"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.services.trials import Export

FORMATS = ("md", "html", "pdf", "json")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "export", help="write a trial's verdict report (Markdown, HTML, PDF, JSON) with highlighted sources",
        description="Write the verdict report of a saved trial into a folder: report.md, report.html (self-contained), "
        "report.pdf and report.json, plus sources/ with a copy of every cited page, the passage highlighted. Every "
        "citation in the report links to its highlighted page. A source PDF that was moved or deleted since the "
        "trial is noted in the report, which then shows the passage text the trial kept.",
    )
    parser.add_argument("trial", metavar="TRIAL_ID", help="trial id (or a unique prefix), see `courtroom trials list`")
    parser.add_argument("--format", action="append", choices=FORMATS, dest="formats", metavar="FORMAT",
                        help="md, html, pdf or json; repeat for several (default: all four)")
    parser.add_argument("--out", metavar="DIR", help="report folder (default: ./report-TRIAL_ID)")
    parser.add_argument("--audience", choices=("general", "expert"), default="general",
                        help="general: the plain-language summary; expert: also the evidence assessment, levels, "
                        "weights and key controversy of every round (default: general)")
    parser.add_argument("--with-prompts", action="store_true",
                        help="also write prompts.json and prompts.md: every model call's exact prompt and raw answer "
                        "(they hold your documents' text; left out unless asked)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    workspace = ctx.workspace()
    try:
        trial_id = workspace.trials.id(args.trial)
        out = Path(args.out) if args.out else Path(f"report-{trial_id}")
        print_export(workspace.trials.export(trial_id, args.formats or list(FORMATS), out, audience=args.audience,
                                              with_prompts=args.with_prompts))
        return 0
    finally:
        workspace.close()


def print_export(result: Export) -> None:
    """The written paths on stdout, one a line; notes on stderr."""
    import sys

    for path in result.paths:
        print(path)
    for note in result.notes:
        print(words.label("note") + words.say(note), file=sys.stderr)
