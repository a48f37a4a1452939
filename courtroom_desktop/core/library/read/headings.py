"""Sections of an extracted PDF: from its outline when there is one, else from headings found by type size, weight
and numbering (English and Chinese numbering: 2, 2.1, III., 第一章, 一、, （一）). A heading belongs wholly to its own
section, also when it wraps onto two lines."""

from __future__ import annotations

import re
from typing import Any

from courtroom_desktop.core.library.read.extracted import ExtractedDoc, Line, SectionMark

KNOWN_HEADINGS = {
    "abstract", "summary", "introduction", "background", "methods", "method", "materials and methods",
    "methodology", "results", "findings", "discussion", "conclusion", "conclusions", "limitations",
    "references", "bibliography", "acknowledgements", "acknowledgments", "appendix", "related work",
    "evaluation", "experiments", "results and discussion", "funding", "recommendations", "overview",
    "摘要", "引言", "前言", "背景", "研究背景", "方法", "研究方法", "材料与方法", "结果", "讨论", "结论", "结论与展望",
    "总结", "参考文献", "致谢", "附录", "局限性", "概述", "小结",
}
NUMBERED = re.compile(
    r"^(?P<num>(\d+(\.\d+)*\.?|[IVX]+\.|[A-H]\.))\s+(?P<title>\S.*)$"
    # Chinese: 第一章 / 第1节 / 一、 / （一） / 1、 (no space needed after them)
    r"|^(?P<zh>第[一二三四五六七八九十百零〇\d]+[章节篇部分条]|[一二三四五六七八九十]+[、．.]|[（(][一二三四五六七八九十\d]+[)）]"
    r"|\d+(\.\d+)*[、．])\s*(?P<zh_title>\S.*)$")
LETTER = re.compile(r"[A-Za-z\u3400-\u4dbf\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]")
CJK_END = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af\uff00-\uffef]$")
CJK_START = re.compile(r"^[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af\uff00-\uffef]")


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _line_starts(doc: ExtractedDoc) -> dict[int, int]:
    starts: dict[int, int] = {}
    for offset, line in enumerate(doc.line_of):
        if line >= 0 and line not in starts:
            starts[line] = offset
    return starts


def _line_end(doc: ExtractedDoc, line_index: int, line_starts: dict[int, int]) -> int:
    return line_starts[line_index] + len(doc.lines[line_index].text)


def _headings_from_outline(doc: ExtractedDoc, toc: list[list[Any]], line_starts: dict[int, int]) -> list[SectionMark]:
    marks: list[SectionMark] = []
    by_page: dict[int, list[int]] = {}
    for index, line in enumerate(doc.lines):
        by_page.setdefault(line.page, []).append(index)
    cursor = 0  # outline entries are in reading order: never look behind the previous heading
    for level, title, page in toc:
        page_index = max(0, min(int(page) - 1, doc.pages - 1))
        wanted = _normalise(title)
        found = None
        page_lines = by_page.get(page_index, [])
        for line_index in page_lines:
            if line_starts[line_index] < cursor:
                continue
            text = _normalise(doc.lines[line_index].text)
            if not text or not wanted:
                continue
            if text == wanted or text.startswith(wanted):
                found = line_index
                break
            # a long heading wraps, sometimes onto the next page: join the following lines while they continue it
            following = list(range(line_index + 1, min(line_index + 6, len(doc.lines))))
            while len(text) >= (8 if not CJK_END.search(text) else 3) and wanted.startswith(text) and following:
                found = following[0]
                text = _normalise(_joined(text, doc.lines[found].text))
                following = following[1:]
                if text == wanted:
                    break
            if text == wanted:
                break
            found = None
        start = -1
        if found is not None:
            char, start = _line_end(doc, found, line_starts), line_starts[line_index]
        else:
            page_lines = [i for i in by_page.get(page_index, []) if line_starts[i] >= cursor]
            char = line_starts[page_lines[0]] if page_lines else cursor
        cursor = max(cursor, char)
        marks.append(SectionMark(level=max(1, int(level)), title=title.strip(), char=char, page=page_index,
                                 start=start))
    return marks


def _joined(first: str, second: str) -> str:
    """Two lines of one heading as one: a space between them, none where CJK text wraps."""
    return first + ("" if CJK_END.search(first) and CJK_START.match(second.strip()) else " ") + second.strip()


