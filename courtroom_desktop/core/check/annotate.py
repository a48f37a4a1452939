"""The draft itself, annotated with the check: a copy beside the report, the original untouched.

- PDF: ``<stem>-checked.pdf``, each claim highlighted at its locations in its final verdict's colour (the reviewer's
  where overridden, else the court's), with a note: the court's verdict, confidence, key citations and the sign-off.
- Word: ``<stem>-checked.docx``, a comment on each claim's own text (a run is split where a claim starts or ends inside
  it, so that the comment's range is exactly the claim; a merged claim gets a comment at each of its sentences). The
  characters are counted as the draft was read (``core.check.word``: "[3]" for a superscript citation "3", "[N]" for a
  footnote's mark); a run read with brackets added is never split.
- Markdown and text: ``<stem>-checked.md``, a footnote marker after each claim and the verdicts listed at the end.

Only the file that was checked is annotated: its sha256 must equal the one the check recorded (locations into an
edited draft would land on the wrong words). Pasted text has no file to annotate.
"""

from __future__ import annotations

import copy
import hashlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.check.export import (
    Cited,
    cited,
    cited_text,
    lang_of,
    passage_text,
    signoff_text,
    verdict_text,
)
from courtroom_desktop.core.check.records import CheckRecord, ClaimRow
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.reports.md_writer import md_escape
from courtroom_desktop.core.reports.view import one_line

if TYPE_CHECKING:
    from docx.text.paragraph import Paragraph

log = logging.getLogger(__name__)
AUTHOR = "Courtroom Desktop"
INITIALS = "CD"
# the final verdict's colour (RGB 0..1)
COLOURS: dict[str, tuple[float, float, float]] = {
    "supported": (0.30, 0.75, 0.35), "refuted": (0.90, 0.25, 0.25), "mixed": (1.0, 0.60, 0.15),
    "insufficient evidence": (0.65, 0.65, 0.65), "unchecked": (0.45, 0.65, 1.0),
}


def colour_of(row: ClaimRow) -> tuple[float, float, float]:
    label = row.final_label
    return COLOURS[label.value if label is not None else "unchecked"]


def note_of(row: ClaimRow, lang: str = "en") -> str:
    """What a claim's note says: the court's verdict, what its cited source says, the key citations and the
    sign-off, a line each (the wording: the lexicon's ``check.note_*``)."""
    words = lexicon.section(lang if lexicon.has(lang) else "en", "check.")
    lines = [words["note_claim"].format(n=row.index + 1), words["note_court"].format(verdict=verdict_text(row, lang))]
    if row.claim.cites:
        lines.append(cited_text(row, lang))
    passages = [passage_text(Cited(id=cid, evidence=ev, copy=None), lang) for cid, ev in cited(row)]
    if passages:
        lines.append(words["note_passages"].format(passages="; ".join(passages)))
    lines.append(words["note_signoff"].format(signoff=signoff_text(row, lang)))
    if row.problem:
        lines.append(words["note_problem"].format(problem=one_line(lexicon.say(lang, row.problem))))
    return "\n".join(lines)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def annotate_draft(record: CheckRecord, draft_path: Path, out_dir: Path) -> tuple[Path | None, str]:
    """Write the annotated copy of the draft into ``out_dir``: (its path, '') or (None, why not)."""
    spec = record.spec
    if spec.pasted_text or not spec.draft_sha256:
        return None, Message("the draft was pasted text: there is no file to annotate (the report lists every claim)")
    draft_path = Path(draft_path)
    if not draft_path.is_file():
        return None, Message("the draft is no longer at {draft_path}", draft_path)
    if _sha256(draft_path) != spec.draft_sha256:
        return None, Message("the draft changed since it was checked: check it again to annotate it")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    lang = lang_of(record)
    try:
        if spec.kind == "pdf":
            return _pdf(record, draft_path, out_dir / f"{draft_path.stem}-checked.pdf", lang), ""
        if spec.kind == "docx":
            return _docx(record, draft_path, out_dir / f"{draft_path.stem}-checked.docx", lang)
        if spec.kind in ("markdown", "text"):
            return _text(record, draft_path, out_dir / f"{draft_path.stem}-checked.md", lang), ""
    except Exception as exc:  # a draft that opens for reading but not for writing a copy must not stop the export
        log.warning("annotating %s failed", draft_path, exc_info=True)
        return None, Message("the annotated copy could not be made ({type(exc).__name__}: {exc})",
                             type(exc).__name__, exc)
    return None, Message("a draft of kind {spec.kind} cannot be annotated", f'{spec.kind!r}')


# ------------------------------------------------------------------------------------------------ PDF
def _pdf(record: CheckRecord, path: Path, out: Path, lang: str) -> Path:
    import pymupdf

    doc = pymupdf.open(str(path))
    try:
        for row in record.rows:
            note = note_of(row, lang)
            label = row.final_label.value if row.final_label is not None else "unchecked"
            for loc in row.claim.locations:
                if loc.kind != "pdf" or loc.page is None or not 1 <= loc.page <= doc.page_count or not loc.rects:
                    continue
                page = doc[loc.page - 1]
                rects = [pymupdf.Rect(r) for r in loc.rects]
                annot = page.add_highlight_annot(rects)
                annot.set_colors(stroke=colour_of(row))
                annot.set_info(title=AUTHOR, content=note, subject=f"claim {row.index + 1}: {label}")
                annot.update()
        doc.save(str(out), garbage=3, deflate=True)
    finally:
        doc.close()
    return out


