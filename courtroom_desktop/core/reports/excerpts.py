"""Excerpts of cited text documents (Markdown, plain text, Word, notes): a passage of a document without pages is
shown in its text, not on a page. For each such citation the report folder gets ``sources/E3.html``: the passage
with the text around it (up to ``CONTEXT`` characters each side, cut at a paragraph), the passage inside
``<mark id="passage">``, every piece of document text escaped; citations of it link there (``SourceCopy.excerpt``).

The text comes from the document's file when it is still the one ingested (its sha256 starts with the document id);
otherwise the excerpt holds the passage the trial kept, and ``SourceCopy.note`` says why.
"""

from __future__ import annotations

import html
from pathlib import Path

from courtroom_desktop.core.court.records import PoolEntry
from courtroom_desktop.core.reports.record import SourceCopy

CONTEXT = 1500
PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font:16px/1.55 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;color:#222}}
.text{{white-space:pre-wrap}} mark{{background:#ffe066;padding:1px 0}} .small{{color:#666;font-size:.85em}}</style>
</head><body><h1>{heading}</h1><p class="small">{where}</p>
<div class="text">{before}<mark id="passage">{passage}</mark>{after}</div>
<p class="small">{note}</p></body></html>
"""


def excerpt_name(evidence_id: str) -> str:
    return f"{evidence_id}.html"


def write_excerpt(entry: PoolEntry, folder: Path, source_path: Path | None, why: str, lang: str = "en") -> SourceCopy:
    """Write ``folder/E3.html`` for a cited passage of a text document; ``source_path`` is its file when usable
    (``why``: why not, otherwise)."""
    chunk = entry.evidence.chunk
    text, start, end, note = chunk.text, 0, len(chunk.text), why
    if source_path is not None:
        try:
            from courtroom_desktop.core.library.read.text_files import document_text

            full = document_text(source_path)
        except Exception as exc:  # noqa: BLE001 - an unreadable file leaves the kept passage
            full, note = "", f"the file {source_path} could not be read ({exc})"
        if full[chunk.char_start:chunk.char_end] == chunk.text:
            text, start, end = full, chunk.char_start, chunk.char_end
        elif full and (at := full.find(chunk.text)) >= 0:
            text, start, end = full, at, at + len(chunk.text)
        elif full:
            note = f"the passage is no longer in {source_path}: the excerpt shows the passage the trial kept"
    low, high = _context(text, start, end)
    title = entry.evidence.doc_title or Path(entry.evidence.doc_path).name or chunk.doc_id
    where = " \u00b7 ".join(x for x in (html.escape(title), html.escape(chunk.section_path)) if x)
    page = PAGE.format(lang=lang, title=html.escape(f"{entry.id}: {title}"), heading=html.escape(entry.id),
                       where=where, before=("\u2026" if low else "") + html.escape(text[low:start]),
                       passage=html.escape(text[start:end]),
                       after=html.escape(text[end:high]) + ("\u2026" if high < len(text) else ""),
                       note=html.escape(note))
    name = excerpt_name(entry.id)
    (Path(folder) / name).write_text(page, encoding="utf-8")
    return SourceCopy(evidence_id=entry.id, original_page=0, excerpt=f"{Path(folder).name}/{name}", note=note)


def _context(text: str, start: int, end: int) -> tuple[int, int]:
    """Up to CONTEXT characters each side of the passage, starting and ending at a paragraph where one is near."""
    low = max(0, start - CONTEXT)
    if low:
        cut = text.find("\n\n", low, start)
        low = cut + 2 if cut >= 0 else low
    high = min(len(text), end + CONTEXT)
    if high < len(text):
        cut = text.rfind("\n\n", end, high)
        high = cut if cut >= 0 else high
    return low, high
