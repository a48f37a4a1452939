"""What a draft cites: its in-text citations, its reference list, and which library document each reference is.

Citations, in a sentence:

- numbered: ``[3]``, ``[3, 5]``, ``[3-5]``, ``[3–5, 8]`` (a range is every number in it);
- author-year, in brackets: ``(Smith 2020)``, ``(Smith and Lee, 2020)``, ``(Smith & Lee 2020; Chen et al., 2019a)``,
  and narrative: ``Smith et al. (2020)``; in Chinese ``（张三等，2020）`` and ``张三等（2020）``.

The reference list is what follows a heading line that is only "References", "Bibliography", "Works cited",
"Literature cited" or "参考文献" (a Markdown ``#`` before it, a colon after it, are allowed), one entry per line or
paragraph, a line that does not start an entry continuing the one before. An entry's number (``[3]``, ``3.``), its
first author's surname, its year (with a letter: 2020a), its DOI and its title are read from it by the usual
shapes: "Surname, A., ... (2020). Title. Journal", "Surname A, ... Title. Journal. 2020;...", "张三, 李四. 标题[J].
期刊, 2020". A numbered citation names the entry of that number; an author-year one the entry whose first author and
year (letter included) it gives.

A Word draft's superscript numbers, footnotes and Zotero citation fields are read too (``core.check.word``): they become
numbered citations, numbered entries, and entries that carry their Zotero item's key.

Matching a reference to a library document (:func:`match_references`): by Zotero item key first (an entry read from
a Zotero field, and a document imported from Zotero, with the same key), then by DOI (the same DOI, letter case
aside), then by title (the share of the reference title's words, and of the document title's, that the other has:
the smaller of the two, at least ``TITLE_MATCH``; Chinese titles by pairs of neighbouring characters; refused when
the titles' numbers differ: another yearbook; of equal titles, the nearest year), then by first author
and year (one document only, and some title in common, ``AUTHOR_YEAR_TITLE``, when both have a title). A match says
how it was made and how sure it is; an unmatched reference is "cited, not in your library".

The rules were set on the tests' own drafts and on tests/check/data/references (a development set written apart
from the code); tests/check/data/references_heldout, written apart from both, scores them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Literal

from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Frozen
from courtroom_desktop.core.text import HAN

HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?(references|bibliography|works cited|literature cited|reference list|"
                     r"参考文献|引用文献)\s*[:：]?\s*$", re.IGNORECASE)
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})([a-z])?(?![\d])")
ENTRY_NUMBER = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})[.)]\s)\s*")
NUMBERED = re.compile(r"\[(\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\]")
UPPER = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ"
#: a surname: a capital, then letters (any Latin letter: Hallström, Moreno-Díaz, O'Neill), with a particle
SURNAME = rf"[{UPPER}](?:[^\W\d_]|['’\-])+(?:\s(?:van|von|de|der|da|di|le|la)\s[{UPPER}](?:[^\W\d_]|['’\-])+)?"
AUTHORS = rf"{SURNAME}(?:\s+et\s+al\.?|\s+(?:and|&)\s+{SURNAME})?"
BRACKETED = re.compile(r"[(（]([^()（）]*?(?:19|20)\d{2}[a-z]?[^()（）]*)[)）]")
IN_BRACKET = re.compile(rf"({AUTHORS}|[{HAN}]{{2,4}}(?:等|和[{HAN}]{{2,4}})?)\s*[,，]?\s*((?:19|20)\d{{2}})([a-z])?")
NARRATIVE = re.compile(rf"({AUTHORS}|[{HAN}]{{2,4}}(?:等)?)\s*[(（]((?:19|20)\d{{2}})([a-z])?[)）]")
#: A Vancouver author list ('Roth DE, Leung M, Mesfin E', 'Smith J et al'), or what is left of one after a split
AUTHOR_LIST = re.compile(rf"^(?:{SURNAME}\s+[A-Z]{{1,3}}|[A-Z]{{1,3}})(?:,\s*{SURNAME}\s+[A-Z]{{1,3}})*(?:,?\s+et\s+al)?$")
ZH_TYPE = re.compile(r"\[(?:J|M|C|D|R|N|S|P|EB/OL|Z)\]")
NOT_IN_LIBRARY = Message("cited, not in your library")
#: A reference and a document are the same work when each title has at least this share of the other's words
TITLE_MATCH = 0.8
AUTHOR_YEAR_TITLE = 0.2  # a match by first author and year needs this much title overlap when both titles are known


class Reference(Frozen):
    """One entry of the reference list."""

    index: int                    # from 0, in list order
    text: str                     # the entry as written
    number: int | None = None     # its number in a numbered list
    first_author: str = ""        # the first author's surname (a Chinese name whole), as written
    year: int | None = None
    letter: str = ""              # 'a' of 2020a
    title: str = ""
    doi: str = ""                 # lower-cased
    zotero_key: str = ""          # the Zotero item's key, for an entry read from a Word draft's Zotero field


class Citation(Frozen):
    """One in-text citation in a sentence, and the reference entries it names (none when it names no entry)."""

    sentence: int                 # the sentence's index in the draft
    text: str                     # as written: '[3-5]', 'Smith et al., 2020a'
    references: tuple[int, ...]   # indexes into the reference list


class Match(Frozen):
    """Which library document a reference is, and how that was found."""

    reference: int
    doc_id: str = ""              # '' when the library has no such document
    how: Literal["zotero key", "doi", "title", "author and year", ""] = ""
    score: float = 0.0            # 1.0 for a Zotero key or a DOI; the title overlap; 0.6 for author and year
    title: str = ""               # the document's title
    notice: str = ""              # a notice on the document: retraction, correction, expression of concern

    @property
    def found(self) -> bool:
        return bool(self.doc_id)


class CitedReferences(Frozen):
    """A draft's references, its citations and each reference's match (in reference order)."""

    references: tuple[Reference, ...] = ()
    citations: tuple[Citation, ...] = ()
    matches: tuple[Match, ...] = ()

    def cited_by(self, reference: int) -> list[int]:
        """The sentences that cite reference ``reference``."""
        return sorted({c.sentence for c in self.citations if reference in c.references})


class Work(Frozen):
    """What the matcher knows of a library document."""

    doc_id: str
    title: str = ""
    authors: str = ""
    year: int | None = None
    doi: str = ""
    key: str = ""                 # its Zotero item's key, for a document imported from Zotero


# ------------------------------------------------------------------------------------------ the reference list

def split_reference_list(text: str) -> tuple[str, list[str]]:
    """``text`` cut at its first reference-list heading: the body before it and the entries after it ([] and the
    whole text when there is no such heading). A second such heading (an English list, then a Chinese one) goes on
    with the same list; any other Markdown heading ends it."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if HEADING.match(line)), None)
    if at is None:
        return text, []
    entries: list[str] = []
    for line in lines[at + 1:]:
        indented = bool(re.match(r"^(?: {2,}|\t)\S", line))  # a wrapped entry's next line, written indented
        stripped = re.sub(r"^\s*(?:[-*+\u2022]\s+)", "", line).strip()
        if not stripped:
            if entries and entries[-1]:
                entries.append("")  # a blank line ends an entry
            continue
        if HEADING.match(stripped):
            entries.append("")
            continue
        if stripped.startswith("#"):
            break
        starts = (not entries or not entries[-1] or ENTRY_NUMBER.match(stripped)
                  or (not indented and _starts_entry(stripped)))
        if starts:
            entries.append(stripped)
        else:
            entries[-1] += " " + stripped
    return "\n".join(lines[:at]), [e for e in entries if e]


