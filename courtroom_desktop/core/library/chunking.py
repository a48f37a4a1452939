"""Sections -> chunks: split at paragraph boundaries to a token budget, never mid-sentence, with a small overlap;
tiny sections merge with a neighbour. Every chunk keeps its character span, so its rectangles come for free."""

from __future__ import annotations

import re
from dataclasses import dataclass

from courtroom_desktop.core.library.read.extracted import ExtractedDoc, SectionMark
from courtroom_desktop.core.records import Chunk
from courtroom_desktop.core.text import SENTENCE_END, TOKEN, count_tokens

ABBREVIATIONS = re.compile(r"(\b(e\.g|i\.e|et al|Fig|Figs|Eq|vs|cf|approx|Dr|Mr|Ms|No|Vol|pp|ca)\.|\b[A-Z]\.)$")
__all__ = ["chunk_document", "count_tokens", "sections"]


@dataclass
class Section:
    path: str
    start: int
    end: int


def sections(doc: ExtractedDoc) -> list[Section]:
    """Turn heading marks into spans of the text; the text before the first heading is its own section."""
    marks = sorted(doc.headings, key=lambda m: m.char)
    result: list[Section] = []
    stack: list[SectionMark] = []
    first = _heading_start(doc, marks[0], marks[0].char) if marks else len(doc.text)
    if doc.text[:first].strip():
        result.append(Section("", 0, first))
    for index, mark in enumerate(marks):
        while stack and stack[-1].level >= mark.level:
            stack.pop()
        stack.append(mark)
        end = marks[index + 1].char if index + 1 < len(marks) else len(doc.text)
        # the next heading's own lines lie before its mark: stop the body where the heading starts (all of it, when
        # it wraps onto several lines), else at the start of its last line
        if index + 1 < len(marks):
            end = _heading_start(doc, marks[index + 1], end)
        result.append(Section(" > ".join(m.title for m in stack), mark.char, max(mark.char, end)))
    return result


def _heading_start(doc: ExtractedDoc, mark: SectionMark, fallback: int) -> int:
    """Where a heading's own text starts: its first line (all of it belongs to its section, when it wraps onto
    several lines), else the start of the line its mark ends."""
    return mark.start if mark.start >= 0 else _heading_line_start(doc, mark, fallback)


def _heading_line_start(doc: ExtractedDoc, mark: SectionMark, fallback: int) -> int:
    position = min(mark.char, len(doc.text)) - 1
    if position < 0:
        return 0
    line = doc.line_of[position]
    while position > 0 and doc.line_of[position - 1] == line:
        position -= 1
    return position if line >= 0 else fallback


def _sentences(text: str, base: int) -> list[tuple[int, int]]:
    spans = []
    start = 0
    for match in SENTENCE_END.finditer(text):
        if ABBREVIATIONS.search(text[start:match.start()]):
            continue
        spans.append((base + start, base + match.start()))
        start = match.end()
    if text[start:].strip():
        spans.append((base + start, base + len(text.rstrip())))
    return spans


def _units(doc: ExtractedDoc, section: Section, budget: int) -> list[tuple[int, int, bool]]:
    """Paragraphs, or sentences of paragraphs over budget, as (start, end, starts_paragraph)."""
    units = []
    breaks = [b for b in doc.paragraph_breaks if section.start < b < section.end]
    bounds = [section.start, *breaks, section.end]
    for start, end in zip(bounds, bounds[1:]):
        piece = doc.text[start:end]
        lead = len(piece) - len(piece.lstrip())
        start, piece = start + lead, piece.strip()
        if not piece:
            continue
        if count_tokens(piece) <= budget:
            units.append((start, start + len(piece), True))
            continue
        for index, (s, e) in enumerate(_sentences(piece, start)):
            text = doc.text[s:e]
            if count_tokens(text) <= budget:
                units.append((s, e, index == 0))
                continue
            # a "sentence" over budget (a table, a list with no full stops): cut between words (CJK: characters)
            words = [(m.start() + s, m.end() + s) for m in TOKEN.finditer(text)]
            step = max(1, int(budget * 0.6))
            for w in range(0, len(words), step):
                group = words[w:w + step]
                units.append((group[0][0], group[-1][1], index == 0 and w == 0))
    return units


def chunk_document(doc: ExtractedDoc, doc_id: str, budget: int, overlap: int, min_section: int) -> list[Chunk]:
    spans: list[tuple[str, int, int]] = []
    pending: tuple[str, int, int] | None = None  # a tiny section waiting to merge with the next one
    for section in sections(doc):
        units = _units(doc, section, budget)
        if not units:
            continue
        if pending:
            units = [(pending[1], pending[2], True), *units]
        tokens = sum(count_tokens(doc.text[s:e]) for s, e, _ in units)
        if tokens < min_section:
            pending = (pending[0] if pending else section.path, units[0][0], units[-1][1])
            continue
        path = section.path
        if pending and count_tokens(doc.text[pending[1]:pending[2]]) > tokens / 2:
            path = pending[0]  # the merged chunk is named after its larger part
        pending = None
        spans.extend((path, s, e) for s, e in _pack(doc, units, budget, overlap))
    if pending:
        if spans and spans[-1][0] and count_tokens(doc.text[spans[-1][1]:pending[2]]) <= budget * 1.5:
            path, start, _ = spans.pop()  # a tiny last section joins the previous chunk
            spans.append((path, start, pending[2]))
        else:
            spans.append(pending)
    chunks = []
    for ordinal, (path, start, end) in enumerate(spans):
        highlights = doc.highlights(start, end)
        pages = [h.page for h in highlights] or [doc.page_of(start)]
        chunks.append(Chunk(
            id=f"{doc_id}-{ordinal:04d}", doc_id=doc_id, ordinal=ordinal, section_path=path,
            page_start=min(pages), page_end=max(pages), char_start=start, char_end=end,
            text=doc.text[start:end], highlights=highlights, ocr_confidence=doc.ocr_confidence(start, end),
        ))
    return chunks


def _pack(doc: ExtractedDoc, units: list[tuple[int, int, bool]], budget: int, overlap: int) -> list[tuple[int, int]]:
    """Greedy packing of units into spans of at most ``budget`` tokens; each span after the first starts with
    the last sentences of the previous one (up to ``overlap`` tokens)."""
    sizes = [count_tokens(doc.text[s:e]) for s, e, _ in units]
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(units):
        total, end_index = 0, index
        while end_index < len(units) and (total + sizes[end_index] <= budget or end_index == index):
            total += sizes[end_index]
            end_index += 1
        start = units[index][0]
        if spans and overlap:
            start = _overlap_start(doc, units[index][0], spans[-1][0], overlap, budget - total)
        spans.append((start, units[end_index - 1][1]))
        index = end_index
    return spans


def _overlap_start(doc: ExtractedDoc, start: int, previous_start: int, overlap: int, room: int) -> int:
    """Move ``start`` back over whole sentences of the previous chunk while they fit in the overlap and the room left."""
    allowed = min(overlap, room)
    if allowed <= 0:
        return start
    sentences = _sentences(doc.text[previous_start:start], previous_start)
    chosen = start
    used = 0
    for s, e in reversed(sentences):
        cost = count_tokens(doc.text[s:e])
        if used + cost > allowed:
            break
        used += cost
        chosen = s
    return chosen
