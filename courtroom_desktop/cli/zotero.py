"""`courtroom zotero import [--collection NAME] [--zotero-url URL | --zotero-dir DIR]`,
`courtroom zotero sync [--zotero-url URL | --zotero-dir DIR]`"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.records import IngestEvent, IngestFinished
    from courtroom_desktop.core.services.library import CancelToken, ZoteroImport
    from courtroom_desktop.core.services.trials import Workspace


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
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
    syncing = actions.add_parser("sync", help="bring every collection imported so far (or the whole library) in "
                                 "step with Zotero again")
    where = syncing.add_mutually_exclusive_group()
    where.add_argument("--zotero-url", metavar="URL", default=None, help="the local API's address")
    where.add_argument("--zotero-dir", metavar="DIR", default=None, help="read this Zotero data folder instead")
    syncing.add_argument("--quiet", action="store_true", help="no progress bars; print only the summaries")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    workspace = ctx.workspace()
    try:
        if args.action == "sync":
            return _sync(workspace, args)
        return _import(workspace, args.collection, args)
    finally:
        workspace.close()


def _import(workspace: Workspace, collection: str | None, args: argparse.Namespace) -> int:
    """One scope (a collection, or the whole library) imported with the ingest's progress, then its summary."""
    from courtroom_desktop.cli.ingest import run_ingest

    outcome: list[tuple[ZoteroImport, str]] = []  # the import's summary and where it was read

    def job(emit: Callable[[IngestEvent], None], cancel: CancelToken) -> IngestFinished:
        result, where = workspace.library.import_zotero(collection, args.zotero_url, args.zotero_dir, emit, cancel)
        outcome.append((result, where))
        assert result.ingest is not None  # import_items always sets it
        return result.ingest

    run_ingest(job, quiet=args.quiet)
    result, where = outcome[0]
    scope = f"the collection {collection!r}" if collection else "the whole library"
    print(f"Zotero: {scope} read from {where}: {result.items} items, {result.pdfs} PDFs here; "
          f"{result.linked} documents carry their item's metadata, {result.removed} removed (gone from Zotero)")
    for line in result.missing:
        print(f"  not imported: {line}")
    return 1 if result.failed or result.cancelled else 0


def _sync(workspace: Workspace, args: argparse.Namespace) -> int:
    """Each scope imported before, imported again (one progress run each)."""
    from courtroom_desktop.core.services.library import collection_of

    scopes = workspace.library.zotero_scopes()
    if not scopes:
        print("Zotero: nothing in the library came from Zotero yet; import it first: courtroom zotero import")
        return 0
    return max(_import(workspace, collection_of(scope), args) for scope in scopes)