def _starts_entry(line: str) -> bool:
    """A line that begins a new entry of an unnumbered list: a surname and initials first; an author (a person or an
    organisation: 'UNEP', 'World Health Organization') then the year in brackets; a Chinese name first; a Chinese
    organisation then the year ('国家统计局, 2021.')."""
    return bool(re.match(rf"^(?:{SURNAME}),?\s+(?:[A-Z]\.?\s?)+[,.]", line)
                or re.match(rf"^[{UPPER}][^()]{{0,80}}?\s\((?:19|20)\d{{2}}[a-z]?\)", line)
                or re.match(rf"^[{HAN}]{{2,4}}[,，、.]", line)
                or re.match(rf"^[{HAN}]{{2,20}}[,，]\s*(?:19|20)\d{{2}}", line))


def parse_reference(text: str, index: int) -> Reference:
    """One entry read into its parts (those it lacks are left empty)."""
    number = None
    body = text
    if found := ENTRY_NUMBER.match(text):
        number = int(found.group(1) or found.group(2))
        body = text[found.end():]
    doi = ""
    if found_doi := DOI.search(body):
        doi = found_doi.group(0).rstrip(".,;)").lower()
    title = _title(body)
    year, letter = _year(body.replace(doi, "") if doi else body, title)
    return Reference(index=index, text=text, number=number, first_author=_first_author(body), year=year,
                     letter=letter, title=title, doi=doi)


