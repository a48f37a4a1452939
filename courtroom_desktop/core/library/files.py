"""Files for ingestion: which files a set of paths names, their kind, their content hash (and the cancel token of
long work, from core.cancel)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from courtroom_desktop.core.cancel import CancelToken

__all__ = ["CancelToken", "find_files", "in_folder_scan", "kind_of", "notes_folder", "sha256_file"]


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


#: what a folder yields, by extension: PDFs, and text documents (core.library.read.text_files)
KINDS = {".pdf": "pdf", ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".docx": "docx"}
#: files a folder holds about itself rather than as content: skipped in folders (taken when named explicitly)
ABOUT_THE_FOLDER = ("readme", "license", "licence", "copying", "changelog")


def kind_of(path: Path) -> str:
    """'pdf', 'markdown', 'text' or 'docx' by extension; 'pdf' for anything else (it is then checked as a PDF and
    refused with a clear reason if it is not one), and for a file named as text that holds a PDF (a PDF saved as
    'paper.txt' is read as the PDF it is)."""
    kind = KINDS.get(Path(path).suffix.lower(), "pdf")
    if kind in ("text", "markdown"):
        try:
            with open(path, "rb") as fh:
                if fh.read(1024).lstrip(b"\xef\xbb\xbf\r\n\t ").startswith(b"%PDF-"):
                    return "pdf"
        except OSError:
            pass  # a missing or unreadable file is reported where it is read
    return kind


def in_folder_scan(path: Path) -> bool:
    """Whether a file found under a folder is taken: a known extension, and not hidden, an editor's or Word's
    temporary file ('~$report.docx', 'notes.md~', '.#notes.md'), or a README / LICENSE / CHANGELOG."""
    name = path.name
    if path.suffix.lower() not in KINDS or name.startswith((".", "~", "#")) or name.endswith("~"):
        return False
    return not name.lower().startswith(ABOUT_THE_FOLDER)


def find_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files named, and every file under folders named (recursively, sorted). A folder yields its PDFs, Markdown,
    text and Word files (``in_folder_scan``); a file named explicitly is tried whatever its extension, so a
    mislabelled file gets a clear reason."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser().resolve()
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and in_folder_scan(p)
                                and not any(part.startswith(".") for part in p.relative_to(path).parts[:-1])))
        else:
            files.append(path)
    return list(dict.fromkeys(files))  # each file once, where it first came


NOTES_FOLDER = "notes"  # beside the library's folder, in the data folder


def notes_folder(library_root: Path) -> Path:
    """``<data folder>/notes`` for a library at ``<data folder>/library``: where notes written in the app are kept."""
    return Path(library_root).parent / NOTES_FOLDER
