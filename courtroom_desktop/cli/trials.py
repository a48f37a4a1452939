"""`courtroom trials list|show|resume|delete`"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("trials", help="list, replay, resume or delete saved trials",
                                   description="Every trial is saved event by event in the data folder.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="trials with status, verdict and confidence")
    show = actions.add_parser("show", help="replay a trial's transcript from its saved events")
    show.add_argument("trial", help="trial id (or a unique prefix)")
    show.add_argument("--json", action="store_true", help="print the events as JSON lines")
    resume = actions.add_parser("resume", help="continue a stopped or paused trial from its last complete turn")
    resume.add_argument("trial", help="trial id (or a unique prefix)")
    resume.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="use another model from now on, e.g. judge=ollama:llama3.1")
    resume.add_argument("--report", metavar="DIR", help="write the verdict report into DIR when the trial ends")
    delete = actions.add_parser("delete", help="delete a trial and its events")
    delete.add_argument("trial", help="trial id (or a unique prefix)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    workspace = ctx.workspace(getattr(args, "model", None))
    try:
        if args.action == "list":
            table = Table("id", "claim", "case", "status", "verdict", "confidence", "updated")
            for t in workspace.trials.list():
                table.add_row(t.id, t.claim[:60], t.case_type, t.status, t.label or "",
                              f"{t.confidence:.2f}" if t.confidence is not None else "",
                              time.strftime("%Y-%m-%d %H:%M", time.localtime(t.updated_at)))
            console.print(table)
            return 0
        trial_id = workspace.trials.id(args.trial)
        if args.action == "show":
            from courtroom_desktop.cli.render import TranscriptPrinter

            printer = TranscriptPrinter(console, show_tokens=False)
            for event in workspace.trials.events(trial_id):
                print(event.model_dump_json()) if args.json else printer(event)
            return 0
        if args.action == "delete":
            workspace.trials.delete([trial_id])
            console.print(f"deleted {trial_id}")
            return 0
        from courtroom_desktop.cli.trial import drive

        return drive(workspace, workspace.trials.resume(trial_id), args.report, stream=True)
    finally:
        workspace.close()
