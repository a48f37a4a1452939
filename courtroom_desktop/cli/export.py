"""`courtroom export TRIAL_ID --format md|html|pdf|json --out DIR`"""

from __future__ import annotations

import argparse
from pathlib import Path

FORMATS = ("md", "html", "pdf", "json")


def add_parser(subparsers) -> argparse.ArgumentParser:
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
    return parser


def run(args, ctx) -> int:
    from courtroom_desktop.core.workspace import Workspace

    workspace = Workspace(ctx.config_dir, ctx.data_dir)
    try:
        trial_id = workspace.trials.find(args.trial)
        out = Path(args.out) if args.out else Path(f"report-{trial_id}")
        export_trial(workspace, trial_id, args.formats or list(FORMATS), out, audience=args.audience)
        return 0
    finally:
        workspace.close()


def export_trial(workspace, trial_id: str, formats, out_dir, audience: str = "general", echo: bool = True) -> list[Path]:
    """Export a stored trial of ``workspace`` into ``out_dir``; returns (and with ``echo`` prints) the written paths."""
    from courtroom_desktop.core.reports import TrialRecord, export

    trial_id = workspace.trials.find(trial_id)
    record = TrialRecord.from_store(workspace.trials, trial_id)
    catalog = None

    def locate(doc_id: str) -> str | None:
        """Where the library has the document now (it may have been moved and added again)."""
        nonlocal catalog
        library = getattr(workspace, "_library", None)
        if library is not None:
            doc = library.catalog.get(doc_id)
            return doc.path if doc else None
        path = Path(workspace.data_dir) / "library" / "catalog.sqlite"
        if not path.is_file():
            return None
        if catalog is None:
            from courtroom_desktop.core.library.catalog import Catalog

            catalog = Catalog(path)
        doc = catalog.get(doc_id)
        return doc.path if doc else None

    try:
        notes: list[str] = []
        paths = export(record, formats, Path(out_dir), audience=audience, locate=locate, notes=notes)
    finally:
        if catalog is not None:
            catalog.close()
    if echo:
        import sys

        for path in paths:
            print(path)
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
    return paths
