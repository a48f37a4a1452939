"""A report before it has a format: headings, paragraphs, lists, tables, boxes, quotes and images, their text as
spans (plain, bold, a link). Every report this app writes (a trial's, a decision's memo, a draft check's) is built as
one ``Document`` (``trial_document``, ``core.check.report``), and every format is written once, from the document:
``md_writer.to_markdown``, ``html_writer.to_html``, ``pdf_writer.to_pdf`` (the HTML laid out on pages).

All text in a document is text, never markup: the writers escape every span, so a passage or a model's words can
open no tag, link or block of their own. The only links are the ones a builder makes (``Link``), to the highlighted
copies it wrote beside the report or to an anchor in it; ``css`` names are the writers' styles, not data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from courtroom_desktop.core.text import CITATION


@dataclass(frozen=True)
class Text:
    """Text as it stands; ``bold``, ``italic`` and a ``css`` class ('label', 'small', 'note') only style it."""

    text: str
    bold: bool = False
    italic: bool = False
    css: str = ""


@dataclass(frozen=True)
class Link:
    """A link the builder made: to a highlighted copy beside the report, an anchor ('#E3') or a Zotero item."""

    text: str
    href: str
    title: str = ""
    css: str = ""


@dataclass(frozen=True)
class Break:
    """A line break within a paragraph or a cell."""


Span = Text | Link | Break
Spans = tuple[Span, ...]


@dataclass(frozen=True)
class Heading:
    level: int  # 1 to 3
    spans: Spans
    id: str = ""  # an anchor the report links to


@dataclass(frozen=True)
class Para:
    spans: Spans
    css: str = ""  # 'small', 'meta', 'claim', 'note', 'warning'


@dataclass(frozen=True)
class Items:
    """A list; ``empty`` is said instead when it has no item."""

    items: tuple[Spans, ...]
    ordered: bool = False
    empty: str = ""


@dataclass(frozen=True)
class Row:
    cells: tuple[Spans, ...]
    id: str = ""
    css: tuple[str, ...] = ()  # per cell; () for none


@dataclass(frozen=True)
class Table:
    head: tuple[str, ...]
    rows: tuple[Row, ...]
    css: str = ""  # 'meta': a table of names and values


@dataclass(frozen=True)
class Quote:
    """Text quoted from a document, paragraph by paragraph."""

    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class Image:
    """An image file beside the report (``path`` relative to its folder: a highlighted page)."""

    path: str
    alt: str
    caption: str = ""


@dataclass(frozen=True)
class Chart:
    """A chart drawn as SVG: a file beside a Markdown report, inline in a web page, a picture in a PDF."""

    svg: str
    alt: str


@dataclass(frozen=True)
class Box:
    """Blocks that belong together (the verdict, a passage's card, a turn of the debate); ``css`` styles them
    ('verdict v-supported', 'passage', 'turn against', 'ruling', 'switch')."""

    blocks: tuple[Block, ...]
    css: str = ""
    id: str = ""


Block = Heading | Para | Items | Table | Quote | Image | Chart | Box


@dataclass
class Document:
    """A whole report: its title (the page's and the PDF's), language, blocks, and the PDF's footer and metadata."""

    title: str
    lang: str
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""
    page_of: Callable[[int, int], str] = lambda page, pages: f"{page}/{pages}"
    pdf_meta: dict[str, str] = field(default_factory=dict)
    landscape: bool = False  # a wide table (the draft check's): A4 landscape pages

    def add(self, *blocks: Block | None) -> None:
        self.blocks.extend(b for b in blocks if b is not None)


# ------------------------------------------------------------------------------------------------ building helpers
def text(value: str, bold: bool = False, italic: bool = False, css: str = "") -> Spans:
    """One span of text: ``text('x', bold=True)``."""
    return (Text(value, bold, italic, css),)


def join(parts: Iterable[Spans], separator: str) -> Spans:
    """Span runs joined by a separator of plain text."""
    out: list[Span] = []
    for n, part in enumerate(parts):
        if n:
            out.append(Text(separator))
        out.extend(part)
    return tuple(out)


def cited(text_with_citations: str, target: Callable[[str], str], title: Callable[[str], str] = lambda _: "",
          ) -> Spans:
    """Text whose '[E3]' and '[E1, E2]' citations become links to ``target(id)`` (plain text where it is '')."""
    out: list[Span] = []
    position = 0
    for match in CITATION.finditer(text_with_citations):
        if match.start() > position:
            out.append(Text(text_with_citations[position:match.start()]))
        out.extend(citation(re.findall(r"E\d+", match.group(1)), target, title))
        position = match.end()
    if position < len(text_with_citations):
        out.append(Text(text_with_citations[position:]))
    return tuple(out)


def citation(ids: Sequence[str], target: Callable[[str], str], title: Callable[[str], str] = lambda _: "") -> Spans:
    """'[E1, E2]' with each id a link to ``target(id)`` (plain where it is '')."""
    out: list[Span] = [Text("[")]
    for n, evidence_id in enumerate(ids):
        if n:
            out.append(Text(", "))
        href = target(evidence_id)
        out.append(Link(evidence_id, href, title(evidence_id), "cite") if href else Text(evidence_id))
    out.append(Text("]"))
    return tuple(out)


def plain(spans: Spans) -> str:
    """The spans' text alone (a PDF's outline, a test)."""
    return "".join(s.text if isinstance(s, Text | Link) else "\n" for s in spans)
