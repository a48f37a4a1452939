"""`courtroom notes add|list`: notes written from the command line, kept as Markdown in the data folder and
ingested like any file (see core.library.notes)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TypedDict

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context


class _NoteRow(TypedDict):
    path: str
    title: str
    id: str
    private: bool
    status: str


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("notes", help="write notes into the library, or list them",
                                   description="Notes are Markdown files in <data folder>/notes, ingested like any "
                                   "file: they are evidence in a trial, cited and highlighted in their text.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="write a note and add it to the library")
    add.add_argument("--title", required=True, help="the note's title")
    source = add.add_mutually_exclusive_group(required=True)
    source.add_argument("--text", help="the note's text ('-' reads it from standard input)")
    source.add_argument("--file", metavar="PATH", help="read the note's text from a file (UTF-8)")
    add.add_argument("--private", action="store_true",
                     help="mark it private: its text is never sent to a model server on another machine")
    listing = actions.add_parser("list", help="the notes, with their document id and private flag")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    from pathlib import Path

    workspace = ctx.workspace()
    try:
        if args.action == "add":
            text = args.text if args.file is None else Path(args.file).read_text(encoding="utf-8")
            if text == "-":
                text = sys.stdin.read()
            path, finished = workspace.library.save_note(args.title, text, private=True if args.private else None)
            doc = next(iter(workspace.library.documents_at(path)), None)
            if finished.failed or doc is None:
                why = dict(workspace.library.failures()).get(str(path), "see courtroom library list")
                print(words.label("error") + words.word("not_added", path=path, why=words.say(why)), file=sys.stderr)
                return 1
            print(f"{doc.id} {path} ({doc.chunks} passages{', private' if doc.private else ''})")
            return 0
        from courtroom_desktop.core.services.library import list_notes

        docs = {d.path: d for d in workspace.library.documents()}
        rows: list[_NoteRow] = []
        for note in list_notes(workspace.library.notes_dir):
            doc = docs.get(str(note.path))
            rows.append({"path": str(note.path), "title": note.title, "id": doc.id if doc else "",
                         "private": bool(doc and doc.private), "status": doc.status.value if doc else "not ingested"})
        if args.json:
            print(json.dumps(rows, indent=2, ensure_ascii=False))
        elif not rows:
            print(f"No notes yet: `courtroom notes add --title T --text TEXT` (kept in {workspace.library.notes_dir}).")
        for row in rows if not args.json else ():
            print(f"{row['id'] or '-':16}  {row['title'][:50]:50}  {'private' if row['private'] else '':7}  "
                  f"{row['status']:8}  {row['path']}")
        return 0
    finally:
        workspace.close()