# ------------------------------------------------------------------------------------------------ Word
def _docx(record: CheckRecord, path: Path, out: Path, lang: str) -> tuple[Path | None, str]:
    import docx

    document = docx.Document(str(path))
    if not hasattr(document, "add_comment"):
        return None, Message("Word comments need python-docx 1.2 or later (pip install -U python-docx)")
    from courtroom_desktop.core.check.word import read_word

    paragraphs = document.paragraphs
    notes = read_word(document).numbers
    skipped = 0
    for row in record.rows:
        note = note_of(row, lang)
        for loc in row.claim.locations:
            if (loc.kind != "paragraph" or loc.paragraph is None or loc.start is None or loc.end is None
                    or not 1 <= loc.paragraph <= len(paragraphs) or loc.end <= loc.start):
                skipped += 1
                continue
            runs = claim_runs(paragraphs[loc.paragraph - 1], loc.start, loc.end, notes)
            if not runs:
                skipped += 1
                continue
            document.add_comment(runs, text=note, author=AUTHOR, initials=INITIALS)
    document.save(str(out))
    return out, (Message("{skipped} claim location(s) did not match the draft's paragraphs and have no comment",
                         skipped)
                 if skipped else "")


def _w(tag: str) -> str:
    from docx.oxml.ns import qn

    return str(qn(f"w:{tag}"))


def _piece_length(element: Any) -> int:
    """How many characters of ``Paragraph.text`` a run's child stands for (python-docx's reading of it)."""
    tag = element.tag
    if tag == _w("t"):
        return len(element.text or "")
    if tag in (_w("tab"), _w("ptab"), _w("cr"), _w("noBreakHyphen")):
        return 1
    if tag == _w("br"):
        kind = element.get(_w("type"))
        return 1 if kind in (None, "textWrapping") else 0
    return 0


def _split(r: Any, at: int) -> Any:
    """Split the run element ``r`` at character ``at`` (0 < at < its length): ``r`` keeps what is before, a copy
    with the same formatting, inserted after it, gets the rest; returns the copy."""
    tail = copy.deepcopy(r)
    r.addnext(tail)
    for keep_before, element in ((True, r), (False, tail)):
        position = 0
        for child in list(element):
            if child.tag == _w("rPr"):
                continue
            length = _piece_length(child)
            start, end = position, position + length
            position = end
            if keep_before and start >= at or not keep_before and end <= at and not (length == 0 and start == at):
                element.remove(child)
            elif start < at < end:  # a w:t cut in two
                child.text = (child.text or "")[:at - start] if keep_before else (child.text or "")[at - start:]
                child.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return tail


def claim_runs(paragraph: Paragraph, start: int, end: int, notes: Mapping[str, int] | None = None) -> list[Any]:
    """The runs that hold exactly characters [start, end) of the paragraph's text as the draft was read
    (``core.check.word.pieces``; ``notes``: footnote id -> number), splitting the runs where the span starts or ends
    inside one (never one read with brackets added: it is taken whole or left out); [] when the paragraph's text is
    shorter than the span."""
    from docx.text.run import Run

    from courtroom_desktop.core.check.word import pieces

    notes = notes or {}
    if sum(len(piece.text) for piece in pieces(paragraph._p, notes)) < end:
        return []
    for boundary in (start, end):
        position = 0
        for piece in pieces(paragraph._p, notes):
            length = len(piece.text)
            if position < boundary < position + length:
                if not piece.rewritten:
                    _split(piece.run, boundary - position)
                break
            position += length
    inside: list[Any] = []
    position = 0
    for piece in pieces(paragraph._p, notes):
        length = len(piece.text)
        if length and start <= position and position + length <= end:
            inside.append(piece.run)
        position += length
    return [Run(r, paragraph) for r in inside]


# ------------------------------------------------------------------------------------------------ Markdown and text
def _text(record: CheckRecord, path: Path, out: Path, lang: str) -> Path:
    """The draft's text with a footnote marker after each claim, and the verdicts listed at the end."""
    from courtroom_desktop.core.check.drafts import _text_paragraphs
    from courtroom_desktop.core.library.read.text_files import read_layout

    layout = read_layout(path)
    text = layout.text
    paragraphs = _text_paragraphs(layout.text, layout.headings, layout.breaks, markdown=record.spec.kind == "markdown")
    starts: dict[int, int] = {}
    cursor = 0
    for paragraph in paragraphs:  # each paragraph is a stretch of the text, stripped: find where it stands
        at = text.find(paragraph.text, cursor)
        if at >= 0:
            starts[paragraph.number] = at
            cursor = at + len(paragraph.text)
    marks: list[tuple[int, str]] = []
    for row in record.rows:
        for loc in row.claim.locations:
            if loc.kind == "paragraph" and loc.paragraph in starts and loc.end is not None:
                marks.append((starts[loc.paragraph] + loc.end, f"[^c{row.index + 1}]"))
    for at, mark in sorted(marks, key=lambda m: m[0], reverse=True):
        text = text[:at] + mark + text[at:]
    heading = lexicon.word(lang if lexicon.has(lang) else "en", "check.note_heading")
    notes = [f"[^c{row.index + 1}]: " + " \u2014 ".join(md_escape(line) for line in note_of(row, lang).split("\n")[1:])
             for row in record.rows]
    out.write_text(text.rstrip() + f"\n\n---\n\n**{heading}**\n\n" + "\n".join(notes) + "\n", encoding="utf-8")
    return out
