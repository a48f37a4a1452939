"""`courtroom checks list|show|resume|signoff|trial|export|delete`: stored checks of drafts."""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context

LABELS = ["supported", "refuted", "mixed", "insufficient evidence", "insufficient"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("checks", help="list, show, resume, sign off, export or delete checks of drafts",
                                   description="Every check of a draft is saved claim by claim in the data folder.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="checks with their draft, status and claims done")
    show = actions.add_parser("show", help="a check's table: each claim, its verdict, citations and sign-off")
    show.add_argument("check", help="check id (or a unique prefix)")
    show.add_argument("--json", action="store_true", help="the whole record as JSON")
    resume = actions.add_parser("resume", help="go on with a stopped, paused or cancelled check")
    resume.add_argument("check", help="check id (or a unique prefix)")
    resume.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="use another model from now on, e.g. judge=ollama:llama3.1")
    resume.add_argument("--report", metavar="DIR", help="write the report and annotated draft into DIR at the end")
    resume.add_argument("--formats", default="md,html,pdf,json,csv", metavar="LIST", help="report formats")
    sign = actions.add_parser("signoff", help="accept or override the court's verdict on a claim, with a note")
    sign.add_argument("check", help="check id (or a unique prefix)")
    sign.add_argument("claim", type=int, help="the claim's number (from 1, as `checks show` numbers them)")
    how = sign.add_mutually_exclusive_group(required=True)
    how.add_argument("--accept", action="store_true", help="the court's verdict stands")
    how.add_argument("--override", choices=LABELS, metavar="LABEL",
                     help="the reviewer's verdict: supported, refuted, mixed or insufficient")
    how.add_argument("--withdraw", action="store_true", help="remove the sign-off")
    sign.add_argument("--note", default="", help="why (shown in every export beside the court's verdict)")
    sign.add_argument("--reviewer", default="", help="the reviewer's name (default: check.reviewer, or your user name)")
    trial = actions.add_parser("trial", help="send a claim to a full trial (run it with `checks resume`)")
    trial.add_argument("check", help="check id (or a unique prefix)")
    trial.add_argument("claim", type=int, help="the claim's number (from 1)")
    export = actions.add_parser("export", help="write a check's report and annotated draft")
    export.add_argument("check", help="check id (or a unique prefix)")
    export.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    export.add_argument("--formats", default="md,html,pdf,json,csv", metavar="LIST", help="report formats")
    export.add_argument("--no-annotate", action="store_true", help="do not write the annotated draft")
    delete = actions.add_parser("delete", help="delete a check (the full trials it started are kept)")
    delete.add_argument("check", help="check id (or a unique prefix)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(highlight=False)
    workspace = ctx.workspace(getattr(args, "model", None))
    try:
        if args.action == "list":
            table = Table("id", "draft", "status", "claims", "done", "failed", "signed", "updated")
            for c in workspace.checks.list():
                table.add_row(c.id, escape(c.title[:50]), c.status.value + (f" ({escape(c.problem[:40])})"
                                                                            if c.problem else ""),
                              str(c.claims), str(c.done), str(c.failed), str(c.signed),
                              time.strftime("%Y-%m-%d %H:%M", time.localtime(c.updated_at)))
            console.print(table)
            return 0
        if args.action == "show":
            record = workspace.checks.record(args.check)
            if args.json:
                print(json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2))
                return 0
            console.print(f"check {record.id}: {escape(record.spec.title)} ({record.status.value}"
                          + (f": {escape(record.problem)}" if record.problem else "") + ")")
            table = Table("#", "claim", "verdict", "conf.", "by", "sign-off", "status")
            for row in record.rows:
                signed = ""
                if row.signoff is not None:
                    signed = f"{row.signoff.decision} by {row.signoff.reviewer}" + (
                        f": {row.signoff.label.value}" if row.signoff.label else "")
                table.add_row(str(row.index + 1), escape(row.claim.text[:80]), row.label.value if row.label else "",
                              f"{row.confidence:.2f}" if row.confidence is not None else "", row.by, escape(signed),
                              row.status.value + (f": {escape(words.say(row.problem)[:40])}" if row.problem else ""))
            console.print(table)
            return 0
        if args.action == "resume":
            from courtroom_desktop.cli.check import drive

            check_id = workspace.checks.id(args.check)
            return drive(workspace, check_id, args.report, args.formats)
        if args.action == "signoff":
            decision = "accepted" if args.accept else "withdrawn" if args.withdraw else "overridden"
            label = None
            if args.override:
                label = "insufficient evidence" if args.override.startswith("insufficient") else args.override
            row = workspace.checks.sign_off(args.check, args.claim, decision, label, args.note, args.reviewer)
            if row.signoff is None:
                print(f"claim {args.claim}: sign-off withdrawn")
            else:
                print(f"claim {args.claim}: {row.signoff.decision} by {row.signoff.reviewer} at {row.signoff.when()}"
                      + (f" as {row.signoff.label.value}" if row.signoff.label else "")
                      + f" (the court: {row.label.value if row.label else 'no verdict yet'})")
            return 0
        if args.action == "trial":
            row = workspace.checks.send_to_trial(args.check, args.claim)
            print(f"claim {args.claim} goes to a full trial: `courtroom checks resume {args.check}` runs it"
                  if row.status.value != "done" or row.trial is None else
                  f"claim {args.claim} already had its trial {row.trial.trial_id}")
            return 0
        if args.action == "export":
            from courtroom_desktop.cli.check import _export

            formats = args.formats
            if args.no_annotate:
                done = workspace.checks.export(args.check, [f.strip() for f in formats.split(",") if f.strip()],
                                              args.out, annotate=False)
                for path in done.paths:
                    print(f"wrote {path}")
                return 0
            _export(workspace, workspace.checks.id(args.check), args.out, formats)
            return 0
        ids = workspace.checks.delete([args.check])
        print(f"deleted {ids[0]}")
        return 0
    finally:
        workspace.close()
