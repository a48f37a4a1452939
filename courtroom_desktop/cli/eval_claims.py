"""`courtroom eval claims --drafts DIR`: the check-worthy claim finder on labelled drafts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context


def add_claims_action(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = actions.add_parser(
        "claims", help="precision, recall and F1 of finding check-worthy sentences in labelled drafts",
        description="Read each draft of a folder (NAME.md, .txt, .docx or .pdf beside NAME.labels.jsonl: one "
        '{"sentence", "checkworthy", "why"} per body sentence, in order), find its check-worthy sentences and print '
        "precision, recall and F1 per language: the rule finder's, then the claims among them worth at least "
        "--min-worth (what the review page shows). The tuning sets: --drafts tests/check/data/tuning and "
        "tests/check/data/worth; the held-out one: tests/check/data/heldout.")
    parser.add_argument("--drafts", required=True, metavar="DIR", help="folder of labelled drafts")
    parser.add_argument("--min-worth", type=float, metavar="W",
                        help="the check-worthiness threshold (default: the setting check.min_worth)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run_claims_action(args: argparse.Namespace, ctx: Context) -> int:
    from courtroom_desktop.core.services.evaluation import run_claims

    min_worth = ctx.config.check.min_worth if args.min_worth is None else args.min_worth
    folder = Path(args.drafts).expanduser()
    finders = {"rules": run_claims(folder), f"worth >= {min_worth:.2f}": run_claims(folder, min_worth)}
    if args.json:
        print(json.dumps([{"finder": finder, **row.model_dump()} for finder, rows in finders.items() for row in rows],
                         indent=2))
        return 0
    print("| finder | language | drafts | labelled | found | precision | recall | F1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for finder, rows in finders.items():
        for row in rows:
            s = row.score
            print(f"| {finder} | {row.language} | {len(row.drafts)} | {s.labelled} | {s.found} | {s.precision:.3f} "
                  f"| {s.recall:.3f} | {s.f1:.3f} |")
    return 0
