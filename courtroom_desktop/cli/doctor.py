"""`courtroom doctor`: check every role's chat model and say how to fix what fails."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words
from courtroom_desktop.core.config import ROLES

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.services.models import DoctorRow


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "doctor",
        help="check the chat model of each role (server, model, context, a call, a structured call) and rate it",
        description="For each role: is the server reachable (or the GGUF file there, and does it load), is the model "
        "on it, is the context large enough, does a one-token call work, does a structured (JSON) round trip "
        "validate. Then three short probes rate the model for this job (valid JSON, citing only given passages, a "
        "known answer): good, usable or demo only. Prints the fix for each failure; the exit status is 1 when any "
        "check fails (a low rating is reported, not a failure).",
    )
    parser.add_argument("--role", action="append", choices=ROLES, metavar="ROLE",
                        help=f"check only this role (repeatable; one of {', '.join(ROLES)})")
    parser.add_argument("--no-calls", action="store_true",
                        help="skip the model calls: only settings, server, model and context")
    parser.add_argument("--no-probes", action="store_true",
                        help="skip the three probes and the rating (the setup checks only)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    return parser


def _mark(row: DoctorRow) -> str:
    if row.kind == "check":
        return {True: "[green]ok[/]", False: "[bold red]FAIL[/]", None: "[dim]skipped[/]"}[row.ok]
    color = {True: "green", False: "yellow", None: "dim"}[row.ok]
    return f"[{color}]{row.result}[/]" if row.kind == "probe" else f"[bold {color}]{row.result}[/]"


def _groups(rows: Iterable[DoctorRow]) -> list[tuple[str, list[DoctorRow]]]:
    """Rows per role, with a run of skipped checks folded into one row."""
    from courtroom_desktop.core.services.models import DoctorRow

    out: dict[str, list[DoctorRow]] = {}
    for row in rows:
        group = out.setdefault(row.role, [])
        if row.ok is None and row.kind == "check" and group and group[-1].ok is None and group[-1].kind == "check":
            last = group[-1]
            group[-1] = DoctorRow(last.role, last.provider, last.model, f"{last.check}, {row.check}", None,
                                  last.detail, "")
        else:
            group.append(row)
    return list(out.items())


def run(args: argparse.Namespace, ctx: Context) -> int:
    from courtroom_desktop.core.services.models import failed, run_doctor

    rows = asyncio.run(run_doctor(ctx.config.models, roles=args.role, calls=not args.no_calls,
                                  data_dir=ctx.data_dir, probes=not args.no_probes))
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=1))
        return 1 if failed(rows) else 0

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="courtroom doctor")
    for column in ("role", "check", "result", "detail", "fix"):
        table.add_column(column, overflow="fold")
    for role, group in _groups(rows):
        if table.row_count:
            table.add_section()
        first = group[0]
        who = f"[bold]{escape(role)}[/]\n{escape(first.provider)}: {escape(first.model)}"
        for i, row in enumerate(group):
            table.add_row(who if i == 0 else "", escape(words.say(row.check)), _mark(row), escape(words.say(row.detail)),
                          escape(words.say(row.fix)))
    console = Console()
    console.print(table)
    from courtroom_desktop.core.services.models import demo_line, ratings

    rated = ratings(rows)
    if rated:
        console.print("Ratings for this job: " + ", ".join(f"{escape(role)} [bold]{escape(word)}[/]"
                                                          for role, word in rated.items()))
    note = demo_line(ctx.config.models)
    if note:
        console.print(f"[yellow]{escape(note)}[/]")
    bad = [r for r in rows if r.ok is False and r.kind == "check"]
    if bad:
        console.print(f"[bold red]{len(bad)} check(s) failed.[/] "
                      "Fix them in order: later checks depend on earlier ones.")
        return 1
    console.print("[green]All checks passed.[/]")
    return 0
