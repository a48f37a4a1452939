"""`courtroom library list|show|remove|reindex|check|private|where|credentials`"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from rich.console import Console

    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.records import Chunk, Document
    from courtroom_desktop.core.services.trials import Workspace


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("library", help="list, inspect, remove or re-index documents",
                                   description="Inspect and maintain the document library.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="documents with status, pages and chunks; failed files with the reason")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    show = actions.add_parser("show", help="one document: metadata and its sections with page spans")
    show.add_argument("document", help="document id (or a unique prefix of it) or file path")
    show.add_argument("--chunks", action="store_true", help="also print every chunk's text")
    remove = actions.add_parser("remove", help="remove documents from every store")
    remove.add_argument("documents", nargs="+", help="document ids, prefixes or file paths")
    reindex = actions.add_parser("reindex", help="re-extract and re-embed documents (all when none named), "
                                 "e.g. after changing the embedding model or chunk settings")
    reindex.add_argument("documents", nargs="*", help="document ids, prefixes or file paths")
    actions.add_parser("check", help="check that the catalog, LanceDB and tantivy agree")
    private = actions.add_parser("private", help="mark a document private (its text is never sent to a model server "
                                 "on another machine), or not")
    private.add_argument("document", help="document id (or a unique prefix of it) or file path")
    private.add_argument("state", choices=("on", "off"))
    retractions = actions.add_parser(
        "retractions", help="flag retracted, corrected or concerned works: import the Retraction Watch CSV (matched by "
        "DOI and PubMed id; nothing is fetched), or list the flags (Zotero's are read when it is imported)")
    retractions.add_argument("retraction_action", choices=("import", "list"), metavar="import|list")
    retractions.add_argument("file", nargs="?", help="the Retraction Watch CSV (for import)")
    actions.add_parser("where", help="where the library lives (library.uri: this computer or object storage), and "
                       "this machine's folder of its local parts")
    replica = actions.add_parser("replica", help="a shared library's local read replica of its chunk table "
                                 "(searches read it instead of the bucket): its size and age; --sync catches it up "
                                 "now, --clear deletes it (it is copied again at the next search)")
    replica_action = replica.add_mutually_exclusive_group()
    replica_action.add_argument("--sync", action="store_true", help="catch the replica up now (blocking)")
    replica_action.add_argument("--clear", action="store_true", help="delete the replica from this disk")
    credentials = actions.add_parser(
        "credentials", help="keep the credentials of a shared library's bucket in the OS keyring (asked for, never "
        "given on the command line; the environment's AWS_*, GOOGLE_*, AZURE_* variables win over them)")
    credentials.add_argument("uri", nargs="?", default=None,
                             help="the library's URI (default: library.uri), e.g. s3://team-papers/library")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.action == "credentials":
        return _credentials(args, ctx)
    workspace = ctx.workspace()
    try:
        return _run(args, workspace)
    finally:
        workspace.close()


def _added(doc: Document) -> str:
    """When and by whom a document was added: '2026-12-07 15:40 by ada@lab-laptop'."""
    return " by ".join(part for part in (doc.added_when, doc.added_by) if part) or "-"


def _run(args: argparse.Namespace, workspace: Workspace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if args.action == "list":
        docs = workspace.library.documents()
        if args.json:
            print(json.dumps({"documents": [d.model_dump(mode="json") for d in docs],
                              "failures": [{"path": p, "error": e} for p, e in workspace.library.failures()]}, indent=2))
            return 0
        table = Table("id", "title", "kind", "year", "pages", "sections", "chunks", "status", "added", "path")
        for d in docs:
            table.add_row(d.id, d.title[:60], d.kind + (" (private)" if d.private else ""), str(d.year or ""),
                          str(d.pages) if d.on_pages else "-", str(d.sections), str(d.chunks), d.status.value,
                          _added(d), d.path)
        console.print(table)
        for d in docs:
            if d.pages_without_text:
                console.print(f"[yellow]note:[/] {d.title or d.path}: {d.no_text_note()}", highlight=False)
        failures = workspace.library.failures()
        if failures:
            failed = Table("file that could not be ingested", "reason", title="failed")
            for path, error in failures:
                failed.add_row(path, error)
            console.print(failed)
        if not docs and not failures:
            console.print("The library is empty: add documents with `courtroom ingest PATH`.")
        return 0
    if args.action == "show":
        doc = workspace.library.document(args.document)
        console.print(f"[bold]{doc.title}[/]  ({doc.id})\n{doc.path}\nauthors: {doc.authors or '-'}  year: "
                      f"{doc.year or '-'}  kind: {doc.kind}{' (private)' if doc.private else ''}  "
                      f"{'pages: ' + str(doc.pages) + '  ' if doc.on_pages else ''}chunks: {doc.chunks}  status: "
                      f"{doc.status.value}{'  error: ' + doc.error if doc.error else ''}\nadded: {_added(doc)}",
                      highlight=False)
        table = Table("section", "pages" if doc.on_pages else "characters", "chunks")
        sections: dict[str, list[Chunk]] = {}
        chunks = workspace.library.passages(doc.id)
        for chunk in chunks:
            sections.setdefault(chunk.section_path or "(before the first heading)", []).append(chunk)
        for path, members in sections.items():
            if doc.on_pages:
                first, last = min(c.page_start for c in members) + 1, max(c.page_end for c in members) + 1
            else:  # a text document: where the section's passages lie in its text
                first, last = min(c.char_start for c in members), max(c.char_end for c in members)
            table.add_row(path, f"{first}-{last}" if last != first else str(first), str(len(members)))
        console.print(table)
        if args.chunks:
            for chunk in chunks:
                where = f"p.{chunk.page_start + 1}" if chunk.on_pages else f"chars {chunk.char_start}-{chunk.char_end}"
                console.rule(f"{chunk.id}  {where}  {chunk.section_path}")
                console.print(chunk.text, highlight=False, markup=False)
        return 0
    if args.action == "remove":
        for ref in args.documents:
            for doc in workspace.library.remove([ref]):
                console.print(f"removed {doc.id} {doc.path}", highlight=False)
        return 0
    if args.action == "reindex":
        from courtroom_desktop.cli.ingest import run_ingest

        refs = list(args.documents) or None
        finished = run_ingest(lambda emit, cancel: workspace.library.reindex(refs, on_event=emit, cancel=cancel))
        return 1 if finished.failed or finished.cancelled else 0
    if args.action == "where":
        location = workspace.library.location
        console.print(location.describe(), highlight=False)
        if location.shared:
            console.print(f"this machine's BM25 index, caches and fetched files: "
                          f"{location.cache_folder(workspace.data_dir)}", highlight=False)
            said = workspace.library.replica()
            if said is not None:
                console.print(words.say(said), highlight=False)
        return 0
    if args.action == "replica":
        said = workspace.library.replica(catch_up=args.sync, clear=args.clear)
        if said is None:
            console.print("no replica: the library is on this computer, or library.replica is off", highlight=False)
            return 0
        console.print(words.say(said), highlight=False)
        return 0
    if args.action == "check":
        from collections.abc import Sized

        report = workspace.library.check_consistency()
        for store in ("catalog", "lancedb", "tantivy"):
            ids = report[store]
            assert isinstance(ids, Sized)  # the set of document ids the store holds
            console.print(f"{store:>8}: {len(ids)} documents")
        console.print("consistent" if report["consistent"] else "[red]INCONSISTENT[/]: run `courtroom library reindex`")
        return 0 if report["consistent"] else 1
    if args.action == "retractions":
        return _retractions(args, workspace, console)
    if args.action == "private":
        doc = workspace.library.set_private(args.document, args.state == "on")
        console.print(f"{doc.id} {doc.title or doc.path}: {'private' if args.state == 'on' else 'not private'}",
                      highlight=False)
        return 0
    return 2


def _retractions(args: argparse.Namespace, workspace: Workspace, console: Console) -> int:
    from rich.markup import escape

    if args.retraction_action == "import":
        if not args.file:
            console.print("give the CSV: `courtroom library retractions import retraction_watch.csv`")
            return 2
        listed, flagged = workspace.library.import_retractions(args.file)
        console.print(f"{listed} notices in the file; {len(flagged)} documents of the library flagged", highlight=False)
    notices = workspace.library.notices()
    titles = {d.id: d.title or d.path for d in workspace.library.documents()}
    for doc_id, notice in sorted(notices.items()):
        when = f" {notice.date}" if notice.date else ""
        why = f": {notice.reason}" if notice.reason else ""
        console.print(escape(f"{doc_id} {titles.get(doc_id, '')}: {notice.kind}{when}{why} ({notice.source})"),
                      highlight=False)
    return 0


def _credentials(args: argparse.Namespace, ctx: Context) -> int:
    """Asks for each credential of the bucket's store (hidden input on a terminal, one line each from a pipe)."""
    import getpass

    from courtroom_desktop.core.services.library import CREDENTIAL_FIELDS, locate, store_credentials

    settings = ctx.config.library
    uri = args.uri or settings.uri
    location = locate(uri, ctx.data_dir / "library", endpoint=settings.endpoint, region=settings.region,
                      data_dir=ctx.data_dir)
    if not location.shared:
        print(f"courtroom library credentials: {uri or 'the default library'} is a folder on this computer; give a "
              "URI such as s3://bucket/prefix (or set library.uri)", file=sys.stderr)
        return 2
    values = {}
    for name in CREDENTIAL_FIELDS[location.kind]:
        prompt = f"{name} (empty to skip): "
        if sys.stdin.isatty():
            values[name] = getpass.getpass(prompt)
        else:
            values[name] = sys.stdin.readline().strip()
    where = store_credentials(location, values, data_dir=ctx.data_dir)
    print(f"credentials for {location.credentials_name} stored in "
          f"{'the OS keyring' if where == 'keyring' else where}")
    return 0
