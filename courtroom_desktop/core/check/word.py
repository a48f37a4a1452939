"""What a Word draft cites beyond its runs' plain text: superscript citation numbers, footnotes and Zotero citation
fields (read for ``core.check.drafts`` and ``core.check.references``; the annotated copy, ``core.check.annotate``,
counts a paragraph's characters the same way, so that a claim's span lands on the same words).

- **Superscript numbers.** A run of superscript (``w:vertAlign`` superscript, set on the run) whose text is a number
  list (``3``, ``3,4``, ``3-5``, ``3–5``; several superscript runs in a row are read as one) is a numbered citation:
  it reads as ``[3]``, ``[3,4]``, ``[3-5]``, which ``references.NUMBERED`` finds. Not where it is clearly an
  exponent: a single number of one or two digits glued (no space) to a unit of length or to "/s" (``m²``, ``5cm³``,
  ``km²``, ``mm²``, ``µm²``, ``ft²``, ``m/s²``), or to a "10" that is not the end of a longer number (``×10⁻³``'s
  ``3``, ``10²³``; but ``in 2010³`` is a citation). Superscript letters ("th", "st") are never citations.
- **Footnotes.** A footnote's mark in the body (``w:footnoteReference``) reads as ``[N]``, N the footnote's number in
  order of appearance (1, 2, ...; a mark with a custom symbol is left as written), and the footnote's text
  (``word/footnotes.xml``, the document part's ``footnotes`` relationship) is the entry ``[N] its text``, appended to
  the draft's text under a "References" heading (after a reference list of the draft's own, the heading goes on with
  the same list). A draft with both a numbered reference list and footnotes numbers its footnotes on from the list's
  highest number (a list [1]–[12]: the first footnote is [13]), so that a footnote never takes a listed entry's
  number. A note that cites nothing is an entry that matches nothing.
- **Zotero fields.** A field whose instruction (``w:instrText``, possibly over several runs) is ``ADDIN ZOTERO_ITEM
  CSL_CITATION {json}`` (Mendeley's ``ADDIN CSL_CITATION {json}`` too) cites each of its ``citationItems``: each
  becomes a reference with the item's key (from its ``uris``: ``.../items/KEY``), title, first author, year and DOI
  (from ``itemData``); an item the draft's own list already has (the same DOI, or the item's title in the entry and
  the same year) is that entry, given the key. The field's visible result ("[1]", "(Smith, 2020)", a superscript
  "1") is the citation, in the sentence that holds it, of exactly those items; a field inside a footnote adds its
  items to what the footnote's mark cites. Fields are read in the body's paragraphs and in footnotes; simple fields
  (``w:fldSimple``), tables, text boxes and endnotes are not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from courtroom_desktop.core.check.references import (
    DOI,
    TITLE_MATCH,
    YEAR,
    Citation,
    Reference,
    parse_reference,
    split_reference_list,
    title_share,
)
from courtroom_desktop.core.text import HAN

if TYPE_CHECKING:
    from courtroom_desktop.core.check.draft_records import Draft, DraftSentence

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NUMBER_LIST = re.compile(r"\d{1,4}(?:\s*[-–,]\s*\d{1,4})*")
#: what an exponent is glued to: a unit of length (not the end of a longer word), "/s", or a "10" standing alone
EXPONENT_BASE = re.compile(r"(?:(?<![A-Za-zµμ])(?:[kcmdnµμ]?m|ft|yd|mi)|/s|(?<![\d.,])10)$")
CSL_FIELD = re.compile(r"^\s*ADDIN\s+(?:ZOTERO_ITEM\s+)?CSL_CITATION\b", re.IGNORECASE)
#: an item's URI: http://zotero.org/users/123/items/KEY, .../users/local/abc/items/KEY, .../groups/9/items/KEY
ZOTERO_URI = re.compile(r"zotero\.org/(?:users|groups)/(?:local/)?[^/]+/items/([A-Za-z0-9]+)/?$")


def _w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def is_exponent(number: str, before: str) -> bool:
    """Whether a superscript ``number`` after the text ``before`` is an exponent, not a citation (the module's
    docstring: one or two digits glued to a unit of length, "/s" or a lone "10")."""
    return bool(re.fullmatch(r"\d{1,2}", number)) and bool(EXPONENT_BASE.search(before))


@dataclass
class Piece:
    """One ``w:r`` of a paragraph: its text as python-docx reads it (``Run.text``) and as the check reads it."""

    run: Any
    base: str
    text: str

    @property
    def rewritten(self) -> bool:
        return self.text != self.base


def text_runs(p: Any) -> list[Any]:
    """The ``w:r`` elements whose text makes ``Paragraph.text``, in order: the paragraph's own and its hyperlinks'."""
    out: list[Any] = []
    for child in p:
        if child.tag == _w("r"):
            out.append(child)
        elif child.tag == _w("hyperlink"):
            out.extend(c for c in child if c.tag == _w("r"))
    return out


def _run_text(r: Any) -> str:
    """``Run.text``: its text, tabs and breaks (python-docx's reading)."""
    out: list[str] = []
    for child in r:
        tag = child.tag
        if tag == _w("t"):
            out.append(child.text or "")
        elif tag in (_w("tab"), _w("ptab")):
            out.append("\t")
        elif tag == _w("cr") or tag == _w("br") and child.get(_w("type")) in (None, "textWrapping"):
            out.append("\n")
        elif tag == _w("noBreakHyphen"):
            out.append("-")
    return "".join(out)


def _superscript(r: Any) -> bool:
    properties = r.find(_w("rPr"))
    align = properties.find(_w("vertAlign")) if properties is not None else None
    return align is not None and align.get(_w("val")) == "superscript"


def pieces(p: Any, notes: Mapping[str, int]) -> list[Piece]:
    """The paragraph element ``p``'s runs with their text as the check reads it: a footnote mark as ``[N]`` (N from
    ``notes``: footnote id -> number), a superscript citation in brackets (the module's docstring)."""
    out: list[Piece] = []
    for r in text_runs(p):
        base = _run_text(r)
        text = base
        mark = r.find(_w("footnoteReference"))
        if mark is not None and mark.get(_w("customMarkFollows")) not in ("1", "true", "on"):
            number = notes.get(mark.get(_w("id")) or "")
            if number is not None:
                text = f"{base}[{number}]"
        out.append(Piece(run=r, base=base, text=text))
    group: list[int] = []
    for at, piece in enumerate([*out, None]):
        if piece is not None and not piece.rewritten and not piece.base:
            continue  # a run with no text (a field's code, a bookmark's) neither starts nor ends a group
        if piece is not None and not piece.rewritten and _superscript(piece.run):
            group.append(at)
            continue
        if group:
            _bracket([out[i] for i in group], "".join(earlier.text for earlier in out[:group[0]]))
            group = []
    return out


def _bracket(group: list[Piece], before: str) -> None:
    """Brackets around a group of superscript runs that is a citation (in place)."""
    written = "".join(p.base for p in group)
    number = written.strip()
    if not NUMBER_LIST.fullmatch(number) or is_exponent(number, before):
        return
    first, last = group[0], group[-1]
    lead = len(first.text) - len(first.text.lstrip())
    first.text = first.text[:lead] + "[" + first.text[lead:]
    trail = len(last.text.rstrip())
    last.text = last.text[:trail] + "]" + last.text[trail:]


# ------------------------------------------------------------------------------------------ the whole document

@dataclass
class CslField:
    """A Zotero (or Mendeley) citation field: where its visible result stands, and the items it cites."""

    paragraph: int                # the body paragraph (from 1, as Document.paragraphs counts), 0 in a footnote
    note: int                     # the footnote's number, 0 in the body
    start: int                    # the result's span in that paragraph's text as read
    end: int
    text: str                     # the visible result as read: '[1]', '(Smith, 2020)'
    items: list[dict[str, Any]] = field(default_factory=list)  # the CSL citationItems


@dataclass
class WordText:
    """A Word draft as the check reads it."""

    paragraphs: list[str]         # each of Document.paragraphs, read (marks and citations in brackets)
    notes: list[tuple[int, str]]  # each footnote: (its number, its text)
    numbers: dict[str, int]       # footnote id -> its number
    fields: list[CslField]

    def text(self) -> str:
        """The whole text, a line per paragraph, the footnotes after it as a reference list."""
        lines = list(self.paragraphs)
        entries = [f"[{number}] {text}" for number, text in self.notes if text]
        if entries:
            lines += ["", "References", *entries]
        return "\n".join(lines)


@dataclass
class _Open:
    code: list[str] = field(default_factory=list)
    where: tuple[int, int] | None = None   # (paragraph, note) where its result starts
    start: int = 0


@dataclass
class _Fields:
    """The field codes met so far, nested: ``begin`` ... code ... ``separate`` ... result ... ``end``."""

    open: list[_Open] = field(default_factory=list)
    done: list[CslField] = field(default_factory=list)

    def read(self, run: Any, where: tuple[int, int], before: int, after: int) -> None:
        for child in run:
            if child.tag == _w("instrText") and self.open:
                self.open[-1].code.append(child.text or "")
            elif child.tag == _w("fldChar"):
                kind = child.get(_w("fldCharType"))
                if kind == "begin":
                    self.open.append(_Open())
                elif kind == "separate" and self.open:
                    self.open[-1].where, self.open[-1].start = where, after
                elif kind == "end" and self.open:
                    finished = self.open.pop()
                    if finished.where == where and (items := csl_items("".join(finished.code))):
                        self.done.append(CslField(paragraph=where[0], note=where[1], start=finished.start,
                                                  end=before, text="", items=items))


def csl_items(code: str) -> list[dict[str, Any]]:
    """The citationItems of a Zotero or Mendeley field's code ([] for any other field, or a damaged one)."""
    if not CSL_FIELD.match(code) or "{" not in code:
        return []
    try:
        data, _ = json.JSONDecoder().raw_decode(code[code.index("{"):])
    except ValueError:
        return []
    items = data.get("citationItems") if isinstance(data, dict) else None
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _paragraph(p: Any, notes: Mapping[str, int], fields: _Fields, where: tuple[int, int]) -> str:
    read = pieces(p, notes)
    position = 0
    first = len(fields.done)
    for piece in read:
        fields.read(piece.run, where, position, position + len(piece.text))
        position += len(piece.text)
    text = "".join(piece.text for piece in read)
    for found in fields.done[first:]:
        found.text = text[found.start:found.end]
    return text


def footnotes(document: Any) -> dict[str, Any]:
    """The document's footnotes (``w:footnote`` elements, separators left out) by id; {} when it has none."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml.parser import parse_xml

    for rel in document.part.rels.values():
        if rel.reltype != RELATIONSHIP_TYPE.FOOTNOTES or rel.is_external:
            continue
        part = rel.target_part
        element = getattr(part, "element", None)
        if element is None:
            element = parse_xml(part.blob)
        return {str(note.get(_w("id"))): note for note in element.iter(_w("footnote"))
                if note.get(_w("type")) in (None, "normal")}
    return {}


def note_numbers(document: Any, notes: Mapping[str, Any]) -> dict[str, int]:
    """Footnote id -> its number: in order of the marks in the body, on from the highest number of a numbered
    reference list of the draft's own (the module's docstring)."""
    order: list[str] = []
    for mark in document.element.body.iter(_w("footnoteReference")):
        note = mark.get(_w("id")) or ""
        if note in notes and note not in order and mark.get(_w("customMarkFollows")) not in ("1", "true", "on"):
            order.append(note)
    if not order:
        return {}
    _, entries = split_reference_list("\n".join(p.text for p in document.paragraphs))
    listed = [n for n in (parse_reference(entry, i).number for i, entry in enumerate(entries)) if n is not None]
    offset = max(listed, default=0)
    return {note: offset + n for n, note in enumerate(order, start=1)}


def read_word(document: Any) -> WordText:
    """A python-docx ``Document`` read as the check reads it (the module's docstring)."""
    notes = footnotes(document)
    numbers = note_numbers(document, notes)
    fields = _Fields()
    paragraphs = [_paragraph(p._p, numbers, fields, (n, 0)) for n, p in enumerate(document.paragraphs, start=1)]
    read_notes: list[tuple[int, str]] = []
    for note, number in sorted(numbers.items(), key=lambda pair: pair[1]):
        fields.open.clear()
        text = " ".join(_paragraph(p, {}, fields, (0, number)) for p in notes[note].iter(_w("p")))
        read_notes.append((number, " ".join(text.split())))
    return WordText(paragraphs=paragraphs, notes=read_notes, numbers=numbers, fields=fields.done)


# ------------------------------------------------------------------------------------------ Zotero's items

def _year(issued: Any) -> int | None:
    if not isinstance(issued, dict):
        return None
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        try:
            return int(parts[0][0])
        except (TypeError, ValueError):
            pass
    for name in ("raw", "literal"):
        if found := YEAR.search(str(issued.get(name) or "")):
            return int(found.group(1))
    return None


def zotero_reference(item: Mapping[str, Any], index: int) -> Reference | None:
    """A CSL citation item as a reference entry (None when it has neither a key, a title nor a DOI)."""
    data = item.get("itemData")
    data = data if isinstance(data, dict) else {}
    uris = item.get("uris") or item.get("uri") or []
    uris = [uris] if isinstance(uris, str) else uris if isinstance(uris, list) else []
    key = next((found.group(1) for uri in uris if isinstance(uri, str) and (found := ZOTERO_URI.search(uri))), "")
    title = " ".join(str(data.get("title") or "").split())
    found_doi = DOI.search(str(data.get("DOI") or ""))
    doi = found_doi.group(0).rstrip(".,;)").lower() if found_doi else ""
    authors = [a for a in data.get("author") or [] if isinstance(a, dict)]
    first = authors[0] if authors else {}
    family, given = str(first.get("family") or first.get("literal") or "").strip(), str(first.get("given") or "")
    if family and given and re.fullmatch(f"[{HAN}]+", family + given.strip()):
        family += given.strip()  # a Chinese name is cited whole: 张三
    year = _year(data.get("issued"))
    if not (key or title or doi):
        return None
    who = family + (" et al." if len(authors) > 1 else "")
    text = ". ".join(part for part in (f"{who} ({year})" if who and year else who or (str(year) if year else ""),
                                       title, str(data.get("container-title") or "").strip(),
                                       f"doi:{doi}" if doi else "") if part)
    return Reference(index=index, text=text, first_author=family, year=year, title=title, doi=doi, zotero_key=key)


def _same_work(entry: Reference, item: Reference) -> bool:
    """Whether a reference-list entry is the Zotero item (the same DOI; or the item's title in the entry, the same
    year where both give one), the entry not taken by another item already."""
    if entry.zotero_key:
        return False
    if entry.doi and item.doi:
        return entry.doi == item.doi
    years_agree = entry.year is None or item.year is None or entry.year == item.year
    return bool(item.title) and years_agree and title_share(item.title, entry.text) >= TITLE_MATCH


def _sentence_at(sentences: Sequence[DraftSentence], paragraph: int, at: int) -> int | None:
    """The sentence of body paragraph ``paragraph`` that holds character ``at`` (else the last one before it)."""
    spans = [(s.location.start or 0, s.location.end or 0, s.index) for s in sentences
             if s.location.kind == "paragraph" and s.location.paragraph == paragraph]
    inside = [index for start, end, index in spans if start <= at < end]
    before = [index for start, _, index in spans if start <= at]
    chosen = inside or before[-1:] or [index for _, _, index in spans[:1]]
    return chosen[0] if chosen else None


def cite_fields(fields: Sequence[CslField], sentences: Sequence[DraftSentence], references: Sequence[Reference],
                citations: Sequence[Citation]) -> tuple[list[Reference], list[Citation]]:
    """The references and citations with the Zotero fields' items and citations added (the module's docstring)."""
    refs = list(references)
    seen: dict[str, int] = {}
    cited: list[tuple[CslField, tuple[int, ...]]] = []
    for found in fields:
        indexes: list[int] = []
        for item in found.items:
            ref = zotero_reference(item, len(refs))
            if ref is None:
                continue
            ident = ref.zotero_key or ref.doi or ref.title.casefold()
            if ident not in seen:
                same = next((r for r in refs if _same_work(r, ref)), None)
                if same is not None:
                    refs[same.index] = same.model_copy(update={
                        "zotero_key": ref.zotero_key, "doi": same.doi or ref.doi, "title": same.title or ref.title,
                        "year": same.year or ref.year, "first_author": same.first_author or ref.first_author})
                    seen[ident] = same.index
                else:
                    refs.append(ref)
                    seen[ident] = ref.index
            indexes.append(seen[ident])
        if indexes:
            cited.append((found, tuple(dict.fromkeys(indexes))))
    out = list(citations)
    by_number = {r.number: r.index for r in refs if r.number is not None}
    for found, items in cited:
        if found.note:
            note = by_number.get(found.note)
            out = [c.model_copy(update={"references": tuple(dict.fromkeys((*c.references, *items)))})
                   if note is not None and note in c.references else c for c in out]
            continue
        sentence = _sentence_at(sentences, found.paragraph, found.start)
        if sentence is None:
            continue
        shown = " ".join(found.text.split())
        out = [c for c in out if not (c.sentence == sentence and c.text in shown)]
        out.append(Citation(sentence=sentence, text=shown, references=items))
    out.sort(key=lambda c: c.sentence)
    return refs, out


def with_fields(draft: Draft, references: Sequence[Reference],
                citations: Sequence[Citation]) -> tuple[list[Reference], list[Citation]]:
    """For a Word draft: the references and citations with its Zotero fields' added (as they are for any other
    draft, or a Word file that cannot be read again)."""
    if draft.kind != "docx" or not Path(draft.source).is_file():
        return list(references), list(citations)
    try:
        import docx

        fields = read_word(docx.Document(draft.source)).fields
    except Exception:  # noqa: BLE001 - python-docx raises zip, XML and its own errors; the draft was read before
        return list(references), list(citations)
    return cite_fields(fields, draft.sentences, references, citations)
