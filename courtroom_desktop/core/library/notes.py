"""Notes written in the app, and which documents are private.

A note is a Markdown file in ``<data folder>/notes/`` (``<slug>.md``: its title as the first line, '# Title', then
its text), ingested like any file; its Document has kind 'note'. Editing a note rewrites its file and ingests it again
(the old version leaves the library in the same step, as for any changed file).

Private: ``Document.private``, a catalog column. A document's flag is decided when it is written to the catalog (in
the same row write as the rest of it, so a crash never leaves a private file public): what the ingest asks
(``Library.ingest(private=True|False)``), else what the file's previous version had, else whether it lies in a watched
folder marked private. ``set_private`` changes it afterwards.
"""

from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message

MAX_SLUG = 60


@dataclass(frozen=True)
class Note:
    path: Path
    title: str
    text: str  # the body, without the title line


def slug(title: str) -> str:
    """A file name from a title: letters and digits of any script kept, everything else one '-', at most 60
    characters ('Moving to Lisbon?' -> 'moving-to-lisbon', '搬到里斯本' -> '搬到里斯本')."""
    text = unicodedata.normalize("NFKC", title).lower()
    text = re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-_")
    return text[:MAX_SLUG].strip("-_") or "note"


def note_text(title: str, text: str) -> str:
    return f"# {' '.join(title.split())}\n\n{text.strip()}\n"


def write_note(folder: Path, title: str, text: str, path: Path | None = None) -> Path:
    """Write a note (a new file named after its title, or ``path`` when editing one) and return its path. The file is
    written whole to a temporary name and renamed over the old one, so a watcher or a crash never sees half a note."""
    title = " ".join((title or "").split())
    if not title:
        raise LibraryError(Message("the note has no title: give it one"))
    if not (text or "").strip():
        raise LibraryError(Message("the note is empty: write or paste its text"))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if path is None:
        base = slug(title)
        path = folder / f"{base}.md"
        number = 2
        while path.exists():
            path = folder / f"{base}-{number}.md"
            number += 1
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{time.monotonic_ns()}.tmp")
    temporary.write_text(note_text(title, text), encoding="utf-8")
    temporary.replace(path)
    return path


def read_note(path: Path) -> Note:
    """A note's title and body as the editor shows them (the first '# ' line is the title)."""
    text = Path(path).read_text(encoding="utf-8").replace("\r\n", "\n")
    first, _, rest = text.partition("\n")
    if first.startswith("# "):
        return Note(Path(path), first[2:].strip(), rest.strip("\n"))
    return Note(Path(path), Path(path).stem, text.strip("\n"))


def list_notes(folder: Path) -> list[Note]:
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return [read_note(p) for p in sorted(folder.glob("*.md")) if not p.name.startswith(".")]