def heading_title(text: str) -> str:
    """A heading without its number: '2.1 Methods' -> 'Methods', '一、引言' -> '引言'."""
    match = NUMBERED.match(text.strip())
    if not match:
        return text.strip()
    return (match.group("title") or match.group("zh_title") or "").strip()


def _heading_level(title: str, size_rank: int) -> int:
    match = NUMBERED.match(title)
    if match and match.group("num") and match.group("num")[0].isdigit():
        return match.group("num").rstrip(".").count(".") + 1
    if match and match.group("zh"):
        number = match.group("zh")
        if number[0].isdigit():  # "1.2、"
            return number.rstrip("、．").count(".") + 1
        if number.startswith("第"):
            return 2 if number[-1] in "节条" else 1
        return 2 if number[0] in "（(" else 1
    return size_rank


def _headings_from_fonts(doc: ExtractedDoc, line_starts: dict[int, int]) -> list[SectionMark]:
    weights: dict[float, int] = {}
    for line in doc.lines:
        weights[round(line.size, 1)] = weights.get(round(line.size, 1), 0) + len(line.text)
    if not weights:
        return []
    body = max(weights, key=lambda size: weights[size])
    candidates: list[tuple[int, Line]] = []
    for index, line in enumerate(doc.lines):
        text = line.text.strip()
        words = text.split()
        if not words or len(text) > 90 or len(words) > 12 or text.endswith((".", ",", ";", ":", "。", "，", "；", "：")) \
                and not NUMBERED.match(text):
            continue
        if not LETTER.search(text):
            continue
        bigger = line.size >= body * 1.15
        known = _normalise(heading_title(text)) in KNOWN_HEADINGS or _normalise(text) in KNOWN_HEADINGS
        match = NUMBERED.match(text)
        # CJK fonts rarely come in bold: a Chinese-numbered line (一、 （一） 第二章) a little larger than the body will do
        cjk = match is not None and bool(match.group("zh") or CJK_START.match(heading_title(text)))
        numbered = bool(match) and (line.bold or bigger or cjk and line.size >= body * 1.05)
        # a line is a heading if it stands out (bigger, or bold and alone in its block) or is numbered/known
        alone = _alone_in_block(doc, index)
        if bigger and alone or (line.bold and alone and (known or numbered or line.size >= body)) or numbered or (known and alone):
            candidates.append((index, line))
    if not candidates:
        return []
    # the first page's title (largest text) is the document title, not a section
    sizes = sorted({round(line.size, 1) for _, line in candidates}, reverse=True)
    marks: list[SectionMark] = []
    taken: set[int] = set()
    for index, line in candidates:
        if index in taken:
            continue
        # a heading that wraps continues on the next lines in the same type, just below
        last, title = index, line.text.strip()
        while last + 1 < len(doc.lines) and _continues(doc.lines[last], doc.lines[last + 1]):
            last += 1
            title = _joined(title, doc.lines[last].text)
            taken.add(last)
        if line.page == 0 and round(line.size, 1) == sizes[0] and len(sizes) > 1 and not NUMBERED.match(line.text):
            continue
        rank = sizes.index(round(line.size, 1)) + 1
        level = _heading_level(title, max(1, rank - (1 if len(sizes) > 1 else 0)))
        marks.append(SectionMark(level=level, title=title, char=_line_end(doc, last, line_starts), page=line.page,
                                 start=line_starts[index]))
    return marks


def _continues(line: Line, following: Line) -> bool:
    """Is ``following`` (the next line in reading order) the rest of the heading ``line``? Same type, and just
    below it or, when the heading straddles a page break, first on the next page."""
    adjacent = (following.page == line.page and abs(following.y0 - line.y1) < line.size * 0.6
                or following.page == line.page + 1)
    return (adjacent and round(following.size, 1) == round(line.size, 1) and following.bold == line.bold
            and len(following.text) <= 90 and not NUMBERED.match(following.text.strip()))


def _alone_in_block(doc: ExtractedDoc, index: int) -> bool:
    line = doc.lines[index]
    same = [other for other in doc.lines[max(0, index - 3): index + 4]
            if other.page == line.page and other.block == line.block and other is not line]
    return not same
