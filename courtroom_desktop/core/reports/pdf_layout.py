"""HTML laid out into PDF pages by PyMuPDF's Story, for every PDF this app writes (a trial's report, a draft check's
report): the pages, real link annotations where the layout placed each link, a footer on every page, the outline, the
metadata, behind these few typed functions. (PyMuPDF annotates few of its functions: pyproject.toml lets calls into it
go untyped once, for the whole package, instead of a type-ignore on every call.)

Links: ``#anchor`` goes to the element with that id in the same PDF; ``sources/….html`` launches a text excerpt beside
the report; ``sources/E3-p4.pdf#page=2`` opens the highlighted copy at its page (go-to-remote). Chinese, Japanese and
Korean text comes out as real text (MuPDF's built-in CJK font, embedded, cut down to the glyphs used)."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import unquote

from courtroom_desktop.core.text import has_cjk

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points


class _Position(Protocol):
    """What the layout tells of each element it placed (PyMuPDF's ``ElementPosition``, whose attributes are set at
    run time)."""

    @property
    def open_close(self) -> int: ...
    @property
    def rect(self) -> Box: ...
    @property
    def href(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def heading(self) -> int: ...
    @property
    def text(self) -> str: ...


@dataclass
class Placed:
    """Where the layout put what the finishing steps need: each link (page, href, box; a link's words on one line
    merged into one box), each element id's first place, and the headings h1 to h3 (level, text, page, top)."""

    links: list[tuple[int, str, Box]] = field(default_factory=list)
    anchors: dict[str, tuple[int, Box]] = field(default_factory=dict)
    headings: list[tuple[int, str, int, float]] = field(default_factory=list)


def remote_target(href: str) -> tuple[str, int] | None:
    """'sources/E3-p4.pdf#page=2' -> ('sources/E3-p4.pdf', 1): file and 0-based page; None for anything else (another
    scheme, an absolute path, a path out of the report's folder)."""
    file, _, fragment = href.partition("#")
    file = unquote(file)
    if not file.lower().endswith(".pdf") or "://" in file or file.startswith(("/", "\\")) or ".." in file.split("/"):
        return None
    page = 1
    if fragment.startswith("page="):
        try:
            page = max(1, int(fragment[5:]))
        except ValueError:
            page = 1
    return file, page - 1


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


