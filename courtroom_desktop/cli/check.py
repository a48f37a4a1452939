"""`courtroom check DRAFT --list-claims`: the sentences of a draft worth checking, with where they stand (issue #28,
first step; checking them against the library comes later)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "check", help="check a whole draft: list the claims worth checking in it (first step)",
        description="Read a draft (PDF, Word .docx, Markdown or text; '-' reads pasted text from standard input) and "
        "list the sentences worth checking (numbers, comparisons, causes, quantifiers, superlatives, attributions), "
        "each with its location (page, or paragraph and character span) and why. Checking the claims against the "
        "library: not yet (a later step of issue #28).")
    parser.add_argument("draft", metavar="DRAFT", help="the draft: .pdf, .docx, .md or .txt, or '-' for standard input")
    parser.add_argument("--list-claims", action="store_true",
                        help="list the claims found (the only action so far, and the default)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run(args, ctx) -> int:
    from courtroom_desktop.core.services.check import find_claims, read_draft, read_text

    draft = read_text(sys.stdin.read()) if args.draft == "-" else read_draft(Path(args.draft).expanduser())
    claims = find_claims(draft.sentences)
    if args.json:
        print(json.dumps({"draft": draft.source, "kind": draft.kind, "language": draft.language,
                          "sentences": len(draft.sentences), "claims": [c.model_dump() for c in claims]},
                         ensure_ascii=False, indent=2))
        return 0
    print(f"{draft.source}: {len(claims)} claims worth checking among {len(draft.sentences)} sentences "
          f"({draft.kind}, {draft.language})")
    for claim in claims:
        print(f"\n[{claim.sentence_index + 1}] {claim.location.describe()}  ({', '.join(claim.why)})\n  {claim.text}")
    print("\nChecking the claims against the library: not yet (a later step).")
    return 0