def _year(body: str, title: str) -> tuple[int | None, str]:
    """The year of publication: the one in brackets ('(2020a)', APA and Harvard), else the first year that is
    neither in the title nor one end of a range ('2000–2019'), so that a Vancouver entry's '2021;129(7)' wins over
    its title's years; (None, '') when there is none."""
    if found := re.search(r"\(((?:19|20)\d{2})([a-z])?\)", body):
        return int(found.group(1)), found.group(2) or ""
    rest = body.replace(title, " ") if title else body
    ranges = {m.start() for m in re.finditer(r"(?<!\d)(?:19|20)\d{2}\s*[-–—]\s*(?=(?:19|20)?\d{2}(?!\d))", rest)}
    ranges |= {m.end() - 4 for m in re.finditer(r"(?<!\d)(?:19|20)\d{2}\s*[-–—]\s*(?:19|20)\d{2}(?!\d)", rest)}
    years = [m for m in YEAR.finditer(rest) if m.start(1) not in ranges]
    if not years:
        return None, ""
    return int(years[0].group(1)), years[0].group(2) or ""


def _first_author(body: str) -> str:
    if found := re.match(rf"^\s*([{HAN}]{{2,20}})(?=[,，、.．\s])", body) or re.match(rf"^\s*([{HAN}]{{2,4}})", body):
        return found.group(1)
    if found := re.match(rf"^\s*({SURNAME})", body):
        return found.group(1)
    return ""


def _title(body: str) -> str:
    """The title by the usual shapes: in quotes after '(2020) ' (Harvard); after '(2020). ' up to the next full stop
    (APA); before '[J]' (GB/T 7714); else the second full-stop piece, the authors' (people or an organisation) being
    the first (Vancouver)."""
    if found := re.search(r"\((?:19|20)\d{2}[a-z]?\)\.?,?\s+['‘“\"](.+?)[,.]?['’”\"](?:[,.\s]|$)", body):
        return found.group(1).strip()
    if found := re.search(r"\((?:19|20)\d{2}[a-z]?\)\.?\s+(.+?)(?:\.\s|\.?$)", body):
        return found.group(1).strip()
    if ZH_TYPE.search(body):
        head = ZH_TYPE.split(body)[0]
        pieces = re.split(r"[.．]\s*", head.strip())
        return pieces[-1].strip() if len(pieces) > 1 else head.strip()
    pieces = [p.strip() for p in re.split(r"\.\s+", body) if p.strip()]
    for at, piece in enumerate(pieces):
        if not AUTHOR_LIST.match(piece):
            if at > 0:
                return piece
            if len(pieces) >= 3 and len(piece.split()) <= 8 and ":" not in piece:
                return pieces[1]  # an organisation as the author ('World Health Organization. Title. Place; 2021.')
            return ""
    return ""


def read_references(text: str) -> list[Reference]:
    """The reference list of a draft's text, parsed; [] when it has none."""
    _, entries = split_reference_list(text)
    return [parse_reference(entry, i) for i, entry in enumerate(entries)]


# ------------------------------------------------------------------------------------------ citations

def find_citations(sentences: Iterable[tuple[int, str]], references: Sequence[Reference]) -> list[Citation]:
    """The citations in (index, text) sentences, each with the entries it names."""
    by_number = {r.number: r.index for r in references if r.number is not None}
    found: list[Citation] = []
    for index, text in sentences:
        for match in NUMBERED.finditer(text):
            numbers = _numbers(match.group(1))
            found.append(Citation(sentence=index, text=match.group(0),
                                  references=tuple(by_number[n] for n in numbers if n in by_number)))
        cited = [(m.group(1), int(m.group(2)), m.group(3) or "", m.group(0))
                 for bracket in BRACKETED.finditer(text) for part in re.split(r"[;；]", bracket.group(1))
                 for m in IN_BRACKET.finditer(part)]
        cited += [(m.group(1), int(m.group(2)), m.group(3) or "", m.group(0)) for m in NARRATIVE.finditer(text)]
        seen: set[str] = set()
        for authors, year, letter, written in cited:
            if written in seen:
                continue
            seen.add(written)
            found.append(Citation(sentence=index, text=written.strip(),
                                  references=tuple(r.index for r in references
                                                   if _same_author(authors, r.first_author) and r.year == year
                                                   and (not letter or r.letter == letter))))
    return found


def _numbers(spec: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"\s*,\s*", spec):
        if found := re.match(r"(\d+)\s*[-–]\s*(\d+)", part):
            low, high = int(found.group(1)), int(found.group(2))
            out += list(range(low, high + 1)) if 0 <= high - low <= 50 else [low, high]
        elif part.strip().isdigit():
            out.append(int(part))
    return out


def _same_author(cited: str, first_author: str) -> bool:
    """Whether a citation's authors ('Smith et al.', '张三等') start with the reference's first author."""
    if not first_author:
        return False
    head = re.split(r"\s+(?:et\s+al\.?|and|&)\s*|等|和", cited.strip())[0].strip()
    return _fold(head) == _fold(first_author)