class LaidOut:
    """A laid-out PDF, open until ``finish``: add its links, footer, outline and metadata, then take its bytes."""

    def __init__(self, body: str, css: str, paper: str, margins: Box, images: Mapping[str, bytes] | None = None):
        import pymupdf

        archive = pymupdf.Archive()
        for name, data in (images or {}).items():
            archive.add(data, name)
        story = pymupdf.Story(html=body, user_css=css, archive=archive)
        mediabox = pymupdf.paper_rect(paper)
        where = mediabox + margins
        self.placed = placed = Placed()
        self.margins = margins
        self.cjk = has_cjk(body)
        page_number = 0

        def collect(position: _Position) -> None:
            if not position.open_close & 1:
                return
            box: Box = tuple(position.rect)  # type: ignore[assignment]
            if position.href:
                last = placed.links[-1] if placed.links else None
                if last is not None and last[:2] == (page_number, position.href) and abs(last[2][1] - box[1]) < 1:
                    placed.links[-1] = (page_number, position.href, _union(last[2], box))  # reported word by word
                else:
                    placed.links.append((page_number, position.href, box))
            if position.id and position.id not in placed.anchors:
                placed.anchors[position.id] = (page_number, box)
            if position.heading in (1, 2, 3) and position.text:
                placed.headings.append((position.heading, " ".join(position.text.split()), page_number, box[1]))

        buffer = io.BytesIO()
        writer = pymupdf.DocumentWriter(buffer)
        more = True
        while more:
            device = writer.begin_page(mediabox)
            more, _ = story.place(where)
            story.element_positions(collect)
            story.draw(device)
            writer.end_page()
            page_number += 1
        writer.close()
        self._doc: Any = pymupdf.open("pdf", buffer.getvalue())

    @property
    def pages(self) -> int:
        return int(self._doc.page_count)

    def add_links(self, sources_dir: str = "sources") -> None:
        """A real link annotation for every link the layout placed (see the module's docstring)."""
        import pymupdf

        for number, href, box in self.placed.links:
            page = self._doc[number]
            rect = pymupdf.Rect(box)
            if href.startswith("#"):
                target = self.placed.anchors.get(href[1:])
                if target is not None:
                    page.insert_link({"kind": pymupdf.LINK_GOTO, "from": rect, "page": target[0],
                                      "to": pymupdf.Point(target[1][0], target[1][1]), "zoom": 0})
                continue
            file = unquote(href.partition("#")[0])
            if file.startswith(f"{sources_dir}/") and file.endswith(".html") and ".." not in file:  # a text excerpt
                page.insert_link({"kind": pymupdf.LINK_LAUNCH, "from": rect, "file": file})
                continue
            remote = remote_target(href)
            if remote is not None:
                page.insert_link({"kind": pymupdf.LINK_GOTOR, "from": rect, "file": remote[0], "page": remote[1],
                                  "to": pymupdf.Point(0, 0), "zoom": 0})

    def add_footer(self, left: str, right: Callable[[int, int], str], fontsize: float = 7.5,
                   from_bottom: float = 28) -> None:
        """``left`` and ``right(page, pages)`` (1-based) at the foot of every page, grey. CJK wording is set in MuPDF's
        CJK font, embedded through a TextWriter (insert_text would only name "china-s" for the viewer to find)."""
        import pymupdf

        total = self.pages
        cjk = has_cjk(left) or has_cjk(right(total, total))
        self.cjk = self.cjk or cjk
        font = pymupdf.Font("cjk") if cjk else None
        x_left, x_right = self.margins[0], self.margins[2]
        for page in self._doc.pages():
            y = page.rect.height - from_bottom
            label = right(page.number + 1, total)
            if font is not None:
                text = pymupdf.TextWriter(page.rect, color=(0.4, 0.4, 0.4))
                text.append((x_left, y), left, font=font, fontsize=fontsize)
                width = font.text_length(label, fontsize=fontsize)
                text.append((page.rect.width + x_right - width, y), label, font=font, fontsize=fontsize)
                page.wrap_contents()  # the layout leaves its coordinate transform in force
                text.write_text(page)
                continue
            page.insert_text((x_left, y), left, fontsize=fontsize, fontname="helv", color=(0.4, 0.4, 0.4))
            width = pymupdf.get_text_length(label, fontname="helv", fontsize=fontsize)
            page.insert_text((page.rect.width + x_right - width, y), label, fontsize=fontsize, fontname="helv",
                             color=(0.4, 0.4, 0.4))

    def add_outline(self, levels: tuple[int, ...] = (2, 3)) -> None:
        """The PDF's outline from the headings of ``levels`` (the first becomes the top level)."""
        import pymupdf

        toc = [[max(1, level - 1), text[:120], number + 1,
                {"kind": pymupdf.LINK_GOTO, "page": number, "to": pymupdf.Point(0, top)}]
               for level, text, number, top in self.placed.headings if level in levels]
        if toc:
            toc[0][0] = 1
            self._doc.set_toc(toc)

    def finish(self, metadata: Mapping[str, str]) -> bytes:
        """The PDF's bytes, with ``metadata`` (title, author, ...); CJK fonts cut down to the glyphs used (whole, the
        CJK font would add 1.7 MB compressed). Closes the document."""
        try:
            self._doc.set_metadata(dict(metadata))
            if self.cjk:
                self._doc.subset_fonts()
            data: bytes = self._doc.tobytes(garbage=3, deflate=True)
            return data
        finally:
            self._doc.close()

    def close(self) -> None:
        self._doc.close()
