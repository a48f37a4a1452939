"""Any report as PDF, written from its ``Document`` (``to_pdf``): the document's HTML laid out by PyMuPDF's Story,
then real link annotations added where the layout placed each link (a go-to-remote link that opens
``sources/E3-p4.pdf`` at the highlighted page, a text excerpt beside the report, or a go-to link within the report),
an outline of the sections, a footer with page numbers, and the document's metadata.

Chinese, Japanese and Korean text comes out as real text: MuPDF takes the glyphs the body font lacks from its built-in
CJK font (Droid Sans Fallback), which is embedded, and the footer embeds the same font when its wording is CJK. That
font is 3.5 MB whole, so a report with CJK text has its fonts cut down to the glyphs it uses. The layout, the links,
the footer and the outline are ``pdf_layout``'s."""

from __future__ import annotations

from pathlib import Path

from courtroom_desktop.core.reports.document import Document
from courtroom_desktop.core.reports.html_writer import PDF_CSS, to_html
from courtroom_desktop.core.reports.pdf_layout import LaidOut
from courtroom_desktop.core.reports.record import Audience, TrialRecord

PAPER = "a4"
MARGINS = (50.0, 48.0, -50.0, -56.0)  # left, top, right, bottom (negative: inset from the far edge)
LANDSCAPE_MARGINS = (40.0, 40.0, -40.0, -46.0)


def to_pdf(document: Document, base: Path | None = None) -> bytes:
    """``document`` laid out on A4 pages (landscape where it asks for it); ``base``: the report's folder, where its
    highlighted page images lie."""
    body, images = to_html(document, "pdf", base)
    if document.landscape:
        laid = LaidOut(body, PDF_CSS, "a4-l", LANDSCAPE_MARGINS, images)
    else:
        laid = LaidOut(body, PDF_CSS, PAPER, MARGINS, images)
    try:
        laid.add_links()
        laid.add_footer(document.footer, document.page_of)
        laid.add_outline()
    except BaseException:
        laid.close()
        raise
    return laid.finish({"title": document.title, "author": "Courtroom Desktop", "producer": "Courtroom Desktop",
                        **document.pdf_meta})


def write_document(document: Document, path: Path) -> Path:
    """A PDF at ``path``; its links open the annotated copies in ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(to_pdf(document, path.parent))
    return path


def render_pdf(record: TrialRecord, audience: Audience = "general", base: Path | None = None) -> bytes:
    """A trial's report (``trial_document``) as PDF."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return to_pdf(trial_document(record, audience), base)


def write_pdf(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A PDF report at ``path``; its links open the annotated copies in ``path.parent / 'sources'``."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return write_document(trial_document(record, audience), path)
