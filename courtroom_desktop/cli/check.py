"""`courtroom check DRAFT`: every claim of a draft found, checked against the library (a quick check each, a full
trial where it is contested or unsure), and the report, the CSV and the annotated draft written (docs/check.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.services.check import CheckClaim, CheckStatus, CitedReferences, ClaimRow, Draft
    from courtroom_desktop.core.services.trials import Workspace

FORMATS_DEFAULT = "md,html,pdf,json,csv"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "check", help="check a whole draft: find its claims, check each against the library, report and annotate",
        description="Read a draft (PDF, Word .docx, Markdown or text; '-' reads pasted text from standard input), find "
        "the claims worth checking (numbers, comparisons, causes, quantifiers, superlatives, attributions; with a "
        "model other than the bundled one, also the judge's model), give each a quick check (one search, one judged "
        "verdict with citations) and a full trial where the quick verdict is contested or unsure, then write the "
        "report (Markdown, HTML, PDF, JSON, CSV) and the annotated draft into --report DIR. The check is stored: "
        "Ctrl+C or a crash loses no finished claim, and `courtroom checks resume ID` goes on.")
    parser.add_argument("draft", metavar="DRAFT", help="the draft: .pdf, .docx, .md or .txt, or '-' for standard input")
    parser.add_argument("--list-claims", action="store_true",
                        help="only list the claims found (with --json: a claims file to edit and give to --claims)")
    parser.add_argument("--references-only", action="store_true",
                        help="only list the draft's references: each one's number, first author and year, title, "
                             "DOI, the sentences that cite it, and the library document it was matched to (by DOI, "
                             "title, or first author and year) or 'cited, not in your library'; no claim is checked")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--claims", metavar="FILE",
                        help="check these claims instead of the ones found: a JSON list, e.g. the output of "
                             "--list-claims --json edited (drop, reword, merge, add); each is placed in the draft")
    parser.add_argument("--report", metavar="DIR", help="write the report, the CSV and the annotated draft into DIR")
    parser.add_argument("--formats", default=FORMATS_DEFAULT, metavar="LIST",
                        help=f"report formats, comma-separated (default {FORMATS_DEFAULT})")
    parser.add_argument("--min-worth", type=float, metavar="W",
                        help="check only the claims whose check-worthiness (0 to 1: opinions, plans and definitions "
                             "score low) is at least W (default: the setting check.min_worth; 0: every claim found)")
    parser.add_argument("--finder", choices=["auto", "rules", "model", "both"],
                        help="how claims are found (default: the setting check.finder, auto)")
    parser.add_argument("--trials", choices=["auto", "never", "all"],
                        help="which claims also get a full trial (default: the setting check.trials, auto: a quick "
                             "verdict that is mixed or less sure than --trial-below)")
    parser.add_argument("--trial-below", type=float, metavar="C",
                        help="confidence below which a quick verdict goes to a full trial (default: check.trial_below)")
    parser.add_argument("--max-rounds", type=int, metavar="N", help="rounds of each full trial at most")
    parser.add_argument("--documents", nargs="+", metavar="DOC", help="check against these documents only")
    parser.add_argument("--title", default="", help="a name for the check (default: the draft's file name)")
    parser.add_argument("--model", action="append", default=[], metavar="ROLE=PROVIDER:MODEL",
                        help="use another model for a role, e.g. judge=ollama:llama3.1")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    workspace = ctx.workspace(args.model)
    try:
        checks = workspace.checks
        if args.references_only:
            pasted = sys.stdin.read() if args.draft == "-" else None
            cited = checks.references(None if pasted is not None else args.draft, pasted)
            return _references(cited, args.json)
        draft = checks.read_draft(text=sys.stdin.read()) if args.draft == "-" else checks.read_draft(args.draft)
        if args.max_rounds:
            workspace.reconfigure(workspace.config.model_copy(
                update={"debate": workspace.config.debate.with_rounds(None, args.max_rounds)}))
        warnings: list[str]
        if args.claims:
            from courtroom_desktop.core.services.check import load_claims_file

            claims, warnings, finder = load_claims_file(Path(args.claims).expanduser(), draft), [], "edited list"
        else:
            import asyncio

            finder = workspace.checks.claim_finder(args.finder)
            claims, warnings = asyncio.run(workspace.checks.find_claims(draft, finder))
        for warning in warnings:
            print(f"courtroom check: {warning}", file=sys.stderr)
        from courtroom_desktop.core.services.check import worth

        min_worth = workspace.config.check.min_worth if args.min_worth is None else args.min_worth
        if args.list_claims:
            return _list(draft, claims, args.json, min_worth)
        if not args.claims:  # an edited list is checked as the reviewer left it
            kept = [claim for claim in claims if worth(claim.text) >= min_worth]
            if len(kept) < len(claims):
                print(f"courtroom check: not checking {len(claims) - len(kept)} of {len(claims)} claims: worth less "
                      f"than {min_worth:.2f} (--min-worth 0 checks them all)", file=sys.stderr)
            claims = kept
        if not claims:
            print(f"{draft.source}: no claims worth checking among {len(draft.sentences)} sentences")
            return 0
        check_id = workspace.checks.create(draft, claims, title=args.title, trials=args.trials,
                                          trial_below=args.trial_below, documents=args.documents, finder=finder)
        print(f"check {check_id}: {len(claims)} claims of {draft.source} ({draft.kind}, {draft.language})",
              flush=True)
        return drive(workspace, check_id, args.report, args.formats, args.json)
    finally:
        workspace.close()


def _list(draft: Draft, claims: Sequence[CheckClaim], as_json: bool, min_worth: float) -> int:
    """Every claim found, each with its check-worthiness; the ones under ``min_worth`` are marked (JSON: a list
    for --claims holds the ones at or above it, the others under "below_min_worth")."""
    from courtroom_desktop.core.services.check import worth

    scores = [worth(c.text) for c in claims]
    if as_json:
        def item(claim: CheckClaim, score: float) -> dict[str, object]:
            return {**claim.model_dump(mode="json"), "worth": score}

        print(json.dumps({"draft": draft.source, "kind": draft.kind, "language": draft.language,
                          "sentences": len(draft.sentences), "min_worth": min_worth,
                          "claims": [item(c, w) for c, w in zip(claims, scores, strict=True) if w >= min_worth],
                          "below_min_worth": [item(c, w) for c, w in zip(claims, scores, strict=True) if w < min_worth]},
                         ensure_ascii=False, indent=2))
        return 0
    below = sum(1 for w in scores if w < min_worth)
    print(f"{draft.source}: {len(claims)} claims found among {len(draft.sentences)} sentences "
          f"({draft.kind}, {draft.language}); {len(claims) - below} worth checking at {min_worth:.2f}")
    for number, (claim, score) in enumerate(zip(claims, scores, strict=True), start=1):
        where = "; ".join(loc.describe() for loc in claim.locations)
        mark = "" if score >= min_worth else "  -- below --min-worth, not checked"
        print(f"\n[{number}] {where}  ({', '.join(claim.why) or claim.origin}; worth {score:.2f}){mark}\n  {claim.text}")
    return 0


def drive(workspace: Workspace, check_id: str, report: str | None, formats: str, as_json: bool = False) -> int:
    """Run a check's queue, a line per claim as it finishes and the progress; Ctrl+C stops it (resumable); the
    report at the end. Exit status: 0 finished, 3 paused (a server down: the reason is printed), 130 stopped."""
    import asyncio

    from courtroom_desktop.core.services.check import ClaimUpdated, Progress, QueueFinished, QueuePaused

    queue = workspace.checks.queue(check_id)
    ended: CheckStatus | None = None

    async def main() -> None:
        nonlocal ended
        last_progress = ""
        async for event in queue.run():
            if isinstance(event, ClaimUpdated):
                print(json.dumps(event.row.model_dump(mode="json"), ensure_ascii=False) if as_json
                      else _row_line(event.row), flush=True)
            elif isinstance(event, Progress) and not as_json:
                line = f"  {event.done}/{event.total} done" + (
                    f", about {_duration(event.eta_s)} left" if event.eta_s else "") + (
                    f", {event.trials_left} waiting for a full trial" if event.trials_left else "")
                if line != last_progress:
                    print(line, file=sys.stderr, flush=True)
                    last_progress = line
            elif isinstance(event, QueuePaused):
                print(words.label("paused") + words.say(event.reason), file=sys.stderr, flush=True)
            elif isinstance(event, QueueFinished):
                ended = event.status

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        print(f"\nstopped; `courtroom checks resume {check_id}` goes on with the claims left", file=sys.stderr)
        return 130
    if report:
        _export(workspace, check_id, report, formats)
    if ended is not None and ended.value == "finished":
        return 0
    print(f"`courtroom checks resume {check_id}` goes on with the claims left", file=sys.stderr)
    return 3


def _export(workspace: Workspace, check_id: str, report: str, formats: str) -> None:
    done = workspace.checks.export(check_id, [f.strip() for f in formats.split(",") if f.strip()], report)
    sources = [p for p in done.paths if p.parent.name == "sources"]
    for path in done.paths:
        if path not in sources:
            print(f"wrote {path}")
    if sources:
        print(f"wrote {len(sources)} highlighted source page{'s' if len(sources) != 1 else ''} into "
              f"{sources[0].parent}")
    for note in done.notes:
        print(words.label("note") + words.say(note), file=sys.stderr)


def _row_line(row: ClaimRow) -> str:
    head = f"[{row.index + 1}] "
    if row.status.value == "failed":
        return f"{head}failed: {row.problem}\n    {row.claim.text}"
    if row.label is None:
        return f"{head}{row.status.value}\n    {row.claim.text}"
    cited = "; ".join(f"{e.doc_title or e.chunk.doc_id}" + (f" p.{e.chunk.page_start + 1}" if e.chunk.page_start >= 0
                                                            else "") for _, e in row.quick.cited()) if row.quick else ""
    then = " -> full trial" if row.status.value == "trial" else ""
    trial = f" (trial {row.trial.trial_id})" if row.trial and row.trial.label is not None else ""
    return (f"{head}{row.label.value} {row.confidence:.2f} by {row.by}{trial}{then}\n    {row.claim.text}"
            + (f"\n    cites: {cited}" if cited else ""))


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def _references(cited: CitedReferences, as_json: bool) -> int:
    """The draft's references and their matches, as a table or JSON; 0 even when some are not in the library."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from courtroom_desktop.core.services.check import NOT_IN_LIBRARY

    rows = []
    for ref, match in zip(cited.references, cited.matches, strict=True):
        rows.append({"reference": ref.index + 1, "number": ref.number, "first_author": ref.first_author,
                     "year": f"{ref.year or ''}{ref.letter}", "title": ref.title, "doi": ref.doi,
                     "zotero_key": ref.zotero_key,
                     "cited_in_sentences": [i + 1 for i in cited.cited_by(ref.index)],
                     "in_library": match.found, "document": match.doc_id, "document_title": match.title,
                     "matched_by": match.how, "score": match.score, "notice": match.notice,
                     "retracted": match.notice == "retraction"})
    unplaced = [c.text for c in cited.citations if not c.references]
    if as_json:
        print(json.dumps({"references": rows, "citations_without_reference": unplaced}, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("no reference list found (a heading 'References', 'Bibliography' or '参考文献' and the entries after it)")
        return 0
    table = Table("#", "reference", "cited in", "in your library")
    for ref, match in zip(cited.references, cited.matches, strict=True):
        who = " ".join(str(x) for x in (ref.first_author, f"{ref.year or ''}{ref.letter}") if x)
        found = (f"{match.title} ({match.how}, {match.score:.2f})" + (f" [{match.notice}]" if match.notice else "")
                 if match.found else words.say(NOT_IN_LIBRARY))
        table.add_row(str(ref.number or ref.index + 1), escape(f"{who}: {ref.title}"),
                      ", ".join(str(i + 1) for i in cited.cited_by(ref.index)) or "-", escape(found))
    Console(highlight=False).print(table)
    if unplaced:
        print(f"{len(unplaced)} citation(s) name no entry of the list: {', '.join(unplaced)}")
    return 0
