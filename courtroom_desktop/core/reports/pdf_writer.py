"""The report as PDF: the HTML content laid out by PyMuPDF's Story, then real link annotations added where the
layout placed each link: a go-to-remote link that opens ``sources/E3-p4.pdf`` at the highlighted page, or a go-to
link within the report. Plus an outline of the sections, page numbers and document metadata.

Chinese, Japanese and Korean text comes out as real text: MuPDF takes the glyphs the body font lacks from its built-in
CJK font (Droid Sans Fallback), which is embedded, and the footer embeds the same font when its wording is CJK. That
font is 3.5 MB whole, so a report with CJK text has its fonts cut down to the glyphs it uses. The layout, the links,
the footer and the outline are ``pdf_layout``'s, shared with the draft check's report."""

from __future__ import annotations

from pathlib import Path

from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.html_writer import PDF_CSS, render_html
from courtroom_desktop.core.reports.pdf_layout import LaidOut
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.view import say

PAPER = "a4"
MARGINS = (50.0, 48.0, -50.0, -56.0)  # left, top, right, bottom (negative: inset from the far edge)


def render_pdf(record: TrialRecord, audience: Audience = "general", base: Path | None = None) -> bytes:
    body, images = render_html(record, audience, "pdf", base)
    laid = LaidOut(body, PDF_CSS, PAPER, MARGINS, images)
    try:
        laid.add_links()
        title = view.report_title(record)
        footer = say(record, "footer", title=title if view.language(record) != "en" else title.lower(), id=record.trial_id)
        laid.add_footer(footer, lambda page, pages: say(record, "page_of", page=page, pages=pages))
        laid.add_outline()
    except BaseException:
        laid.close()
        raise
    return laid.finish({
        "title": view.report_title(record) + say(record, "colon") + view.excerpt(record.spec.claim, 100),
        "author": "Courtroom Desktop", "creator": f"Courtroom Desktop {record.app_version}",
        "producer": "Courtroom Desktop", "subject": f"trial {record.trial_id}",
        "keywords": record.verdict.label.value if record.verdict else say(record, "no_verdict_kw")})


def write_pdf(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A PDF report at ``path``; its links open the annotated copies in ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render_pdf(record, audience, path.parent))
    return path
