"""The report as PDF: the HTML content laid out by PyMuPDF's Story, then real link annotations added where the
layout placed each link: a go-to-remote link that opens ``sources/E3-p4.pdf`` at the highlighted page, or a go-to
link within the report. Plus an outline of the sections, page numbers and document metadata.

Chinese, Japanese and Korean text comes out as real text: MuPDF takes the glyphs the body font lacks from its built-in
CJK font (Droid Sans Fallback), which is embedded, and the footer embeds the same font when its wording is CJK. That
font is 3.5 MB whole, so a report with CJK text has its fonts cut down to the glyphs it uses."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote

from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.html_writer import PDF_CSS, render_html
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.view import say
from courtroom_desktop.core.text import has_cjk

PAPER = "a4"
MARGINS = (50, 48, -50, -56)  # left, top, right, bottom (negative: inset from the far edge)


class _Position(Protocol):
    """What the layout tells of each element it placed (PyMuPDF's ``ElementPosition``, whose attributes are set at
    run time)."""

    @property
    def open_close(self) -> int: ...
    @property
    def rect(self) -> tuple[float, float, float, float]: ...
    @property
    def href(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def heading(self) -> int: ...
    @property
    def text(self) -> str: ...


def _target(href: str) -> tuple[str, int] | None:
    """'sources/E3-p4.pdf#page=2' -> ('sources/E3-p4.pdf', 1): file and 0-based page; None for anything else."""
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


def render_pdf(record: TrialRecord, audience: Audience = "general", base: Path | None = None) -> bytes:
    import pymupdf

    body, images = render_html(record, audience, "pdf", base)
    archive = pymupdf.Archive()  # type: ignore[no-untyped-call]
    for name, data in images.items():
        archive.add(data, name)  # type: ignore[no-untyped-call]
    story = pymupdf.Story(html=body, user_css=PDF_CSS, archive=archive)  # type: ignore[no-untyped-call]
    mediabox = pymupdf.paper_rect(PAPER)
    where = mediabox + MARGINS
    links: list[tuple[int, str, pymupdf.Rect]] = []
    anchors: dict[str, tuple[int, pymupdf.Rect]] = {}
    headings: list[tuple[int, str, int, float]] = []
    page_number = 0

    def collect(position: _Position) -> None:
        if not position.open_close & 1:
            return
        rect = pymupdf.Rect(position.rect)  # type: ignore[no-untyped-call]
        if position.href:
            links.append((page_number, position.href, rect))
        if position.id and position.id not in anchors:
            anchors[position.id] = (page_number, rect)
        if position.heading in (1, 2, 3) and position.text:
            headings.append((position.heading, view.one_line(position.text), page_number, rect.y0))

    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)  # type: ignore[no-untyped-call]
    more = True
    while more:
        device = writer.begin_page(mediabox)  # type: ignore[no-untyped-call]
        more, _ = story.place(where)  # type: ignore[no-untyped-call]
        story.element_positions(collect)  # type: ignore[no-untyped-call]
        story.draw(device)  # type: ignore[no-untyped-call]
        writer.end_page()  # type: ignore[no-untyped-call]
        page_number += 1
    writer.close()  # type: ignore[no-untyped-call]

    doc = pymupdf.open("pdf", buffer.getvalue())  # type: ignore[no-untyped-call]
    try:
        for number, href, rect in links:
            page = doc[number]
            if href.startswith("#"):
                target = anchors.get(href[1:])
                if target is not None:
                    page.insert_link({"kind": pymupdf.LINK_GOTO, "from": rect, "page": target[0],
                                      "to": pymupdf.Point(target[1].x0, target[1].y0), "zoom": 0})  # type: ignore[no-untyped-call]
                continue
            file = unquote(href.partition("#")[0])
            if file.startswith("sources/") and file.endswith(".html") and ".." not in file:  # a text excerpt
                page.insert_link({"kind": pymupdf.LINK_LAUNCH, "from": rect, "file": file})
                continue
            remote = _target(href)
            if remote is not None:
                page.insert_link({"kind": pymupdf.LINK_GOTOR, "from": rect, "file": remote[0], "page": remote[1],
                                  "to": pymupdf.Point(0, 0), "zoom": 0})  # type: ignore[no-untyped-call]
        total = doc.page_count
        title = view.report_title(record)
        footer = say(record, "footer", title=title if view.language(record) != "en" else title.lower(), id=record.trial_id)
        cjk = has_cjk(footer)
        # CJK wording: MuPDF's CJK font, embedded through a TextWriter (insert_text would only name "china-s" for the
        # viewer to find, and measures every glyph of the font first)
        font = pymupdf.Font("cjk") if cjk else None  # type: ignore[no-untyped-call]
        for page in doc.pages():
            y = page.rect.height - 28
            label = say(record, "page_of", page=page.number + 1, pages=total)
            if font is not None:
                text_writer = pymupdf.TextWriter(page.rect, color=(0.4, 0.4, 0.4))  # type: ignore[no-untyped-call]
                text_writer.append((MARGINS[0], y), footer, font=font, fontsize=7.5)  # type: ignore[no-untyped-call]
                text_writer.append((page.rect.width + MARGINS[2] - font.text_length(label, fontsize=7.5), y), label, font=font,  # type: ignore[no-untyped-call]
                              fontsize=7.5)
                page.wrap_contents()  # type: ignore[no-untyped-call]  # the layout leaves its coordinate transform in force
                text_writer.write_text(page)  # type: ignore[no-untyped-call]
                continue
            page.insert_text((MARGINS[0], y), footer, fontsize=7.5, fontname="helv", color=(0.4, 0.4, 0.4))
            width = pymupdf.get_text_length(label, fontname="helv", fontsize=7.5)
            page.insert_text((page.rect.width + MARGINS[2] - width, y), label, fontsize=7.5, fontname="helv",
                             color=(0.4, 0.4, 0.4))
        toc = [[max(1, level - 1), text[:120], number + 1, {"kind": pymupdf.LINK_GOTO, "page": number,
                                                             "to": pymupdf.Point(0, y0)}]  # type: ignore[no-untyped-call]
               for level, text, number, y0 in headings if level >= 2]
        if toc:
            toc[0][0] = 1
            doc.set_toc(toc)
        doc.set_metadata({"title": view.report_title(record) + say(record, "colon") + view.excerpt(record.spec.claim, 100),
                          "author": "Courtroom Desktop", "creator": f"Courtroom Desktop {record.app_version}",
                          "producer": "Courtroom Desktop", "subject": f"trial {record.trial_id}",
                          "keywords": record.verdict.label.value if record.verdict else say(record, "no_verdict_kw")})
        if cjk or has_cjk(body):
            doc.subset_fonts()  # the CJK font whole would add 1.7 MB (compressed) to the file
        pdf: bytes = doc.tobytes(garbage=3, deflate=True)  # type: ignore[no-untyped-call]
        return pdf
    finally:
        doc.close()  # type: ignore[no-untyped-call]


def write_pdf(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A PDF report at ``path``; its links open the annotated copies in ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render_pdf(record, audience, path.parent))
    return path
