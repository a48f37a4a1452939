"""`courtroom zotero import [--collection NAME] [--zotero-url URL | --zotero-dir DIR]`"""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "zotero", help="bring a Zotero library (or one collection) into the library, and keep it in step",
        description="Import the PDF attachments of a Zotero library, or of one collection and its subcollections, "
        "with their metadata (title, authors, year, DOI, tags): citations then read 'Smith et al. 2020' and link "
        "back to the item (zotero://select/...). Run it again to keep in step: new and changed PDFs are read, items "
        "deleted or taken out of the collection leave the library. Zotero 7's local API is used while Zotero runs "
        "(allow it in Zotero: Settings -> Advanced -> 'Allow other applications on this computer to communicate "
        "with Zotero'); when Zotero is closed its data folder (~/Zotero) is read instead, from a copy: Zotero's "
        "files are never written.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    importing = actions.add_parser("import", help="import or update the library, or one collection")
    importing.add_argument("--collection", metavar="NAME", default=None,
                           help="only this collection (by name, any case) and its subcollections")
    where = importing.add_mutually_exclusive_group()
    where.add_argument("--zotero-url", metavar="URL", default=None,
                       help="the local API's address (default: http://127.0.0.1:23119/api, then the data folder "
                       "when Zotero is not running)")
    where.add_argument("--zotero-dir", metavar="DIR", default=None,
                       help="read this Zotero data folder (the one holding zotero.sqlite) instead of asking Zotero")
    importing.add_argument("--quiet", action="store_true", help="no progress bars; print only the summary")
    return parser


def run(args, ctx) -> int:
    from courtroom_desktop.cli.ingest import run_ingest

    workspace = ctx.workspace()
    outcome: dict = {}
    try:
        def job(emit, cancel):
            result, where = workspace.import_zotero(args.collection, args.zotero_url, args.zotero_dir, emit, cancel)
            outcome.update(result=result, where=where)
            return result.ingest

        run_ingest(job, quiet=args.quiet)
    finally:
        workspace.close()
    result = outcome["result"]
    scope = f"the collection {args.collection!r}" if args.collection else "the whole library"
    print(f"Zotero: {scope} read from {outcome['where']}: {result.items} items, {result.pdfs} PDFs here; "
          f"{result.linked} documents carry their item's metadata, {result.removed} removed (gone from Zotero)")
    for line in result.missing:
        print(f"  not imported: {line}")
    return 1 if result.failed or result.cancelled else 0