# ------------------------------------------------------------------------------------------ matching

def match_references(references: Sequence[Reference], works: Sequence[Work],
                     threshold: float = TITLE_MATCH) -> list[Match]:
    """Each reference's library document: by Zotero key, then DOI, then title, then first author and year (see the
    module's docstring); a reference with none is unmatched (``found`` False)."""
    by_key = {w.key: w for w in works if w.key}
    by_doi = {w.doi.lower(): w for w in works if w.doi}
    found: dict[int, Match] = {}
    for ref in references:
        if ref.zotero_key and (work := by_key.get(ref.zotero_key)) is not None:
            found[ref.index] = Match(reference=ref.index, doc_id=work.doc_id, how="zotero key", score=1.0,
                                     title=work.title)
            continue
        if ref.doi and (work := by_doi.get(ref.doi)) is not None:
            found[ref.index] = Match(reference=ref.index, doc_id=work.doc_id, how="doi", score=1.0, title=work.title)
            continue
        # the best title; of equal ones, the nearest year (two editions); a PDF's year may be its file's, so a
        # year further off does not refuse a match
        scored = sorted(((title_overlap(ref.title, w.title), w) for w in works if ref.title and w.title
                         and _same_numbers(ref.title, w.title)),
                        key=lambda pair: (-pair[0], abs((ref.year or 0) - (pair[1].year or 0))))
        if scored and scored[0][0] >= threshold:
            score, work = scored[0]
            found[ref.index] = Match(reference=ref.index, doc_id=work.doc_id, how="title", score=round(score, 3),
                                     title=work.title)
    # first author and year, last: only for an entry no other entry shares them with (2020a and 2020b are two
    # works: neither can be told apart by them), and only a document no entry was matched to already
    taken = {m.doc_id for m in found.values()}
    for ref in references:
        if ref.index in found or not ref.first_author or ref.year is None:
            continue
        siblings = [r for r in references if r.index != ref.index and r.year == ref.year
                    and _fold(r.first_author) == _fold(ref.first_author)]
        same = [w for w in works if w.doc_id not in taken and w.year == ref.year
                and _fold(ref.first_author) in {_fold(a) for a in _surnames(w.authors)}
                and (not ref.title or not w.title or title_overlap(ref.title, w.title) >= AUTHOR_YEAR_TITLE)]
        if not siblings and len(same) == 1:
            found[ref.index] = Match(reference=ref.index, doc_id=same[0].doc_id, how="author and year", score=0.6,
                                     title=same[0].title)
            taken.add(same[0].doc_id)
    return [found.get(ref.index) or Match(reference=ref.index) for ref in references]


def _same_numbers(a: str, b: str) -> bool:
    """Whether two titles' numbers agree where both have some ('中国统计年鉴2022' is not '中国统计年鉴2021')."""
    left, right = set(re.findall(r"\d+", _fold(a))), set(re.findall(r"\d+", _fold(b)))
    return not left or not right or left == right


def title_overlap(a: str, b: str) -> float:
    """The smaller of the shares of each title's words (Chinese: characters) found in the other; 0 for none."""
    left, right = _words(a), _words(b)
    if not left or not right:
        return 0.0
    common = len(left & right)
    return min(common / len(left), common / len(right))


def title_share(title: str, text: str) -> float:
    """The share of ``title``'s words (Chinese: characters) that ``text`` holds; 0 for a title without any."""
    words = _words(title)
    return len(words & _words(text)) / len(words) if words else 0.0


STOP = frozenset({"the", "a", "an", "of", "and", "in", "on", "for", "to", "with", "by", "from", "at", "or"})


def _words(text: str) -> set[str]:
    """A title's words: Latin words less the little ones, and for Chinese each pair of neighbouring characters (one
    character alone says little: 乡村旅游 and 乡村振兴 share two)."""
    folded = _fold(text)
    words = set(re.findall(r"[^\W_]+", re.sub(f"[{HAN}]+", " ", folded))) - STOP
    for run in re.findall(f"[{HAN}]+", folded):
        words |= {run[i:i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}
    return words


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _surnames(authors: str) -> list[str]:
    """The surnames in a document's author line ('Smith, J.; Lee, K.' or 'J. Smith, K. Lee' or '张三, 李四')."""
    out: list[str] = []
    for part in re.split(r"[;；,，、]|\band\b|&", authors):
        words = [w for w in re.findall(rf"[A-Za-z'’\-]+|[{HAN}]{{2,4}}", part) if len(w) > 1 or re.match(f"[{HAN}]", w)]
        if words:
            out.append(words[-1] if not re.match(f"[{HAN}]", words[0]) and len(words) > 1 else words[0])
    return out
